/*
** walk.h: the walkable area, where a ground body may stand (DESIGN.md 5).
**
** Lanes live on a road, not in the open. On a waypoint map the road is the
** union of the graph's edges, each a rectangle of its width (the map's
** road_width) square-capped: extended by half the width past each end, so
** that junctions and corners are covered. A closed (blocked) edge stays
** road: an agent caught on it walks back along it. On a grid map the area
** is the open cells: a cell that is not walkable, or whose node a tower
** blocks (the graph's node_blocked, read live), is not; nor is anything
** outside the grid. On both, the rectangles given by td_walk_set_blocks
** (the footprints of built towers) are not walkable.
**
** Queries take the segment (a, b) an agent is on, and look only at what is
** near it: the edges at a and b (a road), the cells under the disc (a grid)
** and the blocks in the buckets under the disc. Looking at fewer edges than
** the whole road is conservative: a disc kept inside the edges at its own
** segment's ends is inside the road.
**
** A grid also keeps its clearance: for each cell, how many rings of open
** cells surround it (Chebyshev distance to the nearest closed cell, minus
** one, at most TD_WALK_MAX_RING). td_walk_sync brings it up to date after
** the graph's blocked flags changed, around the changed cells only.
**
** Memory: the walk borrows the graph and the grid (they must outlive it and
** keep their topology) and owns the rest. Determinism: pure functions of
** the geometry in float arithmetic (the build disables contraction); no
** clock, no randomness.
*/
#ifndef TD_WALK_H
#define TD_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nav/graph.h"
#include "nav/grid.h"

#define TD_WALK_MAX_RING 15   /* clearance rings counted at most */

typedef struct td_walk td_walk;

/* A road over g's edges, edge e road_width[e] wide (> 0; copied). */
td_walk *td_walk_create_road(const td_graph *g, const float *road_width, td_err *err);
/* The open cells of grid, whose graph (or a clone of it) is g. */
td_walk *td_walk_create_grid(const td_grid *grid, const td_graph *g, td_err *err);
void td_walk_destroy(td_walk *w);

/* Replaces the rectangles that are not walkable: n x {x, y, w, h}
** (copied). 0, or -1 with err set (out of memory: the old ones stay). */
int td_walk_set_blocks(td_walk *w, const float *rects, size_t n, td_err *err);

/* After the graph's blocked flags changed: a grid's clearance is brought up
** to date around the cells that changed. Returns how many cells changed. */
size_t td_walk_sync(td_walk *w);

/* Half the width that is free across segment a -> b for a body's centre
** line, before its radius: a road's half width (the narrower of the edges
** joining a and b, when a and b are joined); a grid's clearance at a and
** at b, the smaller, measured from the cell centre to the nearest closed
** cell. Never negative. */
float td_walk_half_width(const td_walk *w, int32_t a, int32_t b);

/* Moves (x, y) so that the disc of radius r there is in the walkable area
** near segment (a, b) (b may equal a), c the node after b on the way
** (TD_NONE: none). A disc inside stays; one outside goes to the nearest
** point of its way (the road's rectangles of a -> b and b -> c, not of the
** other edges at a or b: see road_back), on a grid out of the closed cells
** the shortest way. Returns whether it moved. A disc wider than the road
** ends on its centre line. */
bool td_walk_constrain(const td_walk *w, int32_t a, int32_t b, int32_t c, float r, float *x,
                       float *y);

/* How far the disc of radius r at (x, y) reaches out of the walkable area
** near segment (a, b): 0 when inside. */
float td_walk_depth(const td_walk *w, int32_t a, int32_t b, float x, float y, float r);

/* Counts the changes of the area (blocks replaced, cells synced): a
** caller that caches what it asked can tell when to ask again. */
uint64_t td_walk_version(const td_walk *w);

/* A quick test that never errs toward inside: true when the disc surely
** lies in the area's open part without looking at edges (a grid: inside the
** open square of rings around its cell, no block near; a road: false,
** callers test the edge they are on, see td_walk_blocks_near). */
bool td_walk_inside_quick(const td_walk *w, float x, float y, float r);

/* Whether a disc of radius r going straight from p to q would meet a block
** (a tower's footprint): the way is shut there. */
bool td_walk_blocked_way(const td_walk *w, float px, float py, float qx, float qy, float r);

/* Whether any block reaches within `pad` of the box x0..x1, y0..y1. */
bool td_walk_blocks_near(const td_walk *w, float x0, float y0, float x1, float y1, float pad);

/* What kind of area: true on a grid. */
bool td_walk_is_grid(const td_walk *w);
/* A grid cell's clearance rings (see above), or -1 outside the grid. */
int td_walk_rings(const td_walk *w, int32_t cx, int32_t cy);

#endif
