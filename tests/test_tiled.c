/*
** test_tiled.c: Tiled's own map files (.tmx, .tmj) read by the map loader
** (script/mapfile.h): each fixture of tests/data/maps/tiled loads to the
** very map its Lua export (way.lua, grid.lua) loads to (nodes, edges, road
** widths, spawns, goals, bases, paths, layers and the route's distances),
** in every tile data encoding, with external tilesets and templates; bad
** files are refused with one line naming the file and what is wrong; no
** td_mem block outlives a test, also when each allocation fails in turn.
*/
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nav/route.h"
#include "script/mapfile.h"

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
  if (cnt.live_blocks != 0 || cnt.live_bytes != 0 || cnt.bad_sizes != 0) {
    print_error("leak: %ld blocks, %lld bytes; %ld wrong sizes\n", cnt.live_blocks,
                cnt.live_bytes, cnt.bad_sizes);
    return -1;
  }
  return 0;
}

/* ---- helpers ------------------------------------------------------------- */

static char dir[1024];

static const char *fixture(const char *name) {
  static char buf[4][1200];
  static int k;
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "%s/%s", td_test_path("tests/data/maps/tiled"), name);
  return buf[k];
}

static void load_ok(const char *path, td_map *m) {
  td_err err = {{0}};
  if (td_mapfile_load(path, m, &err) != 0) fail_msg("%s", err.msg);
}

static bool map_is_zero(const td_map *m) {
  const unsigned char *p = (const unsigned char *)m;
  for (size_t i = 0; i < sizeof *m; i++)
    if (p[i]) return false;
  return true;
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) fail_msg("cannot open %s", path);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *p = malloc((size_t)n + 1);
  assert_non_null(p);
  assert_int_equal(fread(p, 1, (size_t)n, f), (size_t)n);
  p[n] = '\0';
  fclose(f);
  *len = (size_t)n;
  return p;
}

/* The same text with the first `from` replaced by `to` (malloc). */
static char *edit(const char *src, const char *from, const char *to) {
  const char *at = strstr(src, from);
  if (!at) fail_msg("'%s' is not in the fixture", from);
  size_t a = (size_t)(at - src), n = strlen(src) + strlen(to) + 1;
  char *out = malloc(n);
  assert_non_null(out);
  snprintf(out, n, "%.*s%s%s", (int)a, src, to, at + strlen(from));
  return out;
}

/* Loading name (content src) fails with a message of one line that names
** name and contains want; the map is left zeroed. */
static void expect_error(const char *name, const char *src, size_t len, const char *want) {
  td_map m;
  td_err err = {{0}};
  if (td_mapfile_load_buffer(name, src, len, &m, &err) == 0) {
    td_map_free(&m);
    fail_msg("%s loaded, expected an error containing \"%s\"", name, want);
  }
  if (!strstr(err.msg, want)) fail_msg("error \"%s\" lacks \"%s\"", err.msg, want);
  if (strncmp(err.msg, name, strlen(name)) != 0) fail_msg("error \"%s\" does not start with the file", err.msg);
  assert_null(strchr(err.msg, '\n'));
  assert_true(map_is_zero(&m));
}

static void expect_str_error(const char *name, const char *src, const char *want) {
  expect_error(name, src, strlen(src), want);
}

static void expect_file_error(const char *file, const char *want) {
  size_t len;
  char *src = slurp(fixture(file), &len);
  expect_error(fixture(file), src, len, want);
  free(src);
}

static void expect_edit_error(const char *file, const char *from, const char *to,
                              const char *want) {
  size_t len;
  char *src = slurp(fixture(file), &len);
  char *bad = edit(src, from, to);
  expect_str_error(fixture(file), bad, want);
  free(bad);
  free(src);
}

/* The route's distances of a map, in a malloc'd array. */
static td_cost *dists(const td_map *m) {
  int32_t goals[64];
  assert_true(m->goal_count <= 64);
  td_map_goal_nodes(m, goals);
  td_err err;
  td_route *r = td_route_create(m->graph, goals, m->goal_count, &err);
  if (!r) fail_msg("%s", err.msg);
  size_t n = (size_t)m->graph->node_count;
  td_cost *d = malloc(n * sizeof *d);
  assert_non_null(d);
  memcpy(d, td_route_dist(r), n * sizeof *d);
  td_route_destroy(r);
  return d;
}

/* Everything the loader builds is the same in a and b (but the source). */
static void assert_same_map(const td_map *a, const td_map *b) {
  assert_string_equal(a->title, b->title);
  assert_string_equal(a->description, b->description);
  assert_int_equal(a->order, b->order);
  assert_int_equal(a->width, b->width);
  assert_int_equal(a->height, b->height);
  assert_int_equal(a->tile_w, b->tile_w);
  assert_int_equal(a->tile_h, b->tile_h);
  const td_graph *ga = a->graph, *gb = b->graph;
  assert_int_equal(ga->node_count, gb->node_count);
  assert_int_equal(ga->edge_count, gb->edge_count);
  for (int32_t n = 0; n < ga->node_count; n++) {
    assert_true(ga->x[n] == gb->x[n]);
    assert_true(ga->y[n] == gb->y[n]);
  }
  for (int32_t e = 0; e < ga->edge_count; e++) {
    assert_int_equal(ga->edges[e].a, gb->edges[e].a);
    assert_int_equal(ga->edges[e].b, gb->edges[e].b);
    assert_true(ga->edges[e].factor == gb->edges[e].factor);
    assert_int_equal(ga->edges[e].blocked, gb->edges[e].blocked);
  }
  assert_int_equal(a->road_width != NULL, b->road_width != NULL);
  for (int32_t e = 0; a->road_width && e < ga->edge_count; e++)
    assert_true(a->road_width[e] == b->road_width[e]);
  assert_int_equal(a->grid != NULL, b->grid != NULL);
  assert_int_equal(a->spawn_count, b->spawn_count);
  assert_int_equal(a->goal_count, b->goal_count);
  for (size_t i = 0; i < a->spawn_count; i++) {
    assert_int_equal(a->spawns[i].node, b->spawns[i].node);
    assert_int_equal(a->spawns[i].object_id, b->spawns[i].object_id);
    assert_string_equal(a->spawns[i].name, b->spawns[i].name);
  }
  for (size_t i = 0; i < a->goal_count; i++) {
    assert_int_equal(a->goals[i].node, b->goals[i].node);
    assert_int_equal(a->goals[i].object_id, b->goals[i].object_id);
    assert_string_equal(a->goals[i].name, b->goals[i].name);
  }
  assert_int_equal(a->base_count, b->base_count);
  for (size_t i = 0; i < a->base_count; i++) {
    const td_tower_base *x = &a->bases[i], *y = &b->bases[i];
    assert_int_equal(x->object_id, y->object_id);
    assert_string_equal(x->name, y->name);
    assert_true(x->x == y->x && x->y == y->y && x->w == y->w && x->h == y->h);
    assert_int_equal(x->block_count, y->block_count);
    for (size_t k = 0; k < x->block_count; k++) {
      assert_int_equal(x->block[k].kind, y->block[k].kind);
      assert_int_equal(x->block[k].id, y->block[k].id);
    }
  }
  assert_int_equal(a->path_count, b->path_count);
  for (size_t i = 0; i < a->path_count; i++) {
    assert_int_equal(a->paths[i].object_id, b->paths[i].object_id);
    assert_int_equal(a->paths[i].edge_count, b->paths[i].edge_count);
    assert_memory_equal(a->paths[i].edges, b->paths[i].edges,
                        a->paths[i].edge_count * sizeof *a->paths[i].edges);
  }
  assert_int_equal(a->layer_count, b->layer_count);
  for (size_t i = 0; i < a->layer_count; i++) {
    assert_string_equal(a->layers[i].name, b->layers[i].name);
    assert_int_equal(a->layers[i].width, b->layers[i].width);
    assert_int_equal(a->layers[i].height, b->layers[i].height);
    assert_int_equal(a->layers[i].walkable, b->layers[i].walkable);
    assert_memory_equal(a->layers[i].gids, b->layers[i].gids,
                        (size_t)a->layers[i].width * (size_t)a->layers[i].height * 4);
  }
  td_cost *da = dists(a), *db = dists(b);
  assert_memory_equal(da, db, (size_t)ga->node_count * sizeof *da);
  free(da);
  free(db);
}

/* Each file loads to the map ref (a Lua export) loads to. */
static void same_as(const char *ref, const char *const *files, size_t n) {
  td_map want;
  load_ok(fixture(ref), &want);
  assert_int_equal(want.deps_hash, 0);
  for (size_t i = 0; i < n; i++) {
    td_map got;
    print_message("%s against %s\n", files[i], ref);
    load_ok(fixture(files[i]), &got);
    assert_same_map(&want, &got);
    /* only the files that name external ones have their hash */
    bool ext = strstr(files[i], "-tpl") || strstr(files[i], "-ext");
    assert_int_equal(got.deps_hash != 0, ext);
    td_map_free(&got);
  }
  td_map_free(&want);
}

/* ---- same maps ------------------------------------------------------------- */

static void test_waypoint_map(void **state) {
  (void)state;
  static const char *const files[] = {"way.tmx", "way.tmj"};
  same_as("way.lua", files, 2);
  /* what the reference holds, so that the comparison compares something */
  td_map m;
  load_ok(fixture("way.tmx"), &m);
  assert_string_equal(m.title, "Two roads");
  assert_int_equal(m.order, 7);
  assert_int_equal(m.graph->node_count, 4);
  assert_int_equal(m.path_count, 2);
  assert_int_equal(m.base_count, 2);
  assert_int_equal(m.bases[0].block_count, 3); /* b1 at the fork: three road edges */
  assert_int_equal(m.bases[1].block_count, 0); /* pad: blocking = false */
  assert_true(m.graph->edges[0].factor == 1.5);
  assert_true(m.road_width[0] == 40.0f); /* the map's road_width */
  assert_true(m.road_width[m.graph->edge_count - 1] == 24.0f); /* short's own */
  td_map_free(&m);
}

static void test_grid_encodings(void **state) {
  (void)state;
  static const char *const files[] = {"grid-csv.tmx", "grid-base64.tmx", "grid-zlib.tmx",
                                      "grid-gzip.tmx", "grid-zstd.tmx", "grid.tmj",
                                      "grid-zlib.lua"}; /* a Lua export in base64 */
  same_as("grid.lua", files, sizeof files / sizeof *files);
  td_map m;
  load_ok(fixture("grid-zstd.tmx"), &m);
  assert_non_null(m.grid);
  assert_int_equal(m.layers[0].gids[3 * 8 + 1], 0x80000001u); /* the flip flag kept */
  assert_int_equal(m.bases[0].block_count > 0, 1);
  td_map_free(&m);
}

static void test_external_tilesets(void **state) {
  (void)state;
  static const char *const files[] = {"grid-ext.tmx", "grid-ext.tmj"};
  same_as("grid.lua", files, 2);
  td_map x, j;
  load_ok(fixture("grid-ext.tmx"), &x);
  load_ok(fixture("grid-ext.tmj"), &j);
  assert_true(x.deps_hash != j.deps_hash); /* floor.tsx and floor.tsj differ */
  td_map_free(&x);
  td_map_free(&j);
}

static void test_templates(void **state) {
  (void)state;
  /* the spawn and both bases come from tpl/spawn.tx and tpl/base.tx (.tj); pad overrides
  ** its template's blocking = true, b1 keeps it; the tileset is external */
  static const char *const files[] = {"way-tpl.tmx", "way-tpl.tmj"};
  same_as("way.lua", files, 2);
}

/* A map in memory names its external files relative to its name's folder,
** and the options allow more roots. */
static void test_roots(void **state) {
  (void)state;
  size_t len;
  char *src = slurp(fixture("bad/outside.tmx"), &len);
  td_map m;
  td_err err = {{0}};
  assert_int_equal(td_mapfile_load_buffer(fixture("bad/outside.tmx"), src, len, &m, &err), -1);
  assert_non_null(strstr(err.msg, "tileset '../floor.tsx' is outside the map's folder"));
  const char *roots[] = {dir};
  td_mapfile_options o = {.roots = roots, .root_count = 1};
  snprintf(dir, sizeof dir, "%s", td_test_path("tests/data/maps/tiled"));
  if (td_mapfile_load_buffer_opts(fixture("bad/outside.tmx"), src, len, &o, &m, &err) != 0)
    fail_msg("%s", err.msg);
  assert_non_null(m.grid);
  td_map_free(&m);
  assert_int_equal(td_mapfile_load_opts(fixture("bad/outside.tmx"), &o, &m, &err), 0);
  td_map_free(&m);
  free(src);
}

/* ---- bad files ----------------------------------------------------------- */

static void test_sniffing(void **state) {
  (void)state;
  expect_str_error("maps/x.lua", "\n  <?xml version=\"1.0\"?><map/>",
                   "maps/x.lua: looks like a Tiled XML map (.tmx), but the name ends in .lua: "
                   "rename it");
  expect_str_error("maps/x.lua", "{\"type\": \"map\"}",
                   "maps/x.lua: looks like a Tiled JSON map (.tmj), but the name ends in .lua");
  expect_str_error("maps/x.tmx", "return {}",
                   "maps/x.tmx: the name ends in .tmx, but the file does not start with '<' as a "
                   "Tiled XML map (.tmx) does");
  expect_str_error("maps/x.tmx", "{}", "maps/x.tmx: looks like a Tiled JSON map (.tmj), but the "
                   "name ends in .tmx: rename it");
  expect_str_error("maps/x.tmj", "<map/>", "maps/x.tmj: looks like a Tiled XML map (.tmx), but "
                   "the name ends in .tmj: rename it");
  expect_str_error("maps/x.json", "return {}", "maps/x.json: the name ends in .json, but the "
                   "file does not start with '{'");
  expect_str_error("maps/x.tmx", "  \n", "maps/x.tmx: the file is empty");
  /* no known extension: the content decides */
  size_t len;
  char *src = slurp(fixture("way.tmx"), &len);
  td_map m;
  td_err err = {{0}};
  if (td_mapfile_load_buffer("maps/way.map", src, len, &m, &err) != 0) fail_msg("%s", err.msg);
  td_map_free(&m);
  free(src);
  expect_str_error("maps/x.map", "<map", "maps/x.map:1: unclosed token");
  expect_str_error("maps/x.map", "return 1", "maps/x.map: the file must return a table");
  expect_str_error("maps/x.tmx", "\xEF\xBB\xBF<map orientation=\"orthogonal\"/>",
                   "maps/x.tmx: field 'width' is missing (expected an integer)");
}

static void test_bad_xml(void **state) {
  (void)state;
  expect_str_error("maps/x.tmx", "<?xml version=\"1.0\"?>\n<map>\n <layer>\n</map>\n",
                   "maps/x.tmx:4: mismatched tag");
  expect_str_error("maps/x.tmx", "<map>\n\n <a b=\"1\" b=\"2\"/></map>",
                   "maps/x.tmx:3: duplicate attribute");
  expect_str_error("maps/x.tmx", "<tileset name=\"t\"/>",
                   "maps/x.tmx: the root element is <tileset>, expected <map>");
  /* no entity can be declared (billion laughs, external entities) */
  expect_str_error("maps/x.tmx",
                   "<?xml version=\"1.0\"?>\n<!DOCTYPE map [<!ENTITY a \"aaaaaaaa\">\n"
                   "<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;\">]>\n<map name=\"&b;\"/>",
                   "maps/x.tmx:2: a document type declaration (<!DOCTYPE>) is not allowed");
  expect_str_error("maps/x.tmx", "<map>&undefined;</map>", "maps/x.tmx:1: undefined entity");
  /* elements nested without end */
  char deep[4096] = "<map>";
  for (int i = 0; i < 100; i++) strcat(deep, "<g>");
  expect_str_error("maps/x.tmx", deep, "maps/x.tmx:1: elements nested deeper than 64");
}

static void test_bad_json(void **state) {
  (void)state;
  expect_str_error("maps/x.tmj", "{\n  \"width\": 3,\n  oops }",
                   "maps/x.tmj:3: JSON syntax error near 'oops }'");
  expect_str_error("maps/x.tmj", "{\"width\": 3", "maps/x.tmj:1: JSON syntax error");
  expect_str_error("maps/x.tmj", "{} {}", "maps/x.tmj:1: JSON syntax error near '{}'");
  expect_str_error("maps/x.tmj", "{\"orientation\": \"orthogonal\", \"width\": \"ten\"}",
                   "maps/x.tmj: field 'width': expected an integer, got string");
  expect_str_error("maps/x.tmj", "{\"orientation\": \"isometric\"}",
                   "maps/x.tmj: orientation 'isometric' is not supported (only orthogonal maps)");
  expect_edit_error("way.tmj", "\"layers\": [", "\"layers\": 7, \"x\": [",
                    "field 'layers': expected an array");
  expect_edit_error("way.tmj", "{ \"name\": \"order\",", "{ \"nam\": \"order\",",
                    "map: properties[1]: field 'name' is missing (expected a string)");
  expect_edit_error("way.tmj", "\"id\": 3, \"name\": \"west\", \"type\": \"spawn\", \"x\": 16,",
                    "\"id\": 3, \"name\": \"west\", \"type\": \"spawn\",",
                    "way.tmj: object 3 (spawn): field 'x' is missing (expected a number)");
  expect_edit_error("way.tmj", "2, 2, 2, 2, 2, 1,", "2, 2, 2, 2, 2, -1,",
                    "layer 'ground': data[16]: expected a tile gid");
  expect_edit_error("way.tmj", "\"name\": \"ground\", \"width\": 10,",
                    "\"name\": \"ground\", \"chunks\": [], \"width\": 10,",
                    "layer 'ground': chunks (infinite maps) are not supported");
}

/* The fields phase 1 checks: the same messages as a Lua export's. */
static void test_missing_fields(void **state) {
  (void)state;
  expect_edit_error("way.tmx", "name=\"west\" type=\"spawn\" x=\"16\"", "name=\"west\" type=\"spawn\"",
                    "way.tmx: object 3 (spawn): field 'x' is missing (expected a number)");
  expect_edit_error("way.tmx", "name=\"b1\" type=\"tower_base\" x=\"112\" y=\"32\" width=\"32\"",
                    "name=\"b1\" type=\"tower_base\" x=\"112\" y=\"32\" width=\"0\"",
                    "way.tmx: object 5 (tower_base): a tower_base needs a positive width and "
                    "height, has 0x32");
  expect_edit_error("way.tmx", "<object id=\"4\"", "<object",
                    "way.tmx: layer 'roads': objects[4]: field 'id' is missing");
  expect_edit_error("way.tmx", "x=\"16\" y=\"48\">\n   <properties>", "x=\"16\" y=\"4x8\">\n   <properties>",
                    "object 1 (path): field 'y': expected a number, got string");
  expect_edit_error("way.tmx", "points=\"0,0 160,160\"", "points=\"0,0 160;160\"",
                    "way.tmx: object 2: points: '160;160' is not x,y");
  expect_edit_error("way.tmx", "value=\"1.5\"", "value=\"cheap\"",
                    "object 1 (path): property 'cost': expected a number, got string");
  expect_edit_error("way.tmx", "type=\"bool\" value=\"false\"", "type=\"bool\" value=\"no\"",
                    "object 6 (tower_base): property 'blocking': expected a boolean, got string");
  expect_edit_error("way.tmx", "<property name=\"order\"", "<property",
                    "way.tmx: map: line 5: a <property> without a name");
  expect_edit_error("way.tmx", "width=\"10\" height=\"8\" tilewidth", "width=\"10\" tilewidth",
                    "way.tmx: field 'height' is missing (expected an integer)");
  expect_edit_error("way.tmx", "orientation=\"orthogonal\"", "orientation=\"hexagonal\"",
                    "orientation 'hexagonal' is not supported");
  expect_edit_error("way.tmx", "infinite=\"0\"", "infinite=\"1\"",
                    "way.tmx: infinite maps are not supported");
  expect_edit_error("way.tmx", "<layer id=\"1\" name=\"ground\" width=\"10\"",
                    "<layer id=\"1\" name=\"ground\" width=\"9\"",
                    "way.tmx: layer 'ground': data has 80 entries, expected 72 (9x8)");
  expect_edit_error("way.tmx", "2,2,2,2,2,1,", "2,2,2,2,2,x,",
                    "layer 'ground': data[16]: expected a tile gid (integer in [0, 4294967295]), "
                    "got 'x'");
  expect_edit_error("way.tmx", "<data encoding=\"csv\">", "<data encoding=\"csv\"><chunk/>",
                    "layer 'ground': chunks (infinite maps) are not supported");
  expect_edit_error("way.tmx", "<data encoding=\"csv\">", "<data encoding=\"xml\">",
                    "layer 'ground': data: encoding 'xml' is not supported (CSV or base64)");
  expect_edit_error("way.tmx", "id=\"5\" name=\"b1\"", "id=\"3\" name=\"b1\"",
                    "object 3 (tower_base) in layer 'roads' (objects[5]) has the same id as "
                    "object 3 (spawn)");
}

static void test_bad_data(void **state) {
  (void)state;
  expect_file_error("bad/bomb.tmx", "layer 'bomb': data: its zlib stream decompresses to more "
                    "than the 16 bytes of 2x2 tiles (refused)");
  expect_edit_error("grid-base64.tmx", "encoding=\"base64\">\n   ", "encoding=\"base64\">\n   A",
                    "layer 'floor': data is not valid base64");
  expect_edit_error("grid-base64.tmx", "encoding=\"base64\">\n   ",
                    "encoding=\"base64\">\n   AAAA", "layer 'floor': data has 195 bytes, expected "
                    "192 (8x6 tiles of 4 bytes)");
  expect_edit_error("grid-zlib.tmx", "encoding=\"base64\" compression=\"zlib\">\n   ",
                    "encoding=\"base64\" compression=\"zlib\">\n   AAAA",
                    "layer 'floor': data is not valid zlib data");
  expect_edit_error("grid-zstd.tmx", "compression=\"zstd\">\n   ",
                    "compression=\"zstd\">\n   AAAA", "layer 'floor': data is not valid zstd data");
  expect_edit_error("grid-zlib.tmx", "compression=\"zlib\"", "compression=\"lzma\"",
                    "layer 'floor': data: compression 'lzma' is not supported (zlib, gzip or zstd)");
  expect_edit_error("grid-csv.tmx", "encoding=\"csv\"", "encoding=\"csv\" compression=\"zlib\"",
                    "layer 'floor': data: compression 'zlib' needs base64 encoding");
  expect_edit_error("grid-csv.tmx", "2,2,2,2,2,2,2,2\n", "",
                    "layer 'floor': data has 40 entries, expected 48 (8x6)");
}

static void test_bad_externals(void **state) {
  (void)state;
  expect_file_error("bad/outside.tmx", "tilesets[1]: tileset '../floor.tsx' is outside the map's "
                    "folder");
  expect_file_error("bad/deep.tmx", "object 3: template 'd5.tx': templates nested deeper than 4");
  expect_file_error("bad/loop.tmx", "template 'loop.tx' uses itself (a loop of templates)");
  expect_file_error("bad/broken.tmx", "bad/broken.tmx: broken.tsx:4: mismatched tag");
  expect_edit_error("grid-ext.tmx", "source=\"floor.tsx\"", "source=\"nope.tsx\"",
                    "grid-ext.tmx: tilesets[1]: tileset 'nope.tsx': cannot open: No such file");
  expect_edit_error("grid-ext.tmx", "source=\"floor.tsx\"", "source=\"/etc/passwd\"",
                    "tileset '/etc/passwd' is outside the map's folder");
  expect_edit_error("grid-ext.tmx", "source=\"floor.tsx\"", "source=\"bad/json.tsx\"",
                    "grid-ext.tmx: bad/json.tsx: looks like Tiled JSON, but the name ends in .tsx: "
                    "rename it");
  expect_edit_error("grid-ext.tmx", "source=\"floor.tsx\"", "source=\"tpl/base.tx\"",
                    "tileset 'tpl/base.tx': the root element is <template>, expected <tileset>");
  expect_edit_error("grid-ext.tmx", "source=\"floor.tsx\"", "source=\"\"",
                    "tilesets[1]: tileset source is empty");
  expect_edit_error("way-tpl.tmx", "template=\"tpl/spawn.tx\"", "template=\"ground.tsx\"",
                    "object 3: template 'ground.tsx' is read as a tileset elsewhere in the map");
  expect_edit_error("way-tpl.tmx", "template=\"tpl/spawn.tx\"", "template=\"floor.tsx\"",
                    "object 3: template 'floor.tsx': the root element is <tileset>, expected "
                    "<template>");
  expect_edit_error("way-tpl.tmj", "\"tpl/spawn.tj\"", "\"floor.tsj\"",
                    "object 3: template 'floor.tsj': it has no 'object'");
  expect_edit_error("way-tpl.tmj", "\"tpl/spawn.tj\"", "\"../way.lua\"",
                    "template '../way.lua' is outside the map's folder");
}

/* ---- allocation failures -------------------------------------------------- */

static void sweep(const char *path, long stride) {
  cnt.fail_at = 0;
  long before = cnt.calls;
  td_map m;
  td_err err = {{0}};
  if (td_mapfile_load(path, &m, &err) != 0) fail_msg("%s", err.msg);
  td_map_free(&m);
  long total = cnt.calls - before;
  assert_true(total > 10);
  for (long k = 1; k <= total; k += stride) {
    cnt.calls = 0;
    cnt.fail_at = k;
    long live = cnt.live_blocks;
    int rc = td_mapfile_load(path, &m, &err);
    if (rc == 0) td_map_free(&m);
    else assert_true(map_is_zero(&m));
    if (cnt.live_blocks != live || cnt.bad_sizes != 0)
      fail_msg("%s: allocation %ld of %ld failed (\"%s\"): %ld blocks leaked", path, k, total,
               rc ? err.msg : "", cnt.live_blocks - live);
  }
  cnt.fail_at = 0;
}

static void test_alloc_failures(void **state) {
  (void)state;
  sweep(fixture("way-tpl.tmx"), 1);
  sweep(fixture("way-tpl.tmj"), 1);
  sweep(fixture("grid-zstd.tmx"), 1);
  sweep(fixture("grid-ext.tmj"), 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_grid_encodings, setup, teardown),
      cmocka_unit_test_setup_teardown(test_waypoint_map, setup, teardown),
      cmocka_unit_test_setup_teardown(test_external_tilesets, setup, teardown),
      cmocka_unit_test_setup_teardown(test_templates, setup, teardown),
      cmocka_unit_test_setup_teardown(test_roots, setup, teardown),
      cmocka_unit_test_setup_teardown(test_sniffing, setup, teardown),
      cmocka_unit_test_setup_teardown(test_bad_xml, setup, teardown),
      cmocka_unit_test_setup_teardown(test_bad_json, setup, teardown),
      cmocka_unit_test_setup_teardown(test_missing_fields, setup, teardown),
      cmocka_unit_test_setup_teardown(test_bad_data, setup, teardown),
      cmocka_unit_test_setup_teardown(test_bad_externals, setup, teardown),
      cmocka_unit_test_setup_teardown(test_alloc_failures, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
