/*
** astar.h: A* between two nodes of a td_graph (seeds 000/001), resumable
** under a budget of node expansions so a path queue can spread a long
** search over several ticks.
**
** A search finds a path of least td_cost (the graph's fixed-point edge
** weights) over open edges and open nodes (td_graph_edge_open). The open
** set is an indexed 4-ary heap ordered by f = g + h, then by smaller h (the
** node nearer the goal first), then by smaller node id. The heuristic never
** overestimates: on grid graphs (g->grid_cell > 0) it is the octile
** distance in the same fixed-point units as grid.c's two edge weights,
** exact in the open, so ties along equally short paths are broken toward the
** goal; on other graphs it is the Euclidean distance times the smallest
** edge factor, rounded down. A node whose cost improves after it was
** expanded is expanded again, so even a heuristic that is admissible but
** not consistent gives an optimal path.
**
** A search borrows the graph (finalized, outliving the search) between
** td_astar_begin and the answer; its blocked flags must not change in
** between (begin again after a change). One expansion is one node taken
** off the heap, the goal included, so budgets add up: a search stepped with
** budgets b1, b2, ... expands exactly what one unbudgeted step would.
**
** Memory: a td_astar owns its arrays, allocated through td_mem_* and sized
** to the largest graph it has searched (td_astar_reserve sizes it ahead).
** A new search does not clear them: every node carries the generation
** stamp of the search that last touched it. Searching allocates only when
** a graph is larger than any before.
** Determinism: no clock, no randomness, no dependence on addresses; the
** path, its cost and the expansion count are functions of the graph, its
** flags and the two nodes.
*/
#ifndef TD_ASTAR_H
#define TD_ASTAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nav/graph.h"

typedef enum td_astar_status {
  TD_ASTAR_RUNNING,  /* the budget ran out before an answer: step again */
  TD_ASTAR_FOUND,    /* a least-cost path: read it with td_astar_path */
  TD_ASTAR_NO_PATH,  /* start or goal blocked, or no open route between them */
  TD_ASTAR_ERROR     /* bad node id or out of memory (err set); no search */
} td_astar_status;

typedef struct td_astar td_astar;

td_astar *td_astar_create(td_err *err);                /* NULL on OOM */
void td_astar_destroy(td_astar *s);
/* Sizes the arrays for graphs of up to node_count nodes. 0 ok, -1 OOM. */
int td_astar_reserve(td_astar *s, int32_t node_count, td_err *err);

/* Starts a search from start to goal on g, abandoning any search in
** progress. Returns RUNNING, or the answer at once when no expansion is
** needed (FOUND when start == goal and open, NO_PATH when start or goal is
** blocked), or ERROR. */
td_astar_status td_astar_begin(td_astar *s, const td_graph *g, int32_t start,
                               int32_t goal, td_err *err);
/* Expands at most budget nodes. Once answered, returns the same answer
** without work. Budget 0 does nothing. */
td_astar_status td_astar_step(td_astar *s, uint64_t budget);
td_astar_status td_astar_status_get(const td_astar *s); /* ERROR before any begin */
uint64_t td_astar_expanded(const td_astar *s);          /* expansions of this search */
/* Whether node n is in the closed set of the search last begun: taken off
** the heap (expanded, the goal included) and not put back on it since (a
** node reopened by an improvement is open until expanded again). A read of
** the search's own arrays, valid at any point of it (between budgeted
** steps too) and after its answer, until the next begin or reserve. False
** for a node never expanded, for n outside the searched graph, before any
** search, after ERROR, and when the answer needed no expansion (start ==
** goal, a blocked end). The closed nodes number at most td_astar_expanded,
** exactly that many when none was reopened (grid graphs with the exact
** octile heuristic never reopen). O(1); for a debug view of the search
** front (the grid overlay of render/scene.h). */
bool td_astar_closed(const td_astar *s, int32_t n);

/* The path found, start to goal (node ids): writes at most cap ids to out
** and returns the path's node count (call with cap 0 to size it); *cost
** (may be NULL) gets its td_cost. Returns 0 unless the answer is FOUND. */
size_t td_astar_path(const td_astar *s, int32_t *out, size_t cap, td_cost *cost);

/* begin + step without a budget. */
td_astar_status td_astar_find(td_astar *s, const td_graph *g, int32_t start,
                              int32_t goal, td_err *err);

#endif
