/*
** jps.h: Jump Point Search (Harabor and Grastien 2011, with the
** no-corner-cutting rules of their 2014 "Improving Jump Point Search") on
** a grid graph (grid.h), resumable under a budget of expansions like
** astar.h, whose statuses it answers with.
**
** Moves and costs are grid.h's: 8-connected, a diagonal step only when both
** orthogonal cells beside it are open, a straight step weighing W1 and a
** diagonal W2 (td_graph_grid_weights of the grid's cell size), so every
** length found is A*'s to the last fixed-point unit. A cell is open when it
** is walkable and its node is not blocked in the graph. The search is
** exact only while the graph is uniform: every edge at its grid weight
** (factor 1) and no edge blocked but as td_grid_changes blocks them (the
** diagonals past a blocked cell); td_jps_uniform tells, in O(1).
**
** The search. The open set is an indexed 4-ary heap of jump points ordered
** as A*'s: f = g + h (h the exact octile distance), then smaller h, then
** smaller cell index (the node id order). Expanding a jump point scans its
** pruned directions (a straight arrival: on, and the sides whose cell
** behind is blocked, with the diagonal between; a diagonal arrival: on,
** and its two straight parts; the start: all eight) up to the next jump
** point: the goal, a cell with a forced neighbour (a straight scan), or a
** cell whose straight scans find one (a diagonal scan). A diagonal jump
** point no step has reached yet is expanded on the spot, within the
** expansion that found it (its scans, then on along the diagonal), not
** through the heap. A jump point reached again at a strictly smaller cost
** is updated (reopened if it was expanded); an equal cost keeps the first
** parent.
**
** Tie rule: the path returned joins consecutive jump points by straight or
** diagonal runs, so its cell sequence may differ from A*'s among the paths
** of the same (least) cost; its cost and length are A*'s. The path is a
** function of the grid, its open cells and the two nodes (no clock, no
** address), so a game that uses it stays deterministic.
**
** Budget: one expansion is one jump point taken off the heap, the goal
** included; its scans (and the diagonal jump points expanded on the spot)
** are part of it: a straight scan reads a word or two (the stop words
** below; one more per 4,096 cells of its line at worst), a diagonal one a
** step per cell it crosses. A search stepped with budgets b1, b2, ...
** expands exactly what one unbudgeted step would, so a saved search is
** resumed by beginning it again and stepping the expansions it had spent.
**
** The open cells are mirrored in word-packed rows and columns (a bit per
** cell, a blocked border around) with, per line, the words of the cells
** where a straight scan stops (blocked, or a forced neighbour) and a
** summary bit per word that has one: a scan is a count of trailing or
** leading zeros. td_jps_bind builds them once (O(cells));
** td_jps_sync brings them up to date with the graph's node flags by
** comparing them with a copy 8 bytes at a time and updating only the cells
** that changed (O(1) bit updates each); td_jps_cell_changed does one cell
** when the caller knows which changed. Nothing else is precomputed.
**
** Memory: a td_jps owns its arrays (through td_mem_*), sized at bind; it
** borrows the grid and the graph, which must outlive it (or the next bind).
** Determinism: no clock, no randomness, no dependence on addresses.
*/
#ifndef TD_JPS_H
#define TD_JPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nav/astar.h"
#include "nav/graph.h"
#include "nav/grid.h"

typedef struct td_jps td_jps;

td_jps *td_jps_create(td_err *err); /* NULL on OOM */
void td_jps_destroy(td_jps *s);

/* Binds the search to a grid and the graph last built from it
** (td_grid_build_graph), abandoning any search in progress, and mirrors the
** open cells. 0, or -1 with err set (not a grid graph of this grid, OOM). */
int td_jps_bind(td_jps *s, const td_grid *grid, const td_graph *g, td_err *err);
/* Whether JPS is exact on the bound graph now: its edges' weights add up
** to the grid weights (and no factor is below 1, so none is above either).
** O(1). False when nothing is bound. */
bool td_jps_uniform(const td_jps *s);
/* Updates the mirror from the graph's node flags: returns the cells that
** changed. Abandons the search in progress when any did. */
size_t td_jps_sync(td_jps *s);
/* Updates one cell (index y * width + x) from the graph's flags. */
void td_jps_cell_changed(td_jps *s, int32_t cell);

/* As td_astar_begin, on node ids of the bound graph, with the mirror as it
** is (sync first if the flags may have changed). */
td_astar_status td_jps_begin(td_jps *s, int32_t start, int32_t goal, td_err *err);
td_astar_status td_jps_step(td_jps *s, uint64_t budget);
td_astar_status td_jps_status_get(const td_jps *s);
uint64_t td_jps_expanded(const td_jps *s);   /* jump points expanded by this search */
/* The path found, start to goal, every cell of it as node ids (consecutive
** nodes joined by a graph edge), as td_astar_path. */
size_t td_jps_path(const td_jps *s, int32_t *out, size_t cap, td_cost *cost);
/* begin + step without a budget. */
td_astar_status td_jps_find(td_jps *s, int32_t start, int32_t goal, td_err *err);

#endif
