/*
** test_jps.c: Jump Point Search against A* (astar.h) on random grids with
** random tower blocks toggled between queries (the same status and cost on
** every query, every path legal: each step an open edge, no corner cut,
** the weights adding up to the cost), budgeted and resumed searches
** against unbudgeted ones, the MovingAI scenarios of tests/data, the
** uniformity test, bad input and allocation failures.
*/
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nav/astar.h"
#include "nav/grid.h"
#include "nav/jps.h"
#include "nav/movingai.h"
#include "nav/route.h"

/* ---- helpers ------------------------------------------------------------- */

static td_jps *jps_bound(const td_grid *grid, const td_graph *g) {
  td_err err;
  td_jps *s = td_jps_create(&err);
  assert_non_null(s);
  assert_int_equal(td_jps_bind(s, grid, g, &err), 0);
  return s;
}

static td_astar *astar(void) {
  td_err err;
  td_astar *s = td_astar_create(&err);
  assert_non_null(s);
  return s;
}

static bool open_cell(const td_grid *grid, const td_graph *g, int32_t x, int32_t y) {
  int32_t n = td_grid_node_at(grid, x, y);
  return n != TD_NONE && !g->node_blocked[n];
}

/* JPS's path: from a to b, every step one cell to an open cell over an
** open edge, a diagonal only with both side cells open, the weights adding
** up to the cost. Returns the cost. */
static td_cost checked_jps_path(const td_jps *s, const td_grid *grid, const td_graph *g,
                                int32_t a, int32_t b) {
  td_cost cost;
  size_t n = td_jps_path(s, NULL, 0, &cost);
  assert_true(n >= 1);
  int32_t *p = malloc(n * sizeof *p);
  assert_non_null(p);
  assert_int_equal(td_jps_path(s, p, n, NULL), n);
  assert_int_equal(p[0], a);
  assert_int_equal(p[n - 1], b);
  td_cost sum = 0;
  for (size_t i = 0; i + 1 < n; i++) {
    int32_t c0 = grid->node_cell[p[i]], c1 = grid->node_cell[p[i + 1]];
    int32_t x0 = c0 % grid->width, y0 = c0 / grid->width;
    int32_t x1 = c1 % grid->width, y1 = c1 / grid->width;
    assert_true(abs(x1 - x0) <= 1 && abs(y1 - y0) <= 1 && c0 != c1);
    assert_true(open_cell(grid, g, x0, y0) && open_cell(grid, g, x1, y1));
    if (x0 != x1 && y0 != y1)
      assert_true(open_cell(grid, g, x1, y0) && open_cell(grid, g, x0, y1));
    int32_t e = td_graph_find_edge(g, p[i], p[i + 1]);
    assert_true(e != TD_NONE);
    assert_true(td_graph_edge_open(g, e));
    sum += g->edges[e].w;
  }
  assert_true(sum == cost);
  free(p);
  return cost;
}

/* Sets the flags a batch of td_grid_changes asks for (as td_route_apply
** would, without a route). */
static void apply_flags(td_graph *g, const td_graph_change *c, size_t n) {
  for (size_t i = 0; i < n; i++) {
    switch (c[i].kind) {
    case TD_CHANGE_BLOCK_NODE: g->node_blocked[c[i].id] = 1; break;
    case TD_CHANGE_UNBLOCK_NODE: g->node_blocked[c[i].id] = 0; break;
    case TD_CHANGE_BLOCK_EDGE: g->edges[c[i].id].blocked = 1; break;
    case TD_CHANGE_UNBLOCK_EDGE: g->edges[c[i].id].blocked = 0; break;
    case TD_CHANGE_SET_FACTOR: break;
    }
  }
}

/* Blocks (or unblocks) one cell as a tower would. */
static void toggle_cell(const td_grid *grid, td_graph *g, int32_t cell, bool block) {
  td_graph_change c[16];
  size_t n = td_grid_changes(grid, g, &cell, 1, block, c, 16);
  assert_true(n <= 16);
  apply_flags(g, c, n);
}

static td_grid *random_grid(td_test_rng *rng, int32_t w, int32_t h, double wall) {
  td_err err;
  td_grid *grid = td_grid_create(w, h, 1.0, &err);
  assert_non_null(grid);
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++)
      td_grid_set_walkable(grid, x, y, td_test_unit(rng) >= wall);
  return grid;
}

/* One query both ways: the same status, and when found the same cost. */
static void compare(td_astar *as, td_jps *js, const td_grid *grid, const td_graph *g,
                    int32_t a, int32_t b) {
  td_err err;
  td_astar_status sa = td_astar_find(as, g, a, b, &err);
  td_astar_status sj = td_jps_find(js, a, b, &err);
  assert_int_equal(sj, sa);
  if (sa != TD_ASTAR_FOUND) return;
  td_cost ca;
  td_astar_path(as, NULL, 0, &ca);
  assert_true(checked_jps_path(js, grid, g, a, b) == ca);
}

/* ---- random grids and tower blocks --------------------------------------- */

static void test_random_grids_with_towers(void **state) {
  (void)state;
  td_test_rng rng = {0x5eedu};
  td_astar *as = astar();
  size_t found = 0, none = 0;
  for (int round = 0; round < 300; round++) {
    int32_t w = 1 + (int32_t)td_test_below(&rng, round < 100 ? 12 : 70);
    int32_t h = 1 + (int32_t)td_test_below(&rng, round < 100 ? 12 : 70);
    double wall = 0.45 * td_test_unit(&rng);
    td_grid *grid = random_grid(&rng, w, h, wall);
    td_graph *g = td_test_build_graph(grid);
    td_jps *js = jps_bound(grid, g);
    int32_t cells = w * h;
    for (int q = 0; q < 40 && g->node_count > 0; q++) {
      /* toggle a few cells: towers built and sold */
      int toggles = (int)td_test_below(&rng, 4);
      for (int t = 0; t < toggles; t++) {
        int32_t c = (int32_t)td_test_below(&rng, (uint32_t)cells);
        int32_t n = grid->cell_node[c];
        if (n == TD_NONE) continue;
        toggle_cell(grid, g, c, !g->node_blocked[n]);
        if (q % 2) td_jps_cell_changed(js, c);
      }
      if (q % 2 == 0) td_jps_sync(js);
      int32_t a = (int32_t)td_test_below(&rng, (uint32_t)g->node_count);
      int32_t b = (int32_t)td_test_below(&rng, (uint32_t)g->node_count);
      compare(as, js, grid, g, a, b);
      if (td_jps_status_get(js) == TD_ASTAR_FOUND) found++;
      else none++;
    }
    td_jps_destroy(js);
    td_graph_destroy(g);
    td_grid_destroy(grid);
  }
  td_astar_destroy(as);
  assert_true(found > 2000);
  assert_true(none > 100);
}

/* Rooms and corridors, where forced neighbours abound. */
static void test_rooms(void **state) {
  (void)state;
  td_test_rng rng = {77};
  td_astar *as = astar();
  td_err err;
  for (int round = 0; round < 20; round++) {
    int32_t w = 40 + (int32_t)td_test_below(&rng, 40), h = 40 + (int32_t)td_test_below(&rng, 40);
    int32_t room = 4 + (int32_t)td_test_below(&rng, 8);
    td_grid *grid = td_grid_create(w, h, 32.0, &err);
    assert_non_null(grid);
    for (int32_t y = 0; y < h; y++)
      for (int32_t x = 0; x < w; x++) {
        bool wall = x % room == 0 || y % room == 0;
        if (wall && td_test_below(&rng, 5) == 0) wall = false; /* doors */
        td_grid_set_walkable(grid, x, y, !wall);
      }
    td_graph *g = td_test_build_graph(grid);
    td_jps *js = jps_bound(grid, g);
    for (int q = 0; q < 60; q++) {
      int32_t a = (int32_t)td_test_below(&rng, (uint32_t)g->node_count);
      int32_t b = (int32_t)td_test_below(&rng, (uint32_t)g->node_count);
      compare(as, js, grid, g, a, b);
    }
    td_jps_destroy(js);
    td_graph_destroy(g);
    td_grid_destroy(grid);
  }
  td_astar_destroy(as);
}

/* ---- budgets ------------------------------------------------------------- */

static void test_budgets_add_up(void **state) {
  (void)state;
  td_test_rng rng = {31337};
  td_err err;
  for (int round = 0; round < 40; round++) {
    td_grid *grid = random_grid(&rng, 30 + (int32_t)td_test_below(&rng, 30),
                                30 + (int32_t)td_test_below(&rng, 30), 0.3);
    td_graph *g = td_test_build_graph(grid);
    td_jps *whole = jps_bound(grid, g), *parts = jps_bound(grid, g);
    for (int q = 0; q < 10 && g->node_count > 1; q++) {
      int32_t a = (int32_t)td_test_below(&rng, (uint32_t)g->node_count);
      int32_t b = (int32_t)td_test_below(&rng, (uint32_t)g->node_count);
      td_astar_status sw = td_jps_find(whole, a, b, &err);
      td_astar_status sp = td_jps_begin(parts, a, b, &err);
      assert_int_equal(td_jps_step(parts, 0), sp); /* budget 0: nothing */
      uint64_t calls = 0;
      while (sp == TD_ASTAR_RUNNING) {
        sp = td_jps_step(parts, 1 + td_test_below(&rng, 3));
        calls++;
      }
      assert_int_equal(sp, sw);
      assert_true(td_jps_expanded(parts) == td_jps_expanded(whole));
      assert_true(calls <= td_jps_expanded(whole));
      size_t nw = td_jps_path(whole, NULL, 0, NULL), np = td_jps_path(parts, NULL, 0, NULL);
      assert_int_equal(nw, np);
      if (nw == 0) continue;
      int32_t *pw = malloc(nw * sizeof *pw), *pp = malloc(np * sizeof *pp);
      td_cost cw, cp;
      td_jps_path(whole, pw, nw, &cw);
      td_jps_path(parts, pp, np, &cp);
      assert_true(cw == cp);
      assert_memory_equal(pw, pp, nw * sizeof *pw);
      /* answered: stepping again does no work */
      assert_int_equal(td_jps_step(parts, 5), sp);
      assert_true(td_jps_expanded(parts) == td_jps_expanded(whole));
      free(pw);
      free(pp);
    }
    td_jps_destroy(whole);
    td_jps_destroy(parts);
    td_graph_destroy(g);
    td_grid_destroy(grid);
  }
}

/* ---- the MovingAI scenarios ---------------------------------------------- */

static void scenarios(const char *map, const char *scen) {
  td_err err;
  td_grid *grid = td_movingai_load_map(td_test_path(map), &err);
  assert_non_null(grid);
  td_movingai_scen sc;
  assert_int_equal(td_movingai_load_scen(td_test_path(scen), &sc, &err), 0);
  td_graph *g = td_test_build_graph(grid);
  td_jps *js = jps_bound(grid, g);
  td_astar *as = astar();
  assert_true(sc.count > 0);
  for (size_t i = 0; i < sc.count; i++) {
    const td_movingai_query *q = &sc.queries[i];
    int32_t a = td_grid_node_at(grid, q->start_x, q->start_y);
    int32_t b = td_grid_node_at(grid, q->goal_x, q->goal_y);
    assert_true(a != TD_NONE && b != TD_NONE);
    assert_int_equal(td_jps_find(js, a, b, &err), TD_ASTAR_FOUND);
    size_t n = td_jps_path(js, NULL, 0, NULL);
    int32_t *p = malloc(n * sizeof *p);
    td_jps_path(js, p, n, NULL);
    double len = 0.0;
    for (size_t k = 0; k + 1 < n; k++)
      len += hypot(g->x[p[k + 1]] - g->x[p[k]], g->y[p[k + 1]] - g->y[p[k]]);
    free(p);
    assert_true(fabs(len - q->optimal) <= 1e-4);
    compare(as, js, grid, g, a, b);
  }
  td_astar_destroy(as);
  td_jps_destroy(js);
  td_graph_destroy(g);
  td_movingai_scen_free(&sc);
  td_grid_destroy(grid);
}

static void test_movingai_scenarios(void **state) {
  (void)state;
  scenarios("tests/data/path8.map", "tests/data/path8.scen");
  scenarios("tests/data/path32.map", "tests/data/path32.scen");
}

/* ---- uniformity, bad input ------------------------------------------------- */

static void test_uniform_and_bad_input(void **state) {
  (void)state;
  td_err err;
  td_test_rng rng = {5};
  td_grid *grid = random_grid(&rng, 10, 8, 0.1);
  td_graph *g = td_test_build_graph(grid);
  td_jps *js = jps_bound(grid, g);
  assert_true(td_jps_uniform(js));
  int32_t goal = 0;
  td_route *r = td_route_create(g, &goal, 1, &err);
  assert_non_null(r);
  td_graph_change c = {.kind = TD_CHANGE_SET_FACTOR, .id = 3, .factor = 2.0};
  assert_int_equal(td_route_apply(r, &c, 1, &err), 0);
  assert_false(td_jps_uniform(js)); /* mud: A*'s job */
  c.factor = 1.0;
  assert_int_equal(td_route_apply(r, &c, 1, &err), 0);
  assert_true(td_jps_uniform(js));
  c.factor = 0.5;
  assert_int_equal(td_route_apply(r, &c, 1, &err), 0);
  assert_false(td_jps_uniform(js));
  td_route_destroy(r);

  assert_int_equal(td_jps_begin(js, -1, 0, &err), TD_ASTAR_ERROR);
  assert_non_null(strstr(err.msg, "unknown node"));
  assert_int_equal(td_jps_begin(js, 0, g->node_count, &err), TD_ASTAR_ERROR);
  assert_int_equal(td_jps_path(js, NULL, 0, NULL), 0);
  assert_int_equal(td_jps_find(js, 2, 2, &err), TD_ASTAR_FOUND);
  assert_int_equal(td_jps_path(js, NULL, 0, NULL), 1);
  assert_int_equal(td_jps_expanded(js), 0);

  td_jps *unbound = td_jps_create(&err);
  assert_false(td_jps_uniform(unbound));
  assert_int_equal(td_jps_begin(unbound, 0, 1, &err), TD_ASTAR_ERROR);
  assert_int_equal(td_jps_sync(unbound), 0);
  /* a graph that is not the grid's */
  td_graph *other = td_graph_create(2, 1);
  td_graph_add_node(other, 0, 0, &err);
  td_graph_add_node(other, 1, 0, &err);
  td_graph_add_edge(other, 0, 1, 1.0, &err);
  assert_int_equal(td_graph_finalize(other, &err), 0);
  assert_int_equal(td_jps_bind(unbound, grid, other, &err), -1);
  assert_non_null(strstr(err.msg, "not the one last built"));
  td_graph_destroy(other);
  td_jps_destroy(unbound);
  td_jps_destroy(js);
  td_graph_destroy(g);
  td_grid_destroy(grid);
}

/* A blocked end: NO_PATH at once; an enclosed goal: NO_PATH after search. */
static void test_no_path(void **state) {
  (void)state;
  td_err err;
  td_grid *grid = td_grid_create(7, 7, 1.0, &err);
  for (int32_t y = 0; y < 7; y++)
    for (int32_t x = 0; x < 7; x++)
      td_grid_set_walkable(grid, x, y, !(x >= 2 && x <= 4 && y >= 2 && y <= 4 && !(x == 3 && y == 3)));
  td_graph *g = td_test_build_graph(grid);
  td_jps *js = jps_bound(grid, g);
  int32_t a = td_grid_node_at(grid, 0, 0), b = td_grid_node_at(grid, 3, 3);
  assert_int_equal(td_jps_find(js, a, b, &err), TD_ASTAR_NO_PATH);
  assert_true(td_jps_expanded(js) > 0);
  toggle_cell(grid, g, 3 * 7 + 3, true);
  td_jps_sync(js);
  assert_int_equal(td_jps_begin(js, a, b, &err), TD_ASTAR_NO_PATH);
  assert_int_equal(td_jps_expanded(js), 0);
  td_jps_destroy(js);
  td_graph_destroy(g);
  td_grid_destroy(grid);
}

/* ---- allocation failures ------------------------------------------------- */

typedef struct bind_ud {
  const td_grid *grid;
  const td_graph *g;
} bind_ud;

static int bind_op(void *ud, td_err *err) {
  bind_ud *u = ud;
  td_jps *s = td_jps_create(err);
  if (!s) return -1;
  int rc = td_jps_bind(s, u->grid, u->g, err);
  if (rc == 0 && td_jps_find(s, 0, u->g->node_count - 1, err) != TD_ASTAR_FOUND) rc = -1;
  td_jps_destroy(s);
  return rc;
}

static void test_allocation_failures(void **state) {
  td_test_alloc *a = *state;
  td_test_rng rng = {9};
  td_grid *grid = random_grid(&rng, 20, 20, 0.0);
  td_graph *g = td_test_build_graph(grid);
  bind_ud ud = {grid, g};
  td_test_sweep sw = {.what = "jps bind", .expect = "out of memory"};
  td_test_alloc_sweep(a, bind_op, &ud, &sw);
  assert_true(sw.runs > 0);
  td_graph_destroy(g);
  td_grid_destroy(grid);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_random_grids_with_towers),
      cmocka_unit_test(test_rooms),
      cmocka_unit_test(test_budgets_add_up),
      cmocka_unit_test(test_movingai_scenarios),
      cmocka_unit_test(test_uniform_and_bad_input),
      cmocka_unit_test(test_no_path),
      cmocka_unit_test_setup_teardown(test_allocation_failures, td_test_alloc_setup,
                                      td_test_alloc_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
