/*
** test_mapfile.c: the Lua sandbox and the Tiled map loader: the bundled
** maps (graph shape, bases, merging, costs), bad inputs by error message,
** and allocation accounting (every test ends with no live td_mem block;
** a sweep fails each allocation of a load in turn).
*/
#include "support.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "nav/grid.h"
#include "nav/route.h"
#include "script/lsandbox.h"
#include "script/mapfile.h"

/* ---- the test allocator, installed for every test ----------------------- */

/* fail_at > 0 fails that allocation (counting from 1) and every later one is
** served again. */
static td_test_alloc cnt;

static int setup(void **state) {
  (void)state;
  memset(&cnt, 0, sizeof cnt);
  td_test_alloc_install(&cnt);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  td_test_alloc_remove();
  if (cnt.live_blocks != 0 || cnt.live_bytes != 0) {
    print_error("leak: %ld blocks, %lld bytes still allocated\n", cnt.live_blocks,
                cnt.live_bytes);
    return -1;
  }
  if (cnt.bad_sizes != 0) {
    print_error("%ld frees or reallocs given a wrong old size\n", cnt.bad_sizes);
    return -1;
  }
  return 0;
}

/* ---- helpers ------------------------------------------------------------- */

typedef struct sbuf {
  char *p;
  size_t n, cap;
} sbuf;

static void sb_add(sbuf *s, const char *fmt, ...);

#define NAME "maps/t.lua"

static bool map_is_zero(const td_map *m) {
  const unsigned char *p = (const unsigned char *)m;
  for (size_t i = 0; i < sizeof *m; i++)
    if (p[i]) return false;
  return true;
}

static int load_str(const char *src, td_map *m, td_err *err) {
  return td_mapfile_load_buffer(NAME, src, strlen(src), m, err);
}

static void load_ok(const char *src, td_map *m) {
  td_err err = {{0}};
  if (load_str(src, m, &err) != 0) fail_msg("unexpected error: %s", err.msg);
}

static void expect_error_len(const char *src, size_t len, const char *want) {
  td_map m;
  td_err err = {{0}};
  int rc = td_mapfile_load_buffer(NAME, src, len, &m, &err);
  if (rc == 0) {
    td_map_free(&m);
    fail_msg("loaded, expected an error containing \"%s\"", want);
  }
  if (!strstr(err.msg, want)) fail_msg("error \"%s\" lacks \"%s\"", err.msg, want);
  assert_non_null(strstr(err.msg, NAME));
  assert_null(strchr(err.msg, '\n'));
  assert_true(map_is_zero(&m));
}

static void expect_error(const char *src, const char *want) {
  expect_error_len(src, strlen(src), want);
}

/* A waypoint map around the given objects (10x10 tiles of 32). */
static const char *waypoint_map(const char *objects) {
  static char buf[16384];
  snprintf(buf, sizeof buf,
           "return {\n"
           "  version = \"1.10\", luaversion = \"5.1\", orientation = \"orthogonal\",\n"
           "  width = 10, height = 10, tilewidth = 32, tileheight = 32,\n"
           "  layers = {\n"
           "    { type = \"objectgroup\", id = 1, name = \"objects\", objects = {\n"
           "%s\n"
           "    } }\n"
           "  }\n"
           "}\n",
           objects);
  return buf;
}

/* A waypoint map with map-level properties (a Lua table body) and tiles of
** tw x th units. */
static const char *waypoint_map_with(int tw, int th, const char *map_props,
                                     const char *objects) {
  static char buf[16384];
  snprintf(buf, sizeof buf,
           "return {\n"
           "  orientation = \"orthogonal\", width = 10, height = 10,\n"
           "  tilewidth = %d, tileheight = %d, properties = { %s },\n"
           "  layers = {\n"
           "    { type = \"objectgroup\", id = 1, name = \"objects\", objects = {\n"
           "%s\n"
           "    } }\n"
           "  }\n"
           "}\n",
           tw, th, map_props, objects);
  return buf;
}

/* An L-shaped path (0,0)-(100,0)-(100,100) with a spawn and a goal. */
#define PATH_L                                                                       \
  "{ id = 1, type = \"path\", shape = \"polyline\", x = 0, y = 0,"                   \
  "  polyline = { { x = 0, y = 0 }, { x = 100, y = 0 }, { x = 100, y = 100 } } },\n"
#define SPAWN_AT(id, x, y)                                                           \
  "{ id = " #id ", name = \"s\", type = \"spawn\", shape = \"point\", x = " #x       \
  ", y = " #y " },\n"
#define GOAL_AT(id, x, y)                                                            \
  "{ id = " #id ", name = \"g\", class = \"goal\", shape = \"point\", x = " #x       \
  ", y = " #y " },\n"
#define OK_POINTS SPAWN_AT(3, 0, 0) GOAL_AT(4, 100, 100)

/* A grid map: 10x10 tiles; data is a Lua list of 100 gids (1 floor, 2 wall). */
static const char *grid_map(const char *data, const char *objects) {
  static char buf[16384];
  snprintf(buf, sizeof buf,
           "return {\n"
           "  orientation = \"orthogonal\", width = 10, height = 10,\n"
           "  tilewidth = 32, tileheight = 32,\n"
           "  tilesets = { { name = \"t\", firstgid = 1, tiles = {\n"
           "    { id = 0, properties = { [\"walkable\"] = true } },\n"
           "    { id = 1, properties = { [\"walkable\"] = false } } } } },\n"
           "  layers = {\n"
           "    { type = \"tilelayer\", id = 1, name = \"floor\", width = 10, height = 10,\n"
           "      encoding = \"lua\", data = { %s } },\n"
           "    { type = \"objectgroup\", id = 2, name = \"objects\", objects = {\n%s } }\n"
           "  }\n"
           "}\n",
           data, objects);
  return buf;
}

/* 100 gids: a 10x10 room of floor (1) with a wall (2) border. */
static const char *room_data(void) {
  static char buf[1024];
  size_t k = 0;
  for (int y = 0; y < 10; y++)
    for (int x = 0; x < 10; x++) {
      bool wall = x == 0 || y == 0 || x == 9 || y == 9;
      k += (size_t)snprintf(buf + k, sizeof buf - k, "%d,", wall ? 2 : 1);
    }
  return buf;
}

static int32_t edge_between(const td_graph *g, int32_t a, int32_t b) {
  int32_t e = td_graph_find_edge(g, a, b);
  if (e == TD_NONE) fail_msg("no edge %d-%d", a, b);
  return e;
}

/* ---- the bundled maps ---------------------------------------------------- */

/* Node ids of 01-crossroads in drawing order (see maps/gen_maps.py). */
enum { N_S, N_A, N_F, N_H, N_I, N_E, N_G, N_B, N_C, N_D, N_J, N_K, N_L, CROSS_NODES };

static void test_crossroads(void **state) {
  (void)state;
  td_map m;
  td_err err = {{0}};
  if (td_mapfile_load(td_test_path("maps/01-crossroads.tmx"), &m, &err) != 0)
    fail_msg("%s", err.msg);
  const td_graph *g = m.graph;
  assert_null(m.grid);
  assert_int_equal(m.width, 30);
  assert_int_equal(m.height, 20);
  assert_int_equal(m.tile_w, 32);
  /* 15 drawn junction vertices, two of them drawn 0.35 units off: 13 nodes */
  assert_int_equal(g->node_count, CROSS_NODES);
  assert_int_equal(g->edge_count, 18);
  assert_true(g->finalized);
  double tile_centre[CROSS_NODES][2] = {{1, 10}, {5, 10},  {10, 10}, {15, 10}, {20, 10},
                                        {25, 10}, {28, 10}, {8, 4},   {15, 4},  {22, 4},
                                        {8, 16},  {15, 16}, {22, 16}};
  for (int n = 0; n < CROSS_NODES; n++) {
    assert_true(g->x[n] == tile_centre[n][0] * 32 + 16);
    assert_true(g->y[n] == tile_centre[n][1] * 32 + 16);
  }
  /* the off-drawn ends joined the web */
  edge_between(g, N_A, N_B);
  edge_between(g, N_C, N_H);
  edge_between(g, N_H, N_K);

  assert_int_equal(m.spawn_count, 1);
  assert_int_equal(m.spawns[0].node, N_S);
  assert_int_equal(m.spawns[0].object_id, 7);
  assert_string_equal(m.spawns[0].name, "west gate");
  assert_int_equal(m.goal_count, 1);
  assert_int_equal(m.goals[0].node, N_G);
  assert_int_equal(m.goals[0].object_id, 8);
  assert_string_equal(m.goals[0].name, "core");

  /* the mud link D-I has cost 2: twice its length */
  int32_t di = edge_between(g, N_D, N_I);
  assert_true(g->edges[di].factor == 2.0);
  assert_true(g->edges[di].w == td_graph_cost(hypot(64.0, 192.0), 2.0));
  int32_t sa = edge_between(g, N_S, N_A);
  assert_true(g->edges[sa].w == td_graph_cost(128.0, 1.0));

  /* the path objects and their edges (what td.set_cost{path = id} names) */
  assert_int_equal(m.path_count, 6);
  const td_map_path *trunk = td_map_find_path(&m, 1), *mud = td_map_find_path(&m, 5);
  assert_non_null(trunk);
  assert_string_equal(trunk->name, "trunk");
  assert_int_equal(trunk->edge_count, 6);
  int32_t chain[7] = {N_S, N_A, N_F, N_H, N_I, N_E, N_G};
  for (int k = 0; k < 6; k++) {
    int32_t e = edge_between(g, chain[k], chain[k + 1]);
    bool listed = false;
    for (size_t i = 0; i < trunk->edge_count; i++) listed |= trunk->edges[i] == e;
    assert_true(listed);
  }
  for (size_t i = 1; i < trunk->edge_count; i++) assert_true(trunk->edges[i - 1] < trunk->edges[i]);
  assert_non_null(mud);
  assert_int_equal(mud->edge_count, 1);
  assert_int_equal(mud->edges[0], di);
  assert_null(td_map_find_path(&m, 7)); /* a spawn, not a path */
  size_t listed = 0;
  for (size_t p = 0; p < m.path_count; p++) listed += m.paths[p].edge_count;
  assert_int_equal(listed, 18); /* no edge drawn twice here */

  /* the bases and the edges each one blocks, from the geometry */
  static const int32_t expect[9][3][2] = {
      {{N_F, N_H}},                   /* 9 */
      {{N_H, N_I}},                   /* 10 */
      {{N_C, N_D}},                   /* 11 */
      {{N_K, N_L}},                   /* 12 */
      {{N_C, N_H}},                   /* 13 */
      {{N_H, N_I}, {N_I, N_E}, {N_D, N_I}},   /* 14: around I */
      {{N_A, N_J}},                   /* 15 */
      {{N_B, N_C}},                   /* 16 */
      {{N_L, N_E}},                   /* 17 */
  };
  static const size_t expect_n[9] = {1, 1, 1, 1, 1, 3, 1, 1, 1};
  assert_int_equal(m.base_count, 9);
  for (size_t b = 0; b < 9; b++) {
    const td_tower_base *tb = &m.bases[b];
    assert_int_equal(tb->object_id, 9 + (int)b);
    assert_true(tb->w == 32 && tb->h == 32);
    assert_int_equal(tb->block_count, expect_n[b]);
    for (size_t k = 0; k < expect_n[b]; k++) {
      int32_t e = edge_between(g, expect[b][k][0], expect[b][k][1]);
      bool found = false;
      for (size_t i = 0; i < tb->block_count; i++) {
        assert_int_equal(tb->block[i].kind, TD_CHANGE_BLOCK_EDGE);
        found |= tb->block[i].id == e;
      }
      if (!found) fail_msg("base %d does not block edge %d", tb->object_id, e);
    }
  }
  assert_int_equal(m.layer_count, 1);
  assert_string_equal(m.layers[0].name, "ground");
  assert_int_equal(m.layers[0].width, 30);
  assert_int_equal(m.layers[0].walkable, 0);
  assert_int_equal(m.layers[0].gids[0], 1);

  /* towers lengthen the route; closing every way to the goal is refused */
  int32_t goal = m.goals[0].node, spawn = m.spawns[0].node;
  td_route *r = td_route_create(m.graph, &goal, 1, &err);
  assert_non_null(r);
  td_cost straight = td_route_dist(r)[spawn];
  assert_true(straight == td_graph_cost(128, 1) + td_graph_cost(160, 1) * 4 +
                              td_graph_cost(96, 1));
  assert_int_equal(td_route_apply(r, m.bases[0].block, m.bases[0].block_count, &err), 0);
  td_cost detour1 = td_route_dist(r)[spawn];
  assert_true(detour1 > straight && detour1 != TD_COST_INF);
  /* then north (C-D) and south (K-L): the way goes round through H */
  assert_int_equal(td_route_apply(r, m.bases[2].block, m.bases[2].block_count, &err), 0);
  assert_true(td_route_dist(r)[spawn] == detour1); /* the south is as long */
  assert_int_equal(td_route_apply(r, m.bases[3].block, m.bases[3].block_count, &err), 0);
  td_cost detour2 = td_route_dist(r)[spawn];
  assert_true(detour2 > detour1 && detour2 != TD_COST_INF);
  /* now every way passes I: the base around I would cut the spawn off */
  td_route_verdict v;
  assert_int_equal(td_route_try_apply(r, m.bases[5].block, m.bases[5].block_count, &spawn, 1,
                                      &v, &err), 0);
  assert_false(v.ok);
  assert_int_equal(v.cut_node, spawn);
  assert_true(td_route_dist(r)[spawn] == detour2);
  td_route_destroy(r);
  td_map_free(&m);
  assert_true(map_is_zero(&m));
}

static void test_grid_map(void **state) {
  (void)state;
  td_map m;
  td_err err = {{0}};
  if (td_mapfile_load(td_test_path("maps/02-grid.tmx"), &m, &err) != 0)
    fail_msg("%s", err.msg);
  const td_grid *grid = m.grid;
  assert_true(m.paths == NULL && m.path_count == 0); /* a grid map has tiles, not paths */
  assert_non_null(grid);
  assert_int_equal(grid->width, 24);
  assert_int_equal(grid->height, 16);
  assert_true(grid->cell == 32.0);
  int walkable = 0;
  for (int y = 0; y < 16; y++)
    for (int x = 0; x < 24; x++) walkable += td_grid_walkable(grid, x, y);
  assert_int_equal(m.graph->node_count, walkable);
  assert_true(walkable > 200 && walkable < 24 * 16);
  assert_false(td_grid_walkable(grid, 0, 0));      /* wall border */
  assert_false(td_grid_walkable(grid, 6, 5));      /* west wall */
  assert_true(td_grid_walkable(grid, 4, 9));       /* a flipped floor tile */
  assert_int_equal(m.spawn_count, 1);
  assert_int_equal(m.spawns[0].node, td_grid_node_at(grid, 2, 9));
  assert_string_equal(m.spawns[0].name, "north gate");
  assert_int_equal(m.goal_count, 1);
  assert_int_equal(m.goals[0].node, td_grid_node_at(grid, 21, 8));
  assert_int_equal(m.layer_count, 1);
  assert_int_equal(m.layers[0].walkable, 1);
  assert_int_equal(m.layers[0].gids[9 * 24 + 4], 0x80000001u);

  static const int cells[6][4][2] = {
      {{12, 9}, {12, 10}},  {{18, 3}, {18, 4}}, {{9, 7}},
      {{14, 12}, {15, 12}, {14, 13}, {15, 13}}, {{6, 11}, {6, 12}}, {{6, 13}, {6, 14}}};
  static const int ncells[6] = {2, 2, 1, 4, 2, 2};
  assert_int_equal(m.base_count, 6);
  int32_t spawn = m.spawns[0].node, goal = m.goals[0].node;
  td_route *r = td_route_create(m.graph, &goal, 1, &err);
  assert_non_null(r);
  for (int b = 0; b < 6; b++) {
    const td_tower_base *tb = &m.bases[b];
    int nodes = 0;
    for (size_t i = 0; i < tb->block_count; i++) {
      if (tb->block[i].kind == TD_CHANGE_BLOCK_EDGE) continue;
      assert_int_equal(tb->block[i].kind, TD_CHANGE_BLOCK_NODE);
      bool found = false;
      for (int k = 0; k < ncells[b]; k++)
        found |= tb->block[i].id == td_grid_node_at(grid, cells[b][k][0], cells[b][k][1]);
      assert_true(found);
      nodes++;
    }
    assert_int_equal(nodes, ncells[b]);
    /* every base can be built on its own */
    td_route_verdict v;
    assert_int_equal(td_route_check(r, tb->block, tb->block_count, &spawn, 1, &v, &err), 0);
    assert_true(v.ok);
  }
  /* the two pads in the west gap together close it */
  td_graph_change both[64];
  size_t n = 0;
  for (int b = 4; b < 6; b++)
    for (size_t i = 0; i < m.bases[b].block_count; i++) both[n++] = m.bases[b].block[i];
  td_route_verdict v;
  assert_int_equal(td_route_check(r, both, n, &spawn, 1, &v, &err), 0);
  assert_false(v.ok);
  td_route_destroy(r);
  td_map_free(&m);
}

/* ---- merging, duplicates, costs ------------------------------------------ */

static void test_merge_across_polylines(void **state) {
  (void)state;
  td_map m;
  load_ok(waypoint_map(
              "{ id = 1, type = \"path\", shape = \"polyline\", x = 0, y = 0,"
              "  polyline = { { x = 0, y = 0 }, { x = 100, y = 0 } } },\n"
              "{ id = 2, type = \"path\", shape = \"polyline\", x = 100.3, y = 0.3,"
              "  polyline = { { x = 0, y = 0 }, { x = 0, y = 100 } } },\n" SPAWN_AT(3, 0, 0)
                  GOAL_AT(4, 100.3, 100.3)),
          &m);
  assert_int_equal(m.graph->node_count, 3);
  assert_int_equal(m.graph->edge_count, 2);
  /* the node sits where its first vertex was drawn */
  assert_true(m.graph->x[1] == 100.0 && m.graph->y[1] == 0.0);
  assert_int_equal(m.goals[0].node, 2);
  td_map_free(&m);

  /* spawns and goals snap to a vertex within 0.5 units */
  load_ok(waypoint_map(PATH_L SPAWN_AT(3, 0.3, -0.3) GOAL_AT(4, 99.6, 100.2)), &m);
  assert_int_equal(m.spawns[0].node, 0);
  assert_int_equal(m.goals[0].node, 2);
  td_map_free(&m);

  /* 0.6 apart: two nodes, so the spawn's line does not reach the goal's */
  expect_error(waypoint_map("{ id = 1, type = \"path\", shape = \"polyline\", x = 0, y = 0,"
                            "  polyline = { { x = 0, y = 0 }, { x = 100, y = 0 } } },\n"
                            "{ id = 2, type = \"path\", shape = \"polyline\", x = 100.6, y = 0,"
                            "  polyline = { { x = 0, y = 0 }, { x = 0, y = 100 } } },\n"
                            SPAWN_AT(3, 0, 0) GOAL_AT(4, 100.6, 100)),
               "object 3 (spawn): cannot reach any goal");
}

static void test_merge_within_polyline(void **state) {
  (void)state;
  td_map m;
  /* 50 and 50.3 merge (zero-length edge dropped); 50.3 -> 50.6 chains on */
  load_ok(waypoint_map("{ id = 1, type = \"path\", shape = \"polyline\", x = 0, y = 0,"
                       "  polyline = { { x = 0, y = 0 }, { x = 50, y = 0 }, { x = 50.3, y = 0 },"
                       "  { x = 50.6, y = 0 }, { x = 100, y = 0 } } },\n" SPAWN_AT(3, 0, 0)
                           GOAL_AT(4, 100, 0)),
          &m);
  assert_int_equal(m.graph->node_count, 3);
  assert_int_equal(m.graph->edge_count, 2);
  assert_true(m.graph->x[1] == 50.0);
  td_map_free(&m);
  expect_error(waypoint_map("{ id = 7, type = \"path\", shape = \"polyline\", x = 0, y = 0,"
                            "  polyline = { { x = 0, y = 0 }, { x = 0.2, y = 0.2 } } },\n"
                            OK_POINTS),
               "object 7 (path): all its vertices lie within 0.5 units");
  /* more than 32 vertices in a 0.5 x 0.5 square are refused (that bounds
  ** the merge's work) */
  sbuf s = {0};
  sb_add(&s, "{ id = 7, type = 'path', shape = 'polyline', x = 0, y = 0, polyline = {"
             " { x = 100, y = 100 },");
  for (int i = 0; i < 33; i++) sb_add(&s, "{ x = %g, y = 0.1 },", 0.01 * i);
  sb_add(&s, "} },\n" OK_POINTS);
  expect_error(waypoint_map(s.p), "object 7 (path): more than 32 path vertices crowd around");
  free(s.p);
}

static void test_duplicate_edge_smaller_cost(void **state) {
  (void)state;
  td_map m;
  load_ok(waypoint_map("{ id = 1, type = \"path\", shape = \"polyline\", x = 0, y = 0,"
                       "  polyline = { { x = 0, y = 0 }, { x = 100, y = 0 } },"
                       "  properties = { [\"cost\"] = 3 } },\n"
                       "{ id = 2, type = \"path\", shape = \"polyline\", x = 100, y = 0,"
                       "  polyline = { { x = 0, y = 0 }, { x = -100, y = 0 } },"
                       "  properties = { [\"cost\"] = 2.5 } },\n"
                       "{ id = 5, type = \"path\", shape = \"polyline\", x = 0, y = 0,"
                       "  polyline = { { x = 0, y = 0 }, { x = 100, y = 0 } },"
                       "  properties = { [\"cost\"] = 4 } },\n" SPAWN_AT(3, 0, 0)
                           GOAL_AT(4, 100, 0)),
          &m);
  assert_int_equal(m.graph->node_count, 2);
  assert_int_equal(m.graph->edge_count, 1);
  assert_true(m.graph->edges[0].factor == 2.5);
  assert_true(m.graph->edges[0].w == td_graph_cost(100.0, 2.5));
  assert_int_equal(m.graph->edges[0].a, 0); /* as first drawn */
  /* each of the three paths lists the one edge, once (path 2 drew it back) */
  assert_int_equal(m.path_count, 3);
  for (size_t p = 0; p < 3; p++) {
    assert_int_equal(m.paths[p].edge_count, 1);
    assert_int_equal(m.paths[p].edges[0], 0);
  }
  assert_int_equal(m.paths[2].object_id, 5);
  td_map_free(&m);
}

static void test_cost_and_polygon(void **state) {
  (void)state;
  td_map m;
  /* a closed square loop with cost 1.5, a spur to the goal, a rotated path */
  load_ok(waypoint_map("{ id = 1, type = \"path\", shape = \"polygon\", x = 0, y = 0,"
                       "  polygon = { { x = 0, y = 0 }, { x = 100, y = 0 }, { x = 100, y = 100 },"
                       "  { x = 0, y = 100 } }, properties = { [\"cost\"] = 1.5 } },\n"
                       "{ id = 2, type = \"path\", shape = \"polyline\", x = 100, y = 100,"
                       "  rotation = 90, polyline = { { x = 0, y = 0 }, { x = 50, y = 0 } } },\n"
                       SPAWN_AT(3, 0, 0) GOAL_AT(4, 100, 150)),
          &m);
  assert_int_equal(m.graph->node_count, 5);
  assert_int_equal(m.graph->edge_count, 5);
  for (int e = 0; e < 4; e++) {
    assert_true(m.graph->edges[e].factor == 1.5);
    assert_true(m.graph->edges[e].w == td_graph_cost(100.0, 1.5));
  }
  assert_true(fabs(m.graph->x[4] - 100.0) < 1e-9 && fabs(m.graph->y[4] - 150.0) < 1e-9);
  assert_true(m.graph->edges[4].w == td_graph_cost(50.0, 1.0));
  /* the polygon's closing side is one of its edges */
  assert_int_equal(td_map_find_path(&m, 1)->edge_count, 4);
  assert_int_equal(td_map_find_path(&m, 2)->edge_count, 1);
  td_map_free(&m);
}

/* ---- road widths ----------------------------------------------------------- */

/* Two paths from (0,0): id 1 east to (100,0) then south to (100,100) with
** the given properties, id 2 south to (0,100) without any. */
#define TWO_ROADS(props1)                                                            \
  "{ id = 1, type = \"path\", shape = \"polyline\", x = 0, y = 0,"                   \
  "  polyline = { { x = 0, y = 0 }, { x = 100, y = 0 }, { x = 100, y = 100 } },"     \
  "  properties = { " props1 " } },\n"                                               \
  "{ id = 2, type = \"path\", shape = \"polyline\", x = 0, y = 0,"                   \
  "  polyline = { { x = 0, y = 0 }, { x = 0, y = 100 } } },\n" OK_POINTS

static void test_road_width(void **state) {
  (void)state;
  td_map m;
  /* the path's property; a path without one: one tile (tilewidth) */
  load_ok(waypoint_map_with(24, 16, "", TWO_ROADS("[\"road_width\"] = 96.5")), &m);
  assert_int_equal(m.graph->edge_count, 3);
  assert_non_null(m.road_width);
  assert_null(m.grid);
  assert_true(m.road_width[0] == 96.5f); /* (0,0)-(100,0) */
  assert_true(m.road_width[1] == 96.5f); /* (100,0)-(100,100) */
  assert_true(m.road_width[2] == 24.0f); /* (0,0)-(0,100): tilewidth, not tileheight */
  td_map_free(&m);
  /* the map's property is the default of paths without one */
  load_ok(waypoint_map_with(32, 32, "[\"road_width\"] = 64",
                            TWO_ROADS("[\"road_width\"] = 8, [\"cost\"] = 2")),
          &m);
  assert_true(m.road_width[0] == 8.0f && m.road_width[1] == 8.0f);
  assert_true(m.road_width[2] == 64.0f);
  assert_true(m.graph->edges[0].factor == 2.0);
  td_map_free(&m);
  /* an integer property and a map without a properties table */
  load_ok(waypoint_map(TWO_ROADS("road_width = 3")), &m);
  assert_true(m.road_width[0] == 3.0f && m.road_width[2] == 32.0f);
  td_map_free(&m);
  /* a polygon's closing edge has its width too */
  load_ok(waypoint_map("{ id = 1, type = \"path\", shape = \"polygon\", x = 0, y = 0,"
                       "  polygon = { { x = 0, y = 0 }, { x = 100, y = 0 },"
                       "              { x = 100, y = 100 } },"
                       "  properties = { [\"road_width\"] = 40 } },\n" OK_POINTS),
          &m);
  assert_int_equal(m.graph->edge_count, 3);
  for (int32_t e = 0; e < 3; e++) assert_true(m.road_width[e] == 40.0f);
  td_map_free(&m);
}

/* The same edge drawn by several paths keeps the largest width (and, as
** before, the smallest cost), whichever order they come in. */
static void test_duplicate_edge_larger_width(void **state) {
  (void)state;
  td_map m;
  load_ok(waypoint_map("{ id = 1, type = \"path\", shape = \"polyline\", x = 0, y = 0,"
                       "  polyline = { { x = 0, y = 0 }, { x = 100, y = 0 } },"
                       "  properties = { [\"road_width\"] = 20, [\"cost\"] = 1 } },\n"
                       "{ id = 2, type = \"path\", shape = \"polyline\", x = 100, y = 0,"
                       "  polyline = { { x = 0, y = 0 }, { x = -100, y = 0 } },"
                       "  properties = { [\"road_width\"] = 70, [\"cost\"] = 3 } },\n"
                       "{ id = 5, type = \"path\", shape = \"polyline\", x = 0, y = 0,"
                       "  polyline = { { x = 0, y = 0 }, { x = 100, y = 0 } } },\n"
                       "{ id = 6, type = \"path\", shape = \"polyline\", x = 100, y = 0,"
                       "  polyline = { { x = 0, y = 0 }, { x = 0, y = 50 } },"
                       "  properties = { [\"road_width\"] = 10 } },\n"
                       "{ id = 7, type = \"path\", shape = \"polyline\", x = 100, y = 50,"
                       "  polyline = { { x = 0, y = 0 }, { x = 0, y = -50 } },"
                       "  properties = { [\"road_width\"] = 5 } },\n" SPAWN_AT(3, 0, 0)
                           GOAL_AT(4, 100, 50)),
          &m);
  assert_int_equal(m.graph->edge_count, 2);
  assert_true(m.road_width[0] == 70.0f); /* 20, 70 and the default 32 */
  assert_true(m.graph->edges[0].factor == 1.0);
  assert_true(m.road_width[1] == 10.0f); /* 10 then 5 */
  td_map_free(&m);
}

static void test_bad_road_width(void **state) {
  (void)state;
  /* Lua text evaluates: 0/0 is NaN, 1/0 infinity */
  static const char *const widths[] = {"0", "-1", "-0.0", "0/0", "1/0", "-1/0", "1e6 + 1",
                                       "2e9", "1e-300"};
  for (size_t i = 0; i < sizeof widths / sizeof *widths; i++) {
    char objs[512];
    snprintf(objs, sizeof objs,
             "{ id = 7, type = \"path\", shape = \"polyline\", x = 0, y = 0,"
             "  polyline = { { x = 0, y = 0 }, { x = 100, y = 100 } },"
             "  properties = { [\"road_width\"] = %s } },\n" OK_POINTS,
             widths[i]);
    expect_error(waypoint_map(objs), "maps/t.lua: object 7 (path): property 'road_width' "
                                     "must be > 0 and <= 1000000, is ");
    char props[64];
    snprintf(props, sizeof props, "[\"road_width\"] = %s", widths[i]);
    expect_error(waypoint_map_with(32, 32, props, PATH_L OK_POINTS),
                 "maps/t.lua: map: property 'road_width' must be > 0 and <= 1000000, is ");
  }
  expect_error(waypoint_map("{ id = 7, type = \"path\", shape = \"polyline\", x = 0, y = 0,"
                            "  polyline = { { x = 0, y = 0 }, { x = 100, y = 100 } },"
                            "  properties = { [\"road_width\"] = -2 } },\n" OK_POINTS),
               "maps/t.lua: object 7 (path): property 'road_width' must be > 0 and <= "
               "1000000, is -2");
  expect_error(waypoint_map("{ id = 7, type = \"path\", shape = \"polyline\", x = 0, y = 0,"
                            "  polyline = { { x = 0, y = 0 }, { x = 100, y = 100 } },"
                            "  properties = { [\"road_width\"] = \"32\" } },\n" OK_POINTS),
               "maps/t.lua: object 7 (path): property 'road_width': expected a number, got "
               "string");
  expect_error(waypoint_map("{ id = 7, type = \"path\", shape = \"polyline\", x = 0, y = 0,"
                            "  polyline = { { x = 0, y = 0 }, { x = 100, y = 100 } },"
                            "  properties = { [\"road_width\"] = true } },\n" OK_POINTS),
               "maps/t.lua: object 7 (path): property 'road_width': expected a number, got "
               "boolean");
  expect_error(waypoint_map_with(32, 32, "[\"road_width\"] = {}", PATH_L OK_POINTS),
               "maps/t.lua: map: property 'road_width': expected a number, got table");
  expect_error(waypoint_map_with(32, 32, "[\"road_width\"] = 0", PATH_L OK_POINTS),
               "maps/t.lua: map: property 'road_width' must be > 0 and <= 1000000, is 0");
  /* the map's properties field itself must be a table */
  expect_error("return { orientation = \"orthogonal\", width = 1, height = 1,"
               " tilewidth = 32, tileheight = 32, properties = 5 }",
               "maps/t.lua: map: field 'properties': expected a table, got number");
  /* the largest width is fine */
  td_map m;
  load_ok(waypoint_map_with(32, 32, "road_width = 1e6", PATH_L OK_POINTS), &m);
  assert_true(m.road_width[0] == 1e6f);
  td_map_free(&m);
}

/* Grid maps have no road: their walkable area is their open cells. A
** map-level road_width is checked but has nothing to apply to. */
static void test_grid_has_no_road_width(void **state) {
  (void)state;
  td_map m;
  load_ok(grid_map(room_data(),
                   "{ id = 3, class = \"spawn\", shape = \"point\", x = 48, y = 48 },\n"
                   "{ id = 4, class = \"goal\", shape = \"point\", x = 280, y = 280 },\n"),
          &m);
  assert_non_null(m.grid);
  assert_null(m.road_width);
  td_map_free(&m);
}

static int cmp_name(const void *a, const void *b) { return strcmp(a, b); }

/* Every bundled map (the .lua files of maps/) loads; a waypoint map has a road width on
** every edge, positive and finite; a grid map has none. */
static void test_bundled_road_widths(void **state) {
  (void)state;
  char dir[512], names[32][1024];
  snprintf(dir, sizeof dir, "%s", td_test_path("maps"));
  DIR *d = opendir(dir);
  assert_non_null(d);
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    size_t len = strlen(e->d_name);
    if (len < 5 || strcmp(e->d_name + len - 4, ".tmx") != 0) continue;
    assert_true(n < sizeof names / sizeof *names);
    snprintf(names[n++], sizeof names[0], "%s/%s", dir, e->d_name);
  }
  closedir(d);
  qsort(names, n, sizeof names[0], cmp_name);
  assert_true(n >= 6);
  size_t waypoint = 0;
  for (size_t i = 0; i < n; i++) {
    td_map m;
    td_err err = {{0}};
    if (td_mapfile_load(names[i], &m, &err) != 0) fail_msg("%s", err.msg);
    if (m.grid) {
      assert_null(m.road_width);
    } else {
      waypoint++;
      if (!m.road_width) fail_msg("%s: a waypoint map without road widths", names[i]);
      for (int32_t k = 0; k < m.graph->edge_count; k++)
        if (!(m.road_width[k] > 0.0f) || !isfinite(m.road_width[k]))
          fail_msg("%s: edge %d: road width %g", names[i], k, (double)m.road_width[k]);
    }
    td_map_free(&m);
  }
  assert_true(waypoint >= 3); /* 01-crossroads, 03-serpent, 05-twin */
}

/* The menu's map properties: read when present (cut to fit, control
** characters made '?'), zero when absent, refused with the property named
** when of the wrong type; every bundled map has all three, and no two share
** an order. */
static void test_menu_properties(void **state) {
  (void)state;
  td_map m;
  td_err err = {{0}};
  const char *props = "[\"title\"] = \"Twin\\nRivers\", [\"description\"] = \"Guard both.\", "
                      "[\"order\"] = 6";
  if (load_str(waypoint_map_with(32, 32, props, PATH_L OK_POINTS), &m, &err) != 0)
    fail_msg("%s", err.msg);
  assert_string_equal(m.title, "Twin?Rivers");
  assert_string_equal(m.description, "Guard both.");
  assert_int_equal(m.order, 6);
  td_map_free(&m);
  if (load_str(waypoint_map(PATH_L OK_POINTS), &m, &err) != 0) fail_msg("%s", err.msg);
  assert_string_equal(m.title, "");
  assert_int_equal(m.order, 0);
  td_map_free(&m);
  expect_error(waypoint_map_with(32, 32, "[\"order\"] = 1.5", PATH_L OK_POINTS),
               "maps/t.lua: map: field 'order': expected an integer, got 1.5");
  expect_error(waypoint_map_with(32, 32, "[\"title\"] = 3", PATH_L OK_POINTS),
               "maps/t.lua: map: field 'title': expected a string, got number");
  static const char *const names[] = {"01-crossroads", "02-grid", "03-serpent",
                                      "04-foundry", "05-twin", "06-expanse"};
  bool seen[7] = {false};
  for (size_t i = 0; i < 6; i++) {
    char path[64];
    snprintf(path, sizeof path, "maps/%s.tmx", names[i]);
    if (td_mapfile_load(td_test_path(path), &m, &err) != 0) fail_msg("%s", err.msg);
    if (!m.title[0] || !m.description[0] || m.order < 1 || m.order > 6 || seen[m.order])
      fail_msg("%s: title '%s', description '%s', order %d", path, m.title, m.description,
               (int)m.order);
    seen[m.order] = true;
    td_map_free(&m);
  }
}

static void test_segment_inside_and_corner_base(void **state) {
  (void)state;
  td_map m;
  /* base 5 holds a whole short edge; base 6 only grazes a corner of the L;
  ** base 7 is crossed by the second segment without holding an endpoint */
  load_ok(waypoint_map("{ id = 1, type = \"path\", shape = \"polyline\", x = 0, y = 0,"
                       "  polyline = { { x = 0, y = 0 }, { x = 10, y = 0 }, { x = 100, y = 0 },"
                       "  { x = 100, y = 100 } } },\n"
                       "{ id = 5, type = \"tower_base\", shape = \"rectangle\", x = -5, y = -5,"
                       "  width = 20, height = 10 },\n"
                       "{ id = 6, class = \"tower_base\", shape = \"rectangle\", x = 100, y = -10,"
                       "  width = 10, height = 10 },\n"
                       "{ id = 7, type = \"tower_base\", shape = \"rectangle\", x = 90, y = 40,"
                       "  width = 20, height = 20 },\n"
                       "{ id = 8, type = \"tree\", shape = \"ellipse\", x = \"any\" },\n"
                       SPAWN_AT(3, 0, 0) GOAL_AT(4, 100, 100)),
          &m);
  assert_int_equal(m.base_count, 3);
  /* base 5 covers edge 0 (0..10) and touches the start of edge 1 at x=10..15 */
  assert_int_equal(m.bases[0].block_count, 2);
  assert_int_equal(m.bases[0].block[0].id, 0);
  assert_int_equal(m.bases[0].block[1].id, 1);
  /* the corner point (100, 0) is on the base's border: both edges touch it */
  assert_int_equal(m.bases[1].block_count, 2);
  assert_int_equal(m.bases[1].block[0].id, 1);
  assert_int_equal(m.bases[1].block[1].id, 2);
  assert_int_equal(m.bases[2].block_count, 1);
  assert_int_equal(m.bases[2].block[0].id, 2);
  td_map_free(&m);
}

/* blocking = false: a pad beside the way, touching nothing, closing nothing */
static void test_pads(void **state) {
  (void)state;
  td_map m;
  load_ok(waypoint_map(PATH_L OK_POINTS
                       "{ id = 5, type = \"tower_base\", shape = \"rectangle\", x = 20,"
                       "  y = 20, width = 30, height = 30,"
                       "  properties = { [\"blocking\"] = false } },\n"
                       "{ id = 6, type = \"tower_base\", shape = \"rectangle\", x = -5,"
                       "  y = -5, width = 10, height = 10,"
                       "  properties = { [\"blocking\"] = false } },\n"
                       "{ id = 7, type = \"tower_base\", shape = \"rectangle\", x = -5,"
                       "  y = -5, width = 10, height = 10,"
                       "  properties = { [\"blocking\"] = true } },\n"),
          &m);
  assert_int_equal(m.base_count, 3);
  assert_int_equal(m.bases[0].block_count, 0); /* touches no edge: fine for a pad */
  assert_int_equal(m.bases[1].block_count, 0); /* on the path, and still closes nothing */
  assert_true(m.bases[2].block_count > 0);
  td_map_free(&m);
  expect_error(waypoint_map(PATH_L OK_POINTS
                            "{ id = 5, type = \"tower_base\", shape = \"rectangle\", x = 20,"
                            "  y = 20, width = 30, height = 30,"
                            "  properties = { [\"blocking\"] = \"no\" } },\n"),
               "maps/t.lua: object 5 (tower_base): property 'blocking': expected a boolean, got "
               "string");
}

static void test_grid_basics(void **state) {
  (void)state;
  td_map m;
  load_ok(grid_map(room_data(),
                   "{ id = 3, class = \"spawn\", shape = \"point\", x = 48, y = 48 },\n"
                   "{ id = 4, class = \"goal\", shape = \"point\", x = 280, y = 280 },\n"
                   "{ id = 5, class = \"tower_base\", shape = \"rectangle\", x = 128, y = 128,"
                   "  width = 64, height = 32 },\n"
                   /* straddles cell borders: only centres inside count */
                   "{ id = 6, class = \"tower_base\", shape = \"rectangle\", x = 200, y = 200,"
                   "  width = 20, height = 41 },\n"),
          &m);
  assert_int_equal(m.graph->node_count, 64);
  assert_int_equal(m.spawns[0].node, td_grid_node_at(m.grid, 1, 1));
  assert_int_equal(m.goals[0].node, td_grid_node_at(m.grid, 8, 8));
  int nodes = 0;
  for (size_t i = 0; i < m.bases[0].block_count; i++)
    nodes += m.bases[0].block[i].kind == TD_CHANGE_BLOCK_NODE;
  assert_int_equal(nodes, 2);
  /* centres at 208 (cell 6) and 208, 240 (cells 6, 7) */
  assert_int_equal(m.bases[1].block[0].kind, TD_CHANGE_BLOCK_NODE);
  nodes = 0;
  for (size_t i = 0; i < m.bases[1].block_count; i++)
    if (m.bases[1].block[i].kind == TD_CHANGE_BLOCK_NODE) {
      int32_t id = m.bases[1].block[i].id;
      assert_true(id == td_grid_node_at(m.grid, 6, 6) || id == td_grid_node_at(m.grid, 6, 7));
      nodes++;
    }
  assert_int_equal(nodes, 2);
  td_map_free(&m);
}

static void test_groups_offsets_tile_objects(void **state) {
  (void)state;
  td_map m;
  /* offsets add up through groups; a tile object base is anchored at its
  ** bottom-left corner; image layers are skipped */
  load_ok("return { orientation = 'orthogonal', width = 10, height = 10,"
          " tilewidth = 32, tileheight = 32, layers = {"
          " { type = 'imagelayer', name = 'sky', image = 'sky.png' },"
          " { type = 'group', name = 'g', offsetx = 100, offsety = 0, layers = {"
          "   { type = 'objectgroup', name = 'o', offsetx = 0, offsety = 50, objects = {"
          "     { id = 1, type = 'path', shape = 'polyline', x = 0, y = 0,"
          "       polyline = { { x = 0, y = 0 }, { x = 100, y = 0 } } },"
          "     { id = 2, type = 'spawn', shape = 'point', x = 0, y = 0 } } } } },"
          " { type = 'objectgroup', name = 'top', objects = {"
          "   { id = 3, type = 'goal', shape = 'point', x = 200, y = 50 },"
          "   { id = 4, type = 'tower_base', shape = 'rectangle', gid = 7, x = 140, y = 60,"
          "     width = 20, height = 20 } } } } }",
          &m);
  assert_true(m.graph->x[0] == 100.0 && m.graph->y[0] == 50.0);
  assert_int_equal(m.spawns[0].node, 0);
  assert_int_equal(m.goals[0].node, 1);
  assert_true(m.bases[0].y == 40.0 && m.bases[0].h == 20.0);
  assert_int_equal(m.bases[0].block_count, 1);
  td_map_free(&m);

  /* groups nest up to 16 deep */
  sbuf s = {0};
  for (int depth = 15; depth <= 40; depth += 25) {
    s.n = 0;
    sb_add(&s, "return { orientation = 'orthogonal', width = 10, height = 10,"
               " tilewidth = 32, tileheight = 32, layers = {");
    for (int d = 0; d < depth; d++) sb_add(&s, "{ type = 'group', name = 'g%d', layers = {", d);
    sb_add(&s, "{ type = 'objectgroup', objects = { %s } }", PATH_L OK_POINTS);
    for (int d = 0; d < depth; d++) sb_add(&s, "} }");
    sb_add(&s, "} }");
    td_err err = {{0}};
    int rc = td_mapfile_load_buffer(NAME, s.p, s.n, &m, &err);
    if (depth <= 16) {
      if (rc != 0) fail_msg("%s", err.msg);
      td_map_free(&m);
    } else {
      assert_int_equal(rc, -1);
      assert_non_null(strstr(err.msg, "layer 'g16': layer groups nested deeper than 16"));
    }
  }
  free(s.p);
}

/* ---- scale: the caps leave room for big maps ----------------------------- */

static void sb_add(sbuf *s, const char *fmt, ...) {
  va_list ap;
  if (!s->p) {
    s->cap = 4096;
    s->p = malloc(s->cap);
    assert_non_null(s->p);
  }
  for (;;) {
    va_start(ap, fmt);
    int k = vsnprintf(s->p + s->n, s->cap - s->n, fmt, ap);
    va_end(ap);
    if ((size_t)k < s->cap - s->n) {
      s->n += (size_t)k;
      return;
    }
    s->cap = s->cap * 2 + (size_t)k + 1;
    s->p = realloc(s->p, s->cap);
    assert_non_null(s->p);
  }
}

static void test_big_waypoint_map(void **state) {
  (void)state;
  /* 10000 two-vertex polylines along a serpentine: 20000 vertices that
  ** merge into 10001 nodes */
  sbuf s = {0};
  sb_add(&s, "return { orientation = \"orthogonal\", width = 100, height = 100,"
             " tilewidth = 32, tileheight = 32, layers = { { type = \"objectgroup\","
             " objects = {\n");
  double px = 0, py = 0;
  for (int i = 0; i < 10000; i++) {
    double nx = (i / 100) % 2 ? px - 30 : px + 30, ny = py;
    if (i % 100 == 99) nx = px, ny = py + 30;
    sb_add(&s, "{ id = %d, name = \"\", type = \"path\", shape = \"polyline\", x = %g, y = %g,"
               " width = 0, height = 0, rotation = 0, visible = true,"
               " polyline = { { x = 0, y = 0 }, { x = %g, y = %g } }, properties = {} },\n",
           i + 1, px + 0.1 * (i % 3), py, nx - px - 0.1 * (i % 3), ny - py);
    px = nx;
    py = ny;
  }
  sb_add(&s, "{ id = 20001, type = \"spawn\", shape = \"point\", x = 0, y = 0 },\n"
             "{ id = 20002, type = \"goal\", shape = \"point\", x = %g, y = %g } } } } }\n",
         px, py);
  td_map m;
  td_err err = {{0}};
  if (td_mapfile_load_buffer(NAME, s.p, s.n, &m, &err) != 0) fail_msg("%s", err.msg);
  assert_int_equal(m.graph->node_count, 10001);
  assert_int_equal(m.graph->edge_count, 10000);
  td_map_free(&m);
  free(s.p);
}

static void test_big_grid_map(void **state) {
  (void)state;
  sbuf s = {0};
  sb_add(&s, "return { orientation = \"orthogonal\", width = 250, height = 250,"
             " tilewidth = 16, tileheight = 16, tilesets = { { firstgid = 1, tiles = {"
             " { id = 0, properties = { [\"walkable\"] = true } } } } },"
             " layers = { { type = \"tilelayer\", name = \"ground\", width = 250,"
             " height = 250, encoding = \"lua\", data = {\n");
  for (int y = 0; y < 250; y++) {
    for (int x = 0; x < 250; x++) sb_add(&s, "%d, ", (x % 10 == 5 && y % 50 != 0) ? 0 : 1);
    sb_add(&s, "\n");
  }
  sb_add(&s, "} }, { type = \"objectgroup\", objects = {"
             " { id = 1, type = \"spawn\", shape = \"point\", x = 8, y = 8 },"
             " { id = 2, type = \"goal\", shape = \"point\", x = 3990, y = 3990 } } } } }");
  td_map m;
  td_err err = {{0}};
  if (td_mapfile_load_buffer(NAME, s.p, s.n, &m, &err) != 0) fail_msg("%s", err.msg);
  assert_int_equal(m.grid->width, 250);
  assert_true(m.graph->node_count > 50000);
  td_map_free(&m);
  free(s.p);
}

/* ---- bad inputs ---------------------------------------------------------- */

static void test_bad_lua(void **state) {
  (void)state;
  expect_error("return {\n  width = 10,\n  height = = 3 }\n", "maps/t.lua:3:");
  expect_error("return 42", "maps/t.lua: the file must return a table (return { ... }), "
                            "got number");
  expect_error("", "must return a table (return { ... }), got nil");
  expect_error("while true do end", "maps/t.lua: instruction limit exceeded");
  expect_error("local function f() return f() end return f()", "instruction limit exceeded");
  expect_error("local t = {} for i = 1, 1e9 do t[i] = i end return t",
               "maps/t.lua: memory limit exceeded");
  expect_error("local s = 'x' for i = 1, 40 do s = s .. s end return {}",
               "maps/t.lua: memory limit exceeded");
  /* deep recursion: the Lua stack outgrows the memory cap first */
  expect_error("local function f() return 1 + f() end return f()", "memory limit exceeded");
  /* the environment is empty */
  expect_error("os.exit(1)", "maps/t.lua:1: attempt to index a nil value (global 'os')");
  expect_error("local f = io.open('/etc/passwd')", "(global 'io')");
  expect_error("\nrequire('os')", "maps/t.lua:2: attempt to call a nil value (global 'require')");
  expect_error("print('hello')", "(global 'print')");
  expect_error("return load('return 1')()", "(global 'load')");
  expect_error("return setmetatable({}, {})", "(global 'setmetatable')");
  expect_error("return _G.os", "(global '_G')");
  expect_error("return ('x'):rep(10)", "attempt to index a string value");
  expect_error("return string.rep('x', 1e9)", "(global 'string')");
  expect_error("collectgarbage()", "(global 'collectgarbage')");
  expect_error("x = 1 return {}", "maps/t.lua: field 'orientation' is missing");
}

static int dump_writer(lua_State *L, const void *p, size_t sz, void *ud) {
  (void)L;
  sbuf *s = ud;
  if (s->n + sz > s->cap) {
    s->cap = (s->n + sz) * 2;
    s->p = realloc(s->p, s->cap);
    if (!s->p) return 1;
  }
  memcpy(s->p + s->n, p, sz);
  s->n += sz;
  return 0;
}

static void test_binary_chunk_refused(void **state) {
  (void)state;
  td_test_alloc_remove(); /* a plain state, outside td_mem */
  lua_State *L = luaL_newstate();
  assert_non_null(L);
  assert_int_equal(luaL_loadstring(L, "return { orientation = 'orthogonal' }"), LUA_OK);
  sbuf s = {0};
  assert_int_equal(lua_dump(L, dump_writer, &s, 1), 0);
  lua_close(L);
  td_test_alloc_install(&cnt);
  assert_true(s.n > 4 && s.p[0] == '\x1b');
  expect_error_len(s.p, s.n, "maps/t.lua: attempt to load a binary chunk (mode is 't')");
  free(s.p);
}

static void test_bad_header(void **state) {
  (void)state;
  expect_error("return { orientation = 'isometric', width = 10, height = 10,"
               " tilewidth = 32, tileheight = 16 }",
               "maps/t.lua: orientation 'isometric' is not supported (only orthogonal maps)");
  expect_error("return { width = 10 }", "field 'orientation' is missing");
  expect_error("return { orientation = 'orthogonal', width = '10', height = 10,"
               " tilewidth = 32, tileheight = 32 }",
               "maps/t.lua: field 'width': expected an integer, got string");
  expect_error("return { orientation = 'orthogonal', width = 10.5, height = 10,"
               " tilewidth = 32, tileheight = 32 }",
               "field 'width': expected an integer, got 10.5");
  expect_error("return { orientation = 'orthogonal', width = 0, height = 10,"
               " tilewidth = 32, tileheight = 32 }",
               "field 'width': 0 is out of range [1, 4096]");
  expect_error("return { orientation = 'orthogonal', width = 10, height = 10,"
               " tilewidth = 32, tileheight = 32, infinite = true }",
               "infinite maps are not supported");
  expect_error("return { orientation = 'orthogonal', width = 10, height = 10,"
               " tilewidth = 32, tileheight = 32, layers = 5 }",
               "field 'layers': expected a table, got number");
  expect_error("return { orientation = 'orthogonal', width = 10, height = 10,"
               " tilewidth = 32, tileheight = 32, layers = { 5 } }",
               "layers[1]: expected a table, got number");
  expect_error("return { orientation = 'orthogonal', width = 10, height = 10,"
               " tilewidth = 32, tileheight = 32, layers = { { name = 'x' } } }",
               "layer 'x': field 'type' is missing");
  expect_error("return { orientation = 'orthogonal', width = 10, height = 10,"
               " tilewidth = 32, tileheight = 32 }",
               "no path objects (class 'path') and no tile layer with 'walkable' tiles");
}

static void test_bad_objects(void **state) {
  (void)state;
  expect_error(waypoint_map("{ id = 1, type = \"path\", shape = \"polyline\", x = 0, y = 0,"
                            "  polyline = { { x = 0, y = 0 } } },\n" OK_POINTS),
               "maps/t.lua: object 1 (path): a path needs at least 2 vertices, has 1");
  expect_error(waypoint_map("{ id = 1, type = \"path\", shape = \"polyline\", x = 0, y = 0,"
                            "  polyline = { { x = 0, y = 0 }, { x = 5 } } },\n" OK_POINTS),
               "object 1 (path): polyline[2]: field 'y' is missing (expected a number)");
  expect_error(waypoint_map("{ id = 1, type = \"path\", shape = \"polyline\", x = 0, y = 0,"
                            "  polyline = { { x = 0, y = 0 }, 7 } },\n" OK_POINTS),
               "object 1 (path): polyline[2]: expected a table, got number");
  expect_error(waypoint_map("{ id = 1, type = \"path\", shape = \"rectangle\", x = 0, y = 0,"
                            "  width = 5, height = 5 },\n" OK_POINTS),
               "object 1 (path): a path must be a polyline (or a polygon), not a rectangle");
  expect_error(waypoint_map(PATH_L "{ id = 3, type = \"spawn\", shape = \"point\", x = \"0\","
                                   " y = 0 },\n" GOAL_AT(4, 100, 100)),
               "maps/t.lua: object 3 (spawn): field 'x': expected a number, got string");
  expect_error(waypoint_map(PATH_L "{ id = 3, type = \"spawn\", shape = \"point\", x = 0/0,"
                                   " y = 0 },\n" GOAL_AT(4, 100, 100)),
               "object 3 (spawn): field 'x': expected a finite number");
  expect_error(waypoint_map(PATH_L "{ id = 3, type = \"spawn\", shape = \"point\", x = 1e9,"
                                   " y = 0 },\n" GOAL_AT(4, 100, 100)),
               "object 3 (spawn): field 'x': 1e+09 is out of range");
  expect_error(waypoint_map(PATH_L "{ type = \"spawn\", shape = \"point\", x = 0, y = 0 },\n"),
               "layer 'objects': objects[2]: field 'id' is missing (expected an integer)");
  expect_error(waypoint_map(PATH_L "{ id = 3, type = {}, x = 0, y = 0 },\n"),
               "objects[2]: field 'type': expected a string, got table");
  expect_error(waypoint_map(PATH_L SPAWN_AT(12, 50, 10) GOAL_AT(4, 100, 100)),
               "maps/t.lua: object 12 (spawn): not on any path vertex");
  expect_error(waypoint_map(PATH_L SPAWN_AT(12, 0.45, 0.25) GOAL_AT(4, 100, 100)),
               "object 12 (spawn): not on any path vertex");
  expect_error(waypoint_map(PATH_L "{ id = 3, type = \"spawn\", shape = \"rectangle\", x = 0,"
                                   " y = 0, width = 10, height = 10 },\n" GOAL_AT(4, 100, 100)),
               "object 3 (spawn): a spawn must be a point object, not a rectangle");
  expect_error(waypoint_map(PATH_L SPAWN_AT(3, 0, 0)),
               "maps/t.lua: no goal object (class 'goal')");
  expect_error(waypoint_map(PATH_L GOAL_AT(4, 100, 100)),
               "maps/t.lua: no spawn object (class 'spawn')");
  expect_error(waypoint_map(PATH_L SPAWN_AT(3, 0, 0) GOAL_AT(4, 0, 0)),
               "object 3 (spawn): on the same node as object 4 (goal)");
  expect_error(waypoint_map(PATH_L
                            "{ id = 2, type = \"path\", shape = \"polyline\", x = 300, y = 0,"
                            "  polyline = { { x = 0, y = 0 }, { x = 10, y = 0 } } },\n"
                            SPAWN_AT(3, 300, 0) GOAL_AT(4, 100, 100)),
               "maps/t.lua: object 3 (spawn): cannot reach any goal");
}

static void test_bad_cost(void **state) {
  (void)state;
  static const char *const costs[] = {"-1", "0", "0/0", "1e9"};
  for (size_t i = 0; i < sizeof costs / sizeof *costs; i++) {
    char objs[512];
    snprintf(objs, sizeof objs,
             "{ id = 9, type = \"path\", shape = \"polyline\", x = 0, y = 0,"
             "  polyline = { { x = 0, y = 0 }, { x = 100, y = 100 } },"
             "  properties = { [\"cost\"] = %s } },\n" OK_POINTS,
             costs[i]);
    expect_error(waypoint_map(objs), "maps/t.lua: object 9 (path): property 'cost' must be "
                                     "> 0 and <= 1000");
  }
  expect_error(waypoint_map("{ id = 9, type = \"path\", shape = \"polyline\", x = 0, y = 0,"
                            "  polyline = { { x = 0, y = 0 }, { x = 100, y = 100 } },"
                            "  properties = { [\"cost\"] = \"2\" } },\n" OK_POINTS),
               "object 9 (path): property 'cost': expected a number, got string");
}

static void test_bad_bases(void **state) {
  (void)state;
  /* one base may touch at most 64 edges */
  sbuf s = {0};
  sb_add(&s, "{ id = 1, type = 'path', shape = 'polyline', x = 0, y = 0, polyline = {");
  for (int i = 0; i <= 70; i++) sb_add(&s, "{ x = %d, y = %d },", i * 10, (i % 2) * 10);
  sb_add(&s, "} },\n" SPAWN_AT(3, 0, 0) GOAL_AT(4, 700, 0)
             "{ id = 5, type = 'tower_base', shape = 'rectangle', x = 0, y = 0,"
             " width = 700, height = 10 },");
  expect_error(waypoint_map(s.p), "object 5 (tower_base): touches 70 path edges, at most 64");
  free(s.p);

  expect_error(waypoint_map(PATH_L OK_POINTS
                            "{ id = 5, type = \"tower_base\", shape = \"rectangle\", x = 20,"
                            "  y = 20, width = 30, height = 30 },\n"),
               "maps/t.lua: object 5 (tower_base): touches no path edge");
  expect_error(waypoint_map(PATH_L OK_POINTS
                            "{ id = 5, type = \"tower_base\", shape = \"rectangle\", x = 20,"
                            "  y = -5, width = 0, height = 30 },\n"),
               "object 5 (tower_base): a tower_base needs a positive width and height");
  expect_error(waypoint_map(PATH_L OK_POINTS
                            "{ id = 5, type = \"tower_base\", shape = \"ellipse\", x = 20,"
                            "  y = -5, width = 10, height = 10 },\n"),
               "object 5 (tower_base): a tower_base must be a rectangle, not a ellipse");
  expect_error(waypoint_map(PATH_L OK_POINTS
                            "{ id = 5, type = \"tower_base\", shape = \"rectangle\", x = 20,"
                            "  y = -5, width = 10, height = 10, rotation = 45 },\n"),
               "object 5 (tower_base): rotated tower bases are not supported");
  expect_error(grid_map(room_data(),
                        "{ id = 3, class = \"spawn\", shape = \"point\", x = 48, y = 48 },\n"
                        "{ id = 4, class = \"goal\", shape = \"point\", x = 280, y = 280 },\n"
                        "{ id = 5, class = \"tower_base\", shape = \"rectangle\", x = 0, y = 0,"
                        "  width = 32, height = 64 },\n"),
               "object 5 (tower_base): covers no walkable cell");
  expect_error(grid_map(room_data(),
                        "{ id = 3, class = \"spawn\", shape = \"point\", x = 48, y = 48 },\n"
                        "{ id = 4, class = \"goal\", shape = \"point\", x = 280, y = 280 },\n"
                        "{ id = 5, class = \"tower_base\", shape = \"rectangle\", x = 50, y = 50,"
                        "  width = 10, height = 10 },\n"),
               "object 5 (tower_base): covers no cell centre");
}

static void test_bad_grid(void **state) {
  (void)state;
  const char *pts = "{ id = 3, class = \"spawn\", shape = \"point\", x = 48, y = 48 },\n"
                    "{ id = 4, class = \"goal\", shape = \"point\", x = 280, y = 280 },\n";
  char data[1024];
  snprintf(data, sizeof data, "%s", room_data());
  data[strlen(data) - 2] = '\0'; /* 99 entries */
  expect_error(grid_map(data, pts),
               "maps/t.lua: layer 'floor': data has 99 entries, expected 100 (10x10)");
  snprintf(data, sizeof data, "-1, %s", room_data() + 2);
  expect_error(grid_map(data, pts), "layer 'floor': data[1]: expected a tile gid");
  snprintf(data, sizeof data, "'x', %s", room_data() + 2);
  expect_error(grid_map(data, pts), "layer 'floor': data[1]: expected a tile gid "
                                    "(integer in [0, 4294967295]), got string");
  expect_error(grid_map(room_data(),
                        "{ id = 3, class = \"spawn\", shape = \"point\", x = 10, y = 48 },\n"
                        "{ id = 4, class = \"goal\", shape = \"point\", x = 280, y = 280 },\n"),
               "object 3 (spawn): not on a walkable cell (cell 0,1)");
  expect_error(grid_map(room_data(),
                        "{ id = 3, class = \"spawn\", shape = \"point\", x = 48, y = 48 },\n"
                        "{ id = 4, class = \"goal\", shape = \"point\", x = 280, y = 400 },\n"),
               "object 4 (goal): at (280, 400), outside the map");
  expect_error(grid_map(room_data(), PATH_L),
               "object 1 (path) and layer 'floor' (walkable tiles): a map is either a "
               "waypoint map or a grid map, not both");
  /* a room split by a wall: the goal is out of reach */
  snprintf(data, sizeof data, "%s", room_data());
  for (int y = 1; y < 9; y++) data[(y * 10 + 5) * 2] = '2';
  expect_error(grid_map(data, pts), "object 3 (spawn): cannot reach any goal");

  expect_error("return { orientation = 'orthogonal', width = 2, height = 1,"
               " tilewidth = 32, tileheight = 16,"
               " tilesets = { { firstgid = 1, tiles = { { id = 0,"
               "   properties = { walkable = true } } } } },"
               " layers = { { type = 'tilelayer', name = 'g', width = 2, height = 1,"
               "   data = { 1, 1 } } } }",
               "a grid map needs square tiles, has 32x16");
  expect_error("return { orientation = 'orthogonal', width = 2, height = 1,"
               " tilewidth = 32, tileheight = 32,"
               " tilesets = { { name = 'ts', firstgid = 1, tiles = { { id = 0,"
               "   properties = { walkable = 'yes' } } } } } }",
               "tileset 'ts': tiles[1]: property 'walkable': expected a boolean, got string");
  expect_error("return { orientation = 'orthogonal', width = 2, height = 1,"
               " tilewidth = 32, tileheight = 32,"
               " layers = { { type = 'tilelayer', name = 'g', width = 2, height = 1,"
               "   encoding = 'base64', data = 'AAAA' } } }",
               "layer 'g': data has 3 bytes, expected 8 (2x1 tiles of 4 bytes)");
  expect_error("return { orientation = 'orthogonal', width = 2, height = 1,"
               " tilewidth = 32, tileheight = 32,"
               " layers = { { type = 'tilelayer', name = 'g', width = 2, height = 1,"
               "   encoding = 'base32', data = 'AAAA' } } }",
               "layer 'g': encoding 'base32' is not supported");
  expect_error("return { orientation = 'orthogonal', width = 2, height = 1,"
               " tilewidth = 32, tileheight = 32,"
               " layers = { { type = 'tilelayer', name = 'g', width = 2, height = 1,"
               "   encoding = 'base64', compression = 'zlib', data = { 1, 2 } } } }",
               "layer 'g': field 'data': expected a base64 string, got table");
  expect_error("return { orientation = 'orthogonal', width = 2, height = 1,"
               " tilewidth = 32, tileheight = 32,"
               " layers = { { type = 'tilelayer', name = 'g', width = 3, height = 1,"
               "   data = { 1, 1, 1 } } } }",
               "layer 'g': size 3x1 differs from the map's 2x1");
  expect_error("return { orientation = 'orthogonal', width = 2, height = 1,"
               " tilewidth = 32, tileheight = 32,"
               " tilesets = { { firstgid = 1, tiles = { { id = 0,"
               "   properties = { walkable = true } } } } },"
               " layers = { { type = 'tilelayer', name = 'a', width = 2, height = 1,"
               "   data = { 1, 1 } }, { type = 'group', name = 'grp', layers = {"
               "   { type = 'tilelayer', name = 'b', width = 2, height = 1, data = { 0, 1 } } } } } }",
               "layers 'a' and 'b' both use tiles with the 'walkable' property");
}

static void test_missing_file(void **state) {
  (void)state;
  td_map m;
  td_err err = {{0}};
  assert_int_equal(td_mapfile_load("maps/x.lua", &m, &err), -1);
  assert_string_equal(err.msg, "maps/x.lua: cannot open: No such file or directory");
  assert_true(map_is_zero(&m));
  assert_int_equal(td_mapfile_load(td_test_path("maps"), &m, &err), -1);
  assert_non_null(strstr(err.msg, ": not a regular file (a directory)"));
}

/* The files in tests/data/maps: each bad_*.lua starts with a comment line
** "-- error: <substring>" naming the error it must produce. */
static void test_data_files(void **state) {
  (void)state;
  static const char *const files[] = {
      "bad_syntax.lua",   "bad_not_table.lua", "bad_loop.lua",     "bad_memory.lua",
      "bad_globals.lua",  "bad_one_vertex.lua", "bad_spawn_off.lua", "bad_no_goal.lua",
      "bad_unreachable.lua", "bad_cost.lua",   "bad_base.lua",     "bad_orientation.lua",
      "bad_grid_data.lua", "bad_types.lua"};
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    char rel[256];
    snprintf(rel, sizeof rel, "tests/data/maps/%s", files[i]);
    const char *path = td_test_path(rel);
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    char line[256] = "";
    if (!fgets(line, sizeof line, f)) line[0] = '\0';
    fclose(f);
    const char *tag = "-- error: ";
    if (strncmp(line, tag, strlen(tag)) != 0) fail_msg("%s: no error tag", files[i]);
    char *want = line + strlen(tag);
    want[strcspn(want, "\r\n")] = '\0';
    td_map m;
    td_err err = {{0}};
    char full[4096];
    snprintf(full, sizeof full, "%s", path);
    if (td_mapfile_load(full, &m, &err) == 0) {
      td_map_free(&m);
      fail_msg("%s loaded", files[i]);
    }
    if (!strstr(err.msg, want)) fail_msg("%s: \"%s\" lacks \"%s\"", files[i], err.msg, want);
    if (strncmp(err.msg, full, strlen(full)) != 0)
      fail_msg("%s: \"%s\" does not start with the file name", files[i], err.msg);
    assert_true(map_is_zero(&m));
  }
}

/* The test's own copy of the loader's closed segment-rectangle test (the
** same operations, so the same answers at the borders). */
static bool hits(double x0, double y0, double x1, double y1, double rx, double ry, double rw,
                 double rh) {
  double p[4] = {-(x1 - x0), x1 - x0, -(y1 - y0), y1 - y0};
  double q[4] = {x0 - rx, rx + rw - x0, y0 - ry, ry + rh - y0};
  double t0 = 0.0, t1 = 1.0;
  for (int k = 0; k < 4; k++) {
    if (p[k] == 0.0) {
      if (q[k] < 0.0) return false;
      continue;
    }
    double t = q[k] / p[k];
    if (p[k] < 0.0) {
      if (t > t1) return false;
      if (t > t0) t0 = t;
    } else {
      if (t < t0) return false;
      if (t < t1) t1 = t;
    }
  }
  return t0 <= t1;
}

/* Bases look only at the edges near them (a grid of cells): on random
** networks (long, short, steep and almost vertical edges; rectangles small,
** thin, huge, and on vertices' coordinates) every base blocks exactly the
** edges a scan of all of them finds, in ascending order. */
static void test_bases_near_edges(void **state) {
  (void)state;
  td_test_rng rng = {17};
  sbuf s = {0}, objs = {0};
  for (int round = 0; round < 20; round++) {
    objs.n = 0;
    int id = 1;
    double vx[40], vy[40];
    int nv = 0;
    for (int p = 0; p < 8; p++) {
      sb_add(&objs, "{ id = %d, type = 'path', shape = 'polyline', x = 0, y = 0, polyline = {",
             id++);
      int n = 2 + (int)td_test_below(&rng, 4);
      for (int k = 0; k < n; k++) {
        double x, y;
        uint32_t kind = td_test_below(&rng, 4);
        if (k > 0 && kind == 0 && nv > 0) { /* almost vertical from the last vertex */
          x = vx[nv - 1] + 1e-9 * (double)td_test_below(&rng, 3);
          y = vy[nv - 1] + 100.0 + 900.0 * td_test_unit(&rng);
        } else if (kind == 1) { /* far */
          x = 5000.0 * td_test_unit(&rng) - 2500.0;
          y = 5000.0 * td_test_unit(&rng) - 2500.0;
        } else { /* near: on a coarse lattice, so rectangles meet vertices exactly */
          x = 8.0 * (double)td_test_below(&rng, 64);
          y = 8.0 * (double)td_test_below(&rng, 64);
        }
        if (nv < 40) {
          vx[nv] = x;
          vy[nv] = y;
          nv++;
        }
        sb_add(&objs, "{ x = %.17g, y = %.17g },", x, y);
      }
      sb_add(&objs, "} },\n");
    }
    /* the network without bases: its graph; spawn and goal on vertex 0 of
    ** path 1 and the last vertex (both reachable or not: try) */
    sbuf base = {0};
    sb_add(&base, "%s", objs.p);
    td_map m;
    td_err err = {{0}};
    s.n = 0;
    sb_add(&s, "return { orientation = 'orthogonal', width = 10, height = 10, tilewidth = 32,"
               " tileheight = 32, layers = { { type = 'objectgroup', objects = { %s"
               " { id = 900, type = 'spawn', shape = 'point', x = %.17g, y = %.17g },"
               " { id = 901, type = 'goal', shape = 'point', x = %.17g, y = %.17g } } } } }",
           base.p, vx[0], vy[0], vx[1], vy[1]);
    if (td_mapfile_load_buffer(NAME, s.p, s.n, &m, &err) != 0) {
      free(base.p); /* merged or cut off: another round */
      continue;
    }
    const td_graph *g = m.graph;
    /* rectangles that touch 1 to 64 edges */
    double rects[64][4];
    int nr = 0;
    for (int tries = 0; tries < 400 && nr < 64; tries++) {
      double r[4];
      uint32_t kind = td_test_below(&rng, 4);
      if (kind == 0) { /* on a vertex's coordinates */
        int v = (int)td_test_below(&rng, (uint32_t)g->node_count);
        r[0] = g->x[v];
        r[1] = g->y[v] - 8.0 * (double)td_test_below(&rng, 3);
        r[2] = 8.0 * (1 + (double)td_test_below(&rng, 4));
        r[3] = 8.0 * (1 + (double)td_test_below(&rng, 4));
      } else if (kind == 1) { /* huge */
        r[0] = -3000.0 + 1000.0 * td_test_unit(&rng);
        r[1] = -3000.0 + 6000.0 * td_test_unit(&rng);
        r[2] = 6000.0 * td_test_unit(&rng) + 1.0;
        r[3] = 50.0 * td_test_unit(&rng) + 0.001;
      } else { /* small, anywhere */
        r[0] = 5000.0 * td_test_unit(&rng) - 2500.0;
        r[1] = 5000.0 * td_test_unit(&rng) - 2500.0;
        r[2] = 1.0 + 300.0 * td_test_unit(&rng);
        r[3] = 1.0 + 300.0 * td_test_unit(&rng);
      }
      int count = 0;
      for (int32_t e = 0; e < g->edge_count; e++) {
        const td_edge *ed = &g->edges[e];
        count += hits(g->x[ed->a], g->y[ed->a], g->x[ed->b], g->y[ed->b], r[0], r[1], r[2], r[3]);
      }
      if (count < 1 || count > 64) continue;
      memcpy(rects[nr++], r, sizeof r);
    }
    for (int i = 0; i < nr; i++)
      sb_add(&base, "{ id = %d, type = 'tower_base', shape = 'rectangle', x = %.17g,"
                    " y = %.17g, width = %.17g, height = %.17g },\n",
             1000 + i, rects[i][0], rects[i][1], rects[i][2], rects[i][3]);
    s.n = 0;
    sb_add(&s, "return { orientation = 'orthogonal', width = 10, height = 10, tilewidth = 32,"
               " tileheight = 32, layers = { { type = 'objectgroup', objects = { %s"
               " { id = 900, type = 'spawn', shape = 'point', x = %.17g, y = %.17g },"
               " { id = 901, type = 'goal', shape = 'point', x = %.17g, y = %.17g } } } } }",
           base.p, vx[0], vy[0], vx[1], vy[1]);
    td_map mb;
    if (td_mapfile_load_buffer(NAME, s.p, s.n, &mb, &err) != 0) fail_msg("%s", err.msg);
    assert_int_equal(mb.base_count, (size_t)nr);
    assert_int_equal(mb.graph->edge_count, g->edge_count);
    for (int i = 0; i < nr; i++) {
      size_t k = 0;
      for (int32_t e = 0; e < g->edge_count; e++) {
        const td_edge *ed = &g->edges[e];
        if (!hits(g->x[ed->a], g->y[ed->a], g->x[ed->b], g->y[ed->b], rects[i][0], rects[i][1],
                  rects[i][2], rects[i][3]))
          continue;
        assert_true(k < mb.bases[i].block_count);
        assert_int_equal(mb.bases[i].block[k].id, e);
        k++;
      }
      assert_int_equal(k, mb.bases[i].block_count);
    }
    print_message("round %d: %d edges, %d bases\n", round, g->edge_count, nr);
    td_map_free(&mb);
    td_map_free(&m);
    free(base.p);
  }
  free(s.p);
  free(objs.p);
}

/* ---- the C-side budgets: hostile maps (issue 17) ----------------------- */

/* The header of a waypoint map whose layers a Lua program makes: `pre` runs
** first (locals), `layers` is the expression of the layers list. */
static void hostile(sbuf *s, const char *pre, const char *layers) {
  s->n = 0;
  sb_add(s, "local function path(id) return { id = id, type = 'path', shape = 'polyline',"
            " x = 0, y = 0, polyline = { { x = 0, y = 0 }, { x = 640, y = 0 } } } end\n"
            "local function pt(id, cls, x) return { id = id, type = cls, shape = 'point',"
            " x = x, y = 0 } end\n"
            "%s\n"
            "return { orientation = 'orthogonal', width = 30, height = 4, tilewidth = 32,"
            " tileheight = 32, layers = %s }\n",
         pre, layers);
}

static void expect_refused(const sbuf *s, const char *want) {
  expect_error_len(s->p, s->n, want);
}

/* One group listed 4 times at each of 16 levels: 4^16 layers walked before
** the layer budget; within it, a group listed several times loads. */
static void test_hostile_nested_groups(void **state) {
  (void)state;
  sbuf s = {0};
  hostile(&s, "local g = { type = 'objectgroup', objects = {} }\n"
              "for i = 1, 16 do g = { type = 'group', layers = { g, g, g, g } } end",
          "{ g, { type = 'objectgroup', objects = { path(1), pt(2, 'spawn', 0),"
          " pt(3, 'goal', 640) } } }");
  expect_refused(&s, "the map lists more than 4096 layers (a group's layers count each time "
                     "the group is listed; the loader's limit)");
  /* 4^5 + 4^4 + ... + 4 = 1364 layers: fine */
  hostile(&s, "local g = { type = 'objectgroup', objects = {} }\n"
              "for i = 1, 5 do g = { type = 'group', layers = { g, g, g, g } } end",
          "{ g, { type = 'objectgroup', objects = { path(1), pt(2, 'spawn', 0),"
          " pt(3, 'goal', 640) } } }");
  td_map m;
  td_err err = {{0}};
  if (td_mapfile_load_buffer(NAME, s.p, s.n, &m, &err) != 0) fail_msg("%s", err.msg);
  td_map_free(&m);
  /* a group of td objects listed twice lists each object twice */
  hostile(&s, "local g = { type = 'group', name = 'twice', layers = {"
              " { type = 'objectgroup', name = 'o', objects = { path(1), pt(2, 'spawn', 0) } } } }",
          "{ g, g, { type = 'objectgroup', name = 'end', objects = { pt(3, 'goal', 640) } } }");
  expect_refused(&s, "maps/t.lua: object 1 (path) in layer 'o' (objects[1]) has the same id as "
                     "object 1 (path) in layer 'o' (objects[1]); object ids must be unique");
  free(s.p);
}

/* One 1000x1000 tile layer listed 200 times: refused by the cell budget at
** the 17th; listed a few times, it is shared, not copied. */
static void test_hostile_repeated_layer(void **state) {
  (void)state;
  sbuf s = {0};
  s.n = 0;
  sb_add(&s, "local d = {} for i = 1, 1000000 do d[i] = 0 end\n"
             "local l = { type = 'tilelayer', width = 1000, height = 1000, encoding = 'lua',"
             " data = d }\n"
             "local ls = {} for i = 1, 200 do ls[i] = l end\n"
             "ls[201] = { type = 'objectgroup', objects = {"
             " { id = 1, type = 'path', shape = 'polyline', x = 0, y = 0,"
             "   polyline = { { x = 0, y = 0 }, { x = 64, y = 0 } } },"
             " { id = 2, type = 'spawn', shape = 'point', x = 0, y = 0 },"
             " { id = 3, type = 'goal', shape = 'point', x = 64, y = 0 } } }\n"
             "return { orientation = 'orthogonal', width = 1000, height = 1000,"
             " tilewidth = 32, tileheight = 32, layers = ls }\n");
  expect_refused(&s, "maps/t.lua: layers[17]: the tile layers have more than 16777216 cells "
                     "in all (the loader's limit)");

  /* three listings of one table, and a fourth layer of its own */
  s.n = 0;
  sb_add(&s, "local d = {} for i = 1, 100 do d[i] = i %% 3 end\n"
             "local l = { type = 'tilelayer', name = 'deco', width = 10, height = 10,"
             " encoding = 'lua', data = d }\n"
             "local e = {} for i = 1, 100 do e[i] = 7 end\n"
             "return { orientation = 'orthogonal', width = 10, height = 10,"
             " tilewidth = 32, tileheight = 32, layers = { l, l,"
             " { type = 'tilelayer', name = 'own', width = 10, height = 10, encoding = 'lua',"
             "   data = e }, l, { type = 'objectgroup', objects = { %s } } } }\n",
         PATH_L OK_POINTS);
  td_map m;
  td_err err = {{0}};
  if (td_mapfile_load_buffer(NAME, s.p, s.n, &m, &err) != 0) fail_msg("%s", err.msg);
  assert_int_equal(m.layer_count, 4);
  assert_false(m.layers[0].shared);
  assert_true(m.layers[1].shared && m.layers[3].shared);
  assert_false(m.layers[2].shared);
  assert_ptr_equal(m.layers[1].gids, m.layers[0].gids);
  assert_ptr_equal(m.layers[3].gids, m.layers[0].gids);
  assert_true(m.layers[2].gids != m.layers[0].gids && m.layers[2].gids[99] == 7);
  assert_int_equal(m.layers[0].gids[4], 2);
  td_map_free(&m); /* the teardown checks that each block was freed once */

  /* a walkable layer listed twice is two walkable layers */
  s.n = 0;
  sb_add(&s, "local d = {} for i = 1, 100 do d[i] = 1 end\n"
             "local l = { type = 'tilelayer', name = 'floor', width = 10, height = 10,"
             " encoding = 'lua', data = d }\n"
             "return { orientation = 'orthogonal', width = 10, height = 10,"
             " tilewidth = 32, tileheight = 32, tilesets = { { firstgid = 1, tiles = {"
             " { id = 0, properties = { walkable = true } } } } }, layers = { l, l,"
             " { type = 'objectgroup', objects = {"
             "  { id = 3, type = 'spawn', shape = 'point', x = 48, y = 48 },"
             "  { id = 4, type = 'goal', shape = 'point', x = 280, y = 280 } } } } }\n");
  expect_refused(&s, "layers 'floor' and 'floor' both use tiles with the 'walkable' property");
  free(s.p);
}

/* 300,000 spawns and goals (one table of each, listed over and over); 1,000
** and 100,000 spawns on one node; the most spawns and goals a map may have. */
static void test_hostile_spawns(void **state) {
  (void)state;
  sbuf s = {0};
  hostile(&s, "local o = { path(1) } local sp, g = pt(2, 'spawn', 0), pt(3, 'goal', 640)\n"
              "for i = 1, 150000 do o[#o + 1] = sp o[#o + 1] = g end",
          "{ { type = 'objectgroup', name = 'crowd', objects = o } }");
  expect_refused(&s, "maps/t.lua: layer 'crowd': the map lists more than 100000 objects "
                     "(the loader's limit)");
  hostile(&s, "local o = { path(1), pt(2, 'goal', 640) }\n"
              "for i = 1, 1000 do o[#o + 1] = pt(2 + i, 'spawn', 0) end",
          "{ { type = 'objectgroup', objects = o } }");
  expect_refused(&s, "maps/t.lua: object 67 (spawn): the map has more than 64 spawns "
                     "(the loader's limit)");
  hostile(&s, "local o = { path(1), pt(2, 'goal', 640) } local sp = pt(3, 'spawn', 0)\n"
              "for i = 1, 100000 do o[#o + 1] = sp end",
          "{ { type = 'objectgroup', objects = o } }");
  expect_refused(&s, "the map lists more than 100000 objects (the loader's limit)");
  hostile(&s, "local o = { path(1), pt(2, 'spawn', 0) }\n"
              "for i = 1, 65 do o[#o + 1] = pt(2 + i, 'goal', 640) end",
          "{ { type = 'objectgroup', objects = o } }");
  expect_refused(&s, "maps/t.lua: object 67 (goal): the map has more than 64 goals");

  /* 64 spawns and 64 goals, each on a node of its own, along one path */
  hostile(&s, "local pl = {} for i = 0, 128 do pl[#pl + 1] = { x = i * 10, y = 0 } end\n"
              "local o = { { id = 1, type = 'path', shape = 'polyline', x = 0, y = 0,"
              " polyline = pl } }\n"
              "for i = 0, 63 do o[#o + 1] = pt(100 + i, 'spawn', i * 10)"
              " o[#o + 1] = pt(200 + i, 'goal', 650 + i * 10) end",
          "{ { type = 'objectgroup', objects = o } }");
  td_map m;
  td_err err = {{0}};
  if (td_mapfile_load_buffer(NAME, s.p, s.n, &m, &err) != 0) fail_msg("%s", err.msg);
  assert_int_equal(m.spawn_count, 64);
  assert_int_equal(m.goal_count, 64);
  assert_int_equal(m.spawns[63].node, 63);
  assert_int_equal(m.goals[0].node, 65);
  td_map_free(&m);
  /* ... and the last goal on the node of the last spawn: named */
  hostile(&s, "local pl = {} for i = 0, 128 do pl[#pl + 1] = { x = i * 10, y = 0 } end\n"
              "local o = { { id = 1, type = 'path', shape = 'polyline', x = 0, y = 0,"
              " polyline = pl } }\n"
              "for i = 0, 63 do o[#o + 1] = pt(100 + i, 'spawn', i * 10)"
              " o[#o + 1] = pt(200 + i, 'goal', i == 63 and 630 or 650 + i * 10) end",
          "{ { type = 'objectgroup', objects = o } }");
  expect_refused(&s, "maps/t.lua: object 163 (spawn): on the same node as object 263 (goal)");
  free(s.p);
}

/* Tilesets listed over and over. */
static void test_hostile_tilesets(void **state) {
  (void)state;
  sbuf s = {0};
  sb_add(&s, "local t = { firstgid = 1, tiles = {} }\n"
             "local ts = {} for i = 1, 1025 do ts[i] = t end\n"
             "return { orientation = 'orthogonal', width = 10, height = 10, tilewidth = 32,"
             " tileheight = 32, tilesets = ts, layers = {} }\n");
  expect_refused(&s, "maps/t.lua: field 'tilesets': 1025 tilesets, more than 1024");
  s.n = 0;
  sb_add(&s, "local e = { id = 0, properties = { walkable = true } }\n"
             "local tl = {} for i = 1, 50001 do tl[i] = e end\n"
             "local t = { name = 'big', firstgid = 1, tiles = tl }\n"
             "return { orientation = 'orthogonal', width = 10, height = 10, tilewidth = 32,"
             " tileheight = 32, tilesets = { t, t }, layers = {} }\n");
  expect_refused(&s, "maps/t.lua: tileset 'big': the tilesets list more than 100000 tiles");
  free(s.p);
}

/* A grid too big for the C budget: refused while its graph is built. */
static void test_hostile_c_bytes(void **state) {
  (void)state;
  sbuf s = {0};
  sb_add(&s, "local N = 1400 local d = {} for i = 1, N * N do d[i] = 1 end\n"
             "return { orientation = 'orthogonal', width = N, height = N, tilewidth = 16,"
             " tileheight = 16, tilesets = { { firstgid = 1, tiles = {"
             " { id = 0, properties = { walkable = true } } } } }, layers = {"
             " { type = 'tilelayer', name = 'ground', width = N, height = N, encoding = 'lua',"
             "   data = d }, { type = 'objectgroup', objects = {"
             " { id = 1, type = 'spawn', shape = 'point', x = 8, y = 8 },"
             " { id = 2, type = 'goal', shape = 'point', x = 16 * N - 8, y = 16 * N - 8 } } } } }\n");
  expect_refused(&s, "maps/t.lua: layer 'ground': its grid of 1400x1400 cells: the map "
                     "needs more than 128 MiB outside Lua (the loader's limit)");
  /* 700x700: the grid fits, the route over it does not (where exactly the
  ** budget runs out depends on the sizes of the graph's and route's arrays) */
  s.n = 0;
  sb_add(&s, "local N = 700 local d = {} for i = 1, N * N do d[i] = 1 end\n"
             "return { orientation = 'orthogonal', width = N, height = N, tilewidth = 16,"
             " tileheight = 16, tilesets = { { firstgid = 1, tiles = {"
             " { id = 0, properties = { walkable = true } } } } }, layers = {"
             " { type = 'tilelayer', name = 'ground', width = N, height = N, encoding = 'lua',"
             "   data = d }, { type = 'objectgroup', objects = {"
             " { id = 1, type = 'spawn', shape = 'point', x = 8, y = 8 },"
             " { id = 2, type = 'goal', shape = 'point', x = 16 * N - 8, y = 16 * N - 8 } } } } }\n");
  expect_refused(&s, "the map needs more than 128 MiB outside Lua (the loader's limit)");
  free(s.p);
}

/* Object ids are unique among td's objects; a duplicate names both. */
static void test_duplicate_ids(void **state) {
  (void)state;
  expect_error(waypoint_map(PATH_L OK_POINTS
                            "{ id = 5, type = 'tower_base', shape = 'rectangle', x = 90,"
                            "  y = 40, width = 20, height = 20 },\n"
                            "{ id = 5, type = 'tower_base', shape = 'rectangle', x = 40,"
                            "  y = -10, width = 20, height = 20 },\n"),
               "maps/t.lua: object 5 (tower_base) in layer 'objects' (objects[5]) has the same "
               "id as object 5 (tower_base) in layer 'objects' (objects[4]); object ids must "
               "be unique");
  /* across classes and layers; the first duplicate in file order is named */
  expect_error("return { orientation = 'orthogonal', width = 10, height = 10, tilewidth = 32,"
               " tileheight = 32, layers = {"
               " { type = 'objectgroup', objects = { " PATH_L OK_POINTS " } },"
               " { type = 'objectgroup', name = 'b', objects = {"
               "   { id = 9, type = 'note', x = 0, y = 0 },"
               "   { id = 4, type = 'tower_base', shape = 'rectangle', x = 90, y = 40,"
               "     width = 20, height = 20 },"
               "   { id = 1, type = 'tower_base', shape = 'rectangle', x = 40, y = -10,"
               "     width = 20, height = 20 } } } } }",
               "object 4 (tower_base) in layer 'b' (objects[2]) has the same id as object 4 "
               "(goal) in layers[1] (objects[3])");
  /* ids of other objects (decoration) are not td's business */
  td_map m;
  load_ok(waypoint_map(PATH_L OK_POINTS "{ id = 3, type = 'note', x = 0, y = 0 },\n"
                                        "{ id = 3, x = 0, y = 0 },\n"),
          &m);
  td_map_free(&m);
}

/* ---- the sandbox itself -------------------------------------------------- */

static int c_pcall(lua_State *L) {
  int st = lua_pcall(L, lua_gettop(L) - 1, 0, 0);
  lua_pushboolean(L, st == LUA_OK);
  return 1;
}

static int give_env(lua_State *L) {
  lua_newtable(L);
  lua_pushcfunction(L, c_pcall);
  lua_setfield(L, -2, "pcall");
  return 1;
}

static void test_sandbox_sticky_limit(void **state) {
  (void)state;
  td_err err = {{0}};
  td_lsandbox_limits lim = {.memory = 1 << 20, .instructions = 100000};
  td_lsandbox *sb = td_lsandbox_create(&lim, &err);
  assert_non_null(sb);
  lua_State *L = td_lsandbox_state(sb);
  assert_int_equal(td_lsandbox_call(sb, "env", give_env, NULL, 0, 1, &err), 0);
  int top = lua_gettop(L);
  assert_int_equal(top, 1);
  /* a script that catches the limit error and carries on still fails */
  const char *src = "local n = 0\n"
                    "for i = 1, 100 do n = n + 1; pcall(function() while true do end end) end\n"
                    "return n";
  assert_int_equal(td_lsandbox_run(sb, "mod.lua", src, strlen(src), 1, &err), -1);
  assert_string_equal(err.msg, "mod.lua: instruction limit exceeded");
  assert_int_equal(lua_gettop(L), top);
  /* pcall still works for ordinary errors, and the next run starts afresh */
  src = "local ok = pcall(function() local x = nil; return x.y end) return ok";
  assert_int_equal(td_lsandbox_run(sb, "mod.lua", src, strlen(src), 1, &err), 0);
  assert_int_equal(lua_gettop(L), top + 1);
  assert_int_equal(lua_type(L, -1), LUA_TBOOLEAN);
  assert_false(lua_toboolean(L, -1));
  lua_pop(L, 1);
  /* a memory error caught by pcall does not fail the run */
  src = "local ok = pcall(function() local s = 'x' for i = 1, 30 do s = s .. s end end)"
        " return ok";
  assert_int_equal(td_lsandbox_run(sb, "mod.lua", src, strlen(src), 1, &err), 0);
  assert_false(lua_toboolean(L, -1));
  lua_pop(L, 1);
  assert_true(td_lsandbox_memory(sb) <= (1 << 20));
  assert_true(td_lsandbox_memory_peak(sb) <= (1 << 20));
  lua_pop(L, 1);
  td_lsandbox_destroy(sb);
}

static void test_sandbox_messages(void **state) {
  (void)state;
  td_err err = {{0}};
  td_lsandbox *sb = td_lsandbox_create(NULL, &err);
  assert_non_null(sb);
  lua_State *L = td_lsandbox_state(sb);
  /* names past LUA_IDSIZE come back whole */
  char name[200];
  memset(name, 'd', sizeof name);
  memcpy(name + 150, "/long.lua", 10);
  const char *src = "local x = 1\nlocal y = x.z";
  assert_int_equal(td_lsandbox_run(sb, name, src, strlen(src), 0, &err), -1);
  char want[300];
  snprintf(want, sizeof want, "%s:2: attempt to index a number value (local 'x')", name);
  assert_string_equal(err.msg, want);
  assert_int_equal(lua_gettop(L), 0);
  /* a message with a newline stays on one line */
  src = "return {\n'unfinished\n}";
  assert_int_equal(td_lsandbox_run(sb, "a.lua", src, strlen(src), 0, &err), -1);
  assert_null(strchr(err.msg, '\n'));
  assert_non_null(strstr(err.msg, "a.lua:2: unfinished string"));
  /* results come back on the stack; the environment starts empty each run */
  src = "x = 5 return x";
  assert_int_equal(td_lsandbox_run(sb, "a.lua", src, strlen(src), 0, &err), 0);
  assert_int_equal(lua_tointeger(L, -1), 5);
  lua_pop(L, 1);
  src = "return x";
  assert_int_equal(td_lsandbox_run(sb, "a.lua", src, strlen(src), 0, &err), 0);
  assert_int_equal(lua_type(L, -1), LUA_TNIL);
  lua_pop(L, 1);
  assert_true(td_lsandbox_instructions(sb) < 10 * TD_LSANDBOX_HOOK_STEP);
  assert_int_equal(lua_gettop(L), 0);
  td_lsandbox_destroy(sb);
  /* a cap too small for a state */
  td_lsandbox_limits tiny = {.memory = 64};
  assert_null(td_lsandbox_create(&tiny, &err));
  assert_string_equal(err.msg, "lua sandbox: memory limit too small for a Lua state");
}

/* ---- allocation failure sweep -------------------------------------------- */

/* Fails each allocation of a load in turn (every stride-th, to bound the
** time): each load must fail cleanly or succeed, and leave no block live. */
static void sweep(const char *path, long stride) {
  cnt.fail_at = 0;
  long before = cnt.calls;
  td_map m;
  td_err err = {{0}};
  if (td_mapfile_load(path, &m, &err) != 0) fail_msg("%s", err.msg);
  td_map_free(&m);
  long total = cnt.calls - before;
  assert_true(total > 10);
  print_message("%s: failing each of %ld allocations (stride %ld)\n",
                strrchr(path, '/') + 1, total, stride);
  for (long k = 1; k <= total; k += stride) {
    cnt.calls = 0;
    cnt.fail_at = k;
    long live = cnt.live_blocks;
    int rc = td_mapfile_load(path, &m, &err);
    if (rc == 0) td_map_free(&m);
    else assert_true(map_is_zero(&m));
    if (cnt.live_blocks != live || cnt.bad_sizes != 0)
      fail_msg("allocation %ld of %ld failed (rc %d, \"%s\"): %ld blocks leaked, %ld size "
               "mismatches",
               k, total, rc, rc ? err.msg : "", cnt.live_blocks - live, cnt.bad_sizes);
  }
  cnt.fail_at = 0;
}

static void test_alloc_failures(void **state) {
  (void)state;
  sweep(td_test_path("maps/01-crossroads.tmx"), 1);
  sweep(td_test_path("maps/02-grid.tmx"), 1);
}

/* ---- mutations: no input crashes or leaks --------------------------------- */

static char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) fail_msg("cannot open %s", path);
  sbuf s = {0};
  char chunk[4096];
  size_t got;
  while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
    if (s.n + got + 1 > s.cap) {
      s.cap = (s.n + got + 1) * 2;
      s.p = realloc(s.p, s.cap);
      assert_non_null(s.p);
    }
    memcpy(s.p + s.n, chunk, got);
    s.n += got;
  }
  fclose(f);
  *len = s.n;
  return s.p;
}

/* Deterministic random edits of the bundled maps: swapped characters,
** tokens that change types and values, cut files. Each load must succeed
** or fail with a one-line message naming the file, and leak nothing.
** TD_MAPFILE_MUTATIONS=n runs more (a poor man's fuzzer). */
static void test_mutations(void **state) {
  (void)state;
  static const char *const tokens[] = {
      "0",  "-1", "0/0", "1e308", "{}", "}", "{", "\"", "nil", "true", "\"point\"",
      "\"path\"", "\"polygon\"", "\"rectangle\"", "\"tower_base\"", "\"spawn\"", ",",
      "=", "0.25", "2147483648", "-2147483649", "4294967296", "\"tilelayer\"", "\"group\"",
      "x", "y", "id", "\n"};
  const char *names[2] = {"maps/01-crossroads.tmx", "maps/02-grid.tmx"};
  const char *env = getenv("TD_MAPFILE_MUTATIONS");
  long rounds = env ? atol(env) : 300;
  td_test_rng rng = {42};
  long loaded = 0;
  for (int f = 0; f < 2; f++) {
    size_t len;
    char *orig = read_all(td_test_path(names[f]), &len);
    char *buf = malloc(len + 64 * 32);
    assert_non_null(buf);
    for (long r = 0; r < rounds; r++) {
      memcpy(buf, orig, len);
      size_t n = len;
      int edits = 1 + (int)td_test_below(&rng, 3);
      for (int e = 0; e < edits; e++) {
        size_t at = td_test_below(&rng, (uint32_t)n);
        switch (td_test_below(&rng, 4)) {
        case 0: /* overwrite a character */
          buf[at] = "{}=,.\"-0123456789xyz \n"[td_test_below(&rng, 23)];
          break;
        case 1: { /* replace the word at `at` by a token */
          const char *t = tokens[td_test_below(&rng, sizeof tokens / sizeof *tokens)];
          size_t tl = strlen(t), end = at;
          while (end < n && end - at < 12 &&
                 (buf[end] == '.' || buf[end] == '_' || (buf[end] >= '0' && buf[end] <= '9') ||
                  (buf[end] >= 'a' && buf[end] <= 'z')))
            end++;
          memmove(buf + at + tl, buf + end, n - end);
          memcpy(buf + at, t, tl);
          n = n - (end - at) + tl;
          break;
        }
        case 2: /* delete a run */
          if (at + 8 < n) {
            memmove(buf + at, buf + at + 8, n - at - 8);
            n -= 8;
          }
          break;
        default: /* cut the file */
          n = at;
          break;
        }
        if (n == 0) break;
      }
      td_map m;
      td_err err = {{0}};
      if (td_mapfile_load_buffer(names[f], buf, n, &m, &err) == 0) {
        loaded++;
        assert_non_null(m.graph);
        assert_true(m.spawn_count > 0 && m.goal_count > 0);
        td_map_free(&m);
      } else {
        assert_true(map_is_zero(&m));
        assert_null(strchr(err.msg, '\n'));
        if (strncmp(err.msg, names[f], strlen(names[f])) != 0)
          fail_msg("message does not name the file: %s", err.msg);
      }
      if (cnt.live_blocks != 0) fail_msg("leak after mutation %ld of %s", r, names[f]);
      if (cnt.bad_sizes != 0) fail_msg("size mismatch after mutation %ld of %s", r, names[f]);
    }
    free(buf);
    free(orig);
  }
  print_message("%ld of %ld mutated maps still load\n", loaded, 2 * rounds);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_crossroads, setup, teardown),
      cmocka_unit_test_setup_teardown(test_grid_map, setup, teardown),
      cmocka_unit_test_setup_teardown(test_merge_across_polylines, setup, teardown),
      cmocka_unit_test_setup_teardown(test_merge_within_polyline, setup, teardown),
      cmocka_unit_test_setup_teardown(test_duplicate_edge_smaller_cost, setup, teardown),
      cmocka_unit_test_setup_teardown(test_cost_and_polygon, setup, teardown),
      cmocka_unit_test_setup_teardown(test_road_width, setup, teardown),
      cmocka_unit_test_setup_teardown(test_duplicate_edge_larger_width, setup, teardown),
      cmocka_unit_test_setup_teardown(test_bad_road_width, setup, teardown),
      cmocka_unit_test_setup_teardown(test_grid_has_no_road_width, setup, teardown),
      cmocka_unit_test_setup_teardown(test_bundled_road_widths, setup, teardown),
      cmocka_unit_test_setup_teardown(test_menu_properties, setup, teardown),
      cmocka_unit_test_setup_teardown(test_segment_inside_and_corner_base, setup, teardown),
      cmocka_unit_test_setup_teardown(test_pads, setup, teardown),
      cmocka_unit_test_setup_teardown(test_grid_basics, setup, teardown),
      cmocka_unit_test_setup_teardown(test_groups_offsets_tile_objects, setup, teardown),
      cmocka_unit_test_setup_teardown(test_big_waypoint_map, setup, teardown),
      cmocka_unit_test_setup_teardown(test_big_grid_map, setup, teardown),
      cmocka_unit_test_setup_teardown(test_bad_lua, setup, teardown),
      cmocka_unit_test_setup_teardown(test_binary_chunk_refused, setup, teardown),
      cmocka_unit_test_setup_teardown(test_bad_header, setup, teardown),
      cmocka_unit_test_setup_teardown(test_bad_objects, setup, teardown),
      cmocka_unit_test_setup_teardown(test_bad_cost, setup, teardown),
      cmocka_unit_test_setup_teardown(test_bad_bases, setup, teardown),
      cmocka_unit_test_setup_teardown(test_bad_grid, setup, teardown),
      cmocka_unit_test_setup_teardown(test_missing_file, setup, teardown),
      cmocka_unit_test_setup_teardown(test_data_files, setup, teardown),
      cmocka_unit_test_setup_teardown(test_bases_near_edges, setup, teardown),
      cmocka_unit_test_setup_teardown(test_hostile_nested_groups, setup, teardown),
      cmocka_unit_test_setup_teardown(test_hostile_repeated_layer, setup, teardown),
      cmocka_unit_test_setup_teardown(test_hostile_spawns, setup, teardown),
      cmocka_unit_test_setup_teardown(test_hostile_tilesets, setup, teardown),
      cmocka_unit_test_setup_teardown(test_hostile_c_bytes, setup, teardown),
      cmocka_unit_test_setup_teardown(test_duplicate_ids, setup, teardown),
      cmocka_unit_test_setup_teardown(test_sandbox_sticky_limit, setup, teardown),
      cmocka_unit_test_setup_teardown(test_sandbox_messages, setup, teardown),
      cmocka_unit_test_setup_teardown(test_alloc_failures, setup, teardown),
      cmocka_unit_test_setup_teardown(test_mutations, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
