/*
** test_walk.c: the walkable area (nav/walk.h): roads of square-capped
** edges, grids of open cells, tower blocks, clearance kept up to date.
*/
#include "support.h"

#include <math.h>
#include <string.h>

#include "nav/grid.h"
#include "nav/route.h"
#include "nav/walk.h"

/* An L: 0 (0,0) -> 1 (100,0) -> 2 (100,100), and a branch 1 -> 3 (200, 0). */
static td_graph *ell(void) {
  td_err err;
  td_graph *g = td_graph_create(4, 3);
  assert_non_null(g);
  td_graph_add_node(g, 0, 0, &err);
  td_graph_add_node(g, 100, 0, &err);
  td_graph_add_node(g, 100, 100, &err);
  td_graph_add_node(g, 200, 0, &err);
  td_graph_add_edge(g, 0, 1, 1.0, &err);
  td_graph_add_edge(g, 1, 2, 1.0, &err);
  td_graph_add_edge(g, 1, 3, 1.0, &err);
  assert_int_equal(td_graph_finalize(g, &err), 0);
  return g;
}

static void test_road_inside_and_depth(void **state) {
  (void)state;
  td_graph *g = ell();
  float width[3] = {20.0f, 40.0f, 20.0f};
  td_err err;
  td_walk *w = td_walk_create_road(g, width, &err);
  assert_non_null(w);
  assert_false(td_walk_is_grid(w));
  /* on edge 0-1 (20 wide) a disc of radius 2 may stand 8 off the centre */
  assert_float_equal(td_walk_depth(w, 0, 1, 50.0f, 8.0f, 2.0f), 0.0f, 1e-6);
  assert_float_equal(td_walk_depth(w, 0, 1, 50.0f, 11.0f, 2.0f), 3.0f, 1e-4);
  assert_float_equal(td_walk_depth(w, 0, 1, 50.0f, -13.0f, 2.0f), 5.0f, 1e-4);
  /* the square cap: 10 past node 0, so a centre at x = -8 is in */
  assert_float_equal(td_walk_depth(w, 0, 1, -8.0f, 0.0f, 2.0f), 0.0f, 1e-6);
  assert_float_equal(td_walk_depth(w, 0, 1, -12.0f, 0.0f, 2.0f), 4.0f, 1e-4);
  /* the corner at node 1 is covered by the wider edge 1-2 (40 wide) */
  assert_float_equal(td_walk_depth(w, 0, 1, 115.0f, 15.0f, 2.0f), 0.0f, 1e-6);
  /* half widths: the edge's, or a node's widest */
  assert_float_equal(td_walk_half_width(w, 0, 1), 10.0f, 1e-6);
  assert_float_equal(td_walk_half_width(w, 2, 1), 20.0f, 1e-6);
  assert_float_equal(td_walk_half_width(w, 1, 1), 20.0f, 1e-6);
  /* constrain: back to the nearest point, then inside */
  float x = 50.0f, y = 30.0f;
  assert_true(td_walk_constrain(w, 0, 1, TD_NONE, 2.0f, &x, &y));
  assert_float_equal(x, 50.0f, 1e-4);
  assert_float_equal(y, 8.0f, 1e-4);
  assert_float_equal(td_walk_depth(w, 0, 1, x, y, 2.0f), 0.0f, 1e-6);
  x = 50.0f;
  y = 5.0f;
  assert_false(td_walk_constrain(w, 0, 1, TD_NONE, 2.0f, &x, &y));
  /* a disc wider than the road ends on its centre line */
  x = 50.0f;
  y = 7.0f;
  td_walk_constrain(w, 0, 1, TD_NONE, 15.0f, &x, &y);
  assert_float_equal(y, 0.0f, 1e-4);
  td_walk_destroy(w);
  /* a width that is not positive is refused, naming the edge */
  width[1] = 0.0f;
  assert_null(td_walk_create_road(g, width, &err));
  assert_non_null(strstr(err.msg, "edge 1"));
  td_graph_destroy(g);
}

static void test_road_blocks(void **state) {
  (void)state;
  td_graph *g = ell();
  float width[3] = {20.0f, 20.0f, 20.0f};
  td_err err;
  td_walk *w = td_walk_create_road(g, width, &err);
  assert_non_null(w);
  /* a tower's footprint over the middle of edge 0-1 */
  float rect[4] = {40.0f, -20.0f, 20.0f, 40.0f};
  assert_int_equal(td_walk_set_blocks(w, rect, 1, &err), 0);
  assert_float_equal(td_walk_depth(w, 0, 1, 30.0f, 0.0f, 2.0f), 0.0f, 1e-6);
  assert_float_equal(td_walk_depth(w, 0, 1, 39.0f, 0.0f, 2.0f), 1.0f, 1e-4);
  assert_float_equal(td_walk_depth(w, 0, 1, 45.0f, 0.0f, 2.0f), 7.0f, 1e-4); /* out by the left */
  float x = 45.0f, y = 0.0f;
  assert_true(td_walk_constrain(w, 0, 1, TD_NONE, 2.0f, &x, &y));
  assert_true(x <= 38.0f);
  assert_float_equal(td_walk_depth(w, 0, 1, x, y, 2.0f), 0.0f, 1e-6);
  /* none: nothing blocks */
  assert_int_equal(td_walk_set_blocks(w, NULL, 0, &err), 0);
  assert_float_equal(td_walk_depth(w, 0, 1, 45.0f, 0.0f, 2.0f), 0.0f, 1e-6);
  td_walk_destroy(w);
  td_graph_destroy(g);
}

static td_grid *grid_from(const char *const *rows, int h, double cell) {
  int wd = (int)strlen(rows[0]);
  td_err err;
  td_grid *grid = td_grid_create(wd, h, cell, &err);
  assert_non_null(grid);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < wd; x++) td_grid_set_walkable(grid, x, y, rows[y][x] == '.');
  return grid;
}

static void test_grid_walls_and_rings(void **state) {
  (void)state;
  static const char *const rows[] = {
      "#########",
      "#.......#",
      "#.......#",
      "#.......#",
      "###.#####",
      "###.#####",
  };
  td_grid *grid = grid_from(rows, 6, 32.0);
  td_err err;
  td_graph *g = td_grid_build_graph(grid, &err);
  assert_non_null(g);
  td_walk *w = td_walk_create_grid(grid, g, &err);
  assert_non_null(w);
  assert_true(td_walk_is_grid(w));
  assert_int_equal(td_walk_rings(w, 4, 2), 1);  /* the middle of a 3-wide room */
  assert_int_equal(td_walk_rings(w, 1, 1), 0);
  assert_int_equal(td_walk_rings(w, 3, 5), 0);  /* the 1-wide corridor */
  assert_int_equal(td_walk_rings(w, 0, 0), -1); /* a wall */
  int32_t a = td_grid_node_at(grid, 4, 2), b = td_grid_node_at(grid, 5, 2);
  assert_float_equal(td_walk_half_width(w, a, b), 48.0f, 1e-4);
  int32_t c = td_grid_node_at(grid, 3, 4), d = td_grid_node_at(grid, 3, 5);
  assert_float_equal(td_walk_half_width(w, c, d), 16.0f, 1e-4);
  /* a disc in the corridor that leans into the wall */
  float x = 3 * 32 + 6.0f, y = 4 * 32 + 16.0f;
  assert_float_equal(td_walk_depth(w, c, d, x, y, 8.0f), 2.0f, 1e-4);
  assert_true(td_walk_constrain(w, c, d, TD_NONE, 8.0f, &x, &y));
  assert_true(td_walk_depth(w, c, d, x, y, 8.0f) <= 1e-3f);
  /* a centre buried in a wall comes out */
  x = 2 * 32 + 16.0f;
  y = 4 * 32 + 16.0f;
  td_walk_constrain(w, c, d, TD_NONE, 8.0f, &x, &y);
  assert_true(td_walk_depth(w, c, d, x, y, 8.0f) <= 1e-3f);
  /* the quick test: inside the open square around the cell only */
  assert_true(td_walk_inside_quick(w, 4 * 32 + 16.0f, 2 * 32 + 16.0f, 8.0f));
  assert_true(td_walk_inside_quick(w, 4 * 32 + 16.0f, 2 * 32 + 16.0f, 47.0f));
  assert_false(td_walk_inside_quick(w, 4 * 32 + 16.0f, 2 * 32 + 16.0f, 49.0f));
  assert_false(td_walk_inside_quick(w, 3 * 32 + 6.0f, 4 * 32 + 16.0f, 8.0f));
  uint64_t v = td_walk_version(w);
  float tower[4] = {4 * 32.0f, 2 * 32.0f, 32.0f, 32.0f};
  assert_int_equal(td_walk_set_blocks(w, tower, 1, &err), 0);
  assert_true(td_walk_version(w) > v);
  assert_false(td_walk_inside_quick(w, 4 * 32 + 16.0f, 2 * 32 + 16.0f, 8.0f));
  assert_true(td_walk_blocks_near(w, 100.0f, 60.0f, 110.0f, 70.0f, 20.0f));
  assert_false(td_walk_blocks_near(w, 10.0f, 10.0f, 20.0f, 20.0f, 5.0f));
  assert_true(td_walk_depth(w, a, b, 4 * 32 + 16.0f, 2 * 32 + 16.0f, 8.0f) > 23.9f);
  assert_int_equal(td_walk_set_blocks(w, NULL, 0, &err), 0);
  /* outside the grid is not walkable */
  assert_true(td_walk_depth(w, a, b, 32.0f + 4.0f, 32.0f + 16.0f, 8.0f) > 3.9f);
  td_walk_destroy(w);
  td_graph_destroy(g);
  td_grid_destroy(grid);
}

/* Towers come and go on random cells: the clearance kept by td_walk_sync
** equals one made from scratch every time. */
static void test_grid_sync_matches_full(void **state) {
  (void)state;
  enum { W = 48, H = 40 };
  td_err err;
  td_grid *grid = td_grid_create(W, H, 16.0, &err);
  assert_non_null(grid);
  td_test_rng rng = {7};
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) td_grid_set_walkable(grid, x, y, td_test_below(&rng, 10) != 0);
  td_graph *g = td_grid_build_graph(grid, &err);
  assert_non_null(g);
  int32_t goal = TD_NONE;
  for (int32_t n = 0; n < g->node_count && goal == TD_NONE; n++) goal = n;
  td_route *r = td_route_create(g, &goal, 1, &err);
  assert_non_null(r);
  const td_graph *rg = td_route_graph(r);
  td_walk *w = td_walk_create_grid(grid, rg, &err);
  assert_non_null(w);
  for (int step = 0; step < 300; step++) {
    int32_t cellv = (int32_t)td_test_below(&rng, W * H);
    int32_t n = grid->cell_node[cellv];
    if (n == TD_NONE || n == goal) continue;
    td_graph_change ch = {.kind = rg->node_blocked[n] ? TD_CHANGE_UNBLOCK_NODE : TD_CHANGE_BLOCK_NODE, .id = n};
    assert_int_equal(td_route_apply(r, &ch, 1, &err), 0);
    assert_int_equal(td_walk_sync(w), 1);
    td_walk *fresh = td_walk_create_grid(grid, rg, &err);
    assert_non_null(fresh);
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
        if (td_walk_rings(w, x, y) != td_walk_rings(fresh, x, y))
          fail_msg("step %d: cell (%d, %d): %d rings, from scratch %d", step, x, y,
                   td_walk_rings(w, x, y), td_walk_rings(fresh, x, y));
    td_walk_destroy(fresh);
  }
  td_walk_destroy(w);
  td_route_destroy(r);
  td_graph_destroy(g);
  td_grid_destroy(grid);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_road_inside_and_depth),
      cmocka_unit_test(test_road_blocks),
      cmocka_unit_test(test_grid_walls_and_rings),
      cmocka_unit_test(test_grid_sync_matches_full),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
