/*
** astar.c: budgeted A* with an indexed 4-ary heap and generation stamps.
**
** Design note.
** Per node: g (best cost so far), parent, pos (index in the heap, or
** CLOSED) and stamp. A node whose stamp differs from the search's gen has
** never been reached by this search, whatever the other arrays hold, so a
** search starts in O(1). gen wraps after 2^32 - 1 searches; the stamps are
** then cleared once.
**
** The heap (nav/fheap.h) holds (f, h, node) so comparisons touch only its array.
** A node is in it at most once (an improvement is a decrease-key), so it
** never holds more than node_count entries. A 4-ary heap halves the depth
** of a binary one; pops do four comparisons a level, which stay in one or
** two cache lines.
**
** Costs saturate at TD_COST_INF - 1 instead of wrapping: a graph built with
** absurd factors still gets a deterministic, if meaningless, answer.
*/
#include "nav/astar.h"

#include <math.h>
#include <string.h>

#include "nav/fheap.h"

#define CLOSED TD_FHEAP_CLOSED

struct td_astar {
  size_t cap;            /* nodes the arrays hold */
  td_cost *g;
  int32_t *parent;
  uint32_t *stamp;
  td_fheap open;         /* item, pos (per node), len */
  uint32_t gen;

  const td_graph *graph;
  int32_t goal;
  double goal_x, goal_y;
  td_astar_status status;
  uint64_t expanded;
  size_t path_len;       /* nodes on the path, when FOUND */
  /* heuristic: octile (exact, or scaled by h_scale) or Euclidean */
  enum { H_OCTILE_EXACT, H_OCTILE_SCALED, H_EUCLID } h_kind;
  td_cost w1, w2;        /* grid weights, for H_OCTILE_EXACT */
  double cell;
  double h_scale;        /* fixed-point units per map unit, lowered a little */
};

static td_cost sat_add(td_cost a, td_cost b) {
  return a > TD_COST_INF - 1 - b ? TD_COST_INF - 1 : a + b;
}

static td_cost sat_mul(td_cost a, td_cost b) {
  if (a != 0 && b > (TD_COST_INF - 1) / a) return TD_COST_INF - 1;
  return a * b;
}

/* A double cost estimate, rounded down and saturated. */
static td_cost floor_cost(double v) {
  if (!(v > 0.0)) return 0;
  if (v >= 1.8e19) return TD_COST_INF - 1;
  return (td_cost)v;
}

static td_cost heuristic(const td_astar *s, int32_t n) {
  const td_graph *g = s->graph;
  double dx = fabs(g->x[n] - s->goal_x), dy = fabs(g->y[n] - s->goal_y);
  if (s->h_kind == H_EUCLID) return floor_cost(hypot(dx, dy) * s->h_scale);
  /* nodes sit at cell centres: the deltas are whole cells up to rounding */
  double cx = nearbyint(dx / s->cell), cy = nearbyint(dy / s->cell);
  double lo = cx < cy ? cx : cy, hi = cx < cy ? cy : cx;
  if (s->h_kind == H_OCTILE_SCALED)
    return floor_cost(((hi - lo) + lo * sqrt(2.0)) * s->cell * s->h_scale);
  if (hi >= 9.0e15) return TD_COST_INF - 1; /* beyond exact integers: unreachable sizes */
  return sat_add(sat_mul((td_cost)lo, s->w2), sat_mul((td_cost)(hi - lo), s->w1));
}


/* ------------------------------------------------------------------ */

td_astar *td_astar_create(td_err *err) {
  td_astar *s = td_mem_calloc(1, sizeof *s);
  if (!s) {
    td_err_set(err, "astar: out of memory");
    return NULL;
  }
  s->status = TD_ASTAR_ERROR;
  s->goal = TD_NONE;
  return s;
}

static void free_arrays(size_t cap, td_cost *g, int32_t *parent, int32_t *pos,
                        uint32_t *stamp, td_fheap_item *heap) {
  td_mem_free(g, cap * sizeof *g);
  td_mem_free(parent, cap * sizeof *parent);
  td_mem_free(pos, cap * sizeof *pos);
  td_mem_free(stamp, cap * sizeof *stamp);
  td_mem_free(heap, cap * sizeof *heap);
}

void td_astar_destroy(td_astar *s) {
  if (!s) return;
  free_arrays(s->cap, s->g, s->parent, s->open.pos, s->stamp, s->open.item);
  td_mem_free(s, sizeof *s);
}

/* Growing discards the arrays' contents, so it only happens between
** searches (reserve and begin abandon the search in progress). */
int td_astar_reserve(td_astar *s, int32_t node_count, td_err *err) {
  if (node_count <= 0 || (size_t)node_count <= s->cap) return 0;
  size_t cap = (size_t)node_count;
  td_cost *g = td_mem_alloc(cap * sizeof *g);
  int32_t *parent = td_mem_alloc(cap * sizeof *parent);
  int32_t *pos = td_mem_alloc(cap * sizeof *pos);
  uint32_t *stamp = td_mem_calloc(cap, sizeof *stamp);
  td_fheap_item *heap = td_mem_alloc(cap * sizeof *heap);
  if (!g || !parent || !pos || !stamp || !heap) {
    free_arrays(cap, g, parent, pos, stamp, heap);
    return td_err_set(err, "astar: out of memory for %d nodes", node_count);
  }
  free_arrays(s->cap, s->g, s->parent, s->open.pos, s->stamp, s->open.item);
  s->cap = cap;
  s->g = g;
  s->parent = parent;
  s->open.pos = pos;
  s->stamp = stamp;
  s->open.item = heap;
  s->open.len = 0;
  s->gen = 0; /* every stamp is 0: nothing reached */
  s->status = TD_ASTAR_ERROR;
  s->graph = NULL;
  return 0;
}

/* Marks n reached by this search with cost gn from parent p. */
static void reach(td_astar *s, int32_t n, td_cost gn, int32_t p) {
  s->stamp[n] = s->gen;
  s->g[n] = gn;
  s->parent[n] = p;
  td_cost h = heuristic(s, n);
  td_fheap_push(&s->open, n, sat_add(gn, h), h);
}

static void choose_heuristic(td_astar *s, const td_graph *g) {
  double mf = (double)g->min_factor;
  /* keep a margin below the smallest factor, so that the rounding of the
  ** products below never makes the heuristic overestimate */
  s->h_scale = mf * (double)TD_COST_ONE * (1.0 - 1e-6);
  s->cell = g->grid_cell;
  if (!(g->grid_cell > 0.0)) {
    s->h_kind = H_EUCLID;
  } else if (mf >= 1.0) {
    /* every edge weighs at least grid.c's weight for its step */
    s->h_kind = H_OCTILE_EXACT;
    td_graph_grid_weights(g->grid_cell, &s->w1, &s->w2);
  } else {
    s->h_kind = H_OCTILE_SCALED;
  }
}

td_astar_status td_astar_begin(td_astar *s, const td_graph *g, int32_t start,
                               int32_t goal, td_err *err) {
  s->status = TD_ASTAR_ERROR;
  s->graph = NULL;
  s->expanded = 0;
  s->open.len = 0;
  s->path_len = 0;
  if (!g->finalized) {
    td_err_set(err, "astar: the graph is not finalized");
    return TD_ASTAR_ERROR;
  }
  if (start < 0 || start >= g->node_count || goal < 0 || goal >= g->node_count) {
    td_err_set(err, "astar: path %d -> %d names an unknown node (graph has %d)", start,
               goal, g->node_count);
    return TD_ASTAR_ERROR;
  }
  if (td_astar_reserve(s, g->node_count, err)) return TD_ASTAR_ERROR;
  if (++s->gen == 0) {
    memset(s->stamp, 0, s->cap * sizeof *s->stamp);
    s->gen = 1;
  }
  s->graph = g;
  s->goal = goal;
  s->goal_x = g->x[goal];
  s->goal_y = g->y[goal];
  choose_heuristic(s, g);
  if (g->node_blocked[start] || g->node_blocked[goal]) {
    s->status = TD_ASTAR_NO_PATH;
  } else if (start == goal) {
    s->stamp[start] = s->gen;
    s->g[start] = 0;
    s->parent[start] = TD_NONE;
    s->path_len = 1;
    s->status = TD_ASTAR_FOUND;
  } else {
    reach(s, start, 0, TD_NONE);
    s->status = TD_ASTAR_RUNNING;
  }
  return s->status;
}

td_astar_status td_astar_step(td_astar *s, uint64_t budget) {
  if (s->status != TD_ASTAR_RUNNING) return s->status;
  const td_graph *g = s->graph;
  while (budget > 0 && s->open.len > 0) {
    int32_t u = td_fheap_pop(&s->open);
    budget--;
    s->expanded++;
    if (u == s->goal) {
      size_t len = 1;
      for (int32_t n = u; s->parent[n] != TD_NONE; n = s->parent[n]) len++;
      s->path_len = len;
      s->status = TD_ASTAR_FOUND;
      return s->status;
    }
    td_cost gu = s->g[u];
    for (int32_t i = g->adj_start[u]; i < g->adj_start[u + 1]; i++) {
      int32_t e = g->adj_edge[i];
      if (!td_graph_edge_open(g, e)) continue;
      int32_t v = g->adj_to[i];
      td_cost nd = sat_add(gu, g->edges[e].w);
      if (s->stamp[v] != s->gen) {
        reach(s, v, nd, u);
      } else if (nd < s->g[v]) {
        /* a strictly better route; equal ones keep the first parent */
        s->g[v] = nd;
        s->parent[v] = u;
        if (s->open.pos[v] == CLOSED) {
          td_cost h = heuristic(s, v); /* reopened: inconsistent heuristic */
          td_fheap_push(&s->open, v, sat_add(nd, h), h);
        } else {
          td_fheap_lower(&s->open, v, sat_add(nd, td_fheap_h(&s->open, v)));
        }
      }
    }
  }
  if (s->open.len == 0) s->status = TD_ASTAR_NO_PATH;
  return s->status;
}

td_astar_status td_astar_status_get(const td_astar *s) { return s->status; }

uint64_t td_astar_expanded(const td_astar *s) { return s->expanded; }

/* A node reached by this search (stamp == gen) always had pos written by
** td_fheap_push, except the start of a start == goal answer, which expanded
** nothing: hence the expanded test before pos is read. */
bool td_astar_closed(const td_astar *s, int32_t n) {
  if (!s->graph || s->expanded == 0 || n < 0 || n >= s->graph->node_count) return false;
  return s->stamp[n] == s->gen && s->open.pos[n] == CLOSED;
}

size_t td_astar_path(const td_astar *s, int32_t *out, size_t cap, td_cost *cost) {
  if (s->status != TD_ASTAR_FOUND) {
    if (cost) *cost = TD_COST_INF;
    return 0;
  }
  if (cost) *cost = s->g[s->goal];
  if (cap == 0) return s->path_len; /* sizing: no walk */
  size_t i = s->path_len;
  for (int32_t n = s->goal; n != TD_NONE; n = s->parent[n]) {
    i--;
    if (i < cap) out[i] = n;
  }
  return s->path_len;
}

td_astar_status td_astar_find(td_astar *s, const td_graph *g, int32_t start,
                              int32_t goal, td_err *err) {
  td_astar_status st = td_astar_begin(s, g, start, goal, err);
  while (st == TD_ASTAR_RUNNING) st = td_astar_step(s, UINT64_MAX);
  return st;
}
