/*
** bench_route.c: `td bench route`, the routing benchmark.
**
** For each graph: the median time of a full recompute (td_route_full, in
** the route's own numbering: the Hilbert cache order on geometric graphs,
** the grid's row order on grids; route.h), the same recompute done by a
** plain binary-heap Dijkstra on the graph as generated (ids in insertion
** order, random on geometric graphs) in the same process (the baseline; its
** distances must equal ours, or the bench fails), on a reordered graph the
** route once more in the graph's own order (the effect of the order alone;
** its distances must match too), and the
** latency of incremental updates over random tower placements, each checked
** for legality against a spawn (td_route_try_apply). Towers stay (at most
** max_towers at once; the oldest is sold, which is an unblock update and is
** timed too). Absolute times drift on a shared machine; the ratios printed
** beside them are the figures to compare.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/bench.h"
#include "app/cmds.h"
#include "app/graphgen.h"
#include "nav/route.h"

/* ---- the baseline: a textbook lazy binary-heap Dijkstra ------------------ */

typedef struct base_item {
  td_cost key;
  int32_t node;
} base_item;

typedef struct baseline {
  base_item *heap;
  size_t len, cap;
  td_cost *dist;
} baseline;

static void base_push(baseline *b, td_cost key, int32_t node) {
  if (b->len == b->cap) {
    base_item *p = td_mem_grow(b->heap, &b->cap, b->len + 1, sizeof *p);
    if (!p) abort();
    b->heap = p;
  }
  size_t i = b->len++;
  while (i > 0) {
    size_t parent = (i - 1) / 2;
    if (b->heap[parent].key <= key) break;
    b->heap[i] = b->heap[parent];
    i = parent;
  }
  b->heap[i] = (base_item){key, node};
}

static base_item base_pop(baseline *b) {
  base_item top = b->heap[0], last = b->heap[--b->len];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= b->len) break;
    if (c + 1 < b->len && b->heap[c + 1].key < b->heap[c].key) c++;
    if (last.key <= b->heap[c].key) break;
    b->heap[i] = b->heap[c];
    i = c;
  }
  if (b->len > 0) b->heap[i] = last;
  return top;
}

static void base_run(baseline *b, const td_graph *g, const int32_t *goals, size_t ng) {
  for (int32_t v = 0; v < g->node_count; v++) b->dist[v] = TD_COST_INF;
  b->len = 0;
  for (size_t i = 0; i < ng; i++)
    if (!g->node_blocked[goals[i]]) {
      b->dist[goals[i]] = 0;
      base_push(b, 0, goals[i]);
    }
  while (b->len > 0) {
    base_item it = base_pop(b);
    if (it.key != b->dist[it.node]) continue; /* stale */
    for (int32_t k = g->adj_start[it.node]; k < g->adj_start[it.node + 1]; k++) {
      int32_t e = g->adj_edge[k], v = g->adj_to[k];
      if (!td_graph_edge_open(g, e)) continue;
      td_cost nd = it.key + g->edges[e].w;
      if (nd < b->dist[v]) {
        b->dist[v] = nd;
        base_push(b, nd, v);
      }
    }
  }
}

/* ---- cases --------------------------------------------------------------- */

typedef enum case_kind { CASE_GRID, CASE_MAZE, CASE_GEOMETRIC } case_kind;

typedef struct bench_case {
  const char *name;
  case_kind kind;
  int32_t size;   /* grid side, or node count */
  bool quick;     /* part of --quick */
} bench_case;

static const bench_case cases[] = {
  {"grid8-100", CASE_GRID, 100, true},
  {"grid8-316", CASE_GRID, 316, true},
  {"grid8-1000", CASE_GRID, 1000, false},
  {"maze-100", CASE_MAZE, 101, true},
  {"maze-316", CASE_MAZE, 317, false},
  {"maze-1000", CASE_MAZE, 1001, false},
  {"rgg-10k", CASE_GEOMETRIC, 10000, true},
  {"rgg-1M", CASE_GEOMETRIC, 1000000, false},
};

/* A tower: where it stands (2x2 cells on grids, one node on geometric
** graphs) and the batch that placed it. */
typedef struct tower {
  int32_t cells[4];
  int32_t node;
  td_graph_change block[32];
  size_t n;
} tower;

typedef struct world {
  td_grid *grid;   /* NULL for geometric graphs */
  td_graph *g;
  int32_t goal, spawn;
} world;

static int32_t nearest_node(const td_graph *g, double x, double y) {
  int32_t best = 0;
  double bd = INFINITY;
  for (int32_t v = 0; v < g->node_count; v++) {
    double d = hypot(g->x[v] - x, g->y[v] - y);
    if (d < bd) {
      bd = d;
      best = v;
    }
  }
  return best;
}

static int build_world(const bench_case *c, uint64_t seed, world *w) {
  td_graphgen_rng rng = {seed};
  memset(w, 0, sizeof *w);
  if (c->kind == CASE_GEOMETRIC) {
    w->g = td_graphgen_geometric(c->size, 8.0, &rng);
    if (!w->g) return -1;
    double side = sqrt((double)c->size);
    w->goal = nearest_node(w->g, side, side);
    w->spawn = nearest_node(w->g, 0, 0);
    return 0;
  }
  w->grid = c->kind == CASE_GRID ? td_graphgen_open_grid(c->size, c->size)
                                 : td_graphgen_maze(c->size, c->size, 10, &rng);
  if (!w->grid) return -1;
  /* corners: goal bottom-right, spawn top-left (rooms in a maze) */
  int32_t lo = c->kind == CASE_MAZE ? 1 : 0, hi = c->kind == CASE_MAZE ? c->size - 2 : c->size - 1;
  td_grid_set_walkable(w->grid, lo, lo, true);
  td_grid_set_walkable(w->grid, hi, hi, true);
  w->g = td_grid_build_graph(w->grid, NULL);
  if (!w->g) return -1;
  w->goal = td_grid_node_at(w->grid, hi, hi);
  w->spawn = td_grid_node_at(w->grid, lo, lo);
  return 0;
}

static void free_world(world *w) {
  td_graph_destroy(w->g);
  td_grid_destroy(w->grid);
}

/* A random tower: 2x2 cells on grids, one node on geometric graphs. A spot
** where a standing tower already blocks a node is skipped (t->n == 0). */
static void random_tower(const world *w, td_graphgen_rng *rng, tower *t) {
  if (w->grid) {
    int32_t x = (int32_t)td_graphgen_below(rng, (uint32_t)(w->grid->width - 1));
    int32_t y = (int32_t)td_graphgen_below(rng, (uint32_t)(w->grid->height - 1));
    int32_t row = y * w->grid->width + x;
    int32_t cells[4] = {row, row + 1, row + w->grid->width, row + w->grid->width + 1};
    memcpy(t->cells, cells, sizeof cells);
    t->n = td_grid_changes(w->grid, w->g, cells, 4, true, t->block, 32);
    if (t->n > 32) t->n = 0;
    for (size_t i = 0; i < t->n; i++)
      if (t->block[i].kind == TD_CHANGE_BLOCK_NODE && w->g->node_blocked[t->block[i].id]) t->n = 0;
    return;
  }
  t->node = (int32_t)td_graphgen_below(rng, (uint32_t)w->g->node_count);
  t->n = w->g->node_blocked[t->node] ? 0 : 1;
  t->block[0] = (td_graph_change){.kind = TD_CHANGE_BLOCK_NODE, .id = t->node};
}

/* Sells a tower: the grid decides what reopens (a diagonal stays closed
** while a neighbouring tower still blocks its other corner). */
static void sell_tower(const world *w, td_route *r, const tower *t) {
  td_graph_change c[32];
  size_t n = 1;
  if (w->grid) n = td_grid_changes(w->grid, w->g, t->cells, 4, false, c, 32);
  else c[0] = (td_graph_change){.kind = TD_CHANGE_UNBLOCK_NODE, .id = t->node};
  if (n > 32 || td_route_apply(r, c, n, NULL) != 0) abort();
}

static int run_case(const bench_case *c, const bench_opts *o) {
  world w;
  double t0 = bench_now_ms();
  if (build_world(c, o->seed, &w) != 0) {
    td_app_say("bench route: %s: out of memory", c->name);
    free_world(&w);
    return 2;
  }
  double build_ms = bench_now_ms() - t0;
  td_err err;
  td_route *r = td_route_create(w.g, &w.goal, 1, &err);
  if (!r) {
    td_app_say("bench route: %s: %s", c->name, err.msg);
    free_world(&w);
    return 2;
  }
  int32_t n = w.g->node_count;
  int reps = n >= 500000 ? 5 : n >= 50000 ? 9 : 25;
  /* the same route in the graph's order, on a copy (one route per graph) */
  td_graph *g2 = NULL;
  td_route *r2 = NULL;
  if (td_route_reordered(r)) {
    g2 = td_graph_clone(w.g, &err);
    r2 = g2 ? td_route_create_ordered(g2, &w.goal, 1, TD_ROUTE_ORDER_NONE, &err) : NULL;
    if (!r2) {
      td_app_say("bench route: %s: %s", c->name, err.msg);
      exit(2);
    }
  }

  /* full recompute: ours and the baseline, interleaved so drift hits both */
  /* the baseline allocates through the same hook as td (huge pages alike) */
  baseline b = {.dist = td_mem_alloc((size_t)n * sizeof(td_cost))};
  double *full = malloc((size_t)reps * sizeof *full), *base = malloc((size_t)reps * sizeof *base);
  double *plain = malloc((size_t)reps * sizeof *plain);
  size_t placements = o->placements, max_towers = 200;
  tower *alive = calloc(max_towers, sizeof *alive);
  double *lat = malloc((2 * placements + 1) * sizeof *lat);
  if (!b.dist || !full || !base || !plain || !alive || !lat) {
    td_app_say("bench route: %s: out of memory", c->name);
    exit(2);
  }
  int status = 0;
  for (int i = 0; i < reps; i++) {
    double s = bench_now_ms();
    td_route_full(r);
    full[i] = bench_now_ms() - s;
    s = bench_now_ms();
    base_run(&b, w.g, &w.goal, 1);
    base[i] = bench_now_ms() - s;
    plain[i] = 0.0;
    if (r2) {
      s = bench_now_ms();
      td_route_full(r2);
      plain[i] = bench_now_ms() - s;
    }
  }
  if (memcmp(b.dist, td_route_dist(r), (size_t)n * sizeof(td_cost)) != 0 ||
      (r2 && memcmp(b.dist, td_route_dist(r2), (size_t)n * sizeof(td_cost)) != 0)) {
    td_app_say("bench route: %s: route distances differ from the baseline Dijkstra",
               c->name);
    status = 1;
  }
  if (r2 && memcmp(td_route_next(r), td_route_next(r2), (size_t)n * sizeof(int32_t)) != 0) {
    td_app_say("bench route: %s: the route in cache order differs from the graph's order",
               c->name);
    status = 1;
  }
  td_route_destroy(r2);
  td_graph_destroy(g2);
  qsort(full, (size_t)reps, sizeof *full, bench_cmp_double);
  qsort(base, (size_t)reps, sizeof *base, bench_cmp_double);
  qsort(plain, (size_t)reps, sizeof *plain, bench_cmp_double);
  double full_ms = full[reps / 2], base_ms = base[reps / 2], plain_ms = plain[reps / 2];

  /* incremental: place towers at random, sell the oldest past max_towers */
  td_graphgen_rng rng = {o->seed ^ 0xBEEFull};
  size_t nlat = 0, nalive = 0, oldest = 0, refused = 0, placed = 0;
  uint64_t fallbacks0 = td_route_get_stats(r)->fallback_count;
  for (size_t i = 0; i < placements; i++) {
    tower t;
    random_tower(&w, &rng, &t);
    if (t.n == 0) continue;
    td_route_verdict v;
    double s = bench_now_ms();
    if (td_route_try_apply(r, t.block, t.n, &w.spawn, 1, &v, NULL) != 0) abort();
    lat[nlat++] = bench_now_ms() - s;
    if (!v.ok) {
      refused++;
      continue;
    }
    placed++;
    if (nalive == max_towers) {
      tower *old = &alive[oldest];
      s = bench_now_ms();
      sell_tower(&w, r, old);
      lat[nlat++] = bench_now_ms() - s;
      *old = t;
      oldest = (oldest + 1) % max_towers;
    } else {
      alive[nalive++] = t;
    }
  }
  uint64_t fallbacks = td_route_get_stats(r)->fallback_count - fallbacks0;
  if (td_route_validate(r, &err) != 0) {
    td_app_say("bench route: %s: %s", c->name, err.msg);
    status = 1;
  }
  qsort(lat, nlat, sizeof *lat, bench_cmp_double);
  double p50 = bench_quantile(lat, nlat, 0.50) * 1e3, p99 = bench_quantile(lat, nlat, 0.99) * 1e3;
  double mx = nlat ? lat[nlat - 1] * 1e3 : 0.0;

  if (o->json) {
    bench_emit("route", c->name, "nodes", n);
    bench_emit("route", c->name, "edges", w.g->edge_count);
    bench_emit("route", c->name, "build_ms", build_ms);
    bench_emit("route", c->name, "full_ms", full_ms);
    bench_emit("route", c->name, "baseline_ms", base_ms);
    bench_emit("route", c->name, "baseline_over_full", base_ms / full_ms);
    bench_emit("route", c->name, "cache_order", r2 ? 1.0 : 0.0);
    if (r2) {
      bench_emit("route", c->name, "graph_order_full_ms", plain_ms);
      bench_emit("route", c->name, "graph_order_over_full", plain_ms / full_ms);
    }
    bench_emit("route", c->name, "incr_p50_us", p50);
    bench_emit("route", c->name, "incr_p99_us", p99);
    bench_emit("route", c->name, "incr_max_us", mx);
    bench_emit("route", c->name, "full_over_incr_p50", full_ms * 1e3 / (p50 > 0 ? p50 : 1e-3));
    bench_emit("route", c->name, "placed", (double)placed);
    bench_emit("route", c->name, "refused", (double)refused);
    bench_emit("route", c->name, "fallbacks", (double)fallbacks);
  } else {
    char order[16] = "     -";
    if (r2) snprintf(order, sizeof order, "%5.2fx", plain_ms / full_ms);
    printf("%-11s %8d %9d %9.2f %9.2f %6.2fx %6s %9.2f %9.1f %9.1f %6zu %6zu %5llu\n", c->name,
           n, w.g->edge_count, full_ms, base_ms, base_ms / full_ms, order, p50, p99, mx, placed,
           refused, (unsigned long long)fallbacks);
    fflush(stdout);
  }
  free(alive);
  free(lat);
  free(full);
  free(base);
  free(plain);
  td_mem_free(b.dist, (size_t)n * sizeof(td_cost));
  td_mem_free(b.heap, b.cap * sizeof *b.heap);
  td_route_destroy(r);
  free_world(&w);
  return status;
}

int td_bench_route(const bench_opts *o) {
  if (!o->json) {
    printf("td bench route  (seed %llu, %zu placements per graph, medians of repeated runs)\n",
           (unsigned long long)o->seed, o->placements);
    printf("%-11s %8s %9s %9s %9s %7s %6s %9s %9s %9s %6s %6s %5s\n", "case", "nodes", "edges",
           "full ms", "base ms", "speedup", "order", "inc p50us", "inc p99us", "inc maxus",
           "placed", "refuse", "fallb");
  }
  int status = 0, ran = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    if (o->quick && !cases[i].quick) continue;
    if (o->only && strcmp(o->only, cases[i].name) != 0) continue;
    int s = run_case(&cases[i], o);
    if (s > status) status = s;
    ran++;
  }
  if (ran == 0) {
    td_app_say("bench route: no case named '%s'", o->only ? o->only : "");
    return 2;
  }
  if (!o->json)
    printf("full = td_route_full, in the route's numbering (Hilbert cache order on geometric\n"
           "graphs, row order on grids); base = a plain binary-heap Dijkstra on the graph as\n"
           "generated (geometric graphs: ids in random order); speedup = base / full;\n"
           "order = td_route_full in the graph's own order / in cache order (the order's\n"
           "share of the speedup; '-': the route keeps the graph's order)\n");
  return status;
}
