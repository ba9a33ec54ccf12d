/*
** order.h: cache order for graphs, numbering nodes along a Hilbert curve.
**
** A graph's ids are the order its nodes were added in (graph.h); on a
** graph built from random or scattered points that order has nothing to do
** with where the nodes are, so a search that walks outwards from a goal
** touches memory at random. Numbering the nodes in the order a Hilbert
** curve visits them puts nodes that are near on the map near in memory:
** consecutive cells of the curve are always side by side, and a square of
** the map is a few runs of the numbering.
**
** td_order_hilbert returns that numbering; the route (route.h) uses it for
** its private copy of the adjacency on waypoint and geometric graphs. Ids
** that maps, scripts, saves and every caller see never change.
**
** Determinism: no clock, no randomness; nodes on the same cell of the
** 2^16 x 2^16 curve keep their id order (the sort is stable).
** Memory: the caller owns `order`; the function allocates scratch through
** the td_mem hook and frees it before returning.
*/
#ifndef TD_ORDER_H
#define TD_ORDER_H

#include <stdint.h>

#include "nav/mem.h"

#define TD_ORDER_BITS 16   /* the curve fills a 2^16 x 2^16 grid */

/* Position of cell (x, y) along the Hilbert curve that fills a
** 2^bits x 2^bits grid (1 <= bits <= 16; x, y < 2^bits): a bijection onto
** [0, 4^bits) where consecutive positions are cells that share a side. */
uint64_t td_order_hilbert_key(uint32_t x, uint32_t y, int bits);

/* order[i] = the id of the i-th of n points (x[id], y[id], finite) along the
** Hilbert curve over their bounding box (its longer side scaled to 2^16
** cells). 0, or -1 with err set when out of memory. */
int td_order_hilbert(const double *x, const double *y, int32_t n, int32_t *order, td_err *err);

#endif
