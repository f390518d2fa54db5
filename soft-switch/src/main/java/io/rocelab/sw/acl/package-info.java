/**
 * SONiC's ACLs in the switch pipeline: {@link io.rocelab.sw.acl.AclStage} matches the tables bound
 * to a port ({@code ACL_TABLE}, {@code ACL_RULE}), applies the winning rule's actions (drop,
 * DSCP and TC rewrite, SPAN mirroring to a {@code MIRROR_SESSION}'s {@code dst_port}) and counts
 * each rule's packets and bytes, as {@code aclshow} shows them.
 */
package io.rocelab.sw.acl;
