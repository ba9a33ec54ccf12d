/*
** route.h: reverse Dijkstra from the goals, kept up to date as towers
** block and unblock edges and rules change edges' cost factors (seed 004's
** nextWayPoint, for every node at once).
**
** A route holds, for every node n of a graph, dist[n] (fixed-point cost to
** the nearest open goal, TD_COST_INF when unreachable) and next[n] (the
** neighbour to walk to; TD_NONE at goals and unreachable nodes). next is
** canonical: among the neighbours m with an open edge and
** dist[m] + w(m, n) == dist[n], the one with the smallest id. So the state is
** a pure function of the graph, its blocked flags and its weights: any
** sequence of incremental updates yields exactly what a full recompute
** would.
**
** Updates are incremental (Ramalingam-Reps style): blocking only revisits
** nodes whose canonical route used a changed edge, and a node with another
** neighbour at the same distance is rewired, not recomputed; unblocking
** propagates improvements outward. A heavier edge is handled like a block
** (only the nodes whose route crossed it are revisited), a lighter one like
** an unblock. When the affected set grows past a
** fraction of the graph the update falls back to a full recompute, so an
** update is never much slower than a full one.
**
** Cache order: on waypoint and geometric graphs (not grids, whose ids are
** already row by row) the route numbers the nodes along a Hilbert curve
** (order.h) and keeps its own copy of the adjacency in that numbering, so
** that the searches, which spread outwards from the goals, read memory
** near what they just read. The numbering is private: every id this API
** takes or hands out (goals, changes, must_reach, dist, next, the changed
** list) is the graph's, and the tie rule above compares the graph's ids,
** so the results are the same bits in either order. The price is a copy of
** the adjacency and dist/next translated once more after each update (the
** changed nodes only).
**
** td_route_try_apply is a transaction: it applies a batch, checks that every
** node that must keep a route still has one, and rolls back exactly (an undo
** log of the dist/next it overwrote, and the flags, factors and weights
** it changed) when one is cut off.
**
** Memory: the route borrows the graph (which must outlive it and be
** finalized; one route per graph, see graph.h) and owns its arrays, sized
** to the graph by td_route_create. An update allocates only when its batch
** (or its must_reach list) is longer than any before: room to record the
** flags it changes; the first factor change allocates a stamp per edge,
** and a new weight past the FIFO mode's 8 weight classes switches the
** route to heap mode (a 64-bit weight per half-edge, for good).
** Determinism: no clock, no randomness; results depend only on the graph,
** the goals and the sequence of changes.
*/
#ifndef TD_ROUTE_H
#define TD_ROUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nav/graph.h"

typedef struct td_route td_route;

typedef struct td_route_stats {
  uint64_t full_count;        /* full recomputes so far (including fallbacks) */
  uint64_t incremental_count; /* incremental updates so far */
  uint64_t fallback_count;    /* incremental updates that fell back to full */
  uint64_t applied_count;     /* updates kept that changed a flag or an edge weight
                              ** (not a batch that changes nothing, a refused
                              ** try_apply, a check) */
  size_t last_affected;       /* nodes revisited by the last update */
  bool last_full;             /* the last update was a full recompute */
} td_route_stats;

typedef struct td_route_verdict {
  bool ok;                    /* true: nothing would be cut off */
  size_t cut_index;           /* index into must_reach of the first cut node */
  int32_t cut_node;           /* that node, or TD_NONE when ok */
} td_route_verdict;

/* Which numbering the route works in (see Cache order above). AUTO: the
** Hilbert order for graphs of at least TD_ROUTE_ORDER_MIN nodes that are
** not grids (grid_cell == 0), the graph's own otherwise. */
typedef enum td_route_order {
  TD_ROUTE_ORDER_AUTO,
  TD_ROUTE_ORDER_NONE,     /* the graph's ids */
  TD_ROUTE_ORDER_HILBERT   /* always (tests; grids too) */
} td_route_order;
#define TD_ROUTE_ORDER_MIN 2

/* Creates the route and runs a full recompute. goals: node ids (copied).
** td_route_create is td_route_create_ordered with TD_ROUTE_ORDER_AUTO. */
td_route *td_route_create(td_graph *g, const int32_t *goals, size_t goal_count,
                          td_err *err);
td_route *td_route_create_ordered(td_graph *g, const int32_t *goals, size_t goal_count,
                                  td_route_order order, td_err *err);
/* The route works in the Hilbert order (it is not the graph's). */
bool td_route_reordered(const td_route *r);
void td_route_destroy(td_route *r);

const td_graph *td_route_graph(const td_route *r);
const td_cost *td_route_dist(const td_route *r);    /* node_count entries */
const int32_t *td_route_next(const td_route *r);    /* node_count entries */
size_t td_route_goals(const td_route *r, const int32_t **goals);
bool td_route_is_goal(const td_route *r, int32_t node);

/* Recomputes everything from the goals. */
void td_route_full(td_route *r);

/* Applies a batch of changes to the graph and updates the route: blocks
** and unblocks, and TD_CHANGE_SET_FACTOR (the edge's factor and weight
** change, blocked or not; graph.h). The batch's net effect counts: an item
** that leaves a flag as it was is ignored, and of several factor changes to
** one edge the last wins. Returns 0, or -1 with err set for a bad kind or
** id, a factor that is not a positive finite number, factors that would
** make the weights add up to TD_COST_MAX or more, or when out of memory;
** then nothing changed. */
int td_route_apply(td_route *r, const td_graph_change *changes, size_t n,
                   td_err *err);

/* Like td_route_apply, but refuses (rolls back) the batch when it would cut
** any node of must_reach off from every goal; verdict says which. A node of
** must_reach that is unreachable before the batch is ignored. Rolling back
** restores dist, next, the flags, the factors and weights, weight_sum and
** min_factor exactly. Returns 0 (applied or refused: see verdict->ok), or
** -1 on bad input or OOM. */
int td_route_try_apply(td_route *r, const td_graph_change *changes, size_t n,
                       const int32_t *must_reach, size_t m,
                       td_route_verdict *verdict, td_err *err);

/* Answers the same question and always rolls back: a preview. */
int td_route_check(td_route *r, const td_graph_change *changes, size_t n,
                   const int32_t *must_reach, size_t m,
                   td_route_verdict *verdict, td_err *err);

/* Nodes whose dist or next the last update may have changed (a superset:
** values can be equal to before). *all is set when it was a full recompute,
** in which case every node may have changed. After td_route_check or a
** refused td_route_try_apply nothing changed, and the list is empty: read
** it before the next update, which replaces it. */
size_t td_route_changed(const td_route *r, const int32_t **nodes, bool *all);

/* Fallback threshold: an update that revisits more than fraction *
** node_count nodes becomes a full recompute. Default 1/16; 1.0 (or more)
** disables it; clamped to [0, 1]. */
void td_route_set_fallback(td_route *r, double fraction);

const td_route_stats *td_route_get_stats(const td_route *r);

/* Test support: checks every invariant of the route against the graph
** (dist is the Bellman fixpoint, next is canonical). 0 ok, else -1 with err
** naming the first bad node. O(edges). */
int td_route_validate(const td_route *r, td_err *err);

#endif
