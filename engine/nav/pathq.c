/*
** pathq.c: FIFO of path requests under an expansion budget.
**
** Design note.
** Requests live in one array, items[head, tail), in the order they were
** made. A cancelled request keeps its slot with fn == NULL and is skipped
** when it reaches the head, so cancelling never reorders anything and the
** array only shifts when a push needs room. Only items[head] can have a
** search in progress (active). Before a callback runs, its request has left
** the array and active is false, so a callback that makes or cancels
** requests finds the queue consistent, even if the array moves.
*/
#include "nav/pathq.h"

#include <string.h>

typedef struct request {
  uint32_t id;
  int32_t start, goal;
  td_pathq_fn fn;          /* NULL: cancelled */
  void *user;
} request;

struct td_pathq {
  const td_graph *graph;
  const td_grid *simplify;
  td_astar *search;
  request *items;
  size_t head, tail, cap;
  size_t pending;          /* items in [head, tail) not cancelled */
  bool active;             /* items[head] has a search begun */
  bool in_tick;
  uint32_t next_id;
  int32_t *path;           /* buffer for the answer being delivered */
  size_t path_cap;
  td_pathq_stats stats;
};

td_pathq *td_pathq_create(const td_graph *g, td_err *err) {
  if (!g->finalized) {
    td_err_set(err, "pathq: the graph is not finalized");
    return NULL;
  }
  td_pathq *q = td_mem_calloc(1, sizeof *q);
  if (!q) {
    td_err_set(err, "pathq: out of memory");
    return NULL;
  }
  q->graph = g;
  q->next_id = 1;
  q->search = td_astar_create(err);
  if (!q->search || td_astar_reserve(q->search, g->node_count, err)) {
    td_astar_destroy(q->search);
    td_mem_free(q, sizeof *q);
    return NULL;
  }
  return q;
}

void td_pathq_destroy(td_pathq *q) {
  if (!q) return;
  td_astar_destroy(q->search);
  td_mem_free(q->items, q->cap * sizeof *q->items);
  td_mem_free(q->path, q->path_cap * sizeof *q->path);
  td_mem_free(q, sizeof *q);
}

void td_pathq_set_simplify(td_pathq *q, const td_grid *grid) { q->simplify = grid; }

uint32_t td_pathq_request(td_pathq *q, int32_t start, int32_t goal, td_pathq_fn fn,
                          void *user, td_err *err) {
  const td_graph *g = q->graph;
  if (start < 0 || start >= g->node_count || goal < 0 || goal >= g->node_count) {
    td_err_set(err, "pathq: request %d -> %d names an unknown node (graph has %d)",
               start, goal, g->node_count);
    return 0;
  }
  if (!fn) {
    td_err_set(err, "pathq: request %d -> %d has no callback", start, goal);
    return 0;
  }
  if (q->tail == q->cap) {
    if (q->head > 0) {
      /* slide down: items[head] keeps being the head, active stays valid */
      memmove(q->items, q->items + q->head, (q->tail - q->head) * sizeof *q->items);
      q->tail -= q->head;
      q->head = 0;
    } else {
      request *p = td_mem_grow(q->items, &q->cap, q->cap + 1, sizeof *p);
      if (!p) {
        td_err_set(err, "pathq: out of memory");
        return 0;
      }
      q->items = p;
    }
  }
  uint32_t id = q->next_id++;
  if (q->next_id == 0) q->next_id = 1;
  q->items[q->tail++] = (request){.id = id, .start = start, .goal = goal, .fn = fn,
                                  .user = user};
  q->pending++;
  return id;
}

bool td_pathq_cancel(td_pathq *q, uint32_t id) {
  for (size_t i = q->head; i < q->tail; i++) {
    request *r = &q->items[i];
    if (r->id != id || !r->fn) continue;
    r->fn = NULL;
    q->pending--;
    q->stats.cancelled++;
    if (i == q->head) q->active = false; /* its search is abandoned */
    return true;
  }
  return false;
}

void td_pathq_restart(td_pathq *q) {
  if (q->active) {
    q->active = false;
    q->stats.restarts++;
  }
}

size_t td_pathq_pending(const td_pathq *q) { return q->pending; }

const td_pathq_stats *td_pathq_get_stats(const td_pathq *q) { return &q->stats; }

/* Every step of the path still open (the flags may have changed since the
** search expanded it). */
static bool path_open(const td_graph *g, const int32_t *path, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (g->node_blocked[path[i]]) return false;
  for (size_t i = 0; i + 1 < n; i++) {
    int32_t e = td_graph_find_edge(g, path[i], path[i + 1]);
    if (e == TD_NONE || !td_graph_edge_open(g, e)) return false;
  }
  return true;
}

/* Copies the found path into q->path. Returns its length, or 0 on OOM. */
static size_t take_path(td_pathq *q, td_cost *cost) {
  size_t n = td_astar_path(q->search, NULL, 0, cost);
  int32_t *p = td_mem_grow(q->path, &q->path_cap, n, sizeof *p);
  if (!p) return 0;
  q->path = p;
  return td_astar_path(q->search, q->path, n, cost);
}

size_t td_pathq_tick(td_pathq *q, uint64_t budget) {
  if (q->in_tick) return 0;
  q->in_tick = true;
  size_t delivered = 0;
  uint64_t used = 0;
  for (;;) {
    while (q->head < q->tail && !q->items[q->head].fn) q->head++;
    if (q->head == q->tail) {
      q->head = q->tail = 0;
      break;
    }
    request r = q->items[q->head];
    td_astar_status st;
    if (!q->active) {
      st = td_astar_begin(q->search, q->graph, r.start, r.goal, NULL);
      q->active = true;
    } else {
      st = td_astar_status_get(q->search);
    }
    if (st == TD_ASTAR_RUNNING) {
      uint64_t before = td_astar_expanded(q->search);
      st = td_astar_step(q->search, budget - used);
      used += td_astar_expanded(q->search) - before;
    }
    if (st == TD_ASTAR_RUNNING) break; /* budget spent */
    size_t len = 0;
    td_cost cost = TD_COST_INF;
    if (st == TD_ASTAR_FOUND) {
      len = take_path(q, &cost);
      if (len == 0) {
        st = TD_ASTAR_ERROR;
        cost = TD_COST_INF;
      } else if (!path_open(q->graph, q->path, len)) {
        q->active = false; /* stale: the flags changed under the search */
        q->stats.restarts++;
        continue;
      } else if (q->simplify) {
        len = td_grid_simplify(q->simplify, q->graph, q->path, len, q->path);
      }
    }
    q->head++;
    q->active = false;
    q->pending--;
    q->stats.delivered++;
    delivered++;
    r.fn(r.user, r.id, st, st == TD_ASTAR_FOUND ? q->path : NULL, len, cost);
  }
  q->stats.expansions += used;
  q->stats.last_expansions = used;
  q->in_tick = false;
  return delivered;
}
