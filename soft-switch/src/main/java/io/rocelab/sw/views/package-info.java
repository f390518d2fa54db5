/** What the switch's show commands share: the order and layout sonic-utilities gives its tables. */
package io.rocelab.sw.views;
