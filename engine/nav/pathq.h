/*
** pathq.h: a queue of path requests answered by A* (astar.h), or on a grid
** by Jump Point Search (jps.h), under a per-tick budget of node expansions
** (seed 002's path manager, without coroutines).
**
** Searches. Without a grid every search is A*'s. With one
** (td_pathq_use_grid: the grid g was built from), a search that begins
** while the graph is uniform (td_jps_uniform: no cost factor changed from
** 1) is JPS's, else A*'s; the choice is made when a search begins, from
** the graph as it is then. Both find least-cost paths, the same costs;
** JPS's path may be another of the equally short ones (jps.h, tie rule),
** and its expansions are jump points, far fewer. The budget counts the
** expansions of whichever search runs.
**
** Requests (start node, goal node, callback, user pointer) are answered in
** the order they were made. td_pathq_tick spends at most its budget of
** expansions (astar.h counts them) on the request at the head, then on the
** next ones; a search that runs out of budget continues where it stopped on
** the next tick. Requests needing no expansion (start == goal, a blocked
** end) are answered even when the budget is spent. A cancelled request,
** queued or in progress, is dropped and its callback never called.
**
** Each answer is one callback, made from inside td_pathq_tick:
**   fn(user, id, status, path, len, cost)
** status is TD_ASTAR_FOUND (path: len node ids, start to goal; cost: the
** cost of the grid path, before any simplification), TD_ASTAR_NO_PATH
** or TD_ASTAR_ERROR (out of memory; path NULL, len 0, cost TD_COST_INF).
** With simplification on (td_pathq_set_simplify), a found path is passed
** through td_grid_simplify first. A callback may make and cancel requests;
** it must not tick or destroy the queue.
**
** The graph's blocked flags may change between ticks. A found path that
** crosses a now-blocked node or edge is not delivered: that request's
** search starts over. Call td_pathq_restart after unblocking, so the
** request in progress does not miss a newly opened shorter path.
**
** Saves. A queue's state is its next id, its counters, the pending
** requests in order (id, start, goal: cancelled ones are dropped, they
** would cost nothing) and, when the head's search has begun, how many
** expansions it has spent since it began. A loaded queue begins that
** search again at its first tick and steps it that many expansions before
** it spends its budget (they are not counted again: they were counted
** before the save); astar.h's and jps.h's budgets add up, and the graph
** decides which search begins, so it answers on the same tick with the
** same path as the saved queue would have. The graph's
** flags and weights must by then be what they were at the save (a change
** in between restarts the search anyway, as td_pathq_restart says).
**
** Memory: the queue borrows the graph (and the grid, when simplifying or
** searching with JPS), which must outlive it, and owns its request array,
** its searches and path buffer. The path passed to a callback belongs to the queue and is valid
** only during the call.
** Determinism: answers, their order and the tick they arrive on depend
** only on the graph, its flags, the requests, the cancellations and the
** budgets: no clock. A loaded queue goes on as the saved one.
*/
#ifndef TD_PATHQ_H
#define TD_PATHQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nav/astar.h"
#include "nav/blob.h"
#include "nav/graph.h"
#include "nav/grid.h"
#include "nav/jps.h"

typedef struct td_pathq td_pathq;

/* Request ids are nonzero and count up from 1 (skipping 0 when they wrap). */
typedef void (*td_pathq_fn)(void *user, uint32_t id, td_astar_status status,
                            const int32_t *path, size_t len, td_cost cost);

typedef struct td_pathq_stats {
  uint64_t expansions;        /* all ticks so far */
  uint64_t last_expansions;   /* the last tick */
  uint64_t delivered;         /* callbacks made */
  uint64_t cancelled;         /* requests cancelled before their answer */
  uint64_t restarts;          /* searches restarted (stale path, td_pathq_restart) */
} td_pathq_stats;

td_pathq *td_pathq_create(const td_graph *g, td_err *err); /* NULL on OOM */
void td_pathq_destroy(td_pathq *q);

/* Simplify found paths on this grid (the one g was built from); NULL: off. */
void td_pathq_set_simplify(td_pathq *q, const td_grid *grid);

/* Search with JPS on this grid (the one g was built from) whenever the
** graph is uniform; NULL: A* only. Not while a search is in progress. 0,
** or -1 with err set (out of memory, not g's grid, a search in progress). */
int td_pathq_use_grid(td_pathq *q, const td_grid *grid, td_err *err);

/* Queues a request. Returns its id, or 0 with err set (unknown node, no
** callback, out of memory). */
uint32_t td_pathq_request(td_pathq *q, int32_t start, int32_t goal, td_pathq_fn fn,
                          void *user, td_err *err);

/* Drops a pending request (queued or in progress). false if no pending
** request has that id (already answered, cancelled, or never made). */
bool td_pathq_cancel(td_pathq *q, uint32_t id);

/* Answers requests in order, spending at most budget expansions. Returns
** the number of callbacks made. Does nothing when called from a callback. */
size_t td_pathq_tick(td_pathq *q, uint64_t budget);

/* The graph's flags changed: the request in progress starts over. */
void td_pathq_restart(td_pathq *q);

size_t td_pathq_pending(const td_pathq *q);  /* requests not yet answered */
const td_pathq_stats *td_pathq_get_stats(const td_pathq *q);
/* The ids of the pending requests, in order: writes at most cap, returns
** how many there are. */
size_t td_pathq_ids(const td_pathq *q, uint32_t *ids, size_t cap);

/* Appends the state (see Saves above) to b. Check b->failed. */
void td_pathq_save(const td_pathq *q, td_blob *b);
/* Replaces q's requests, counters and next id with a saved state, every
** request answered through fn(user, ...). Not from a callback. 0, or -1
** with err set ("path queue: request 2: node 90 is not in the graph",
** "path queue: truncated", out of memory) and q unchanged. */
int td_pathq_load(td_pathq *q, td_blob_reader *r, td_pathq_fn fn, void *user, td_err *err);
/* FNV-1a 64 over the state a save holds, continuing from h. */
uint64_t td_pathq_checksum(const td_pathq *q, uint64_t h);

#endif
