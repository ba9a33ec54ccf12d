/*
** graph.h: the waypoint graph, td's model of walkable space.
**
** Nodes have 2D positions in map units; undirected edges join two nodes and
** weigh their Euclidean length times a cost factor. Edges and nodes carry a
** blocked flag (a tower on a base blocks edges; a tower on a grid cell blocks
** a node). A graph is built in two steps: add nodes and edges, then
** td_graph_finalize() builds the adjacency (CSR, each node's neighbours in
** ascending id order). After finalize the topology is frozen; only the blocked
** flags and the edges' cost factors (so their weights) change, and only
** through route.h (td_route_apply and its transactions) so that routes stay
** consistent.
**
** Costs are fixed-point integers (td_cost, TD_COST_ONE per map unit), edge
** weights rounded up. Integer sums are exact and associative, so a route
** computed incrementally equals a full recompute bit for bit, and ties are
** real ties. 2^24 per unit gives a rounding error below 6e-8 per edge.
** td_graph_finalize refuses a graph whose edge weights add up to
** TD_COST_MAX or more, and td_route_apply a factor change that would make
** them (weight_sum keeps the sum); as every shortest route is a simple
** path, no distance sum can then overflow (about 5.5e11 map units in all).
**
** Lengths are computed with sqrt(dx*dx + dy*dy) (correctly rounded by
** IEEE 754, unlike hypot) and the build disables floating-point
** contraction, so weights are the same bits on every platform.
**
** One route per graph: the flags live here, but each route keeps its own
** mirror of them; a graph shared by two routes would leave one stale.
**
** Memory: the graph owns all its arrays; td_graph_destroy frees them.
** Determinism: no clock, no randomness; ids are assigned in insertion order.
*/
#ifndef TD_GRAPH_H
#define TD_GRAPH_H

#include <stdbool.h>
#include <stdint.h>

#include "nav/mem.h"

typedef uint64_t td_cost;
#define TD_COST_ONE ((td_cost)1 << 24)   /* one map unit */
#define TD_COST_INF UINT64_MAX           /* unreachable */
#define TD_COST_MAX (UINT64_MAX / 2)     /* bound on the sum of all weights */
#define TD_GRAPH_MAX_NODES ((int32_t)1 << 28)
#define TD_NONE (-1)                     /* no node / no edge */

typedef struct td_edge {
  int32_t a, b;      /* endpoints, a != b */
  td_cost w;         /* td_graph_cost(td_graph_edge_length, factor) */
  double factor;     /* cost factor (> 0): given at creation, changed by
                     ** TD_CHANGE_SET_FACTOR */
  uint8_t blocked;   /* nonzero: impassable */
} td_edge;

/* One change to the blocked flags or to an edge's cost factor, applied in
** batches by td_route_apply. */
typedef enum td_change_kind {
  TD_CHANGE_BLOCK_EDGE,
  TD_CHANGE_UNBLOCK_EDGE,
  TD_CHANGE_BLOCK_NODE,
  TD_CHANGE_UNBLOCK_NODE,
  TD_CHANGE_SET_FACTOR     /* edge id: its factor becomes `factor` (mud, bridges) */
} td_change_kind;

typedef struct td_graph_change {
  td_change_kind kind;
  int32_t id;              /* edge id or node id */
  double factor;           /* TD_CHANGE_SET_FACTOR only: > 0 and finite */
} td_graph_change;

/* Read the fields freely; change them only through the functions below and
** route.h. */
typedef struct td_graph {
  int32_t node_count;
  int32_t edge_count;
  double *x, *y;            /* node positions */
  uint8_t *node_blocked;    /* nonzero: impassable node */
  td_edge *edges;
  /* adjacency, valid after finalize: half-edges of node n are
  ** [adj_start[n], adj_start[n+1]), sorted by neighbour id */
  int32_t *adj_start;
  int32_t *adj_to;          /* neighbour */
  int32_t *adj_edge;        /* edge id */
  /* heuristic support for A*: when grid_cell > 0 the nodes sit at the
  ** centres of square cells of that size and edges are 8-connected with
  ** factor 1, so the octile distance is exact in the open */
  double grid_cell;
  double min_factor;        /* no edge's factor is smaller (scales the
                            ** heuristic): the smallest at finalize, lowered
                            ** (never raised) by factor changes */
  td_cost weight_sum;       /* sum of every edge's w, < TD_COST_MAX (finalize) */
  bool finalized;
  size_t node_cap, edge_cap;
} td_graph;

td_graph *td_graph_create(int32_t node_hint, int32_t edge_hint); /* NULL: OOM */
void td_graph_destroy(td_graph *g);

/* A deep copy (nodes, edges, blocked flags, adjacency when finalized), for
** a second route over the same space (the world blocks its own copy). NULL
** with err set when out of memory. */
td_graph *td_graph_clone(const td_graph *g, td_err *err);

/* Returns the new id, or TD_NONE (with err set) on bad input or OOM. */
int32_t td_graph_add_node(td_graph *g, double x, double y, td_err *err);
int32_t td_graph_add_edge(td_graph *g, int32_t a, int32_t b, double factor,
                          td_err *err);

/* Builds the adjacency. Fails on duplicate edges and when the weights add
** up to TD_COST_MAX or more. 0 ok, -1 error. */
int td_graph_finalize(td_graph *g, td_err *err);

/* Edge joining a and b, or TD_NONE. O(log degree). */
int32_t td_graph_find_edge(const td_graph *g, int32_t a, int32_t b);
/* Position of the half-edge a->b in a's adjacency (adj_to/adj_edge), or
** TD_NONE. O(log degree). */
int32_t td_graph_find_half(const td_graph *g, int32_t a, int32_t b);

/* Fixed-point weight of a segment of the given length and factor: at least
** 1, at most TD_COST_MAX (also for NaN or infinite input). */
td_cost td_graph_cost(double length, double factor);
/* Length of edge e in map units, as its weight is computed:
** w == td_graph_cost(td_graph_edge_length(g, e), factor). On a grid graph
** (grid_cell > 0) the cell size or sqrt 2 times it, the lengths of
** td_graph_grid_weights. */
double td_graph_edge_length(const td_graph *g, int32_t e);
/* The two weights of a grid of square cells of size `cell`: a straight step
** (*w1) and a diagonal (*w2). grid.c builds its edges with them and A*'s
** octile heuristic is exact only because it uses the same two. */
void td_graph_grid_weights(double cell, td_cost *w1, td_cost *w2);
/* A cost as map units (for printing). */
double td_graph_cost_to_units(td_cost c);

/* Edge e usable: not blocked and neither endpoint blocked. */
static inline bool td_graph_edge_open(const td_graph *g, int32_t e) {
  const td_edge *ed = &g->edges[e];
  return !ed->blocked && !g->node_blocked[ed->a] && !g->node_blocked[ed->b];
}

/* The other endpoint of edge e seen from node n. */
static inline int32_t td_graph_other(const td_graph *g, int32_t e, int32_t n) {
  return g->edges[e].a == n ? g->edges[e].b : g->edges[e].a;
}

#endif
