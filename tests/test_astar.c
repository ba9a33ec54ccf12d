/*
** test_astar.c: A* against hand-computed costs and against the reverse
** Dijkstra of route.h; tie-breaking, budgets, reuse, allocation failures.
*/
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nav/astar.h"
#include "nav/grid.h"
#include "nav/route.h"

/* ---- helpers ------------------------------------------------------------- */

static td_grid *open_grid(int w, int h, double cs) {
  td_err err;
  td_grid *grid = td_grid_create(w, h, cs, &err);
  assert_non_null(grid);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) td_grid_set_walkable(grid, x, y, true);
  return grid;
}

static td_astar *search(void) {
  td_err err;
  td_astar *s = td_astar_create(&err);
  assert_non_null(s);
  return s;
}

/* The path found is a walk over open edges from a to b whose weights add
** up to the cost reported. Returns the cost. */
static td_cost checked_path(const td_astar *s, const td_graph *g, int32_t a, int32_t b,
                            size_t *len) {
  td_cost cost;
  size_t n = td_astar_path(s, NULL, 0, &cost);
  assert_true(n >= 1);
  int32_t *p = malloc(n * sizeof *p);
  assert_int_equal(td_astar_path(s, p, n, NULL), n);
  assert_int_equal(p[0], a);
  assert_int_equal(p[n - 1], b);
  td_cost sum = 0;
  for (size_t i = 0; i + 1 < n; i++) {
    int32_t e = td_graph_find_edge(g, p[i], p[i + 1]);
    assert_true(e != TD_NONE);
    assert_true(td_graph_edge_open(g, e));
    sum += g->edges[e].w;
  }
  assert_true(sum == cost);
  free(p);
  if (len) *len = n;
  return cost;
}

static td_cost w1(double cs) { return td_graph_cost(cs, 1.0); }
static td_cost w2(double cs) { return td_graph_cost(cs * sqrt(2.0), 1.0); }

/* ---- by hand ------------------------------------------------------------- */

static void test_octile_costs_in_the_open(void **state) {
  (void)state;
  const double cs = 0.3; /* a cell size whose positions do not round nicely */
  td_grid *grid = open_grid(12, 9, cs);
  grid->origin_x = 0.1;
  grid->origin_y = -7.7;
  td_graph *g = td_test_build_graph(grid);
  td_astar *s = search();
  td_err err;
  struct { int x0, y0, x1, y1, diag, straight; } cases[] = {
      {0, 0, 11, 8, 8, 3}, {11, 0, 0, 8, 8, 3}, {5, 5, 5, 0, 0, 5},
      {2, 7, 9, 1, 6, 1},  {0, 4, 11, 4, 0, 11}, {3, 3, 4, 4, 1, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int32_t a = td_grid_node_at(grid, cases[i].x0, cases[i].y0);
    int32_t b = td_grid_node_at(grid, cases[i].x1, cases[i].y1);
    assert_int_equal(td_astar_find(s, g, a, b, &err), TD_ASTAR_FOUND);
    size_t n;
    td_cost c = checked_path(s, g, a, b, &n);
    assert_true(c == (td_cost)cases[i].diag * w2(cs) + (td_cost)cases[i].straight * w1(cs));
    /* the heuristic is exact in the open and ties go toward the goal:
    ** only the nodes of the path are expanded */
    assert_int_equal(td_astar_expanded(s), n);
  }
  td_astar_destroy(s);
  td_graph_destroy(g);
  td_grid_destroy(grid);
}

static void test_trivial_and_bad_requests(void **state) {
  (void)state;
  td_grid *grid = open_grid(4, 4, 1.0);
  td_graph *g = td_test_build_graph(grid);
  td_astar *s = search();
  td_err err;
  /* start == goal */
  assert_int_equal(td_astar_begin(s, g, 5, 5, &err), TD_ASTAR_FOUND);
  td_cost c;
  int32_t p[4];
  assert_int_equal(td_astar_path(s, p, 4, &c), 1);
  assert_int_equal(p[0], 5);
  assert_true(c == 0);
  assert_int_equal(td_astar_expanded(s), 0);
  /* unknown nodes */
  assert_int_equal(td_astar_begin(s, g, -1, 3, &err), TD_ASTAR_ERROR);
  assert_non_null(strstr(err.msg, "unknown node"));
  assert_int_equal(td_astar_find(s, g, 0, 16, &err), TD_ASTAR_ERROR);
  assert_int_equal(td_astar_path(s, p, 4, &c), 0);
  assert_true(c == TD_COST_INF);
  assert_int_equal(td_astar_step(s, 10), TD_ASTAR_ERROR);
  /* a blocked end: no path, no work */
  g->node_blocked[15] = 1; /* test stand-in for td_route_apply */
  assert_int_equal(td_astar_begin(s, g, 0, 15, &err), TD_ASTAR_NO_PATH);
  assert_int_equal(td_astar_begin(s, g, 15, 0, &err), TD_ASTAR_NO_PATH);
  assert_int_equal(td_astar_begin(s, g, 15, 15, &err), TD_ASTAR_NO_PATH);
  assert_int_equal(td_astar_expanded(s), 0);
  /* blocked edges around the goal: searched out, then no path */
  g->node_blocked[15] = 0;
  int32_t goal = 15;
  for (int32_t i = g->adj_start[goal]; i < g->adj_start[goal + 1]; i++)
    g->edges[g->adj_edge[i]].blocked = 1;
  assert_int_equal(td_astar_find(s, g, 0, 15, &err), TD_ASTAR_NO_PATH);
  assert_int_equal(td_astar_expanded(s), 15);
  td_astar_destroy(s);
  td_graph_destroy(g);
  td_grid_destroy(grid);
}

static void test_diagonal_between_walls_refused(void **state) {
  (void)state;
  td_err err;
  td_grid *grid = td_grid_create(2, 2, 1.0, &err);
  td_grid_set_walkable(grid, 0, 0, true);
  td_grid_set_walkable(grid, 1, 1, true);
  td_graph *g = td_test_build_graph(grid);
  td_astar *s = search();
  assert_int_equal(td_astar_find(s, g, 0, 1, &err), TD_ASTAR_NO_PATH);
  td_astar_destroy(s);
  td_graph_destroy(g);
  td_grid_destroy(grid);
}

/* Among equal f, smaller h first; among equal f and h, smaller id. */
static void test_tie_breaks(void **state) {
  (void)state;
  td_err err;
  td_astar *s = search();
  /* 3x3 grid, (0,0) -> (2,1): (1,0) and (1,1) both lie on a shortest path
  ** with equal f; (1,1) has the smaller h (one straight step left against
  ** one diagonal), so the path goes through it */
  td_grid *grid = open_grid(3, 3, 1.0);
  td_graph *g = td_test_build_graph(grid);
  assert_int_equal(td_astar_find(s, g, 0, 5, &err), TD_ASTAR_FOUND);
  int32_t p[8];
  assert_int_equal(td_astar_path(s, p, 8, NULL), 3);
  assert_int_equal(p[1], 4);
  td_graph_destroy(g);
  td_grid_destroy(grid);
  /* a diamond of waypoints: S(0) -> {B(1), A(2)} -> G(3), B and A mirror
  ** images: same f, same h, so the smaller id (B) is expanded first and
  ** G's parent is B; built the other way round, the path follows the other
  ** node, i.e. the id, not the geometry, decides */
  for (int flip = 0; flip < 2; flip++) {
    g = td_graph_create(4, 4);
    td_graph_add_node(g, 0, 0, &err);
    td_graph_add_node(g, 1, flip ? 1 : -1, &err);
    td_graph_add_node(g, 1, flip ? -1 : 1, &err);
    td_graph_add_node(g, 2, 0, &err);
    td_graph_add_edge(g, 0, 2, 1.0, &err); /* edge order must not matter */
    td_graph_add_edge(g, 0, 1, 1.0, &err);
    td_graph_add_edge(g, 2, 3, 1.0, &err);
    td_graph_add_edge(g, 1, 3, 1.0, &err);
    assert_int_equal(td_graph_finalize(g, &err), 0);
    assert_int_equal(td_astar_find(s, g, 0, 3, &err), TD_ASTAR_FOUND);
    assert_int_equal(td_astar_path(s, p, 8, NULL), 3);
    assert_int_equal(p[1], 1);
    td_graph_destroy(g);
  }
  td_astar_destroy(s);
}

/* ---- against the reverse Dijkstra ---------------------------------------- */

/* dist from every node to goal by route.h, compared with A* from a few
** starts; the graph's flags are set before the route is built. */
static void compare_with_route(const td_graph *g_const, td_astar *s, td_test_rng *rng,
                               int queries, uint64_t *found) {
  td_graph *g = (td_graph *)g_const;
  td_err err;
  for (int q = 0; q < queries; q++) {
    int32_t goal = (int32_t)td_test_below(rng, (uint32_t)g->node_count);
    td_route *r = td_route_create(g, &goal, 1, &err);
    if (!r) fail_msg("%s", err.msg);
    const td_cost *dist = td_route_dist(r);
    for (int k = 0; k < 6; k++) {
      int32_t start = (int32_t)td_test_below(rng, (uint32_t)g->node_count);
      td_astar_status st = td_astar_find(s, g, start, goal, &err);
      if (g->node_blocked[goal] || dist[start] == TD_COST_INF) {
        assert_int_equal(st, TD_ASTAR_NO_PATH);
        continue;
      }
      assert_int_equal(st, TD_ASTAR_FOUND);
      td_cost c = checked_path(s, g, start, goal, NULL);
      if (c != dist[start])
        fail_msg("start %d goal %d: A* %llu, Dijkstra %llu", start, goal,
                 (unsigned long long)c, (unsigned long long)dist[start]);
      (*found)++;
    }
    td_route_destroy(r);
  }
}

static void test_random_grids_match_dijkstra(void **state) {
  (void)state;
  td_test_rng rng = {2024};
  td_astar *s = search();
  td_err err;
  uint64_t found = 0;
  for (int round = 0; round < 120; round++) {
    int w = 2 + (int)td_test_below(&rng, 40), h = 2 + (int)td_test_below(&rng, 40);
    double cs = round % 3 == 0 ? 1.0 : 0.05 + 3.0 * td_test_unit(&rng);
    td_grid *grid = td_grid_create(w, h, cs, &err);
    grid->origin_x = round % 2 ? 0.0 : 100.0 * td_test_unit(&rng) - 50.0;
    grid->origin_y = round % 2 ? 0.0 : 100.0 * td_test_unit(&rng) - 50.0;
    uint32_t density = 2 + td_test_below(&rng, 5); /* 1 in density cells walled */
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        td_grid_set_walkable(grid, x, y, td_test_below(&rng, density) != 0);
    td_graph *g = td_grid_build_graph(grid, &err);
    assert_non_null(g);
    if (g->node_count == 0) {
      td_graph_destroy(g);
      td_grid_destroy(grid);
      continue;
    }
    /* towers: a few cells blocked the way the game blocks them */
    if (round % 2) {
      int32_t cells[6];
      size_t k = 0;
      for (int t = 0; t < 6; t++) cells[k++] = (int32_t)td_test_below(&rng, (uint32_t)(w * h));
      td_graph_change ch[64];
      size_t m = td_grid_changes(grid, g, cells, k, true, ch, 64);
      assert_true(m <= 64);
      for (size_t i = 0; i < m; i++) { /* flags set directly: no route yet */
        if (ch[i].kind == TD_CHANGE_BLOCK_NODE) g->node_blocked[ch[i].id] = 1;
        else g->edges[ch[i].id].blocked = 1;
      }
    }
    compare_with_route(g, s, &rng, 4, &found);
    td_graph_destroy(g);
    td_grid_destroy(grid);
  }
  assert_true(found > 1000);
  td_astar_destroy(s);
}

static void test_random_waypoint_graphs_match_dijkstra(void **state) {
  (void)state;
  td_test_rng rng = {99};
  td_astar *s = search();
  td_err err;
  uint64_t found = 0;
  for (int round = 0; round < 120; round++) {
    int n = 2 + (int)td_test_below(&rng, 200);
    td_graph *g = td_graph_create(n, 4 * n);
    double scale = round % 4 == 0 ? 1e-3 : round % 4 == 1 ? 1e4 : 50.0;
    for (int i = 0; i < n; i++)
      td_graph_add_node(g, scale * td_test_unit(&rng), scale * td_test_unit(&rng), &err);
    /* random edges; some rounds have every factor >= 1, others down to 0.3 */
    double fmin = round % 3 == 0 ? 1.0 : 0.3;
    int m = n + (int)td_test_below(&rng, (uint32_t)(3 * n));
    for (int k = 0; k < m; k++) {
      int32_t a = (int32_t)td_test_below(&rng, (uint32_t)n);
      int32_t b = (int32_t)td_test_below(&rng, (uint32_t)n);
      if (a == b) continue;
      bool dup = false; /* find_edge works only after finalize */
      for (int32_t e = 0; e < g->edge_count && !dup; e++)
        dup = (g->edges[e].a == a && g->edges[e].b == b) ||
              (g->edges[e].a == b && g->edges[e].b == a);
      if (dup) continue;
      double f = td_test_below(&rng, 3) == 0 ? fmin + 2.0 * td_test_unit(&rng) : 1.0;
      assert_true(td_graph_add_edge(g, a, b, f, &err) != TD_NONE);
    }
    assert_int_equal(td_graph_finalize(g, &err), 0);
    for (int32_t e = 0; e < g->edge_count; e++)
      if (td_test_below(&rng, 10) == 0) g->edges[e].blocked = 1;
    for (int32_t v = 0; v < g->node_count; v++)
      if (td_test_below(&rng, 25) == 0) g->node_blocked[v] = 1;
    compare_with_route(g, s, &rng, 4, &found);
    td_graph_destroy(g);
  }
  assert_true(found > 500);
  td_astar_destroy(s);
}

/* ---- budgets and reuse --------------------------------------------------- */

static td_grid *maze_like(int w, int h, td_test_rng *rng) {
  td_err err;
  td_grid *grid = td_grid_create(w, h, 1.0, &err);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) td_grid_set_walkable(grid, x, y, true);
  /* walls across the map with one gap each, alternating sides */
  for (int y = 3; y < h - 1; y += 4)
    for (int x = 0; x < w; x++)
      if ((y / 4) % 2 ? x != w - 1 : x != 0) td_grid_set_walkable(grid, x, y, false);
  /* pillars in the middle row of each band: the band's outer rows stay
  ** open, so everything stays connected */
  for (int k = 0; k < w * h / 20; k++) {
    int y = 1 + 4 * (int)td_test_below(rng, (uint32_t)(h / 4 + 1));
    if (y < h) td_grid_set_walkable(grid, (int)td_test_below(rng, (uint32_t)w), y, false);
  }
  return grid;
}

static void test_budgeted_search_equals_one_shot(void **state) {
  (void)state;
  td_test_rng rng = {5};
  td_grid *grid = maze_like(40, 30, &rng);
  td_graph *g = td_test_build_graph(grid);
  td_astar *one = search(), *stepped = search();
  td_err err;
  int32_t a = td_grid_node_at(grid, 1, 0), b = td_grid_node_at(grid, 38, 29);
  assert_int_equal(td_astar_find(one, g, a, b, &err), TD_ASTAR_FOUND);
  uint64_t total = td_astar_expanded(one);
  assert_true(total > 100);
  size_t n = td_astar_path(one, NULL, 0, NULL);
  int32_t *p1 = malloc(n * sizeof *p1), *p2 = malloc(n * sizeof *p2);
  td_cost c1, c2;
  td_astar_path(one, p1, n, &c1);
  for (uint64_t budget = 1; budget <= 64; budget = budget * 3 + 1) {
    assert_int_equal(td_astar_begin(stepped, g, a, b, &err), TD_ASTAR_RUNNING);
    assert_int_equal(td_astar_step(stepped, 0), TD_ASTAR_RUNNING);
    uint64_t steps = 0;
    td_astar_status st;
    do {
      uint64_t before = td_astar_expanded(stepped);
      st = td_astar_step(stepped, budget);
      assert_true(td_astar_expanded(stepped) - before <= budget);
      steps++;
    } while (st == TD_ASTAR_RUNNING);
    assert_int_equal(st, TD_ASTAR_FOUND);
    assert_int_equal(td_astar_expanded(stepped), total);
    assert_int_equal(steps, (total + budget - 1) / budget);
    assert_int_equal(td_astar_path(stepped, p2, n, &c2), n);
    assert_true(c1 == c2);
    assert_memory_equal(p1, p2, n * sizeof *p1);
    /* answered: more steps change nothing */
    assert_int_equal(td_astar_step(stepped, 100), TD_ASTAR_FOUND);
    assert_int_equal(td_astar_expanded(stepped), total);
  }
  free(p1);
  free(p2);
  td_astar_destroy(one);
  td_astar_destroy(stepped);
  td_graph_destroy(g);
  td_grid_destroy(grid);
}

/* One search object over many graphs and searches gives what fresh ones
** give (the generation stamps hide every earlier search); graphs grow and
** shrink from one round to the next. */
static void test_reuse_matches_fresh(void **state) {
  (void)state;
  td_test_rng rng = {31};
  td_astar *reused = search();
  td_err err;
  for (int round = 0; round < 40; round++) {
    int w = 2 + (int)td_test_below(&rng, 30), h = 2 + (int)td_test_below(&rng, 30);
    td_grid *grid = maze_like(w, h, &rng);
    td_graph *g = td_test_build_graph(grid);
    for (int q = 0; q < 10 && g->node_count > 0; q++) {
      int32_t a = (int32_t)td_test_below(&rng, (uint32_t)g->node_count);
      int32_t b = (int32_t)td_test_below(&rng, (uint32_t)g->node_count);
      td_astar *fresh = search();
      td_astar_status s1 = td_astar_find(reused, g, a, b, &err);
      td_astar_status s2 = td_astar_find(fresh, g, a, b, &err);
      assert_int_equal(s1, s2);
      assert_int_equal(td_astar_expanded(reused), td_astar_expanded(fresh));
      td_cost c1, c2;
      size_t n1 = td_astar_path(reused, NULL, 0, &c1), n2 = td_astar_path(fresh, NULL, 0, &c2);
      assert_int_equal(n1, n2);
      assert_true(c1 == c2);
      td_astar_destroy(fresh);
    }
    td_graph_destroy(g);
    td_grid_destroy(grid);
  }
  td_astar_destroy(reused);
}

/* ---- the closed set ------------------------------------------------------- */

static size_t count_closed(const td_astar *s, const td_graph *g) {
  size_t n = 0;
  for (int32_t v = 0; v < g->node_count; v++) n += td_astar_closed(s, v);
  return n;
}

/* td_astar_closed is the set of nodes expanded: on grids (no reopening)
** exactly td_astar_expanded of them, growing with every budgeted step, the
** path's nodes among them; in the open, only the path's (the heuristic is
** exact). Nothing is closed before a search, when no expansion was needed,
** after ERROR, or for ids outside the graph. */
static void test_closed_set(void **state) {
  (void)state;
  td_err err;
  td_astar *s = search();
  td_grid *open = open_grid(12, 9, 1.0);
  td_graph *g = td_test_build_graph(open);
  assert_false(td_astar_closed(s, 0)); /* no search yet */
  int32_t a = td_grid_node_at(open, 0, 0), b = td_grid_node_at(open, 11, 5);
  assert_int_equal(td_astar_find(s, g, a, b, &err), TD_ASTAR_FOUND);
  int32_t p[32];
  size_t n = td_astar_path(s, p, 32, NULL);
  assert_int_equal(count_closed(s, g), n);
  for (size_t i = 0; i < n; i++) assert_true(td_astar_closed(s, p[i]));
  assert_false(td_astar_closed(s, -1));
  assert_false(td_astar_closed(s, g->node_count));
  /* no expansion: start == goal, a blocked end; then an error */
  assert_int_equal(td_astar_begin(s, g, a, a, &err), TD_ASTAR_FOUND);
  assert_int_equal(count_closed(s, g), 0);
  g->node_blocked[b] = 1; /* test stand-in for td_route_apply */
  assert_int_equal(td_astar_begin(s, g, a, b, &err), TD_ASTAR_NO_PATH);
  assert_int_equal(count_closed(s, g), 0);
  g->node_blocked[b] = 0;
  assert_int_equal(td_astar_find(s, g, a, b, &err), TD_ASTAR_FOUND);
  assert_int_equal(td_astar_begin(s, g, a, g->node_count, &err), TD_ASTAR_ERROR);
  assert_int_equal(count_closed(s, g), 0);
  td_graph_destroy(g);
  td_grid_destroy(open);

  /* a maze, stepped: the set grows by the budget's expansions and is the
  ** one-shot search's at the end */
  td_test_rng rng = {5}; /* test_budgeted_search_equals_one_shot's maze */
  td_grid *grid = maze_like(40, 30, &rng);
  g = td_test_build_graph(grid);
  a = td_grid_node_at(grid, 1, 0);
  b = td_grid_node_at(grid, 38, 29);
  td_astar *one = search();
  assert_int_equal(td_astar_find(one, g, a, b, &err), TD_ASTAR_FOUND);
  uint64_t total = td_astar_expanded(one);
  assert_true(total > 100);
  assert_int_equal(count_closed(one, g), total);
  assert_int_equal(td_astar_begin(s, g, a, b, &err), TD_ASTAR_RUNNING);
  assert_int_equal(count_closed(s, g), 0); /* the start is open, not closed */
  td_astar_status st;
  do {
    st = td_astar_step(s, 37);
    assert_int_equal(count_closed(s, g), td_astar_expanded(s));
  } while (st == TD_ASTAR_RUNNING);
  assert_int_equal(st, TD_ASTAR_FOUND);
  for (int32_t v = 0; v < g->node_count; v++)
    assert_int_equal(td_astar_closed(s, v), td_astar_closed(one, v));
  size_t len = td_astar_path(s, NULL, 0, NULL);
  int32_t *path = malloc(len * sizeof *path);
  td_astar_path(s, path, len, NULL);
  for (size_t i = 0; i < len; i++) assert_true(td_astar_closed(s, path[i]));
  free(path);
  /* a new search forgets the old set (generation stamps) */
  assert_int_equal(td_astar_find(s, g, b, b, &err), TD_ASTAR_FOUND);
  assert_int_equal(count_closed(s, g), 0);
  td_astar_destroy(one);
  td_graph_destroy(g);
  td_grid_destroy(grid);

  /* waypoint graphs with factors below 1 may reopen: never more closed
  ** nodes than expansions */
  for (int round = 0; round < 30; round++) {
    int nn = 2 + (int)td_test_below(&rng, 120);
    g = td_graph_create(nn, 4 * nn);
    for (int i = 0; i < nn; i++)
      td_graph_add_node(g, 50.0 * td_test_unit(&rng), 50.0 * td_test_unit(&rng), &err);
    for (int i = 1; i < nn; i++) {
      int32_t t = (int32_t)td_test_below(&rng, (uint32_t)i);
      td_graph_add_edge(g, i, t, 0.3 + 2.0 * td_test_unit(&rng), &err);
    }
    assert_int_equal(td_graph_finalize(g, &err), 0);
    int32_t x = (int32_t)td_test_below(&rng, (uint32_t)nn);
    int32_t y = (int32_t)td_test_below(&rng, (uint32_t)nn);
    assert_int_equal(td_astar_find(s, g, x, y, &err), TD_ASTAR_FOUND); /* a tree: connected */
    assert_true(count_closed(s, g) <= td_astar_expanded(s));
    assert_true(x == y || td_astar_closed(s, y));
    td_graph_destroy(g);
  }
  td_astar_destroy(s);
}

/* ---- allocation failures ------------------------------------------------- */

static void test_allocation_failures(void **state) {
  (void)state;
  td_grid *grid = open_grid(10, 10, 1.0);
  td_graph *g = td_test_build_graph(grid);
  bool ok = false;
  for (long k = 0; k < 20 && !ok; k++) {
    td_test_alloc f = {.fail_at = k + 1, .fail_rest = true};
    td_test_alloc_install(&f);
    td_err err;
    td_astar *s = td_astar_create(&err);
    if (s) {
      td_astar_status st = td_astar_find(s, g, 0, 99, &err);
      if (st == TD_ASTAR_ERROR) assert_non_null(strstr(err.msg, "memory"));
      else ok = st == TD_ASTAR_FOUND;
      td_astar_destroy(s);
    } else {
      assert_non_null(strstr(err.msg, "memory"));
    }
    td_test_alloc_remove();
    td_test_alloc_assert_clean(&f);
  }
  assert_true(ok);
  td_graph_destroy(g);
  td_grid_destroy(grid);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_octile_costs_in_the_open),
    cmocka_unit_test(test_trivial_and_bad_requests),
    cmocka_unit_test(test_diagonal_between_walls_refused),
    cmocka_unit_test(test_tie_breaks),
    cmocka_unit_test(test_random_grids_match_dijkstra),
    cmocka_unit_test(test_random_waypoint_graphs_match_dijkstra),
    cmocka_unit_test(test_budgeted_search_equals_one_shot),
    cmocka_unit_test(test_reuse_matches_fresh),
    cmocka_unit_test(test_closed_set),
    cmocka_unit_test(test_allocation_failures),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
