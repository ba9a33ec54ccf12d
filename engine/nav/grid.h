/*
** grid.h: walkable grids (seeds 000/001) as graphs.
**
** A grid of width x height square cells; y grows downwards from row 0, as in
** Tiled and MovingAI. td_grid_build_graph makes one node per walkable cell
** (at the cell centre) and 8-connected edges, factor 1, without corner
** cutting: a diagonal step exists only when both orthogonal neighbours are
** walkable. Every edge weighs exactly td_graph_cost(cell, 1) or
** td_graph_cost(cell * sqrt 2, 1), whatever the rounding of the positions,
** which A*'s octile heuristic relies on. The reverse Dijkstra of
** route.h on this graph is a flow field.
**
** Towers on grid maps block cells. Blocking a cell blocks its node and the
** diagonal edges that pass by its corners (so corner cutting stays forbidden
** at run time); td_grid_changes computes that batch for td_route_apply, and
** for unblocking leaves a diagonal blocked while its other corner cell is
** still blocked.
**
** Memory: the grid owns its cell arrays; the graph returned by
** td_grid_build_graph belongs to the caller, and the grid keeps the
** cell<->node maps for it (valid until the next build).
** Determinism: pure functions of the cells; no clock, no randomness.
*/
#ifndef TD_GRID_H
#define TD_GRID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nav/graph.h"

/* The most cells a grid may have: one node each, and a graph holds at
** most TD_GRAPH_MAX_NODES nodes. */
#define TD_GRID_MAX_CELLS TD_GRAPH_MAX_NODES

typedef struct td_grid {
  int32_t width, height;      /* in cells */
  double cell;                /* cell size in map units (> 0) */
  double origin_x, origin_y;  /* map position of the top-left corner of cell (0,0) */
  uint8_t *walkable;          /* width*height, row-major: index = y*width + x */
  int32_t *cell_node;         /* cell index -> node id or TD_NONE (after build) */
  int32_t *node_cell;         /* node id -> cell index (after build) */
  int32_t node_count;         /* nodes of the last build */
} td_grid;

/* All cells start not walkable. NULL with err set on bad size or OOM. */
td_grid *td_grid_create(int32_t width, int32_t height, double cell, td_err *err);
void td_grid_destroy(td_grid *grid);

void td_grid_set_walkable(td_grid *grid, int32_t cx, int32_t cy, bool walkable);
bool td_grid_walkable(const td_grid *grid, int32_t cx, int32_t cy); /* false outside */

/* Builds the graph of walkable cells (finalized, grid_cell set for A*'s
** octile heuristic). Node ids follow row-major cell order. */
td_graph *td_grid_build_graph(td_grid *grid, td_err *err);

/* World <-> cell. The conversion clamps to the map: a point outside maps to
** the nearest border cell. */
void td_grid_world_to_cell(const td_grid *grid, double x, double y,
                           int32_t *cx, int32_t *cy);
void td_grid_cell_center(const td_grid *grid, int32_t cx, int32_t cy,
                         double *x, double *y);
int32_t td_grid_node_at(const td_grid *grid, int32_t cx, int32_t cy); /* TD_NONE if none */

/* The batch that blocks (block=true) or unblocks the given cells, for
** td_route_apply on g (built from this grid). Writes at most cap changes to
** out and returns how many are needed (call with cap 0 to size). Cells that
** are not walkable are skipped. */
size_t td_grid_changes(const td_grid *grid, const td_graph *g,
                       const int32_t *cells, size_t cell_count, bool block,
                       td_graph_change *out, size_t cap);

/* Line of sight between two cell centres: true when every cell the segment
** touches is walkable and its node not blocked in g (g may be NULL), with no
** corner cutting (a segment through a cell corner needs both side cells). */
bool td_grid_line_of_sight(const td_grid *grid, const td_graph *g,
                           int32_t x0, int32_t y0, int32_t x1, int32_t y1);

/* Path simplification (seed 002): keeps the first node, then greedily the
** farthest node of the run of following nodes that are all in line of sight
** of the last kept one, and so on to the last node. Consecutive output nodes
** see each other whenever consecutive input nodes do. path and out are node
** ids of g (built from this grid); out may alias path. Returns the new
** length. */
size_t td_grid_simplify(const td_grid *grid, const td_graph *g,
                        const int32_t *path, size_t n, int32_t *out);

#endif
