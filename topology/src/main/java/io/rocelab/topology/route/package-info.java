/**
 * Routes filled in from a topology's wiring: {@link io.rocelab.topology.route.EcmpRoutes} gives
 * every switch {@code STATIC_ROUTE}s over all equal-cost shortest paths, aggregated the way fabric
 * routing tables are (a rack's /24, a pod's /16, a default route up);
 * {@link io.rocelab.topology.route.BgpRoutes} gives every switch eBGP on every fabric link instead
 * ({@link io.rocelab.topology.route.Routing} picks one). Both are the model's
 * {@link io.rocelab.topology.model.RouteFiller}.
 */
package io.rocelab.topology.route;
