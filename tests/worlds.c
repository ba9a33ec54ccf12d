/*
** worlds.c: fixtures shared by the tests that build worlds in code
** (worlds.h).
*/
#include "worlds.h"

#include <stdio.h>
#include <string.h>

/* ---- maps ----------------------------------------------------------------- */

void td_test_map_make(td_map *m, const char *spawn_name, const double (*pts)[2], int n,
                      const int (*edges)[2], int ne, int spawn, int goal,
                      const td_test_base *bases, int nb) {
  memset(m, 0, sizeof *m);
  snprintf(m->source, sizeof m->source, "test");
  m->width = 30;
  m->height = 20;
  m->tile_w = m->tile_h = TILE;
  m->graph = td_graph_create(n, ne);
  assert_non_null(m->graph);
  for (int i = 0; i < n; i++) assert_int_equal(td_graph_add_node(m->graph, pts[i][0], pts[i][1], NULL), i);
  for (int i = 0; i < ne; i++)
    assert_int_equal(td_graph_add_edge(m->graph, edges[i][0], edges[i][1], 1.0, NULL), i);
  assert_int_equal(td_graph_finalize(m->graph, NULL), 0);
  m->spawns = td_mem_calloc(1, sizeof *m->spawns);
  m->spawn_count = 1;
  m->spawns[0] = (td_map_point){.node = spawn, .object_id = 7};
  snprintf(m->spawns[0].name, sizeof m->spawns[0].name, "%s", spawn_name);
  m->goals = td_mem_calloc(1, sizeof *m->goals);
  m->goal_count = 1;
  m->goals[0] = (td_map_point){.node = goal, .object_id = 8};
  m->bases = td_mem_calloc((size_t)nb, sizeof *m->bases);
  m->base_count = (size_t)nb;
  for (int b = 0; b < nb; b++) {
    td_tower_base *tb = &m->bases[b];
    tb->object_id = 100 + b;
    tb->x = bases[b].cx - TILE / 2.0;
    tb->y = bases[b].cy - TILE / 2.0;
    tb->w = tb->h = TILE;
    tb->block_count = (size_t)bases[b].nblock;
    if (bases[b].nblock) {
      tb->block = td_mem_calloc((size_t)bases[b].nblock, sizeof *tb->block);
      memcpy(tb->block, bases[b].block, (size_t)bases[b].nblock * sizeof *tb->block);
    }
  }
}

void td_test_fork_map(td_map *m, const char *spawn_name, const td_test_base *bases, int nb) {
  static const double pts[6][2] = {{0, 50}, {50, 50}, {100, 50}, {150, 50}, {50, 100}, {100, 100}};
  static const int edges[6][2] = {{0, 1}, {1, 2}, {2, 3}, {1, 4}, {4, 5}, {5, 2}};
  td_test_map_make(m, spawn_name, pts, 6, edges, 6, 0, 3, bases, nb);
}

void td_test_line_map(td_map *m, const char *spawn_name, const td_test_base *bases, int nb) {
  double pts[21][2];
  int edges[20][2];
  for (int i = 0; i < 21; i++) {
    pts[i][0] = 10.0 * i;
    pts[i][1] = 50;
  }
  for (int i = 0; i < 20; i++) {
    edges[i][0] = i;
    edges[i][1] = i + 1;
  }
  td_test_map_make(m, spawn_name, (const double(*)[2])pts, 21, (const int(*)[2])edges, 20, 0, 20,
                   bases, nb);
}

void td_test_road_map(td_map *m, const char *source, int height, const double (*xpts)[2], int nx,
                      const int (*xedges)[2], int nxe, const double (*bases)[2], int nb) {
  int nn = 31 + nx, ne = 30 + nxe;
  memset(m, 0, sizeof *m);
  snprintf(m->source, sizeof m->source, "%s", source);
  m->width = 30;
  m->height = height;
  m->tile_w = m->tile_h = TILE;
  m->graph = td_graph_create(nn, ne);
  assert_non_null(m->graph);
  for (int i = 0; i <= 30; i++) assert_int_equal(td_graph_add_node(m->graph, 10.0 * i, 50, NULL), i);
  for (int i = 0; i < nx; i++)
    assert_int_equal(td_graph_add_node(m->graph, xpts[i][0], xpts[i][1], NULL), 31 + i);
  for (int i = 0; i < 30; i++) assert_int_equal(td_graph_add_edge(m->graph, i, i + 1, 1.0, NULL), i);
  for (int i = 0; i < nxe; i++)
    assert_int_equal(td_graph_add_edge(m->graph, xedges[i][0], xedges[i][1], 1.0, NULL), 30 + i);
  assert_int_equal(td_graph_finalize(m->graph, NULL), 0);
  m->road_width = td_mem_alloc((size_t)ne * sizeof *m->road_width);
  for (int e = 0; e < ne; e++) m->road_width[e] = TILE;
  m->spawns = td_mem_calloc(1, sizeof *m->spawns);
  m->spawn_count = 1;
  m->spawns[0] = (td_map_point){.node = 0, .object_id = 1};
  m->goals = td_mem_calloc(1, sizeof *m->goals);
  m->goal_count = 1;
  m->goals[0] = (td_map_point){.node = 30, .object_id = 2};
  m->bases = td_mem_calloc((size_t)nb, sizeof *m->bases);
  m->base_count = (size_t)nb;
  for (int b = 0; b < nb; b++)
    m->bases[b] = (td_tower_base){.object_id = 10 + b, .x = bases[b][0] - TILE / 2.0,
                                  .y = bases[b][1] - TILE / 2.0, .w = TILE, .h = TILE};
}

/* ---- rules ---------------------------------------------------------------- */

void td_test_rules_init(td_rules *r) {
  memset(r, 0, sizeof *r);
  r->api_version = TD_RULES_API_VERSION;
  snprintf(r->damage_types[0], TD_RULES_NAME_MAX, "physical");
  r->damage_type_count = 1;
}

td_enemy_type td_test_enemy(const char *name, float health, float speed) {
  td_enemy_type e = {.health = health, .speed = speed, .radius = 0.3f, .split_into = -1};
  snprintf(e.name, sizeof e.name, "%s", name);
  return e;
}

td_tower_level td_test_level(const char *name, int32_t tower, int32_t parent, int32_t cost) {
  td_tower_level l = {.tower = tower, .parent = parent, .cost = cost, .damage_type = 0,
                      .shot = TD_SHOT_INSTANT, .hits_ground = true, .children = {-1, -1, -1, -1}};
  snprintf(l.name, sizeof l.name, "%s", name);
  return l;
}

void td_test_fixture_free(td_test_fixture *f) {
  td_map_free(&f->map);
  td_rules_free(&f->rules);
}

/* ---- running a world ------------------------------------------------------ */

td_world *td_test_world(const td_map *m, const td_rules *r, uint64_t seed) {
  td_err err = {{0}};
  td_world *w = td_world_create(m, r, seed, &err);
  if (!w) fail_msg("%s", err.msg);
  return w;
}

void td_test_step(td_world *w) {
  td_err err = {{0}};
  if (td_world_step(w, &err) != 0) fail_msg("%s", err.msg);
}

void td_test_steps(td_world *w, int n) {
  for (int i = 0; i < n; i++) td_test_step(w);
}

void td_test_cmd(td_world *w, td_command c) {
  if (c.tick == 0) c.tick = td_world_tick(w);
  assert_int_equal(td_world_command(w, &c, NULL), 0);
}

size_t td_test_count_events(const td_world *w, td_event_kind k) {
  size_t n, c = 0;
  const td_event *e = td_world_events(w, &n);
  for (size_t i = 0; i < n; i++) c += e[i].kind == k;
  return c;
}

const td_event *td_test_find_event(const td_world *w, td_event_kind k) {
  size_t n;
  const td_event *e = td_world_events(w, &n);
  for (size_t i = 0; i < n; i++)
    if (e[i].kind == k) return &e[i];
  return NULL;
}

td_refusal td_test_refusal(const td_world *w) {
  const td_event *e = td_test_find_event(w, TD_EVENT_REFUSED);
  return e ? e->reason : TD_REFUSAL_NONE;
}

uint32_t td_test_spawn(td_world *w, int32_t type, int32_t node, float lane, float health) {
  td_err err = {{0}};
  td_spawn_desc d = {.type = type, .spawn = -1, .node = node, .lane = lane, .health = health};
  uint32_t h = td_world_spawn_enemy(w, &d, &err);
  if (!h) fail_msg("%s", err.msg);
  return h;
}

td_enemy_view td_test_enemy_view(const td_world *w, uint32_t h) {
  td_enemy_view v;
  if (!td_world_enemy_get(w, h, &v)) fail_msg("enemy %u is gone", h);
  return v;
}

td_tower_view td_test_tower_view(const td_world *w, size_t base) {
  td_tower_view v;
  if (!td_world_tower(w, base, &v)) fail_msg("no tower on base %zu", base);
  return v;
}

static const char *state_name(td_unit_kind k, int s) {
  const char *n = td_unit_state_name(k, s);
  return n ? n : "?";
}

void td_test_arrows_check(const td_world *w, td_unit_kind k, const char *game,
                          uint64_t (*seen)[8]) {
  for (int a = 0; a < 8; a++)
    for (int b = 0; b < 8; b++) {
      uint64_t n = td_world_arrows(w, k, a, b);
      if (n && !td_unit_arrow_ok(k, a, b))
        fail_msg("%s%s%s arrow %s -> %s taken %llu times: not in unit.h's table",
                 game ? game : "", game ? ": " : "", k == TD_UNIT_ENEMY ? "enemy" : "soldier",
                 state_name(k, a), state_name(k, b), (unsigned long long)n);
      if (seen) seen[a][b] += n;
    }
}

/* ---- saves ---------------------------------------------------------------- */

td_world *td_test_save_and_load(const td_test_fixture *f, const td_world *a, td_blob *keep) {
  td_blob blob = {0};
  td_blob *b = keep ? keep : &blob;
  td_world_save(a, b);
  assert_false(b->failed);
  td_blob_reader r = td_blob_read(b->data, b->len);
  td_err err = {{0}};
  td_world *loaded = td_world_load(&f->map, &f->rules, &r, &err);
  if (!loaded) fail_msg("%s", err.msg);
  if (!keep) td_blob_free(&blob);
  return loaded;
}

void td_test_assert_same_saves(const td_world *a, const td_world *b) {
  td_blob first = {0}, again = {0};
  td_world_save(a, &first);
  td_world_save(b, &again);
  assert_int_equal(first.len, again.len);
  assert_memory_equal(first.data, again.data, first.len);
  td_blob_free(&again);
  td_blob_free(&first);
}

int td_test_reload_check(const td_test_fixture *f, const td_world *w) {
  int status = 0;
  td_err err = {{0}};
  td_blob b = {0};
  td_world_save(w, &b);
  if (b.failed) {
    status = -1;
  } else {
    td_blob_reader r = td_blob_read(b.data, b.len);
    td_world *v = td_world_load(&f->map, &f->rules, &r, &err);
    if (!v) {
      if (!strstr(err.msg, "out of memory")) fail_msg("load: '%s'", err.msg);
      status = -1;
    } else {
      if (td_world_checksum(v) != td_world_checksum(w)) fail_msg("load: checksum");
      td_world_destroy(v);
    }
  }
  td_blob_free(&b);
  return status;
}
