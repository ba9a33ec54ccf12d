/*
** graphgen.h: synthetic graphs for benchmarks and tests: open 8-connected
** grids, braided mazes, random geometric graphs and random trees.
**
** Every generator is a pure function of its size and seed (one xorshift
** stream, no clock), so a benchmark case is the same graph on every run.
** Memory: grids are returned as td_grid plus the graph built from them, both
** owned by the caller (td_grid_destroy, td_graph_destroy); plain graphs as
** td_graph. NULL on OOM.
*/
#ifndef TD_GRAPHGEN_H
#define TD_GRAPHGEN_H

#include <stdint.h>

#include "nav/graph.h"
#include "nav/grid.h"

typedef struct td_graphgen_rng {
  uint64_t s;
} td_graphgen_rng;

uint64_t td_graphgen_next(td_graphgen_rng *rng);
uint32_t td_graphgen_below(td_graphgen_rng *rng, uint32_t n); /* [0, n) */
double td_graphgen_unit(td_graphgen_rng *rng);                /* [0, 1) */

/* All cells walkable. */
td_grid *td_graphgen_open_grid(int32_t w, int32_t h);
/* A maze of corridors one cell wide on a w x h grid (odd sizes work best),
** a random spanning tree of rooms plus `loops` extra openings per 100
** rooms, so that alternative routes exist. */
td_grid *td_graphgen_maze(int32_t w, int32_t h, int loops, td_graphgen_rng *rng);
/* n points uniform in [0, side)^2, joined when closer than the radius that
** gives the requested mean degree; cost factors 1. */
td_graph *td_graphgen_geometric(int32_t n, double mean_degree, td_graphgen_rng *rng);
/* Random recursive tree: node i joins a random earlier node. */
td_graph *td_graphgen_tree(int32_t n, td_graphgen_rng *rng);

#endif
