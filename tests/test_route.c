/*
** test_route.c: reverse Dijkstra, incremental updates and placement legality.
*/
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nav/graph.h"
#include "nav/grid.h"
#include "nav/mem.h"
#include "nav/route.h"

/* ---- graph builders ------------------------------------------------------ */

static td_graph *finish(td_graph *g) {
  td_err err;
  assert_int_equal(td_graph_finalize(g, &err), 0);
  return g;
}

/* 8-connected grid with optional walls (wall[i] != 0: no node edges). */
static td_graph *grid_graph(int w, int h, const uint8_t *wall) {
  td_graph *g = td_graph_create(w * h, 4 * w * h);
  assert_non_null(g);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) assert_int_equal(td_graph_add_node(g, x, y, NULL), y * w + x);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int i = y * w + x;
      if (wall && wall[i]) continue;
#define OPEN(xx, yy) ((xx) >= 0 && (xx) < w && (yy) < h && !(wall && wall[(yy) * w + (xx)]))
      if (OPEN(x + 1, y)) td_graph_add_edge(g, i, i + 1, 1.0, NULL);
      if (OPEN(x, y + 1)) td_graph_add_edge(g, i, i + w, 1.0, NULL);
      if (OPEN(x + 1, y + 1) && OPEN(x + 1, y) && OPEN(x, y + 1))
        td_graph_add_edge(g, i, i + w + 1, 1.0, NULL);
      if (OPEN(x - 1, y + 1) && OPEN(x - 1, y) && OPEN(x, y + 1))
        td_graph_add_edge(g, i, i + w - 1, 1.0, NULL);
#undef OPEN
    }
  return finish(g);
}

/* Random geometric graph with random cost factors (many distinct weights:
** exercises the heap path of the full recompute). */
static td_graph *geometric_graph(int n, double radius, td_test_rng *rng) {
  td_graph *g = td_graph_create(n, n * 4);
  for (int i = 0; i < n; i++) td_graph_add_node(g, td_test_unit(rng), td_test_unit(rng), NULL);
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      if (hypot(g->x[i] - g->x[j], g->y[i] - g->y[j]) < radius)
        td_graph_add_edge(g, i, j, 0.5 + 2.0 * td_test_unit(rng), NULL);
  return finish(g);
}

static td_graph *tree_graph(int n, td_test_rng *rng) {
  td_graph *g = td_graph_create(n, n);
  for (int i = 0; i < n; i++) td_graph_add_node(g, td_test_unit(rng) * 10, td_test_unit(rng) * 10, NULL);
  for (int i = 1; i < n; i++) td_graph_add_edge(g, i, (int)td_test_below(rng, (uint32_t)i), 1.0, NULL);
  return finish(g);
}

/* ---- checks -------------------------------------------------------------- */

/* The route must equal a route computed from scratch on the same graph. */
static void assert_matches_full(td_route *r, const int32_t *goals, size_t ng) {
  td_err err;
  td_graph *g = (td_graph *)td_route_graph(r);
  td_route *ref = td_route_create(g, goals, ng, &err);
  assert_non_null(ref);
  const td_cost *d = td_route_dist(r), *rd = td_route_dist(ref);
  const int32_t *nx = td_route_next(r), *rn = td_route_next(ref);
  for (int32_t v = 0; v < g->node_count; v++) {
    if (d[v] != rd[v] || nx[v] != rn[v])
      fail_msg("node %d: incremental dist %llu next %d, full dist %llu next %d", v,
               (unsigned long long)d[v], nx[v], (unsigned long long)rd[v], rn[v]);
  }
  if (td_route_validate(r, &err) != 0) fail_msg("%s", err.msg);
  td_route_destroy(ref);
}

/* ---- hand-checked cases -------------------------------------------------- */

/* A square 0-1-2-3 with a diagonal 0-2 and a tail 2-4; goal 0.
**   3 --- 2 --- 4        positions: 0 (0,0) 1 (3,0) 2 (3,4) 3 (0,4) 4 (6,4)
**   |   / |
**   0 --- 1 */
static td_graph *square(void) {
  td_graph *g = td_graph_create(0, 0);
  double pos[5][2] = {{0, 0}, {3, 0}, {3, 4}, {0, 4}, {6, 4}};
  for (int i = 0; i < 5; i++) td_graph_add_node(g, pos[i][0], pos[i][1], NULL);
  td_graph_add_edge(g, 0, 1, 1.0, NULL); /* e0: 3 */
  td_graph_add_edge(g, 1, 2, 1.0, NULL); /* e1: 4 */
  td_graph_add_edge(g, 2, 3, 1.0, NULL); /* e2: 3 */
  td_graph_add_edge(g, 3, 0, 1.0, NULL); /* e3: 4 */
  td_graph_add_edge(g, 0, 2, 1.0, NULL); /* e4: 5 */
  td_graph_add_edge(g, 2, 4, 2.0, NULL); /* e5: 3 * 2 = 6 */
  return finish(g);
}

static void test_distances_by_hand(void **state) {
  (void)state;
  td_graph *g = square();
  int32_t goal = 0;
  td_route *r = td_route_create(g, &goal, 1, NULL);
  const td_cost *d = td_route_dist(r);
  const int32_t *nx = td_route_next(r);
  assert_true(d[0] == 0 && nx[0] == TD_NONE);
  assert_true(d[1] == 3 * TD_COST_ONE && nx[1] == 0);
  assert_true(d[2] == 5 * TD_COST_ONE && nx[2] == 0);
  assert_true(d[3] == 4 * TD_COST_ONE && nx[3] == 0);
  assert_true(d[4] == 11 * TD_COST_ONE && nx[4] == 2);
  /* block the diagonal: 2 now ties between 1 (3+4) and 3 (4+3): smallest id */
  td_graph_change c = {.kind = TD_CHANGE_BLOCK_EDGE, .id = 4};
  assert_int_equal(td_route_apply(r, &c, 1, NULL), 0);
  assert_true(d[2] == 7 * TD_COST_ONE && nx[2] == 1);
  assert_true(d[4] == 13 * TD_COST_ONE && nx[4] == 2);
  /* block 1-2: 2 keeps dist 7 through 3; a tie-aware update rewires it */
  c = (td_graph_change){.kind = TD_CHANGE_BLOCK_EDGE, .id = 1};
  assert_int_equal(td_route_apply(r, &c, 1, NULL), 0);
  assert_true(d[2] == 7 * TD_COST_ONE && nx[2] == 3);
  assert_int_equal(td_route_get_stats(r)->last_affected, 0);
  assert_false(td_route_get_stats(r)->last_full);
  /* block node 3: 2 and 4 are cut off */
  c = (td_graph_change){.kind = TD_CHANGE_BLOCK_NODE, .id = 3};
  assert_int_equal(td_route_apply(r, &c, 1, NULL), 0);
  assert_true(d[3] == TD_COST_INF && nx[3] == TD_NONE);
  assert_true(d[2] == TD_COST_INF && d[4] == TD_COST_INF && nx[4] == TD_NONE);
  /* reopen everything at once */
  td_graph_change all[3] = {{.kind = TD_CHANGE_UNBLOCK_NODE, .id = 3}, {.kind = TD_CHANGE_UNBLOCK_EDGE, .id = 1},
                            {.kind = TD_CHANGE_UNBLOCK_EDGE, .id = 4}};
  assert_int_equal(td_route_apply(r, all, 3, NULL), 0);
  assert_true(d[2] == 5 * TD_COST_ONE && nx[2] == 0 && d[4] == 11 * TD_COST_ONE);
  assert_int_equal(td_route_validate(r, NULL), 0);
  td_route_destroy(r);
  td_graph_destroy(g);
}

static void test_multiple_goals_and_blocked_goal(void **state) {
  (void)state;
  /* a line 0-1-2-3-4 of unit edges, goals at both ends */
  td_graph *g = td_graph_create(0, 0);
  for (int i = 0; i < 5; i++) td_graph_add_node(g, i, 0, NULL);
  for (int i = 0; i < 4; i++) td_graph_add_edge(g, i, i + 1, 1.0, NULL);
  finish(g);
  int32_t goals[2] = {0, 4};
  td_route *r = td_route_create(g, goals, 2, NULL);
  const td_cost *d = td_route_dist(r);
  const int32_t *nx = td_route_next(r);
  assert_true(d[1] == TD_COST_ONE && nx[1] == 0);
  assert_true(d[2] == 2 * TD_COST_ONE && nx[2] == 1); /* tie 1 vs 3: smallest id */
  assert_true(d[3] == TD_COST_ONE && nx[3] == 4);
  td_graph_change c = {.kind = TD_CHANGE_BLOCK_NODE, .id = 0};   /* a tower on a goal */
  assert_int_equal(td_route_apply(r, &c, 1, NULL), 0);
  assert_true(d[0] == TD_COST_INF && d[1] == 3 * TD_COST_ONE && nx[1] == 2 && nx[2] == 3);
  c.kind = TD_CHANGE_UNBLOCK_NODE;
  assert_int_equal(td_route_apply(r, &c, 1, NULL), 0);
  assert_true(d[0] == 0 && d[1] == TD_COST_ONE && nx[2] == 1);
  assert_matches_full(r, goals, 2);
  td_route_destroy(r);
  td_graph_destroy(g);
}

static void test_bad_batch_changes_nothing(void **state) {
  (void)state;
  td_graph *g = square();
  int32_t goal = 0;
  td_route *r = td_route_create(g, &goal, 1, NULL);
  td_graph_change c[2] = {{.kind = TD_CHANGE_BLOCK_EDGE, .id = 4}, {.kind = TD_CHANGE_BLOCK_NODE, .id = 99}};
  td_err err;
  assert_int_equal(td_route_apply(r, c, 2, &err), -1);
  assert_non_null(strstr(err.msg, "unknown node 99"));
  assert_false(g->edges[4].blocked);
  assert_true(td_route_dist(r)[2] == 5 * TD_COST_ONE);
  td_graph_change bad = {.kind = (td_change_kind)42, .id = 0};
  assert_int_equal(td_route_apply(r, &bad, 1, &err), -1);
  assert_non_null(strstr(err.msg, "unknown kind"));
  int32_t nogoal = 7;
  assert_null(td_route_create(g, &nogoal, 1, &err));
  assert_non_null(strstr(err.msg, "unknown node 7"));
  td_route_destroy(r);
  td_graph_destroy(g);
}

static void test_graph_errors(void **state) {
  (void)state;
  td_err err;
  td_graph *g = td_graph_create(0, 0);
  td_graph_add_node(g, 0, 0, NULL);
  td_graph_add_node(g, 1, 0, NULL);
  assert_int_equal(td_graph_add_edge(g, 0, 0, 1.0, &err), TD_NONE);
  assert_non_null(strstr(err.msg, "itself"));
  assert_int_equal(td_graph_add_edge(g, 0, 5, 1.0, &err), TD_NONE);
  assert_non_null(strstr(err.msg, "unknown node"));
  assert_int_equal(td_graph_add_edge(g, 0, 1, 0.0, &err), TD_NONE);
  assert_non_null(strstr(err.msg, "positive"));
  assert_int_equal(td_graph_add_node(g, NAN, 0, &err), TD_NONE);
  assert_non_null(strstr(err.msg, "finite"));
  assert_int_equal(td_graph_add_edge(g, 0, 1, 1.0, NULL), 0);
  assert_int_equal(td_graph_add_edge(g, 1, 0, 1.0, NULL), 1);
  assert_int_equal(td_graph_finalize(g, &err), -1);
  assert_non_null(strstr(err.msg, "two edges"));
  td_graph_destroy(g);
}

/* ---- placement legality -------------------------------------------------- */

/* Everything an update may change: the route, the flags, the weights and
** factors, the weight sum and the heuristic's smallest factor. */
typedef struct snapshot {
  td_cost *dist;
  int32_t *next;
  uint8_t *nb, *eb;
  td_cost *w;
  double *f;
  td_cost sum;
  double min_factor;
} snapshot;

static snapshot take(const td_route *r) {
  const td_graph *g = td_route_graph(r);
  size_t n = (size_t)g->node_count, m = (size_t)g->edge_count;
  snapshot s = {malloc(n * sizeof(td_cost)), malloc(n * sizeof(int32_t)), malloc(n), malloc(m),
                malloc(m * sizeof(td_cost)), malloc(m * sizeof(double)), g->weight_sum,
                g->min_factor};
  memcpy(s.dist, td_route_dist(r), n * sizeof(td_cost));
  memcpy(s.next, td_route_next(r), n * sizeof(int32_t));
  memcpy(s.nb, g->node_blocked, n);
  for (size_t e = 0; e < m; e++) {
    s.eb[e] = g->edges[e].blocked;
    s.w[e] = g->edges[e].w;
    s.f[e] = g->edges[e].factor;
  }
  return s;
}

static void drop(snapshot s) {
  free(s.dist);
  free(s.next);
  free(s.nb);
  free(s.eb);
  free(s.w);
  free(s.f);
}

static void assert_same(const td_route *r, snapshot s) {
  const td_graph *g = td_route_graph(r);
  size_t n = (size_t)g->node_count;
  assert_memory_equal(s.dist, td_route_dist(r), n * sizeof(td_cost));
  assert_memory_equal(s.next, td_route_next(r), n * sizeof(int32_t));
  assert_memory_equal(s.nb, g->node_blocked, n);
  for (int32_t e = 0; e < g->edge_count; e++) {
    assert_int_equal(s.eb[e], g->edges[e].blocked);
    assert_true(s.w[e] == g->edges[e].w);
    assert_true(s.f[e] == g->edges[e].factor);
  }
  assert_true(s.sum == g->weight_sum);
  assert_true(s.min_factor == g->min_factor);
  /* the route's mirror of the weights is back too */
  td_err err;
  if (td_route_validate(r, &err) != 0) fail_msg("%s", err.msg);
  drop(s);
}

static void test_try_apply_refuses_and_rolls_back(void **state) {
  (void)state;
  td_graph *g = square();
  int32_t goal = 0;
  td_route *r = td_route_create(g, &goal, 1, NULL);
  int32_t spawns[2] = {1, 4};
  td_route_verdict v;
  /* closing edges 0-1 and 1-2 cuts node 1 off */
  td_graph_change cut[2] = {{.kind = TD_CHANGE_BLOCK_EDGE, .id = 0}, {.kind = TD_CHANGE_BLOCK_EDGE, .id = 1}};
  snapshot s = take(r);
  assert_int_equal(td_route_try_apply(r, cut, 2, spawns, 2, &v, NULL), 0);
  assert_false(v.ok);
  assert_int_equal(v.cut_index, 0);
  assert_int_equal(v.cut_node, 1);
  assert_same(r, s);
  /* node 2 blocked cuts spawn 4 (index 1) */
  td_graph_change n2 = {.kind = TD_CHANGE_BLOCK_NODE, .id = 2};
  s = take(r);
  assert_int_equal(td_route_try_apply(r, &n2, 1, spawns, 2, &v, NULL), 0);
  assert_false(v.ok);
  assert_int_equal(v.cut_node, 4);
  assert_same(r, s);
  /* a legal placement is applied */
  td_graph_change diag = {.kind = TD_CHANGE_BLOCK_EDGE, .id = 4};
  assert_int_equal(td_route_try_apply(r, &diag, 1, spawns, 2, &v, NULL), 0);
  assert_true(v.ok && v.cut_node == TD_NONE);
  assert_true(g->edges[4].blocked);
  assert_true(td_route_dist(r)[2] == 7 * TD_COST_ONE);
  /* a preview never changes anything */
  s = take(r);
  td_graph_change e0 = {.kind = TD_CHANGE_BLOCK_EDGE, .id = 0};
  assert_int_equal(td_route_check(r, &e0, 1, spawns, 2, &v, NULL), 0);
  assert_true(v.ok);
  assert_same(r, s);
  /* applied_count: only the kept updates that changed something (the legal
  ** placement, then the reopening); the refusals, the check and a batch
  ** that changes nothing are not counted */
  assert_int_equal(td_route_get_stats(r)->applied_count, 1);
  assert_int_equal(td_route_apply(r, &diag, 1, NULL), 0);
  assert_int_equal(td_route_apply(r, NULL, 0, NULL), 0);
  assert_int_equal(td_route_get_stats(r)->applied_count, 1);
  td_graph_change open4 = {.kind = TD_CHANGE_UNBLOCK_EDGE, .id = 4};
  assert_int_equal(td_route_apply(r, &open4, 1, NULL), 0);
  assert_int_equal(td_route_get_stats(r)->applied_count, 2);
  td_route_destroy(r);
  td_graph_destroy(g);
}

/* ---- randomized: incremental == full ------------------------------------- */

static void random_batch(td_route *r, td_test_rng *rng, td_graph_change *c, size_t *n) {
  const td_graph *g = td_route_graph(r);
  *n = 1 + td_test_below(rng, 4);
  for (size_t i = 0; i < *n; i++) {
    uint32_t roll = td_test_below(rng, 10);
    if (roll < 7 && g->edge_count > 0) {
      int32_t e = (int32_t)td_test_below(rng, (uint32_t)g->edge_count);
      /* bias towards keeping about a quarter of the edges blocked */
      bool block = g->edges[e].blocked ? td_test_below(rng, 4) == 0 : td_test_below(rng, 3) != 0;
      c[i] = (td_graph_change){.kind = block ? TD_CHANGE_BLOCK_EDGE : TD_CHANGE_UNBLOCK_EDGE, .id = e};
    } else {
      int32_t v = (int32_t)td_test_below(rng, (uint32_t)g->node_count);
      bool block = g->node_blocked[v] ? td_test_below(rng, 3) == 0 : td_test_below(rng, 3) != 0;
      c[i] = (td_graph_change){.kind = block ? TD_CHANGE_BLOCK_NODE : TD_CHANGE_UNBLOCK_NODE, .id = v};
    }
  }
}

/* Applies `batches` random batches; after each, the route must equal a full
** recompute. Every fifth batch goes through try_apply with random spawns and
** a refused one must leave everything as it was. */
static int run_random(td_graph *g, const int32_t *goals, size_t ng, int batches,
                      double fallback, td_test_rng *rng) {
  td_route *r = td_route_create(g, goals, ng, NULL);
  assert_non_null(r);
  td_route_set_fallback(r, fallback);
  td_graph_change c[4];
  size_t n;
  for (int b = 0; b < batches; b++) {
    random_batch(r, rng, c, &n);
    if (b % 5 == 4) {
      int32_t spawns[3];
      for (int i = 0; i < 3; i++) spawns[i] = (int32_t)td_test_below(rng, (uint32_t)g->node_count);
      snapshot s = take(r);
      td_route_verdict v;
      assert_int_equal(td_route_try_apply(r, c, n, spawns, 3, &v, NULL), 0);
      bool was_reachable[3];
      for (int i = 0; i < 3; i++) was_reachable[i] = s.dist[spawns[i]] != TD_COST_INF;
      if (!v.ok) {
        assert_true(was_reachable[v.cut_index]);
        assert_same(r, s);
        /* the cut is real: applying the batch does cut that spawn */
        td_route_apply(r, c, n, NULL);
        assert_true(td_route_dist(r)[v.cut_node] == TD_COST_INF);
        assert_matches_full(r, goals, ng);
        continue;
      }
      assert_int_equal(v.cut_node, TD_NONE);
      for (int i = 0; i < 3; i++)
        if (was_reachable[i]) assert_true(td_route_dist(r)[spawns[i]] != TD_COST_INF);
      drop(s);
    } else {
      assert_int_equal(td_route_apply(r, c, n, NULL), 0);
    }
    assert_matches_full(r, goals, ng);
  }
  int fallbacks = (int)td_route_get_stats(r)->fallback_count;
  td_route_destroy(r);
  return fallbacks;
}

static void reset_flags(td_graph *g) {
  memset(g->node_blocked, 0, (size_t)g->node_count);
  for (int32_t e = 0; e < g->edge_count; e++) g->edges[e].blocked = 0;
}

static void test_random_open_grids(void **state) {
  (void)state;
  td_test_rng rng = {11};
  for (int round = 0; round < 5; round++) {
    int w = 8 + (int)td_test_below(&rng, 16), h = 8 + (int)td_test_below(&rng, 16);
    td_graph *g = grid_graph(w, h, NULL);
    int32_t goals[2] = {0, (int32_t)td_test_below(&rng, (uint32_t)(w * h))};
    run_random(g, goals, 1 + round % 2, 600, 1.0, &rng);
    td_graph_destroy(g);
  }
}

static void test_random_mazes(void **state) {
  (void)state;
  td_test_rng rng = {22};
  for (int round = 0; round < 5; round++) {
    /* (6 + round) x 8 rooms, one extra opening per four rooms */
    td_grid *grid = td_graphgen_maze(2 * (6 + round) + 1, 2 * 8 + 1, 25, &rng);
    assert_non_null(grid);
    td_graph *g = td_test_build_graph(grid);
    td_grid_destroy(grid); /* the graph does not refer to it */
    int32_t goals[1] = {0};
    for (int32_t v = 0; v < g->node_count; v++)
      if (g->adj_start[v + 1] > g->adj_start[v]) {
        goals[0] = v;
        break;
      }
    run_random(g, goals, 1, 600, 1.0, &rng);
    td_graph_destroy(g);
  }
}

static void test_random_geometric(void **state) {
  (void)state;
  td_test_rng rng = {33};
  for (int round = 0; round < 5; round++) {
    td_graph *g = geometric_graph(150 + 50 * round, 0.14, &rng);
    int32_t goals[3] = {0, 1, 2};
    run_random(g, goals, 1 + (size_t)round % 3, 600, 1.0, &rng);
    td_graph_destroy(g);
  }
}

static void test_random_trees(void **state) {
  (void)state;
  td_test_rng rng = {44};
  for (int round = 0; round < 5; round++) {
    td_graph *g = tree_graph(100 + 60 * round, &rng);
    int32_t goals[2] = {0, (int32_t)td_test_below(&rng, 100)};
    run_random(g, goals, 2, 600, 1.0, &rng);
    td_graph_destroy(g);
  }
}

/* The same with the default fallback (and a tiny one): both paths agree. */
static void test_random_with_fallback(void **state) {
  (void)state;
  td_test_rng rng = {55};
  td_graph *g = grid_graph(20, 20, NULL);
  int32_t goal = 210;
  int fb = run_random(g, &goal, 1, 400, 0.125, &rng);
  reset_flags(g);
  fb += run_random(g, &goal, 1, 400, 0.01, &rng);
  assert_true(fb > 0); /* the fallback path was exercised */
  td_graph_destroy(g);
}

/* Lattice points joined within distance 3: lengths 1, sqrt 2, 2, sqrt 5,
** 2 sqrt 2, 3 (and factors 1 or 2) make more than 8 weights, so the heap
** mode runs, and integer coordinates make real ties (1 + 1 == 2). */
static td_graph *lattice_graph(int side, td_test_rng *rng) {
  td_graph *g = td_graph_create(side * side, side * side * 8);
  for (int y = 0; y < side; y++)
    for (int x = 0; x < side; x++) td_graph_add_node(g, x, y, NULL);
  for (int i = 0; i < side * side; i++)
    for (int j = i + 1; j < side * side; j++) {
      double d = hypot(g->x[i] - g->x[j], g->y[i] - g->y[j]);
      if (d <= 3.0 && td_test_below(rng, 3) == 0)
        td_graph_add_edge(g, i, j, td_test_below(rng, 4) == 0 ? 2.0 : 1.0, NULL);
    }
  return finish(g);
}

static void test_random_heap_mode_with_ties(void **state) {
  (void)state;
  td_test_rng rng = {66};
  for (int round = 0; round < 4; round++) {
    td_graph *g = lattice_graph(9 + round, &rng);
    int32_t goals[2] = {0, (int32_t)td_test_below(&rng, (uint32_t)g->node_count)};
    /* ties exist: some node has two neighbours on shortest routes */
    td_route *r = td_route_create(g, goals, 2, NULL);
    int ties = 0;
    for (int32_t v = 0; v < g->node_count; v++) {
      int on = 0;
      for (int32_t k = g->adj_start[v]; k < g->adj_start[v + 1]; k++) {
        int32_t m = g->adj_to[k];
        if (td_route_dist(r)[m] != TD_COST_INF &&
            td_route_dist(r)[m] + g->edges[g->adj_edge[k]].w == td_route_dist(r)[v])
          on++;
      }
      ties += on > 1;
    }
    assert_true(ties > 0);
    td_route_destroy(r);
    run_random(g, goals, 2, 500, round % 2 ? 1.0 : 0.0625, &rng);
    td_graph_destroy(g);
  }
}

/* Counted: 5*600*4 + 800 + 4*500 = 14,800 random batches in all. */

/* ---- cost factors -------------------------------------------------------- */

static td_graph_change factor_of(int32_t e, double f) {
  return (td_graph_change){.kind = TD_CHANGE_SET_FACTOR, .id = e, .factor = f};
}

static void test_factors_by_hand(void **state) {
  (void)state;
  td_graph *g = square();
  int32_t goal = 0;
  td_route *r = td_route_create(g, &goal, 1, NULL);
  const td_cost *d = td_route_dist(r);
  const int32_t *nx = td_route_next(r);
  /* mud on the diagonal (5 -> 10): 2 ties between 1 (3+4) and 3 (4+3) */
  td_graph_change c = factor_of(4, 2.0);
  assert_int_equal(td_route_apply(r, &c, 1, NULL), 0);
  assert_true(g->edges[4].factor == 2.0 && g->edges[4].w == 10 * TD_COST_ONE);
  assert_true(d[2] == 7 * TD_COST_ONE && nx[2] == 1);
  assert_true(d[4] == 13 * TD_COST_ONE && nx[4] == 2);
  assert_true(g->weight_sum == (3 + 4 + 3 + 4 + 10 + 6) * TD_COST_ONE);
  /* a bridge on 1-2 (4 -> 1): 2 is 3 + 1 through 1 */
  c = factor_of(1, 0.25);
  assert_int_equal(td_route_apply(r, &c, 1, NULL), 0);
  assert_true(d[2] == 4 * TD_COST_ONE && nx[2] == 1 && d[4] == 10 * TD_COST_ONE);
  assert_true(g->min_factor == 0.25);
  assert_matches_full(r, &goal, 1);
  /* one batch, one heavier and one lighter: back to the start */
  td_graph_change both[2] = {factor_of(1, 1.0), factor_of(4, 1.0)};
  assert_int_equal(td_route_apply(r, both, 2, NULL), 0);
  assert_true(d[2] == 5 * TD_COST_ONE && nx[2] == 0 && d[4] == 11 * TD_COST_ONE);
  assert_true(g->min_factor == 0.25); /* a lower bound: never raised */
  /* the last change of an edge in a batch wins */
  td_graph_change twice[2] = {factor_of(4, 3.0), factor_of(4, 1.5)};
  assert_int_equal(td_route_apply(r, twice, 2, NULL), 0);
  assert_true(g->edges[4].factor == 1.5 && g->edges[4].w == td_graph_cost(5.0, 1.5));
  assert_true(d[2] == 7 * TD_COST_ONE);
  assert_matches_full(r, &goal, 1);
  /* a preview changes nothing, weights included */
  int32_t spawns[2] = {1, 4};
  td_route_verdict v;
  snapshot s = take(r);
  td_graph_change mud = factor_of(0, 10.0);
  assert_int_equal(td_route_check(r, &mud, 1, spawns, 2, &v, NULL), 0);
  assert_true(v.ok);
  assert_same(r, s);
  /* a refused transaction puts the factors back with the flags */
  td_graph_change cut[3] = {factor_of(4, 0.5), {.kind = TD_CHANGE_BLOCK_EDGE, .id = 0},
                            {.kind = TD_CHANGE_BLOCK_EDGE, .id = 1}};
  s = take(r);
  assert_int_equal(td_route_try_apply(r, cut, 3, spawns, 2, &v, NULL), 0);
  assert_false(v.ok);
  assert_int_equal(v.cut_node, 1);
  assert_same(r, s);
  /* and an accepted one keeps them */
  assert_int_equal(td_route_try_apply(r, cut, 1, spawns, 2, &v, NULL), 0);
  assert_true(v.ok && g->edges[4].factor == 0.5 && d[2] == td_graph_cost(5.0, 0.5));
  assert_matches_full(r, &goal, 1);
  td_route_destroy(r);
  td_graph_destroy(g);
}

static void test_factor_errors(void **state) {
  (void)state;
  td_graph *g = square();
  int32_t goal = 0;
  td_route *r = td_route_create(g, &goal, 1, NULL);
  td_err err;
  double bad[4] = {0.0, -1.0, NAN, INFINITY};
  for (int i = 0; i < 4; i++) {
    snapshot s = take(r);
    td_graph_change c[2] = {{.kind = TD_CHANGE_BLOCK_EDGE, .id = 4}, factor_of(1, bad[i])};
    assert_int_equal(td_route_apply(r, c, 2, &err), -1);
    assert_non_null(strstr(err.msg, "change 1: cost factor"));
    assert_non_null(strstr(err.msg, "not a positive number"));
    assert_same(r, s);
  }
  td_graph_change c = factor_of(6, 2.0);
  assert_int_equal(td_route_apply(r, &c, 1, &err), -1);
  assert_non_null(strstr(err.msg, "unknown edge 6"));
  td_route_destroy(r);
  td_graph_destroy(g);

  /* a factor that would make the weights overflow a distance is refused */
  g = td_graph_create(0, 0);
  td_graph_add_node(g, 0, 0, NULL);
  td_graph_add_node(g, 1e11, 0, NULL);
  td_graph_add_node(g, 2e11, 0, NULL);
  td_graph_add_edge(g, 0, 1, 1.0, NULL);
  td_graph_add_edge(g, 1, 2, 1.0, NULL);
  finish(g);
  r = td_route_create(g, &goal, 1, NULL);
  snapshot s = take(r);
  td_graph_change big[2] = {factor_of(0, 3.0), factor_of(1, 3.0)}; /* 6e11 > 5.5e11 */
  assert_int_equal(td_route_apply(r, big, 2, &err), -1);
  assert_non_null(strstr(err.msg, "too long in all"));
  assert_same(r, s);
  assert_int_equal(td_route_apply(r, big, 1, &err), 0); /* 4e11 fits */
  assert_true(g->weight_sum == td_graph_cost(1e11, 3.0) + td_graph_cost(1e11, 1.0));
  assert_matches_full(r, &goal, 1);
  td_route_destroy(r);
  td_graph_destroy(g);
}

/* A grid's weights are pinned to td_graph_grid_weights: factor 1 gives them
** back exactly, whatever the factors in between. */
static void test_grid_factor_one_is_exact(void **state) {
  (void)state;
  td_test_rng rng = {77};
  td_grid *grid = td_graphgen_maze(15, 11, 25, &rng);
  td_graph *g = td_test_build_graph(grid);
  td_grid_destroy(grid);
  td_cost *w0 = malloc((size_t)g->edge_count * sizeof *w0);
  for (int32_t e = 0; e < g->edge_count; e++) w0[e] = g->edges[e].w;
  td_cost sum0 = g->weight_sum;
  int32_t goal = 0;
  td_route *r = td_route_create(g, &goal, 1, NULL);
  td_graph_change *c = malloc((size_t)g->edge_count * sizeof *c);
  double f[3] = {2.5, 0.3, 1.0};
  for (int k = 0; k < 3; k++) {
    for (int32_t e = 0; e < g->edge_count; e++) c[e] = factor_of(e, f[k]);
    assert_int_equal(td_route_apply(r, c, (size_t)g->edge_count, NULL), 0);
    assert_matches_full(r, &goal, 1);
  }
  for (int32_t e = 0; e < g->edge_count; e++) assert_true(g->edges[e].w == w0[e]);
  assert_true(g->weight_sum == sum0);
  td_cost w1, w2;
  td_graph_grid_weights(g->grid_cell, &w1, &w2);
  for (int32_t e = 0; e < g->edge_count; e++) assert_true(w0[e] == w1 || w0[e] == w2);
  free(c);
  free(w0);
  td_route_destroy(r);
  td_graph_destroy(g);
}

/* random_batch's flag changes plus one to three factor changes, sometimes
** two on one edge; a factor from palette (np > 0), else any in [0.2, 5). */
static void random_factor_batch(td_route *r, td_test_rng *rng, td_graph_change *c, size_t *n,
                                const double *palette, int np) {
  const td_graph *g = td_route_graph(r);
  random_batch(r, rng, c, n);
  if (td_test_below(rng, 4) == 0) *n = 0; /* factors alone */
  size_t k = 1 + td_test_below(rng, 3);
  for (size_t i = 0; i < k; i++) {
    int32_t e = (int32_t)td_test_below(rng, (uint32_t)g->edge_count);
    if (i > 0 && td_test_below(rng, 4) == 0) e = c[*n - 1].id; /* the same edge again */
    double f = np > 0 ? palette[td_test_below(rng, (uint32_t)np)] : 0.2 + 4.8 * td_test_unit(rng);
    c[(*n)++] = factor_of(e, f);
  }
  /* shuffle: flags and factors in any order */
  for (size_t i = *n; i > 1; i--) {
    size_t j = td_test_below(rng, (uint32_t)i);
    td_graph_change t = c[i - 1];
    c[i - 1] = c[j];
    c[j] = t;
  }
}

/* run_random with factor changes: after every batch the route equals a
** fresh one; every fifth batch is a transaction (a refused one restores
** everything, weights included), every seventh a preview (restores it all),
** every eleventh is followed by a full recompute of the same route (the
** FIFO queues sized after the classes' counts as they are now). */
static void run_random_factors(td_graph *g, const int32_t *goals, size_t ng, int batches,
                               double fallback, const double *palette, int np,
                               td_test_rng *rng) {
  td_route *r = td_route_create(g, goals, ng, NULL);
  assert_non_null(r);
  td_route_set_fallback(r, fallback);
  td_graph_change c[8];
  size_t n;
  for (int b = 0; b < batches; b++) {
    random_factor_batch(r, rng, c, &n, palette, np);
    int32_t spawns[3];
    for (int i = 0; i < 3; i++) spawns[i] = (int32_t)td_test_below(rng, (uint32_t)g->node_count);
    td_route_verdict v;
    if (b % 7 == 3) {
      snapshot s = take(r);
      assert_int_equal(td_route_check(r, c, n, spawns, 3, &v, NULL), 0);
      assert_same(r, s);
      continue;
    }
    if (b % 5 == 4) {
      snapshot s = take(r);
      assert_int_equal(td_route_try_apply(r, c, n, spawns, 3, &v, NULL), 0);
      if (!v.ok) {
        assert_true(s.dist[v.cut_node] != TD_COST_INF);
        assert_same(r, s);
        assert_int_equal(td_route_apply(r, c, n, NULL), 0);
        assert_true(td_route_dist(r)[v.cut_node] == TD_COST_INF);
      } else {
        drop(s);
      }
    } else {
      assert_int_equal(td_route_apply(r, c, n, NULL), 0);
    }
    for (size_t i = 0; i < n; i++) /* the last change of each edge took */
      if (c[i].kind == TD_CHANGE_SET_FACTOR) {
        bool later = false;
        for (size_t j = i + 1; j < n; j++)
          later |= c[j].kind == TD_CHANGE_SET_FACTOR && c[j].id == c[i].id;
        if (!later) assert_true(g->edges[c[i].id].factor == c[i].factor);
      }
    if (b % 11 == 10) td_route_full(r);
    assert_matches_full(r, goals, ng);
  }
  td_cost sum = 0;
  for (int32_t e = 0; e < g->edge_count; e++) sum += g->edges[e].w;
  assert_true(sum == g->weight_sum);
  td_route_destroy(r);
}

/* Open grids: four factors make at most 8 weights (FIFO mode throughout,
** classes added as they come); five make ten (FIFO, then heap mode). */
static void test_random_factors_grids(void **state) {
  (void)state;
  td_test_rng rng = {88};
  static const double four[4] = {1.0, 2.0, 3.0, 0.5}, five[5] = {1.0, 2.0, 3.0, 0.5, 5.0};
  for (int round = 0; round < 6; round++) {
    int w = 8 + (int)td_test_below(&rng, 14), h = 8 + (int)td_test_below(&rng, 14);
    td_graph *g = grid_graph(w, h, NULL);
    int32_t goals[2] = {0, (int32_t)td_test_below(&rng, (uint32_t)(w * h))};
    double fb = round % 3 == 0 ? 1.0 : round % 3 == 1 ? 0.0625 : 0.01;
    run_random_factors(g, goals, 1 + round % 2, 500, fb, round < 3 ? four : five, round < 3 ? 4 : 5,
                       &rng);
    td_graph_destroy(g);
  }
}

static void test_random_factors_mazes(void **state) {
  (void)state;
  td_test_rng rng = {99};
  static const double two[2] = {1.0, 4.0};
  for (int round = 0; round < 4; round++) {
    td_grid *grid = td_graphgen_maze(2 * (6 + round) + 1, 2 * 8 + 1, 25, &rng);
    td_graph *g = td_test_build_graph(grid);
    td_grid_destroy(grid);
    int32_t goal = 0;
    while (g->adj_start[goal + 1] == g->adj_start[goal]) goal++;
    run_random_factors(g, &goal, 1, 500, round % 2 ? 1.0 : 0.0625, two, round < 2 ? 2 : 0, &rng);
    td_graph_destroy(g);
  }
}

static void test_random_factors_geometric(void **state) {
  (void)state;
  td_test_rng rng = {111};
  for (int round = 0; round < 4; round++) {
    td_graph *g = geometric_graph(150 + 50 * round, 0.14, &rng);
    int32_t goals[3] = {0, 1, 2};
    run_random_factors(g, goals, 1 + (size_t)round % 3, 500, round % 2 ? 1.0 : 0.0625, NULL, 0,
                       &rng);
    td_graph_destroy(g);
  }
}

static void test_random_factors_trees_and_lattices(void **state) {
  (void)state;
  td_test_rng rng = {122};
  static const double ties[3] = {1.0, 2.0, 0.5}; /* integer lengths: real ties */
  for (int round = 0; round < 3; round++) {
    td_graph *g = tree_graph(100 + 60 * round, &rng);
    int32_t goals[2] = {0, (int32_t)td_test_below(&rng, 100)};
    run_random_factors(g, goals, 2, 400, 1.0, NULL, 0, &rng);
    td_graph_destroy(g);
    g = lattice_graph(9 + round, &rng);
    goals[1] = (int32_t)td_test_below(&rng, (uint32_t)g->node_count);
    run_random_factors(g, goals, 2, 400, round % 2 ? 1.0 : 0.0625, ties, 3, &rng);
    td_graph_destroy(g);
  }
}

/* Counted: 6*500 + 4*500 + 4*500 + 3*2*400 = 9,400 random batches with
** factor changes. */

static void test_edge_cases(void **state) {
  (void)state;
  td_err err;
  /* one node, no edge: a goal, then not */
  td_graph *g = finish(td_graph_create(0, 0));
  assert_int_equal(g->node_count, 0);
  td_route *r = td_route_create(g, NULL, 0, &err);
  assert_non_null(r);
  assert_int_equal(td_route_validate(r, NULL), 0);
  td_route_destroy(r);
  td_graph_destroy(g);
  g = td_graph_create(0, 0);
  td_graph_add_node(g, 0, 0, NULL);
  finish(g);
  int32_t goal = 0;
  r = td_route_create(g, &goal, 1, NULL);
  assert_true(td_route_dist(r)[0] == 0);
  td_graph_change c = {.kind = TD_CHANGE_BLOCK_NODE, .id = 0};
  assert_int_equal(td_route_apply(r, &c, 1, NULL), 0);
  assert_true(td_route_dist(r)[0] == TD_COST_INF);
  td_route_destroy(r);
  td_graph_destroy(g);

  /* no goal at all: everything unreachable */
  g = square();
  r = td_route_create(g, NULL, 0, NULL);
  for (int v = 0; v < 5; v++) assert_true(td_route_dist(r)[v] == TD_COST_INF);
  td_route_destroy(r);

  /* a goal listed twice, and a goal blocked before the route exists */
  int32_t goals[3] = {0, 0, 4};
  g->node_blocked[4] = 1;
  r = td_route_create(g, goals, 3, NULL);
  assert_true(td_route_dist(r)[4] == TD_COST_INF && td_route_dist(r)[2] == 5 * TD_COST_ONE);
  assert_int_equal(td_route_validate(r, NULL), 0);
  c = (td_graph_change){.kind = TD_CHANGE_UNBLOCK_NODE, .id = 4};
  assert_int_equal(td_route_apply(r, &c, 1, NULL), 0);
  /* node 2 is 5 from goal 0 and 6 from goal 4: it keeps goal 0 */
  assert_true(td_route_dist(r)[4] == 0 && td_route_dist(r)[2] == 5 * TD_COST_ONE);
  assert_int_equal(td_route_next(r)[2], 0);
  c = (td_graph_change){.kind = TD_CHANGE_BLOCK_EDGE, .id = 4}; /* now 7 via 1 or 3, or 6 via 4 */
  assert_int_equal(td_route_apply(r, &c, 1, NULL), 0);
  assert_true(td_route_dist(r)[2] == 6 * TD_COST_ONE);
  assert_int_equal(td_route_next(r)[2], 4);
  assert_matches_full(r, goals, 3);

  /* one batch that blocks and unblocks the same items: the last one wins */
  td_graph_change twice[4] = {{.kind = TD_CHANGE_UNBLOCK_EDGE, .id = 4}, {.kind = TD_CHANGE_BLOCK_EDGE, .id = 4},
                              {.kind = TD_CHANGE_UNBLOCK_NODE, .id = 3}, {.kind = TD_CHANGE_BLOCK_NODE, .id = 3}};
  assert_int_equal(td_route_apply(r, twice, 4, NULL), 0);
  assert_true(g->edges[4].blocked);
  assert_true(g->node_blocked[3]);
  assert_matches_full(r, goals, 3);
  td_route_destroy(r);
  td_graph_destroy(g);
}

static void test_cost_overflow_refused(void **state) {
  (void)state;
  /* three edges of 4e11 units each would overflow a sum of distances */
  td_graph *g = td_graph_create(0, 0);
  td_graph_add_node(g, 0, 0, NULL);
  td_graph_add_node(g, 4e11, 0, NULL);
  td_graph_add_node(g, 0, 4e11, NULL);
  td_graph_add_node(g, 4e11, 4e11, NULL);
  td_graph_add_edge(g, 0, 1, 1.0, NULL);
  td_graph_add_edge(g, 1, 3, 1.0, NULL);
  td_graph_add_edge(g, 3, 2, 1.0, NULL);
  td_err err;
  assert_int_equal(td_graph_finalize(g, &err), -1);
  assert_non_null(strstr(err.msg, "too long in all"));
  td_graph_destroy(g);
  assert_true(td_graph_cost(NAN, 1.0) == TD_COST_MAX);
  assert_true(td_graph_cost(INFINITY, 1.0) == TD_COST_MAX);
  assert_true(td_graph_cost(0.0, 1.0) == 1);
}

static void test_fallback_clamped(void **state) {
  (void)state;
  td_graph *g = grid_graph(6, 6, NULL);
  int32_t goal = 0;
  td_route *r = td_route_create(g, &goal, 1, NULL);
  double odd[4] = {INFINITY, 1e300, -5.0, NAN};
  for (int i = 0; i < 4; i++) {
    td_route_set_fallback(r, odd[i]);
    td_graph_change c = {.kind = TD_CHANGE_BLOCK_NODE, .id = 7 + i};
    assert_int_equal(td_route_apply(r, &c, 1, NULL), 0);
    assert_matches_full(r, &goal, 1);
  }
  td_route_destroy(r);
  td_graph_destroy(g);
}

/* ---- allocation failure -------------------------------------------------- */

/* Builds a graph and a route and runs updates; returns 0 when it all worked,
** -1 when an allocation failed (cleanly). */
static int build_and_update(void) {
  td_err err;
  td_graph *g = td_graph_create(2, 2);
  if (!g) return -1;
  for (int i = 0; i < 40; i++)
    if (td_graph_add_node(g, i % 8, i / 8, &err) < 0) goto fail;
  for (int i = 0; i < 39; i++)
    if (td_graph_add_edge(g, i, i + 1, 1.0 + (i % 3), &err) < 0) goto fail;
  if (td_graph_add_edge(g, 0, 39, 1.0, &err) < 0) goto fail;
  if (td_graph_finalize(g, &err) != 0) goto fail;
  int32_t goals[2] = {0, 20};
  td_route *r = td_route_create(g, goals, 2, &err);
  if (!r) goto fail;
  td_graph_change c[6] = {{.kind = TD_CHANGE_BLOCK_EDGE, .id = 3}, {.kind = TD_CHANGE_BLOCK_NODE, .id = 30},
                          {.kind = TD_CHANGE_BLOCK_EDGE, .id = 9}, {.kind = TD_CHANGE_UNBLOCK_EDGE, .id = 3},
                          {.kind = TD_CHANGE_BLOCK_NODE, .id = 11}, {.kind = TD_CHANGE_UNBLOCK_NODE, .id = 30}};
  int32_t spawns[3] = {5, 15, 35};
  td_route_verdict v;
  /* nine new weights: FIFO classes added, then heap mode */
  td_graph_change f[9];
  for (int i = 0; i < 9; i++) f[i] = factor_of(4 * i, 1.1 + 0.1 * i);
  int status = 0;
  if (td_route_apply(r, c, 2, &err) != 0 ||
      td_route_try_apply(r, c + 2, 4, spawns, 3, &v, &err) != 0 ||
      td_route_check(r, f, 9, spawns, 3, &v, &err) != 0 ||
      td_route_apply(r, f, 9, &err) != 0 ||
      td_route_check(r, c, 6, spawns, 3, &v, &err) != 0)
    status = -1;
  if (status == 0 && td_route_validate(r, &err) != 0) fail_msg("%s", err.msg);
  td_route_destroy(r);
  td_graph_destroy(g);
  return status;
fail:
  td_graph_destroy(g);
  return -1;
}

static void test_allocation_failures(void **state) {
  (void)state;
  td_test_alloc c = {0};
  td_test_alloc_install(&c);
  assert_int_equal(build_and_update(), 0);
  long total = c.calls;
  td_test_alloc_assert_clean(&c);
  for (long n = 1; n <= total; n++) {
    c = (td_test_alloc){.fail_at = n};
    assert_int_equal(build_and_update(), -1);
    assert_int_equal(c.failures, 1);
    if (c.live_blocks != 0 || c.live_bytes != 0 || c.bad_sizes != 0)
      fail_msg("allocation %ld failing: %ld blocks (%lld bytes) leaked, %ld size mismatches", n,
               c.live_blocks, c.live_bytes, c.bad_sizes);
  }
  td_test_alloc_remove();
  assert_true(total > 20);
}

/* The hook the failure tests rely on: it numbers allocations, fails the
** chosen ones and notices old sizes that differ from the allocated ones. */
static void test_alloc_hook_self_check(void **state) {
  (void)state;
  td_test_alloc c = {.fail_at = 2};
  td_test_alloc_install(&c);
  char *a = td_mem_alloc(10);
  assert_non_null(a);
  assert_null(td_mem_alloc(20)); /* call 2 fails */
  char *b = td_mem_realloc(a, 10, 30); /* call 3: served again */
  assert_non_null(b);
  assert_int_equal(c.calls, 3);
  assert_int_equal(c.failures, 1);
  assert_int_equal(c.live_blocks, 1);
  assert_int_equal(c.live_bytes, 30);
  assert_int_equal(c.bad_sizes, 0);
  td_mem_free(b, 29); /* wrong size: counted */
  assert_int_equal(c.bad_sizes, 1);
  assert_int_equal(c.live_blocks, 0);
  assert_int_equal(c.live_bytes, 0);
  c = (td_test_alloc){.fail_at = 2, .fail_rest = true};
  a = td_mem_alloc(8);
  assert_non_null(a);
  assert_null(td_mem_alloc(8));
  assert_null(td_mem_realloc(a, 8, 16)); /* a is left untouched */
  assert_int_equal(c.failures, 2);
  td_mem_free(a, 8);
  assert_int_equal(c.live_blocks, 0);
  assert_int_equal(c.bad_sizes, 0);
  td_test_alloc_remove();
}

static void test_changed_nodes_reported(void **state) {
  (void)state;
  td_graph *g = grid_graph(10, 10, NULL);
  int32_t goal = 0;
  td_route *r = td_route_create(g, &goal, 1, NULL);
  td_cost before[100];
  int32_t next_before[100];
  memcpy(before, td_route_dist(r), sizeof before);
  memcpy(next_before, td_route_next(r), sizeof next_before);
  td_route_set_fallback(r, 1.0);
  td_graph_change c = {.kind = TD_CHANGE_BLOCK_NODE, .id = 11};
  assert_int_equal(td_route_apply(r, &c, 1, NULL), 0);
  const int32_t *changed;
  bool all;
  size_t k = td_route_changed(r, &changed, &all);
  assert_false(all);
  assert_false(td_route_get_stats(r)->last_full);
  uint8_t in[100] = {0};
  for (size_t i = 0; i < k; i++) in[changed[i]] = 1;
  for (int v = 0; v < 100; v++)
    if (before[v] != td_route_dist(r)[v] || next_before[v] != td_route_next(r)[v])
      assert_true(in[v]);
  assert_true(k < 100);
  /* past the fallback threshold the update is a full recompute: all nodes */
  td_route_set_fallback(r, 0.0);
  c = (td_graph_change){.kind = TD_CHANGE_BLOCK_NODE, .id = 22};
  assert_int_equal(td_route_apply(r, &c, 1, NULL), 0);
  assert_int_equal(td_route_changed(r, &changed, &all), 100);
  assert_true(all);
  assert_true(td_route_get_stats(r)->last_full);
  assert_int_equal(td_route_get_stats(r)->fallback_count, 1);
  assert_matches_full(r, &goal, 1);
  td_route_destroy(r);
  td_graph_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_distances_by_hand),
    cmocka_unit_test(test_multiple_goals_and_blocked_goal),
    cmocka_unit_test(test_bad_batch_changes_nothing),
    cmocka_unit_test(test_graph_errors),
    cmocka_unit_test(test_try_apply_refuses_and_rolls_back),
    cmocka_unit_test(test_random_open_grids),
    cmocka_unit_test(test_random_mazes),
    cmocka_unit_test(test_random_geometric),
    cmocka_unit_test(test_random_trees),
    cmocka_unit_test(test_random_with_fallback),
    cmocka_unit_test(test_changed_nodes_reported),
    cmocka_unit_test(test_random_heap_mode_with_ties),
    cmocka_unit_test(test_factors_by_hand),
    cmocka_unit_test(test_factor_errors),
    cmocka_unit_test(test_grid_factor_one_is_exact),
    cmocka_unit_test(test_random_factors_grids),
    cmocka_unit_test(test_random_factors_mazes),
    cmocka_unit_test(test_random_factors_geometric),
    cmocka_unit_test(test_random_factors_trees_and_lattices),
    cmocka_unit_test(test_edge_cases),
    cmocka_unit_test(test_cost_overflow_refused),
    cmocka_unit_test(test_fallback_clamped),
    cmocka_unit_test(test_alloc_hook_self_check),
    cmocka_unit_test(test_allocation_failures),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
