/*
** test_grid.c: grid graphs, world<->cell, blocking batches, line of sight
** and path simplification.
*/
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nav/astar.h"
#include "nav/grid.h"
#include "nav/route.h"

/* ---- helpers ------------------------------------------------------------- */

/* A grid from rows of '.' (walkable) and '#' (wall), cell size 1. */
static td_grid *grid_from(const char *const *rows, int h) {
  int w = (int)strlen(rows[0]);
  td_err err;
  td_grid *grid = td_grid_create(w, h, 1.0, &err);
  assert_non_null(grid);
  for (int y = 0; y < h; y++) {
    assert_int_equal((int)strlen(rows[y]), w);
    for (int x = 0; x < w; x++) td_grid_set_walkable(grid, x, y, rows[y][x] == '.');
  }
  return grid;
}

static int32_t node(const td_grid *grid, int x, int y) {
  int32_t n = td_grid_node_at(grid, x, y);
  assert_true(n != TD_NONE);
  return n;
}

static int32_t cell(const td_grid *grid, int x, int y) { return y * grid->width + x; }

/* A* cost between two cells, TD_COST_INF when there is no path. */
static td_cost astar_cost(const td_grid *grid, const td_graph *g, int x0, int y0, int x1,
                          int y1) {
  td_err err;
  td_astar *s = td_astar_create(&err);
  assert_non_null(s);
  td_astar_status st = td_astar_find(s, g, node(grid, x0, y0), node(grid, x1, y1), &err);
  td_cost c = TD_COST_INF;
  if (st == TD_ASTAR_FOUND) td_astar_path(s, NULL, 0, &c);
  else assert_int_equal(st, TD_ASTAR_NO_PATH);
  td_astar_destroy(s);
  return c;
}

static td_cost w1(double cellsize) { return td_graph_cost(cellsize, 1.0); }
static td_cost w2(double cellsize) { return td_graph_cost(cellsize * sqrt(2.0), 1.0); }

/* Applies a grid batch through the route, as the game does. */
static void apply(td_route *r, const td_grid *grid, const int32_t *cells, size_t n,
                  bool block, size_t expect) {
  td_graph_change ch[64];
  size_t k = td_grid_changes(grid, td_route_graph(r), cells, n, block, NULL, 0);
  assert_int_equal(k, expect);
  assert_true(k <= 64);
  assert_int_equal(td_grid_changes(grid, td_route_graph(r), cells, n, block, ch, 64), k);
  td_err err;
  if (td_route_apply(r, ch, k, &err)) fail_msg("%s", err.msg);
}

static bool edge_blocked(const td_graph *g, int32_t a, int32_t b) {
  int32_t e = td_graph_find_edge(g, a, b);
  assert_true(e != TD_NONE);
  return g->edges[e].blocked != 0;
}

/* ---- construction -------------------------------------------------------- */

static void test_create_rejects_bad_sizes(void **state) {
  (void)state;
  td_err err;
  assert_null(td_grid_create(0, 4, 1.0, &err));
  assert_non_null(strstr(err.msg, "positive"));
  assert_null(td_grid_create(4, -1, 1.0, &err));
  assert_null(td_grid_create(4, 4, 0.0, &err));
  assert_null(td_grid_create(4, 4, (double)NAN, &err));
  assert_null(td_grid_create(1 << 20, 1 << 20, 1.0, &err));
  assert_non_null(strstr(err.msg, "cells"));
  td_grid *grid = td_grid_create(3, 2, 1.0, &err);
  assert_non_null(grid);
  assert_false(td_grid_walkable(grid, 0, 0)); /* cells start not walkable */
  td_grid_set_walkable(grid, 5, 5, true);      /* outside: ignored */
  assert_false(td_grid_walkable(grid, 5, 5));
  assert_false(td_grid_walkable(grid, -1, 0));
  assert_int_equal(td_grid_node_at(grid, 0, 0), TD_NONE); /* not built yet */
  td_grid_destroy(grid);
}

static void test_build_numbers_and_weights(void **state) {
  (void)state;
  /* a full 3x3 grid: 12 orthogonal and 8 diagonal edges */
  td_err err;
  const double cs = 0.7;
  td_grid *grid = td_grid_create(3, 3, cs, &err);
  grid->origin_x = -10.3;
  grid->origin_y = 4.1;
  for (int y = 0; y < 3; y++)
    for (int x = 0; x < 3; x++) td_grid_set_walkable(grid, x, y, true);
  td_grid_set_walkable(grid, 1, 0, false); /* row-major ids skip the wall */
  td_graph *g = td_test_build_graph(grid);
  assert_int_equal(g->node_count, 8);
  assert_true(g->grid_cell == cs);
  assert_int_equal(td_grid_node_at(grid, 0, 0), 0);
  assert_int_equal(td_grid_node_at(grid, 1, 0), TD_NONE);
  assert_int_equal(td_grid_node_at(grid, 2, 0), 1);
  assert_int_equal(td_grid_node_at(grid, 0, 1), 2);
  assert_int_equal(td_grid_node_at(grid, 2, 2), 7);
  for (int32_t n = 0; n < g->node_count; n++) {
    int32_t c = grid->node_cell[n];
    assert_int_equal(grid->cell_node[c], n);
    double x, y;
    td_grid_cell_center(grid, c % 3, c / 3, &x, &y);
    assert_true(g->x[n] == x && g->y[n] == y);
  }
  /* without (1,0): orthogonal 12 - 3 = 9; diagonal 8 - 4 = 4: two end at
  ** (1,0), two ((0,0)-(1,1), (2,0)-(1,1)) pass its corners */
  assert_int_equal(g->edge_count, 13);
  assert_int_equal(td_graph_find_edge(g, node(grid, 0, 0), node(grid, 1, 1)), TD_NONE);
  for (int32_t e = 0; e < g->edge_count; e++) {
    int32_t a = g->edges[e].a, b = g->edges[e].b;
    bool diag = g->x[a] != g->x[b] && g->y[a] != g->y[b];
    /* pinned, whatever the rounding of the positions */
    assert_true(g->edges[e].w == (diag ? w2(cs) : w1(cs)));
  }
  td_graph_destroy(g);
  /* a rebuild replaces the maps */
  td_grid_set_walkable(grid, 1, 0, true);
  g = td_test_build_graph(grid);
  assert_int_equal(g->node_count, 9);
  assert_int_equal(g->edge_count, 20);
  assert_int_equal(td_grid_node_at(grid, 2, 0), 2);
  td_graph_destroy(g);
  td_grid_destroy(grid);
}

static void test_no_corner_cutting(void **state) {
  (void)state;
  /* the diagonal (0,0)-(1,1) passes between two walls: refused */
  const char *rows[] = {".#.", "#..", "..."};
  td_grid *grid = grid_from(rows, 3);
  td_graph *g = td_test_build_graph(grid);
  assert_int_equal(td_graph_find_edge(g, node(grid, 0, 0), node(grid, 1, 1)), TD_NONE);
  assert_int_equal(astar_cost(grid, g, 0, 0, 1, 1), TD_COST_INF); /* (0,0) is shut in */
  td_graph_destroy(g);
  td_grid_destroy(grid);
  /* one wall is enough: around it costs 2, not sqrt 2 */
  const char *rows2[] = {".#.", "...", "..."};
  grid = grid_from(rows2, 3);
  g = td_test_build_graph(grid);
  assert_int_equal(td_graph_find_edge(g, node(grid, 0, 0), node(grid, 1, 1)), TD_NONE);
  assert_true(astar_cost(grid, g, 0, 0, 1, 1) == 2 * w1(1.0));
  /* (0,1) -> (2,0): the diagonal (1,1)-(2,0) passes the wall's corner, so
  ** three straight steps instead of 1 + sqrt 2 */
  assert_true(astar_cost(grid, g, 0, 1, 2, 0) == 3 * w1(1.0));
  td_graph_destroy(g);
  td_grid_destroy(grid);
}

static void test_octile_lengths(void **state) {
  (void)state;
  td_err err;
  const double cs = 2.5;
  td_grid *grid = td_grid_create(10, 7, cs, &err);
  for (int y = 0; y < 7; y++)
    for (int x = 0; x < 10; x++) td_grid_set_walkable(grid, x, y, true);
  td_graph *g = td_test_build_graph(grid);
  /* 9 across, 6 down: 6 diagonals and 3 straight */
  assert_true(astar_cost(grid, g, 0, 0, 9, 6) == 6 * w2(cs) + 3 * w1(cs));
  assert_true(astar_cost(grid, g, 9, 0, 0, 0) == 9 * w1(cs));
  assert_true(astar_cost(grid, g, 3, 3, 3, 3) == 0);
  td_graph_destroy(g);
  /* a wall from (5,0) to (5,5): around its end at (5,6) */
  for (int y = 0; y < 6; y++) td_grid_set_walkable(grid, 5, y, false);
  g = td_test_build_graph(grid);
  /* (4,2) -> (6,2) passes (5,6), the only open cell of column 5. The
  ** diagonals (4,5)-(5,6) and (5,6)-(6,5) pass the wall's corner (5,5) and
  ** do not exist, so: down 4 to (4,6), right 2, up 4: 10 straight steps. */
  assert_true(astar_cost(grid, g, 4, 2, 6, 2) == 10 * w1(cs));
  td_graph_destroy(g);
  td_grid_destroy(grid);
}

static void test_world_to_cell_clamps(void **state) {
  (void)state;
  td_err err;
  td_grid *grid = td_grid_create(4, 3, 2.0, &err);
  grid->origin_x = 10.0;
  grid->origin_y = -6.0;
  int32_t cx, cy;
  td_grid_world_to_cell(grid, 10.0, -6.0, &cx, &cy);
  assert_int_equal(cx, 0);
  assert_int_equal(cy, 0);
  td_grid_world_to_cell(grid, 13.99, -2.01, &cx, &cy);
  assert_int_equal(cx, 1);
  assert_int_equal(cy, 1);
  td_grid_world_to_cell(grid, 14.0, -2.0, &cx, &cy);
  assert_int_equal(cx, 2);
  assert_int_equal(cy, 2);
  /* outside: the nearest border cell */
  td_grid_world_to_cell(grid, -1e9, 1e9, &cx, &cy);
  assert_int_equal(cx, 0);
  assert_int_equal(cy, 2);
  td_grid_world_to_cell(grid, 18.0, -6.5, &cx, &cy); /* right edge is outside */
  assert_int_equal(cx, 3);
  assert_int_equal(cy, 0);
  td_grid_world_to_cell(grid, (double)INFINITY, -(double)INFINITY, &cx, &cy);
  assert_int_equal(cx, 3);
  assert_int_equal(cy, 0);
  td_grid_world_to_cell(grid, (double)NAN, (double)NAN, &cx, &cy);
  assert_int_equal(cx, 0);
  assert_int_equal(cy, 0);
  /* centre and back */
  double x, y;
  td_grid_cell_center(grid, 3, 2, &x, &y);
  assert_true(x == 17.0 && y == -1.0);
  td_grid_world_to_cell(grid, x, y, &cx, &cy);
  assert_int_equal(cx, 3);
  assert_int_equal(cy, 2);
  td_grid_destroy(grid);
}

/* ---- blocking batches ---------------------------------------------------- */

static void test_block_forbids_corner_cutting(void **state) {
  (void)state;
  const char *rows[] = {"....", "....", "....", "...."};
  td_grid *grid = grid_from(rows, 4);
  td_graph *g = td_test_build_graph(grid);
  int32_t goal = node(grid, 3, 3);
  td_err err;
  td_route *r = td_route_create(g, &goal, 1, &err);
  assert_non_null(r);
  /* before: (0,1) -> (1,2) is one diagonal */
  assert_true(astar_cost(grid, g, 0, 1, 1, 2) == w2(1.0));
  int32_t c = cell(grid, 1, 1);
  td_graph_change ch[8];
  assert_int_equal(td_grid_changes(grid, g, &c, 1, true, ch, 8), 5);
  assert_int_equal(ch[0].kind, TD_CHANGE_BLOCK_NODE);
  assert_int_equal(ch[0].id, node(grid, 1, 1));
  for (int i = 1; i < 5; i++) assert_int_equal(ch[i].kind, TD_CHANGE_BLOCK_EDGE);
  /* a small cap writes a prefix and still reports the full count */
  td_graph_change two[2];
  assert_int_equal(td_grid_changes(grid, g, &c, 1, true, two, 2), 5);
  assert_int_equal(two[1].id, ch[1].id);
  apply(r, grid, &c, 1, true, 5);
  assert_true(g->node_blocked[node(grid, 1, 1)]);
  /* the four diagonals past (1,1)'s corners */
  assert_true(edge_blocked(g, node(grid, 0, 1), node(grid, 1, 0)));
  assert_true(edge_blocked(g, node(grid, 1, 0), node(grid, 2, 1)));
  assert_true(edge_blocked(g, node(grid, 2, 1), node(grid, 1, 2)));
  assert_true(edge_blocked(g, node(grid, 1, 2), node(grid, 0, 1)));
  assert_false(edge_blocked(g, node(grid, 2, 1), node(grid, 3, 2)));
  /* the path now goes around the corner: 2 straight steps */
  assert_true(astar_cost(grid, g, 0, 1, 1, 2) == 2 * w1(1.0));
  assert_true(astar_cost(grid, g, 1, 0, 2, 1) == 2 * w1(1.0));
  /* unblocking restores everything */
  apply(r, grid, &c, 1, false, 5);
  assert_false(g->node_blocked[node(grid, 1, 1)]);
  for (int32_t e = 0; e < g->edge_count; e++) assert_false(g->edges[e].blocked);
  assert_true(astar_cost(grid, g, 0, 1, 1, 2) == w2(1.0));
  if (td_route_validate(r, &err)) fail_msg("%s", err.msg);
  td_route_destroy(r);
  td_graph_destroy(g);
  td_grid_destroy(grid);
}

static void test_unblock_keeps_shared_diagonal(void **state) {
  (void)state;
  const char *rows[] = {"....", "....", "....", "...."};
  td_grid *grid = grid_from(rows, 4);
  td_graph *g = td_test_build_graph(grid);
  int32_t goal = node(grid, 0, 3);
  td_err err;
  td_route *r = td_route_create(g, &goal, 1, &err);
  assert_non_null(r);
  /* (1,1) and (2,2) touch at a corner; the diagonal (2,1)-(1,2) passes it */
  int32_t both[2] = {cell(grid, 1, 1), cell(grid, 2, 2)};
  apply(r, grid, both, 2, true, 1 + 4 + 1 + 3); /* the shared diagonal once */
  int32_t a = node(grid, 2, 1), b = node(grid, 1, 2);
  assert_true(edge_blocked(g, a, b));
  /* unblock (1,1) alone: (2,2) still cuts the shared diagonal */
  apply(r, grid, &both[0], 1, false, 1 + 3);
  assert_false(g->node_blocked[node(grid, 1, 1)]);
  assert_true(edge_blocked(g, a, b));
  assert_false(edge_blocked(g, node(grid, 0, 1), node(grid, 1, 0)));
  /* (2,1) -> (1,2) must still go around: via (1,1) now, 2 straight */
  assert_true(astar_cost(grid, g, 2, 1, 1, 2) == 2 * w1(1.0));
  /* block (1,1) again, then unblock both in one batch: the batch's cells
  ** count as unblocked, so the shared diagonal opens, listed once */
  apply(r, grid, &both[0], 1, true, 5);
  apply(r, grid, both, 2, false, 1 + 4 + 1 + 3);
  for (int32_t e = 0; e < g->edge_count; e++) assert_false(g->edges[e].blocked);
  for (int32_t n = 0; n < g->node_count; n++) assert_false(g->node_blocked[n]);
  assert_true(astar_cost(grid, g, 2, 1, 1, 2) == w2(1.0));
  if (td_route_validate(r, &err)) fail_msg("%s", err.msg);
  td_route_destroy(r);
  td_graph_destroy(g);
  td_grid_destroy(grid);
}

static void test_changes_skip_walls_duplicates_and_borders(void **state) {
  (void)state;
  const char *rows[] = {"#..", "...", "..."};
  td_grid *grid = grid_from(rows, 3);
  td_graph *g = td_test_build_graph(grid);
  int32_t cells[] = {cell(grid, 0, 0), -5, 99, cell(grid, 2, 2), cell(grid, 2, 2)};
  /* (0,0) is a wall; -5 and 99 are outside; (2,2) is a corner cell with
  ** one diagonal past it ((2,1)-(1,2)); its duplicate adds nothing */
  td_graph_change ch[8];
  assert_int_equal(td_grid_changes(grid, g, cells, 5, true, ch, 8), 2);
  assert_int_equal(ch[0].kind, TD_CHANGE_BLOCK_NODE);
  assert_int_equal(ch[1].kind, TD_CHANGE_BLOCK_EDGE);
  assert_int_equal(ch[1].id, td_graph_find_edge(g, node(grid, 2, 1), node(grid, 1, 2)));
  /* (1,1): the diagonal (1,0)-(0,1) was never built (its side cell (0,0)
  ** is a wall), so only three */
  int32_t c = cell(grid, 1, 1);
  assert_int_equal(td_grid_changes(grid, g, &c, 1, true, NULL, 0), 4);
  td_graph_destroy(g);
  td_grid_destroy(grid);
}

/* ---- line of sight and simplification ------------------------------------ */

static void test_line_of_sight(void **state) {
  (void)state;
  const char *rows[] = {
      ".#....",
      "......",
      "......",
      "...#..",
      "......",
  };
  td_grid *grid = grid_from(rows, 5);
  assert_true(td_grid_line_of_sight(grid, NULL, 0, 1, 5, 1));
  assert_true(td_grid_line_of_sight(grid, NULL, 2, 2, 2, 2));
  assert_false(td_grid_line_of_sight(grid, NULL, 1, 0, 2, 0)); /* from a wall */
  assert_false(td_grid_line_of_sight(grid, NULL, 0, 3, 5, 3)); /* through (3,3) */
  assert_false(td_grid_line_of_sight(grid, NULL, 0, 0, 2, 0));
  /* (0.5,1.5) -> (2.5,0.5) crosses x=1 at y=1.25, then y=1 at x=1.5:
  ** it touches (0,1), (1,1), (1,0) (a wall), (2,0) */
  assert_false(td_grid_line_of_sight(grid, NULL, 0, 1, 2, 0));
  /* (0.5,2.5) -> (2.5,0.5) runs exactly through the grid points (1,2) and
  ** (2,1): cells (0,2), (1,1), (2,0), plus the side cells of each corner,
  ** (1,2) (0,1) and (2,1) (1,0): (1,0) is a wall, so no sight; the same
  ** shape one column over has all its side cells open */
  assert_false(td_grid_line_of_sight(grid, NULL, 0, 2, 2, 0));
  assert_true(td_grid_line_of_sight(grid, NULL, 2, 2, 4, 0));
  /* both diagonals through the wall (3,3)'s centre */
  assert_false(td_grid_line_of_sight(grid, NULL, 2, 2, 4, 4));
  assert_false(td_grid_line_of_sight(grid, NULL, 2, 4, 4, 2));
  /* a node blocked in the graph blocks sight like a wall */
  td_graph *g = td_test_build_graph(grid);
  assert_true(td_grid_line_of_sight(grid, g, 0, 1, 5, 1));
  g->node_blocked[node(grid, 3, 1)] = 1; /* stands for td_route_apply */
  assert_false(td_grid_line_of_sight(grid, g, 0, 1, 5, 1));
  assert_true(td_grid_line_of_sight(grid, NULL, 0, 1, 5, 1));
  /* symmetric */
  for (int y0 = 0; y0 < 5; y0++)
    for (int x0 = 0; x0 < 6; x0++)
      for (int y1 = 0; y1 < 5; y1++)
        for (int x1 = 0; x1 < 6; x1++)
          assert_int_equal(td_grid_line_of_sight(grid, g, x0, y0, x1, y1),
                           td_grid_line_of_sight(grid, g, x1, y1, x0, y0));
  td_graph_destroy(g);
  td_grid_destroy(grid);
}

/* Sight implies that every point sampled densely along the segment lies in
** an open cell (sampling cannot see the corner rule; the hand cases do). */
static void test_line_of_sight_sampled(void **state) {
  (void)state;
  td_test_rng rng = {42};
  td_err err;
  for (int round = 0; round < 40; round++) {
    int w = 3 + (int)td_test_below(&rng, 12), h = 3 + (int)td_test_below(&rng, 12);
    td_grid *grid = td_grid_create(w, h, 1.0, &err);
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) td_grid_set_walkable(grid, x, y, td_test_below(&rng, 5) != 0);
    for (int q = 0; q < 200; q++) {
      int x0 = (int)td_test_below(&rng, (uint32_t)w), y0 = (int)td_test_below(&rng, (uint32_t)h);
      int x1 = (int)td_test_below(&rng, (uint32_t)w), y1 = (int)td_test_below(&rng, (uint32_t)h);
      bool los = td_grid_line_of_sight(grid, NULL, x0, y0, x1, y1);
      bool clear = true;
      for (int k = 0; k <= 997; k++) {
        double t = k / 997.0;
        double px = x0 + 0.5 + t * (x1 - x0), py = y0 + 0.5 + t * (y1 - y0);
        if (!td_grid_walkable(grid, (int)floor(px), (int)floor(py))) clear = false;
      }
      if (los) assert_true(clear);
    }
    td_grid_destroy(grid);
  }
}

static void test_simplify_keeps_sight(void **state) {
  (void)state;
  td_test_rng rng = {7};
  td_err err;
  td_astar *s = td_astar_create(&err);
  int32_t *path = NULL, *out = NULL;
  size_t cap = 0;
  int simplified = 0;
  for (int round = 0; round < 30; round++) {
    int w = 8 + (int)td_test_below(&rng, 25), h = 8 + (int)td_test_below(&rng, 25);
    td_grid *grid = td_grid_create(w, h, 1.0, &err);
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) td_grid_set_walkable(grid, x, y, td_test_below(&rng, 4) != 0);
    td_graph *g = td_test_build_graph(grid);
    if (g->node_count < 2) {
      td_graph_destroy(g);
      td_grid_destroy(grid);
      continue;
    }
    for (int q = 0; q < 20; q++) {
      int32_t a = (int32_t)td_test_below(&rng, (uint32_t)g->node_count);
      int32_t b = (int32_t)td_test_below(&rng, (uint32_t)g->node_count);
      if (td_astar_find(s, g, a, b, &err) != TD_ASTAR_FOUND) continue;
      size_t n = td_astar_path(s, NULL, 0, NULL);
      if (n > cap) {
        path = realloc(path, n * sizeof *path);
        out = realloc(out, n * sizeof *out);
        cap = n;
      }
      td_astar_path(s, path, n, NULL);
      size_t k = td_grid_simplify(grid, g, path, n, out);
      assert_true(k >= 1 && k <= n);
      assert_int_equal(out[0], a);
      assert_int_equal(out[k - 1], b);
      if (k < n) simplified++;
      /* a subsequence of the path, and each point sees the next */
      size_t j = 0;
      for (size_t i = 0; i < k; i++) {
        while (j < n && path[j] != out[i]) j++;
        assert_true(j < n);
        if (i + 1 < k) {
          int32_t c0 = grid->node_cell[out[i]], c1 = grid->node_cell[out[i + 1]];
          assert_true(td_grid_line_of_sight(grid, g, c0 % w, c0 / w, c1 % w, c1 / w));
        }
      }
      /* in place gives the same */
      size_t k2 = td_grid_simplify(grid, g, path, n, path);
      assert_int_equal(k2, k);
      assert_memory_equal(path, out, k * sizeof *out);
    }
    td_graph_destroy(g);
    td_grid_destroy(grid);
  }
  assert_true(simplified > 50);
  free(path);
  free(out);
  td_astar_destroy(s);
}

static void test_simplify_by_hand(void **state) {
  (void)state;
  const char *rows[] = {
      "......",
      ".####.",
      "......",
  };
  td_grid *grid = grid_from(rows, 3);
  td_graph *g = td_test_build_graph(grid);
  /* along the top, down the right side, back along the bottom */
  int32_t path[] = {node(grid, 0, 0), node(grid, 1, 0), node(grid, 2, 0), node(grid, 3, 0),
                    node(grid, 4, 0), node(grid, 5, 0), node(grid, 5, 1), node(grid, 5, 2),
                    node(grid, 4, 2), node(grid, 3, 2)};
  int32_t out[10];
  size_t k = td_grid_simplify(grid, g, path, 10, out);
  /* (0,0) sees along row 0 up to (5,0); (0.5,0.5) -> (5.5,1.5) passes the
  ** grid point (3,1), whose side cell (2,1) is a wall. (5,0) sees (5,2) but
  ** not (4,2): (5.5,0.5) -> (4.5,2.5) enters the wall (4,1). */
  assert_int_equal(k, 4);
  assert_int_equal(out[0], path[0]);
  assert_int_equal(out[1], path[5]);
  assert_int_equal(out[2], path[7]);
  assert_int_equal(out[3], path[9]);
  assert_int_equal(td_grid_simplify(grid, g, path, 1, out), 1);
  assert_int_equal(td_grid_simplify(grid, g, path, 0, out), 0);
  td_graph_destroy(g);
  td_grid_destroy(grid);
}

/* ---- allocation failures ------------------------------------------------- */

static void test_build_survives_allocation_failures(void **state) {
  (void)state;
  bool succeeded = false;
  for (long k = 0; k < 40 && !succeeded; k++) {
    td_test_alloc f = {.fail_at = k + 1, .fail_rest = true};
    td_test_alloc_install(&f);
    td_err err;
    td_grid *grid = td_grid_create(6, 5, 1.0, &err);
    if (grid) {
      for (int y = 0; y < 5; y++)
        for (int x = 0; x < 6; x++) td_grid_set_walkable(grid, x, y, (x + y) % 4 != 0);
      td_graph *g = td_grid_build_graph(grid, &err);
      if (g) {
        succeeded = true;
        td_graph_destroy(g);
      } else {
        assert_non_null(strstr(err.msg, "memory"));
      }
      td_grid_destroy(grid);
    }
    td_test_alloc_remove();
    td_test_alloc_assert_clean(&f);
  }
  assert_true(succeeded);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_create_rejects_bad_sizes),
    cmocka_unit_test(test_build_numbers_and_weights),
    cmocka_unit_test(test_no_corner_cutting),
    cmocka_unit_test(test_octile_lengths),
    cmocka_unit_test(test_world_to_cell_clamps),
    cmocka_unit_test(test_block_forbids_corner_cutting),
    cmocka_unit_test(test_unblock_keeps_shared_diagonal),
    cmocka_unit_test(test_changes_skip_walls_duplicates_and_borders),
    cmocka_unit_test(test_line_of_sight),
    cmocka_unit_test(test_line_of_sight_sampled),
    cmocka_unit_test(test_simplify_keeps_sight),
    cmocka_unit_test(test_simplify_by_hand),
    cmocka_unit_test(test_build_survives_allocation_failures),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
