/*
** test_order.c: the Hilbert cache order (nav/order.h) and routes that work
** in it (route.h): the curve itself, and a reordered route giving the same
** dist, next, goals, verdicts and changed nodes, in the graph's ids, as one
** in the graph's order, after full recomputes and every kind of update, on
** random geometric graphs, grids and the bundled maps.
*/
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nav/graph.h"
#include "nav/grid.h"
#include "nav/order.h"
#include "nav/route.h"
#include "script/mapfile.h"
#include "sim/map.h"

/* ---- the curve ------------------------------------------------------------ */

/* On every grid up to 64 x 64 the key is a bijection onto [0, 4^bits) and
** consecutive keys are cells that share a side. */
static void test_hilbert_key_curve(void **state) {
  (void)state;
  for (int bits = 1; bits <= 6; bits++) {
    uint32_t side = 1u << bits;
    size_t cells = (size_t)side * side;
    int32_t *at = malloc(cells * 2 * sizeof *at);
    assert_non_null(at);
    memset(at, 0xff, cells * 2 * sizeof *at);
    for (uint32_t y = 0; y < side; y++)
      for (uint32_t x = 0; x < side; x++) {
        uint64_t k = td_order_hilbert_key(x, y, bits);
        assert_true(k < cells);
        assert_int_equal(at[2 * k], -1); /* no two cells share a key */
        at[2 * k] = (int32_t)x;
        at[2 * k + 1] = (int32_t)y;
      }
    for (size_t k = 1; k < cells; k++) {
      int32_t dx = abs(at[2 * k] - at[2 * k - 2]), dy = abs(at[2 * k + 1] - at[2 * k - 1]);
      assert_int_equal(dx + dy, 1);
    }
    /* the curve starts in a corner and ends in the next one along a side */
    assert_int_equal(at[0], 0);
    assert_int_equal(at[1], 0);
    assert_int_equal(at[2 * (cells - 1)], (int32_t)side - 1);
    assert_int_equal(at[2 * (cells - 1) + 1], 0);
    free(at);
  }
  /* the full 16-bit grid's corners */
  assert_true(td_order_hilbert_key(0, 0, TD_ORDER_BITS) == 0);
  assert_true(td_order_hilbert_key(65535, 0, TD_ORDER_BITS) == 0xFFFFFFFFull);
}

/* td_order_hilbert: a permutation, along the curve (keys never go down),
** with consecutive points near, ties in id order, and the same for the
** same points. */
static void test_hilbert_order_points(void **state) {
  (void)state;
  enum { N = 5000 };
  static double x[N], y[N];
  static int32_t order[N], again[N];
  static uint8_t seen[N];
  td_test_rng rng = {42};
  for (int i = 0; i < N; i++) {
    x[i] = 100.0 + 300.0 * td_test_unit(&rng);
    y[i] = -50.0 + 300.0 * td_test_unit(&rng);
  }
  x[7] = x[3]; /* two points on one spot: their ids stay in order */
  y[7] = y[3];
  td_err err;
  assert_int_equal(td_order_hilbert(x, y, N, order, &err), 0);
  double sum_order = 0.0, sum_ids = 0.0;
  int pos3 = -1, pos7 = -1;
  for (int i = 0; i < N; i++) {
    assert_true(order[i] >= 0 && order[i] < N);
    assert_int_equal(seen[order[i]], 0);
    seen[order[i]] = 1;
    if (order[i] == 3) pos3 = i;
    if (order[i] == 7) pos7 = i;
    if (i == 0) continue;
    int32_t a = order[i - 1], b = order[i];
    sum_order += hypot(x[a] - x[b], y[a] - y[b]);
    sum_ids += hypot(x[i - 1] - x[i], y[i - 1] - y[i]);
  }
  assert_int_equal(pos7, pos3 + 1);
  /* the mean step along the curve is about a point spacing (300 / sqrt N,
  ** some 4 units); in id order it is a third of the square (about 156) */
  assert_true(sum_order / (N - 1) < 10.0);
  assert_true(sum_order * 10.0 < sum_ids);
  assert_int_equal(td_order_hilbert(x, y, N, again, &err), 0);
  assert_memory_equal(order, again, sizeof order);
  /* one point, and many on one spot: the identity */
  assert_int_equal(td_order_hilbert(x, y, 1, order, &err), 0);
  assert_int_equal(order[0], 0);
  for (int i = 0; i < 10; i++) x[i] = y[i] = 5.0;
  assert_int_equal(td_order_hilbert(x, y, 10, order, &err), 0);
  for (int i = 0; i < 10; i++) assert_int_equal(order[i], i);
}

/* ---- a reordered route against one in the graph's order -------------------- */

/* Two routes on two copies of one graph (a route per graph): plain in the
** graph's order, ordered in the Hilbert order. */
typedef struct pair {
  td_graph *ga, *gb;
  td_route *plain, *ordered;
  int32_t n;
  td_cost *dist_before;
  int32_t *next_before;
} pair;

static void pair_make(pair *p, const td_graph *g, const int32_t *goals, size_t ng) {
  td_err err;
  p->ga = td_graph_clone(g, &err);
  p->gb = td_graph_clone(g, &err);
  assert_non_null(p->ga);
  assert_non_null(p->gb);
  p->plain = td_route_create_ordered(p->ga, goals, ng, TD_ROUTE_ORDER_NONE, &err);
  p->ordered = td_route_create_ordered(p->gb, goals, ng, TD_ROUTE_ORDER_HILBERT, &err);
  assert_non_null(p->plain);
  assert_non_null(p->ordered);
  assert_false(td_route_reordered(p->plain));
  assert_true(td_route_reordered(p->ordered));
  p->n = g->node_count;
  p->dist_before = malloc((size_t)(p->n ? p->n : 1) * sizeof *p->dist_before);
  p->next_before = malloc((size_t)(p->n ? p->n : 1) * sizeof *p->next_before);
  assert_non_null(p->dist_before);
  assert_non_null(p->next_before);
}

static void pair_free(pair *p) {
  td_route_destroy(p->plain);
  td_route_destroy(p->ordered);
  td_graph_destroy(p->ga);
  td_graph_destroy(p->gb);
  free(p->dist_before);
  free(p->next_before);
}

/* Before an update: what the ordered route hands out now. */
static void pair_remember(pair *p) {
  memcpy(p->dist_before, td_route_dist(p->ordered), (size_t)p->n * sizeof(td_cost));
  memcpy(p->next_before, td_route_next(p->ordered), (size_t)p->n * sizeof(int32_t));
}

/* The same state, in graph ids, on both; both valid; the ordered route's
** changed list names every node whose dist or next moved. */
static void pair_check(pair *p) {
  td_err err;
  int32_t n = p->n;
  if (td_route_validate(p->plain, &err) != 0) fail_msg("plain: %s", err.msg);
  if (td_route_validate(p->ordered, &err) != 0) fail_msg("ordered: %s", err.msg);
  assert_memory_equal(td_route_dist(p->plain), td_route_dist(p->ordered),
                      (size_t)n * sizeof(td_cost));
  assert_memory_equal(td_route_next(p->plain), td_route_next(p->ordered),
                      (size_t)n * sizeof(int32_t));
  for (int32_t e = 0; e < p->ga->edge_count; e++) {
    assert_int_equal(p->ga->edges[e].blocked, p->gb->edges[e].blocked);
    assert_true(p->ga->edges[e].w == p->gb->edges[e].w);
  }
  assert_memory_equal(p->ga->node_blocked, p->gb->node_blocked, (size_t)n);
  const int32_t *changed;
  bool all;
  size_t k = td_route_changed(p->ordered, &changed, &all);
  if (all) return;
  uint8_t *listed = calloc((size_t)(n ? n : 1), 1);
  assert_non_null(listed);
  for (size_t i = 0; i < k; i++) {
    assert_true(changed[i] >= 0 && changed[i] < n);
    listed[changed[i]] = 1;
  }
  const td_cost *d = td_route_dist(p->ordered);
  const int32_t *nx = td_route_next(p->ordered);
  for (int32_t v = 0; v < n; v++)
    if (d[v] != p->dist_before[v] || nx[v] != p->next_before[v]) assert_true(listed[v]);
  free(listed);
}

/* Applies the batch to both routes (try_apply against must_reach when m >
** 0, a preview when preview) and checks that they agree. */
static void pair_apply(pair *p, const td_graph_change *c, size_t nc, const int32_t *must_reach,
                       size_t m, bool preview) {
  td_err err;
  pair_remember(p);
  if (m == 0 && !preview) {
    assert_int_equal(td_route_apply(p->plain, c, nc, &err), 0);
    assert_int_equal(td_route_apply(p->ordered, c, nc, &err), 0);
  } else {
    td_route_verdict va, vb;
    int (*op)(td_route *, const td_graph_change *, size_t, const int32_t *, size_t,
              td_route_verdict *, td_err *) = preview ? td_route_check : td_route_try_apply;
    assert_int_equal(op(p->plain, c, nc, must_reach, m, &va, &err), 0);
    assert_int_equal(op(p->ordered, c, nc, must_reach, m, &vb, &err), 0);
    assert_int_equal(va.ok, vb.ok);
    assert_int_equal(va.cut_node, vb.cut_node);
    assert_int_equal(va.cut_index, vb.cut_index);
  }
  pair_check(p);
}

/* A random batch of 1 to 6 changes of every kind. */
static size_t random_batch(const td_graph *g, td_test_rng *rng, td_graph_change *c) {
  size_t nc = 1 + td_test_below(rng, 6);
  for (size_t i = 0; i < nc; i++) {
    uint32_t kind = td_test_below(rng, 10);
    if (kind < 3) {
      c[i] = (td_graph_change){.kind = TD_CHANGE_BLOCK_NODE,
                               .id = (int32_t)td_test_below(rng, (uint32_t)g->node_count)};
    } else if (kind < 5) {
      c[i] = (td_graph_change){.kind = TD_CHANGE_UNBLOCK_NODE,
                               .id = (int32_t)td_test_below(rng, (uint32_t)g->node_count)};
    } else if (kind < 7) {
      c[i] = (td_graph_change){.kind = TD_CHANGE_BLOCK_EDGE,
                               .id = (int32_t)td_test_below(rng, (uint32_t)g->edge_count)};
    } else if (kind < 9) {
      c[i] = (td_graph_change){.kind = TD_CHANGE_UNBLOCK_EDGE,
                               .id = (int32_t)td_test_below(rng, (uint32_t)g->edge_count)};
    } else {
      /* a few distinct factors, so grids stay in FIFO mode for a while */
      static const double factors[] = {1.0, 2.0, 0.5, 3.0, 1.5};
      c[i] = (td_graph_change){.kind = TD_CHANGE_SET_FACTOR,
                               .id = (int32_t)td_test_below(rng, (uint32_t)g->edge_count),
                               .factor = factors[td_test_below(rng, 5)]};
    }
  }
  return nc;
}

/* Random batches through apply, try_apply and check, a full recompute and
** a fallback-free stretch now and then. */
static void run_random(pair *p, const int32_t *spawns, size_t ns, td_test_rng *rng, int steps) {
  td_graph_change c[8];
  for (int s = 0; s < steps; s++) {
    size_t nc = random_batch(p->ga, rng, c);
    uint32_t how = td_test_below(rng, 10);
    if (how < 4) pair_apply(p, c, nc, NULL, 0, false);
    else if (how < 8) pair_apply(p, c, nc, spawns, ns, false);
    else pair_apply(p, c, nc, spawns, ns, true);
    if (s == steps / 3) {
      td_route_set_fallback(p->plain, 1.0);
      td_route_set_fallback(p->ordered, 1.0);
    }
    if (s == 2 * steps / 3) {
      pair_remember(p);
      td_route_full(p->plain);
      td_route_full(p->ordered);
      pair_check(p);
      td_route_set_fallback(p->plain, 0.01);
      td_route_set_fallback(p->ordered, 0.01);
    }
  }
}

static void test_geometric_matches(void **state) {
  (void)state;
  for (uint64_t seed = 1; seed <= 4; seed++) {
    td_graphgen_rng rng = {seed};
    td_graph *g = td_graphgen_geometric(seed == 1 ? 3000 : 400, seed == 4 ? 3.0 : 8.0, &rng);
    assert_non_null(g);
    int32_t goals[3] = {0, (int32_t)td_graphgen_below(&rng, (uint32_t)g->node_count), 0};
    int32_t spawns[2] = {g->node_count - 1, g->node_count / 2};
    pair p;
    pair_make(&p, g, goals, seed == 3 ? 3 : 2); /* seed 3: a goal listed twice */
    pair_remember(&p);
    pair_check(&p);
    const int32_t *gl;
    assert_int_equal(td_route_goals(p.ordered, &gl), seed == 3 ? 3 : 2);
    assert_memory_equal(gl, goals, (seed == 3 ? 3 : 2) * sizeof *gl);
    for (int32_t v = 0; v < g->node_count; v++)
      assert_int_equal(td_route_is_goal(p.ordered, v), td_route_is_goal(p.plain, v));
    run_random(&p, spawns, 2, &rng, 300);
    pair_free(&p);
    td_graph_destroy(g);
  }
}

/* Grids are many ties: the tie rule in graph ids, in FIFO mode. */
static void test_grid_matches(void **state) {
  (void)state;
  td_graphgen_rng rng = {9};
  td_grid *grid = td_graphgen_maze(41, 31, 30, &rng);
  td_grid *open = td_graphgen_open_grid(30, 30);
  assert_non_null(grid);
  assert_non_null(open);
  td_grid *grids[2] = {grid, open};
  for (int i = 0; i < 2; i++) {
    td_graph *g = td_test_build_graph(grids[i]);
    /* AUTO leaves grids in their own order */
    td_err err;
    td_route *r = td_route_create(g, &(int32_t){0}, 1, &err);
    assert_non_null(r);
    assert_false(td_route_reordered(r));
    td_route_destroy(r);
    int32_t goals[1] = {g->node_count - 1}, spawns[1] = {0};
    pair p;
    pair_make(&p, g, goals, 1);
    pair_remember(&p);
    pair_check(&p);
    run_random(&p, spawns, 1, &rng, 300);
    pair_free(&p);
    td_graph_destroy(g);
  }
  td_grid_destroy(grid);
  td_grid_destroy(open);
}

/* Every bundled map: towers on random bases (the map's own batches), tried
** against the spawns and sold again, on both routes. */
static void test_bundled_maps(void **state) {
  (void)state;
  static const char *names[] = {"maps/01-crossroads.tmx", "maps/02-grid.tmx",
                                "maps/03-serpent.tmx",    "maps/04-foundry.tmx",
                                "maps/05-twin.tmx",       "maps/06-expanse.tmx"};
  int waypoint_maps = 0;
  for (size_t f = 0; f < sizeof names / sizeof names[0]; f++) {
    td_map m;
    td_err err = {{0}};
    if (td_mapfile_load(td_test_path(names[f]), &m, &err) != 0) fail_msg("%s", err.msg);
    int32_t *goals = malloc((m.goal_count + 1) * sizeof *goals);
    int32_t *spawns = malloc((m.spawn_count + 1) * sizeof *spawns);
    uint8_t *up = calloc(m.base_count + 1, 1);
    assert_non_null(goals);
    assert_non_null(spawns);
    assert_non_null(up);
    td_map_goal_nodes(&m, goals);
    td_map_spawn_nodes(&m, spawns);
    if (!m.grid) {
      waypoint_maps++;
      /* the game's own route (AUTO) works in the cache order on these */
      td_graph *c = td_graph_clone(m.graph, &err);
      td_route *r = td_route_create(c, goals, m.goal_count, &err);
      assert_non_null(r);
      assert_true(td_route_reordered(r));
      td_route_destroy(r);
      td_graph_destroy(c);
    }
    pair p;
    pair_make(&p, m.graph, goals, m.goal_count);
    pair_remember(&p);
    pair_check(&p);
    td_test_rng rng = {f + 1};
    for (int s = 0; s < 400 && m.base_count > 0; s++) {
      size_t b = td_test_below(&rng, (uint32_t)m.base_count);
      const td_tower_base *base = &m.bases[b];
      if (!up[b]) {
        pair_apply(&p, base->block, base->block_count, spawns, m.spawn_count,
                   td_test_below(&rng, 5) == 0);
        /* kept when the plain route kept it: the flags say */
        bool kept = base->block_count > 0;
        for (size_t i = 0; i < base->block_count; i++) {
          const td_graph_change *ch = &base->block[i];
          bool blocked = ch->kind == TD_CHANGE_BLOCK_NODE ? p.ga->node_blocked[ch->id]
                                                         : p.ga->edges[ch->id].blocked;
          if (!blocked) kept = false;
        }
        up[b] = kept;
      } else {
        td_graph_change sell[64];
        size_t ns = base->block_count < 64 ? base->block_count : 64;
        for (size_t i = 0; i < ns; i++) {
          sell[i] = base->block[i];
          sell[i].kind = sell[i].kind == TD_CHANGE_BLOCK_NODE ? TD_CHANGE_UNBLOCK_NODE
                                                              : TD_CHANGE_UNBLOCK_EDGE;
        }
        pair_apply(&p, sell, ns, NULL, 0, false);
        up[b] = 0;
      }
    }
    pair_free(&p);
    free(goals);
    free(spawns);
    free(up);
    td_map_free(&m);
  }
  assert_int_equal(waypoint_maps, 3); /* 01, 03 and 05; the others are grids */
}

/* Out of memory while building the order: a clean refusal, nothing leaked. */
typedef struct oom_ud {
  td_graph *g;
} oom_ud;

static int create_ordered(void *ud, td_err *err) {
  oom_ud *o = ud;
  int32_t goal = 0;
  td_route *r = td_route_create_ordered(o->g, &goal, 1, TD_ROUTE_ORDER_HILBERT, err);
  if (!r) return -1;
  td_graph_change c = {.kind = TD_CHANGE_BLOCK_NODE, .id = 1};
  int rc = td_route_apply(r, &c, 1, err);
  c.kind = TD_CHANGE_UNBLOCK_NODE;
  if (rc == 0) rc = td_route_apply(r, &c, 1, err);
  td_route_destroy(r);
  return rc;
}

static void test_ordered_oom(void **state) {
  td_test_alloc *a = *state;
  td_graphgen_rng rng = {5};
  td_graph *g = td_graphgen_geometric(200, 6.0, &rng);
  td_graph *empty = td_graph_create(2, 1);
  assert_non_null(g);
  assert_non_null(empty);
  oom_ud ud = {g};
  td_test_sweep s = {.what = "ordered route", .expect = "out of memory"};
  td_test_alloc_sweep(a, create_ordered, &ud, &s);
  assert_true(s.refused > 0);
  /* two nodes and no edge: the order still builds */
  assert_int_equal(td_graph_add_node(empty, 0, 0, NULL), 0);
  assert_int_equal(td_graph_add_node(empty, 1, 1, NULL), 1);
  assert_int_equal(td_graph_finalize(empty, NULL), 0);
  ud.g = empty;
  s = (td_test_sweep){.what = "ordered route, no edges", .expect = "out of memory"};
  td_test_alloc_sweep(a, create_ordered, &ud, &s);
  assert_true(s.refused > 0);
  td_graph_destroy(g);
  td_graph_destroy(empty);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hilbert_key_curve),
      cmocka_unit_test(test_hilbert_order_points),
      cmocka_unit_test(test_geometric_matches),
      cmocka_unit_test(test_grid_matches),
      cmocka_unit_test(test_bundled_maps),
      cmocka_unit_test_setup_teardown(test_ordered_oom, td_test_alloc_setup,
                                      td_test_alloc_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
