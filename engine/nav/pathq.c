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
**
** A loaded queue (td_pathq_load) whose head search had begun keeps active
** true with `resume` set: the search is begun again, and stepped the
** expansions it had spent, at the next tick, on the graph as it is then.
**
** Two searches. With a grid (td_pathq_use_grid) a search that begins while
** the graph is uniform (td_jps_uniform) is a JPS search (its mirror synced
** with the node flags first), else an A* one; head_jps says which the
** head's is, and the calls below go to it. The choice is a function of the
** graph when the search begins, so a loaded queue, which begins it again
** on the same graph, makes the same one. A JPS path found stale is looked
** at once more: if the node flags are still those it searched (the sync
** changes nothing), an edge is blocked that no blocked cell explains (not
** a graph td_grid_changes maintains), and the request falls back to A*
** (head_astar) rather than restarting for ever.
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
  td_jps *jps;             /* NULL: A* only */
  bool head_jps;           /* the head's search is JPS's */
  bool head_astar;         /* the head fell back to A* (see the design note) */
  request *items;
  size_t head, tail, cap;
  size_t pending;          /* items in [head, tail) not cancelled */
  bool active;             /* items[head] has a search begun */
  bool resume;             /* ... in a saved queue: begin it again and step resume_spent */
  uint64_t resume_spent;
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
  td_jps_destroy(q->jps);
  td_astar_destroy(q->search);
  td_mem_free(q->items, q->cap * sizeof *q->items);
  td_mem_free(q->path, q->path_cap * sizeof *q->path);
  td_mem_free(q, sizeof *q);
}

void td_pathq_set_simplify(td_pathq *q, const td_grid *grid) { q->simplify = grid; }

int td_pathq_use_grid(td_pathq *q, const td_grid *grid, td_err *err) {
  if (q->active) return td_err_set(err, "pathq: a search is in progress");
  if (!grid) {
    td_jps_destroy(q->jps);
    q->jps = NULL;
    return 0;
  }
  td_jps *j = q->jps ? q->jps : td_jps_create(err);
  if (!j) return -1;
  if (td_jps_bind(j, grid, q->graph, err) != 0) {
    td_jps_destroy(j);
    q->jps = NULL;
    return -1;
  }
  q->jps = j;
  return 0;
}

/* The head's search: begun (JPS when it may), stepped, read. */
static td_astar_status search_begin(td_pathq *q, const request *r) {
  q->head_jps = q->jps && !q->head_astar && td_jps_uniform(q->jps);
  if (!q->head_jps) return td_astar_begin(q->search, q->graph, r->start, r->goal, NULL);
  td_jps_sync(q->jps);
  return td_jps_begin(q->jps, r->start, r->goal, NULL);
}

static td_astar_status search_step(td_pathq *q, uint64_t budget) {
  return q->head_jps ? td_jps_step(q->jps, budget) : td_astar_step(q->search, budget);
}

static td_astar_status search_status(const td_pathq *q) {
  return q->head_jps ? td_jps_status_get(q->jps) : td_astar_status_get(q->search);
}

static uint64_t search_expanded(const td_pathq *q) {
  return q->head_jps ? td_jps_expanded(q->jps) : td_astar_expanded(q->search);
}

static size_t search_path(const td_pathq *q, int32_t *out, size_t cap, td_cost *cost) {
  return q->head_jps ? td_jps_path(q->jps, out, cap, cost)
                     : td_astar_path(q->search, out, cap, cost);
}

/* The head request is gone (answered or cancelled): the next one starts
** with JPS again. */
static void head_done(td_pathq *q) {
  q->active = q->resume = false;
  q->head_astar = false;
}

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
    if (i == q->head) head_done(q); /* its search is abandoned */
    return true;
  }
  return false;
}

void td_pathq_restart(td_pathq *q) {
  if (q->active) {
    q->active = q->resume = false;
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
  size_t n = search_path(q, NULL, 0, cost);
  int32_t *p = td_mem_grow(q->path, &q->path_cap, n, sizeof *p);
  if (!p) return 0;
  q->path = p;
  return search_path(q, q->path, n, cost);
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
      st = search_begin(q, &r);
      q->active = true;
    } else if (q->resume) { /* a loaded queue: where the saved search was */
      st = search_begin(q, &r);
      if (st == TD_ASTAR_RUNNING && q->resume_spent > 0) st = search_step(q, q->resume_spent);
      q->resume = false;
    } else {
      st = search_status(q);
    }
    if (st == TD_ASTAR_RUNNING) {
      uint64_t before = search_expanded(q);
      st = search_step(q, budget - used);
      used += search_expanded(q) - before;
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
        /* stale: the flags changed under the search (or see head_astar) */
        if (q->head_jps && td_jps_sync(q->jps) == 0) q->head_astar = true;
        q->active = false;
        q->stats.restarts++;
        continue;
      } else if (q->simplify) {
        len = td_grid_simplify(q->simplify, q->graph, q->path, len, q->path);
      }
    }
    q->head++;
    head_done(q);
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

size_t td_pathq_ids(const td_pathq *q, uint32_t *ids, size_t cap) {
  size_t n = 0;
  for (size_t i = q->head; i < q->tail; i++) {
    if (!q->items[i].fn) continue;
    if (n < cap) ids[n] = q->items[i].id;
    n++;
  }
  return n;
}

/* ---- saves --------------------------------------------------------------- */

#define SAVE_MAGIC 0x51485450u /* "PTHQ" */

/* Expansions the head's search has spent since it began (0: none begun). */
static uint64_t head_spent(const td_pathq *q) {
  if (!q->active) return 0;
  return q->resume ? q->resume_spent : search_expanded(q);
}

static uint64_t fnv_u64(uint64_t h, uint64_t v) {
  uint8_t b[8];
  for (int k = 0; k < 8; k++) b[k] = (uint8_t)(v >> (8 * k));
  return td_blob_fnv(h, b, 8);
}

uint64_t td_pathq_checksum(const td_pathq *q, uint64_t h) {
  const td_pathq_stats *s = &q->stats;
  h = fnv_u64(h, q->next_id);
  h = fnv_u64(h, s->expansions);
  h = fnv_u64(h, s->last_expansions);
  h = fnv_u64(h, s->delivered);
  h = fnv_u64(h, s->cancelled);
  h = fnv_u64(h, s->restarts);
  h = fnv_u64(h, q->active);
  h = fnv_u64(h, head_spent(q));
  h = fnv_u64(h, q->pending);
  for (size_t i = q->head; i < q->tail; i++) {
    const request *r = &q->items[i];
    if (!r->fn) continue;
    h = fnv_u64(h, r->id);
    h = fnv_u64(h, (uint32_t)r->start);
    h = fnv_u64(h, (uint32_t)r->goal);
  }
  return h;
}

void td_pathq_save(const td_pathq *q, td_blob *b) {
  const td_pathq_stats *s = &q->stats;
  td_blob_u32(b, SAVE_MAGIC);
  td_blob_u32(b, q->next_id);
  td_blob_u64(b, s->expansions);
  td_blob_u64(b, s->last_expansions);
  td_blob_u64(b, s->delivered);
  td_blob_u64(b, s->cancelled);
  td_blob_u64(b, s->restarts);
  td_blob_u8(b, q->active ? 1 : 0);
  td_blob_u64(b, head_spent(q));
  td_blob_u64(b, q->pending);
  for (size_t i = q->head; i < q->tail; i++) {
    const request *r = &q->items[i];
    if (!r->fn) continue;
    td_blob_u32(b, r->id);
    td_blob_i32(b, r->start);
    td_blob_i32(b, r->goal);
  }
}

int td_pathq_load(td_pathq *q, td_blob_reader *r, td_pathq_fn fn, void *user, td_err *err) {
  if (q->in_tick) return td_err_set(err, "path queue: loaded from a callback");
  if (!fn) return td_err_set(err, "path queue: no callback");
  uint32_t magic = td_blob_get_u32(r);
  uint32_t next_id = td_blob_get_u32(r);
  td_pathq_stats s;
  s.expansions = td_blob_get_u64(r);
  s.last_expansions = td_blob_get_u64(r);
  s.delivered = td_blob_get_u64(r);
  s.cancelled = td_blob_get_u64(r);
  s.restarts = td_blob_get_u64(r);
  uint8_t active = td_blob_get_u8(r);
  uint64_t spent = td_blob_get_u64(r), n = td_blob_get_u64(r);
  if (r->failed) return td_err_set(err, "path queue: truncated");
  if (magic != SAVE_MAGIC) return td_err_set(err, "path queue: not a path queue's state");
  if (next_id == 0) return td_err_set(err, "path queue: next id 0");
  if (active > 1 || (active && n == 0) || (!active && spent != 0))
    return td_err_set(err, "path queue: a search in progress (%u, %llu expansions) without "
                      "its request", (unsigned)active, (unsigned long long)spent);
  /* a search never expands more than every node a few times (a reopened
  ** node is expanded again): far more is not a save of ours */
  if (spent > (uint64_t)q->graph->node_count * 64u + 64u)
    return td_err_set(err, "path queue: %llu expansions spent on a graph of %d nodes",
                      (unsigned long long)spent, q->graph->node_count);
  if (n > (r->len - r->pos) / 12) return td_err_set(err, "path queue: truncated");
  request *items = n ? td_mem_alloc((size_t)n * sizeof *items) : NULL;
  if (n && !items) return td_err_set(err, "path queue: out of memory");
  for (size_t i = 0; i < (size_t)n; i++) {
    request *it = &items[i];
    it->id = td_blob_get_u32(r);
    it->start = td_blob_get_i32(r);
    it->goal = td_blob_get_i32(r);
    it->fn = fn;
    it->user = user;
    int32_t nodes = q->graph->node_count;
    const char *why = it->id == 0                                 ? "id 0"
                      : it->start < 0 || it->start >= nodes        ? "start not in the graph"
                      : it->goal < 0 || it->goal >= nodes          ? "goal not in the graph"
                                                                   : NULL;
    for (size_t k = 0; k < i && !why; k++)
      if (items[k].id == it->id) why = "an id twice";
    if (why || r->failed) {
      request bad = *it;
      td_mem_free(items, (size_t)n * sizeof *items);
      if (r->failed) return td_err_set(err, "path queue: truncated");
      return td_err_set(err, "path queue: request %zu (id %u, %d -> %d): %s", i, bad.id,
                        (int)bad.start, (int)bad.goal, why);
    }
  }
  td_mem_free(q->items, q->cap * sizeof *q->items);
  q->items = items;
  q->cap = (size_t)n;
  q->head = 0;
  q->tail = q->pending = (size_t)n;
  q->active = q->resume = active != 0;
  q->head_jps = q->head_astar = false;
  q->resume_spent = spent;
  q->next_id = next_id;
  q->stats = s;
  return 0;
}
