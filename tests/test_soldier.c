/*
** test_soldier.c: barracks and their soldiers (sim/soldier.c) on maps built
** in code: the state machine's arrows, a barracks holding a wave, the path
** queue's budget, walls and towers never walked through, RALLY and its
** refusals, saves in the middle of fights, flyers.
*/
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "worlds.h"

/* ---- fixtures: maps ------------------------------------------------------ */

/* A waypoint map ("road", td_test_road_map): the road, one tile wide, runs along y = 50 from node 0
** (x = 0, the spawn) to node 30 (x = 300, the goal), a node a tile; a loop
** leaves it at node 10 (x = 100), runs along y = 150 and joins it again at
** node 20 (x = 200): nodes 31 (100, 150), 32 (200, 150), edges 10-31,
** 31-32, 32-20. Bases (one tile, pads: they close nothing):
**   0 (150, 30): above the road    1 (150, 100): between the roads
**   2 (250, 30): above the road    3 (60, 30): above the road */
static void road_map(td_map *m) {
  static const double loop[2][2] = {{100, 150}, {200, 150}};
  static const int loop_edges[3][2] = {{10, 31}, {31, 32}, {32, 20}};
  static const double bc[4][2] = {{150, 30}, {150, 100}, {250, 30}, {60, 30}};
  td_test_road_map(m, "road", 20, loop, 2, loop_edges, 3, bc, 4);
}

/* A grid map from rows of text: '#' wall, '.' floor, 'S' the spawn, 'G'
** the goal, 'B' a tower base on a floor cell (a tower there closes it),
** 'P' a pad in a wall (a tower there closes nothing). */
static void grid_map(td_map *m, const char *const *rows, int h) {
  memset(m, 0, sizeof *m);
  snprintf(m->source, sizeof m->source, "grid");
  int w = (int)strlen(rows[0]);
  m->width = w;
  m->height = h;
  m->tile_w = m->tile_h = TILE;
  m->grid = td_grid_create(w, h, TILE, NULL);
  assert_non_null(m->grid);
  int nb = 0;
  for (int y = 0; y < h; y++) {
    assert_int_equal((int)strlen(rows[y]), w);
    for (int x = 0; x < w; x++) {
      td_grid_set_walkable(m->grid, x, y, rows[y][x] != '#' && rows[y][x] != 'P');
      nb += rows[y][x] == 'B' || rows[y][x] == 'P';
    }
  }
  m->graph = td_test_build_graph(m->grid);
  m->spawns = td_mem_calloc(1, sizeof *m->spawns);
  m->goals = td_mem_calloc(1, sizeof *m->goals);
  m->spawn_count = m->goal_count = 1;
  m->bases = td_mem_calloc((size_t)nb, sizeof *m->bases);
  m->base_count = (size_t)nb;
  int b = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      char c = rows[y][x];
      if (c == 'S') m->spawns[0] = (td_map_point){.node = td_grid_node_at(m->grid, x, y), .object_id = 1};
      if (c == 'G') m->goals[0] = (td_map_point){.node = td_grid_node_at(m->grid, x, y), .object_id = 2};
      if (c != 'B' && c != 'P') continue;
      td_tower_base *tb = &m->bases[b++];
      *tb = (td_tower_base){.object_id = 100 + b, .x = x * TILE, .y = y * TILE, .w = TILE, .h = TILE};
      if (c == 'P') continue;
      int32_t cell = y * w + x;
      size_t need = td_grid_changes(m->grid, m->graph, &cell, 1, true, NULL, 0);
      tb->block = td_mem_alloc(need * sizeof *tb->block);
      tb->block_count = td_grid_changes(m->grid, m->graph, &cell, 1, true, tb->block, need);
    }
}

/* A room with pillars: enemies cross it from west to east; bases stand in
** the open, so towers placed and sold change the way. */
static const char *const room_rows[] = {
    "##############################",
    "#............................#",
    "#..B.....B.....B.....B.....B.#",
    "#............................#",
    "#....###.......###......###..#",
    "#....#...B.......B..........##",
    "#S...#......##.........B....G#",
    "#..........B##...#...........#",
    "#....###..........#.....B....#",
    "#..B.......B....###..........#",
    "#.............B.........B....#",
    "#..B.....B.........B.........#",
    "##############################",
};

/* A serpentine: corridors two cells high, joined at alternate ends; pads
** in the walls between them every 7 cells (a tower there closes nothing;
** a soldier's way from one corridor to the next is long). */
static void serpent_map(td_map *m, int w, int corridors) {
  int h = corridors * 3 + 1;
  char **rows = td_mem_alloc((size_t)h * sizeof *rows);
  for (int y = 0; y < h; y++) {
    rows[y] = td_mem_alloc((size_t)w + 1);
    memset(rows[y], '#', (size_t)w);
    rows[y][w] = '\0';
  }
  for (int k = 0; k < corridors; k++) {
    int y = 3 * k + 1;
    for (int x = 1; x < w - 1; x++) rows[y][x] = rows[y + 1][x] = '.';
    if (k + 1 < corridors) rows[y + 2][k % 2 == 0 ? w - 2 : 1] = '.';
    if (k + 1 < corridors)
      for (int x = 6; x < w - 6; x += 7) rows[y + 2][x] = 'P';
  }
  rows[1][1] = 'S';
  rows[3 * (corridors - 1) + 1][corridors % 2 == 1 ? w - 2 : 1] = 'G';
  grid_map(m, (const char *const *)rows, h);
  for (int y = 0; y < h; y++) td_mem_free(rows[y], (size_t)w + 1);
  td_mem_free(rows, (size_t)h * sizeof *rows);
}

/* ---- fixtures: rules ----------------------------------------------------- */

enum { E_GRUNT, E_BRUTE, E_FLYER, E_COUNT };
enum { S_FOOT, S_KNIGHT, S_COUNT };
enum { T_BARRACKS, T_GUN, T_COUNT };
enum { L_BARRACKS, L_KNIGHTS, L_FOUR, L_GUN, L_COUNT };

static td_enemy_type enemy(const char *name, float health, float speed) {
  td_enemy_type e = td_test_enemy(name, health, speed);
  e.bounty = 1;
  e.lives = 1;
  return e;
}

static td_soldier_type soldier(const char *name, float health, float damage) {
  td_soldier_type s = {.health = health, .armour = 1, .damage = damage, .rate = 1, .speed = 2,
                       .radius = 0.25f, .respawn = 2, .sight = 2.5f, .regen = 5};
  snprintf(s.name, sizeof s.name, "%s", name);
  return s;
}

static td_tower_level level(const char *name, int32_t tower, int32_t parent, int32_t cost) {
  td_tower_level l = td_test_level(name, tower, parent, cost);
  l.range = 3;
  return l;
}

/* grunts fight back weakly, brutes hard; one wave of `count` of `type`
** after a second (wave 2, the same, 30 s later) */
static void rules_make(td_rules *r, int32_t type, int32_t count) {
  td_test_rules_init(r);
  r->enemies = td_mem_calloc(E_COUNT, sizeof *r->enemies);
  r->enemy_count = E_COUNT;
  r->enemies[E_GRUNT] = enemy("grunt", 40, 1);
  r->enemies[E_GRUNT].melee_damage = 4;
  r->enemies[E_GRUNT].melee_rate = 1;
  r->enemies[E_BRUTE] = enemy("brute", 400, 0.8f);
  r->enemies[E_BRUTE].melee_damage = 30;
  r->enemies[E_BRUTE].melee_rate = 1;
  r->enemies[E_BRUTE].radius = 0.35f;
  r->enemies[E_FLYER] = enemy("flyer", 40, 1.5f);
  r->enemies[E_FLYER].flying = true;
  r->soldier_types = td_mem_calloc(S_COUNT, sizeof *r->soldier_types);
  r->soldier_type_count = S_COUNT;
  r->soldier_types[S_FOOT] = soldier("footman", 50, 8);
  r->soldier_types[S_KNIGHT] = soldier("knight", 120, 16);
  r->soldier_types[S_KNIGHT].radius = 0.3f;
  r->soldier_types[S_KNIGHT].sight = 3;
  r->towers = td_mem_calloc(T_COUNT, sizeof *r->towers);
  r->tower_count = T_COUNT;
  snprintf(r->towers[T_BARRACKS].name, TD_RULES_NAME_MAX, "barracks");
  r->towers[T_BARRACKS].root = L_BARRACKS;
  snprintf(r->towers[T_GUN].name, TD_RULES_NAME_MAX, "gun");
  r->towers[T_GUN].root = L_GUN;
  r->levels = td_mem_calloc(L_COUNT, sizeof *r->levels);
  r->level_count = L_COUNT;
  td_tower_level *l = r->levels;
  l[L_BARRACKS] = level("barracks", T_BARRACKS, -1, 50);
  l[L_BARRACKS].soldiers = 3;
  l[L_BARRACKS].soldier = S_FOOT;
  l[L_BARRACKS].children[0] = L_KNIGHTS;
  l[L_BARRACKS].children[1] = L_FOUR;
  l[L_KNIGHTS] = level("knights", T_BARRACKS, L_BARRACKS, 50);
  l[L_KNIGHTS].soldiers = 2;
  l[L_KNIGHTS].soldier = S_KNIGHT;
  l[L_FOUR] = level("four", T_BARRACKS, L_BARRACKS, 50);
  l[L_FOUR].soldiers = 4;
  l[L_FOUR].soldier = S_FOOT;
  l[L_FOUR].range = 4;
  l[L_GUN] = level("gun", T_GUN, -1, 50);
  l[L_GUN].rate = 2;
  l[L_GUN].damage = 6;
  l[L_GUN].hits_air = true;
  r->groups = td_mem_calloc(1, sizeof *r->groups);
  r->group_count = 1;
  r->groups[0] = (td_spawn_group){.enemy = type, .begin = 1, .every = 1, .count = count,
                                  .max_count = count, .spawn = -1, .per_row = 1, .spacing = 1.2f};
  r->wave_count = 2;
  r->first_wave_delay = 1;
  r->wave_interval = 30;
  r->start_gold = 100000;
  r->start_lives = 1000;
  r->sell_refund = 0.5f;
}

typedef td_test_fixture fixture;

/* ---- helpers ------------------------------------------------------------- */

/* Arrows taken in every game of this file (checked by the last test). */
static uint64_t seen[TD_UNIT_KIND_COUNT][8][8];

static td_world *world_new(const fixture *f, uint64_t seed) {
  return td_test_world(&f->map, &f->rules, seed);
}

/* Every arrow the world took is one of unit.h's; they add up in seen. */
static void world_done(td_world *w) {
  for (int k = 0; k < TD_UNIT_KIND_COUNT; k++) td_test_arrows_check(w, (td_unit_kind)k, NULL, seen[k]);
  td_world_destroy(w);
}

static void place(td_world *w, int32_t base, int32_t type) {
  td_test_cmd(w, (td_command){.kind = TD_COMMAND_PLACE, .base = base, .tower_type = type});
}

static void rally(td_world *w, int32_t base, float x, float y) {
  td_test_cmd(w, (td_command){.kind = TD_COMMAND_RALLY, .base = base, .x = x, .y = y});
}

/* Soldiers in state st (of base b, or any base for b < 0). */
static int soldiers_in(const td_world *w, int32_t b, td_soldier_state st) {
  int n = 0;
  for (size_t i = 0; i < td_world_soldier_capacity(w); i++) {
    td_soldier_view v;
    if (td_world_soldier(w, i, &v) && v.state == st && (b < 0 || v.base == b)) n++;
  }
  return n;
}

/* Steps until a soldier of base b is in state st (at most n ticks). */
static bool step_until(td_world *w, int32_t b, td_soldier_state st, int n) {
  for (int i = 0; i < n; i++) {
    if (soldiers_in(w, b, st) > 0) return true;
    td_test_step(w);
  }
  return soldiers_in(w, b, st) > 0;
}

/* Strictly inside a built tower's footprint. */
static bool in_footprint(const td_world *w, float x, float y) {
  const td_map *m = td_world_map(w);
  for (size_t b = 0; b < m->base_count; b++) {
    td_tower_view tv;
    const td_tower_base *tb = &m->bases[b];
    if (td_world_tower(w, b, &tv) && x > (float)tb->x && x < (float)(tb->x + tb->w) &&
        y > (float)tb->y && y < (float)(tb->y + tb->h))
      return true;
  }
  return false;
}

/* The grid cell of (x, y); false outside the grid. */
static bool cell_of(const td_grid *g, float x, float y, int32_t *cx, int32_t *cy) {
  double fx = floor(((double)x - g->origin_x) / g->cell), fy = floor(((double)y - g->origin_y) / g->cell);
  *cx = (int32_t)fx;
  *cy = (int32_t)fy;
  return fx >= 0 && fy >= 0 && fx < g->width && fy < g->height;
}

static bool cell_open(const td_world *w, int32_t cx, int32_t cy) {
  const td_graph *g = td_route_graph(td_world_route(w));
  int32_t n = td_grid_node_at(td_world_map(w)->grid, cx, cy);
  return n != TD_NONE && !g->node_blocked[n];
}

/* ---- the tests ----------------------------------------------------------- */

/* A barracks beside the road holds a wave: held enemies stand (BLOCKED,
** then ATTACK), the ones behind queue, nobody leaks while it holds; the
** soldiers kill, fall and come back. */
static void test_barracks_holds_a_wave(void **state) {
  (void)state;
  fixture f;
  road_map(&f.map);
  rules_make(&f.rules, E_GRUNT, 8);
  f.rules.wave_count = 1;
  td_world *w = world_new(&f, 3);
  place(w, 0, T_BARRACKS);
  td_test_step(w);
  assert_int_equal(td_world_soldier_count(w), 3);
  td_tower_view tv;
  assert_true(td_world_tower(w, 0, &tv));
  assert_int_equal(tv.soldiers, 3);
  /* they walk out of the door to posts on the road below the barracks */
  assert_true(step_until(w, 0, TD_SOLDIER_IDLE, 300));
  td_test_steps(w, 120);
  assert_int_equal(soldiers_in(w, 0, TD_SOLDIER_IDLE), 3);
  for (size_t i = 0; i < td_world_soldier_capacity(w); i++) {
    td_soldier_view v;
    assert_true(td_world_soldier(w, i, &v));
    assert_true(fabsf(v.post_y - 50) <= TILE / 2.0f); /* on the road */
    assert_true(fabsf(v.post_x - 150) <= 1.5f * TILE);
    assert_float_equal(v.x, v.post_x, 1e-3);
    assert_float_equal(v.y, v.post_y, 1e-3);
  }
  /* the wave comes in single file: the front one is held (it stands, the
  ** soldier walks to it, they fight), the ones behind queue behind it */
  int32_t lives = td_world_lives(w);
  int held_ticks = 0, attack_ticks = 0, queued = 0;
  uint32_t last = 0;
  float hx = 0, hy = 0;
  for (int t = 0; t < 60 * 90; t++) {
    td_test_step(w);
    float front = -1;
    for (size_t i = 0; i < td_world_enemy_capacity(w); i++) {
      td_enemy_view e;
      if (!td_world_enemy(w, i, &e) || e.holder == 0) continue;
      assert_true(e.state == TD_ENEMY_BLOCKED || e.state == TD_ENEMY_ATTACK);
      td_soldier_view s;
      assert_true(td_world_soldier_get(w, e.holder, &s));
      assert_int_equal(s.enemy, e.handle);
      assert_true(s.state == TD_SOLDIER_ENGAGE || s.state == TD_SOLDIER_ATTACK);
      if (e.state == TD_ENEMY_ATTACK) {
        assert_int_equal(s.state, TD_SOLDIER_ATTACK);
        attack_ticks++;
      }
      if (e.handle == last) { /* held, it stands (the crowd may nudge it) */
        if (fabsf(e.x - hx) > 0.5f * TILE || fabsf(e.y - hy) > 0.5f * TILE)
          fail_msg("tick %d: held enemy %zu moved from (%g, %g) to (%g, %g)", t, i, (double)hx,
                   (double)hy, (double)e.x, (double)e.y);
      } else {
        last = e.handle;
        hx = e.x;
        hy = e.y;
      }
      held_ticks++;
      if (e.x > front) front = e.x;
    }
    if (front >= 0) /* nobody passes the held one */
      for (size_t i = 0; i < td_world_enemy_capacity(w); i++) {
        td_enemy_view e;
        if (!td_world_enemy(w, i, &e) || e.holder || e.waiting) continue;
        if (e.x > front + TILE)
          fail_msg("tick %d: enemy %zu at x %g passed the held front at %g", t, i, (double)e.x,
                   (double)front);
        queued++;
      }
    if (td_world_state(w) == TD_GAME_WON) break;
  }
  assert_int_equal(td_world_state(w), TD_GAME_WON);
  assert_true(held_ticks > 60 * 20);
  assert_true(queued > 60 * 10);
  assert_true(attack_ticks > 60 * 20);
  assert_int_equal(td_world_lives(w), lives); /* eight grunts, none through */
  assert_true(td_world_arrows(w, TD_UNIT_SOLDIER, TD_SOLDIER_ATTACK, TD_SOLDIER_MOVE) > 0);
  world_done(w);
  td_test_fixture_free(&f);
}

/* Brutes outfight footmen: a soldier falls (DIE), waits (RESPAWN) and
** walks out of the door again; the enemy it held walks on. */
static void test_soldiers_fall_and_return(void **state) {
  (void)state;
  fixture f;
  road_map(&f.map);
  rules_make(&f.rules, E_BRUTE, 3);
  td_world *w = world_new(&f, 4);
  place(w, 0, T_BARRACKS);
  int died = 0, respawned = 0;
  uint64_t t_died = 0;
  for (int t = 0; t < 60 * 40 && !respawned; t++) {
    td_test_step(w);
    size_t n;
    const td_event *ev = td_world_events(w, &n);
    for (size_t k = 0; k < n; k++) {
      if (ev[k].kind != TD_EVENT_SOLDIER_DIED) continue;
      died++;
      t_died = td_world_tick(w);
      assert_int_not_equal(ev[k].enemy, 0);
      td_enemy_view e;
      if (td_world_enemy_get(w, ev[k].enemy, &e)) assert_int_equal(e.holder, 0);
    }
    if (died && soldiers_in(w, 0, TD_SOLDIER_RESPAWN)) {
      /* waiting at the door: the fall took TD_SOLDIER_FALL_TIME */
      for (size_t i = 0; i < td_world_soldier_capacity(w); i++) {
        td_soldier_view v;
        if (td_world_soldier(w, i, &v) && v.state == TD_SOLDIER_RESPAWN) {
          assert_true(v.timer > 0 && v.timer <= f.rules.soldier_types[S_FOOT].respawn);
          assert_true(td_world_tick(w) - t_died >= 30);
        }
      }
      respawned = 1;
    }
  }
  assert_true(died > 0);
  assert_true(respawned);
  td_test_steps(w, 60 * 3);
  assert_true(td_world_arrows(w, TD_UNIT_SOLDIER, TD_SOLDIER_RESPAWN, TD_SOLDIER_MOVE) > 0);
  world_done(w);
  td_test_fixture_free(&f);
}

/* Every FREE arrow: a barracks sold while one of its soldiers is in each
** state; upgrades retype (keeping the health share) and change the count. */
static void test_sold_in_every_state(void **state) {
  (void)state;
  static const td_soldier_state states[] = {TD_SOLDIER_MOVE, TD_SOLDIER_IDLE, TD_SOLDIER_ENGAGE,
                                            TD_SOLDIER_ATTACK, TD_SOLDIER_DIE, TD_SOLDIER_RESPAWN};
  for (size_t k = 0; k < sizeof states / sizeof states[0]; k++) {
    fixture f;
    road_map(&f.map);
    rules_make(&f.rules, states[k] >= TD_SOLDIER_DIE ? E_BRUTE : E_GRUNT, 6);
    td_world *w = world_new(&f, 10 + k);
    place(w, 0, T_BARRACKS);
    td_test_step(w);
    if (!step_until(w, 0, states[k], 60 * 40))
      fail_msg("no soldier ever in state %s", td_unit_state_name(TD_UNIT_SOLDIER, (int)states[k]));
    uint64_t before = td_world_arrows(w, TD_UNIT_SOLDIER, (int)states[k], TD_SOLDIER_FREE);
    td_test_cmd(w, (td_command){.kind = TD_COMMAND_SELL, .base = 0});
    td_test_step(w);
    assert_int_equal(td_world_soldier_count(w), 0);
    assert_true(td_world_arrows(w, TD_UNIT_SOLDIER, (int)states[k], TD_SOLDIER_FREE) > before);
    for (size_t i = 0; i < td_world_enemy_capacity(w); i++) {
      td_enemy_view e;
      if (td_world_enemy(w, i, &e)) {
        assert_int_equal(e.holder, 0);
        assert_true(e.state != TD_ENEMY_BLOCKED);
      }
    }
    world_done(w);
    td_test_fixture_free(&f);
  }
  /* upgrades: knights (2, retyped with their share of health), four */
  fixture f;
  road_map(&f.map);
  rules_make(&f.rules, E_GRUNT, 1);
  f.rules.first_wave_delay = 1000;
  td_world *w = world_new(&f, 5);
  place(w, 0, T_BARRACKS);
  td_test_steps(w, 200);
  td_soldier_view v;
  assert_true(td_world_soldier(w, 0, &v));
  uint32_t first = v.handle;
  td_test_cmd(w, (td_command){.kind = TD_COMMAND_UPGRADE, .base = 0, .upgrade = 0});
  td_test_step(w);
  assert_int_equal(td_world_soldier_count(w), 2);
  assert_true(td_world_soldier_get(w, first, &v));
  assert_int_equal(v.type, S_KNIGHT);
  assert_float_equal(v.health, f.rules.soldier_types[S_KNIGHT].health, 1e-3);
  td_test_cmd(w, (td_command){.kind = TD_COMMAND_SELL, .base = 0});
  td_test_step(w);
  assert_int_equal(td_world_soldier_count(w), 0);
  assert_false(td_world_soldier_get(w, first, &v)); /* its handle died */
  place(w, 0, T_BARRACKS);
  td_test_step(w);
  td_test_cmd(w, (td_command){.kind = TD_COMMAND_UPGRADE, .base = 0, .upgrade = 1});
  td_test_step(w);
  assert_int_equal(td_world_soldier_count(w), 4);
  world_done(w);
  td_test_fixture_free(&f);
}

/* Rules reloaded (td_world_set_rules): every barracks keeps its level's
** soldiers of the new rules (count and type), and the world saves and
** loads under them. */
static void test_rules_reload(void **state) {
  (void)state;
  fixture f;
  road_map(&f.map);
  rules_make(&f.rules, E_GRUNT, 1);
  f.rules.first_wave_delay = 1000;
  td_rules next;
  rules_make(&next, E_GRUNT, 1);
  next.first_wave_delay = 1000;
  next.levels[L_BARRACKS].soldiers = 2;
  next.levels[L_BARRACKS].soldier = S_KNIGHT;
  td_world *w = world_new(&f, 14);
  place(w, 0, T_BARRACKS);
  td_test_steps(w, 200);
  assert_int_equal(td_world_soldier_count(w), 3);
  td_err err = {{0}};
  if (td_world_set_rules(w, &next, &err) != 0) fail_msg("%s", err.msg);
  assert_int_equal(td_world_soldier_count(w), 2);
  for (size_t i = 0; i < td_world_soldier_capacity(w); i++) {
    td_soldier_view v;
    if (td_world_soldier(w, i, &v)) assert_int_equal(v.type, S_KNIGHT);
  }
  td_test_steps(w, 100);
  td_blob blob = {0};
  td_world_save(w, &blob);
  td_blob_reader r = td_blob_read(blob.data, blob.len);
  td_world *again = td_world_load(&f.map, &next, &r, &err);
  if (!again) fail_msg("%s", err.msg);
  assert_int_equal(td_world_checksum(again), td_world_checksum(w));
  td_world_destroy(again);
  td_blob_free(&blob);
  world_done(w);
  td_rules_free(&next);
  td_test_fixture_free(&f);
}

/* RALLY: every refusal by its reason, td_world_rally_posts agreeing; an
** accepted rally moves the posts and sends the soldiers there. */
static void test_rally(void **state) {
  (void)state;
  fixture f;
  road_map(&f.map);
  rules_make(&f.rules, E_GRUNT, 1);
  f.rules.first_wave_delay = 1000;
  td_world *w = world_new(&f, 6);
  place(w, 0, T_BARRACKS);
  place(w, 2, T_GUN);
  td_test_steps(w, 300);
  assert_int_equal(soldiers_in(w, 0, TD_SOLDIER_IDLE), 3);
  struct {
    int32_t base;
    float x, y;
    td_refusal why;
  } cases[] = {
      {9, 150, 50, TD_REFUSAL_NO_BASE},      {-1, 150, 50, TD_REFUSAL_NO_BASE},
      {1, 150, 50, TD_REFUSAL_NO_TOWER},     {2, 250, 50, TD_REFUSAL_NO_SOLDIERS},
      {0, 220, 50, TD_REFUSAL_RALLY_RANGE},  {0, 150, -10, TD_REFUSAL_RALLY_RANGE},
      {0, 130, 30, TD_REFUSAL_RALLY_GROUND}, {0, 152, 32, TD_REFUSAL_RALLY_GROUND},
      {0, NAN, 50, TD_REFUSAL_RALLY_GROUND}, {0, 150, INFINITY, TD_REFUSAL_RALLY_GROUND},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    rally(w, cases[k].base, cases[k].x, cases[k].y);
    td_test_step(w);
    if (td_test_refusal(w) != cases[k].why)
      fail_msg("rally %zu: refused %d, expected %d", k, (int)td_test_refusal(w), (int)cases[k].why);
    if (cases[k].why == TD_REFUSAL_NO_TOWER || cases[k].why == TD_REFUSAL_NO_BASE ||
        cases[k].why == TD_REFUSAL_NO_SOLDIERS)
      continue;
    td_refusal why = TD_REFUSAL_NONE;
    float xy[16];
    assert_int_equal(td_world_rally_posts(w, cases[k].base, T_BARRACKS, cases[k].x, cases[k].y,
                                          xy, 8, &why), 0);
    assert_int_equal(why, cases[k].why);
  }
  td_refusal why;
  float xy[16];
  assert_int_equal(td_world_rally_posts(w, 2, T_GUN, 250, 50, xy, 8, &why), 0);
  assert_int_equal(why, TD_REFUSAL_NO_SOLDIERS);
  assert_int_equal(td_world_rally_posts(w, 9, T_BARRACKS, 250, 50, xy, 8, &why), 0);
  assert_int_equal(why, TD_REFUSAL_NO_BASE);
  /* the ghost of a barracks not built yet, on base 3 */
  assert_int_equal(td_world_rally_posts(w, 3, T_BARRACKS, 70, 50, xy, 8, &why), 3);
  assert_int_equal(why, TD_REFUSAL_NONE);
  /* accepted: the posts move 2 tiles left, the soldiers walk there */
  assert_int_equal(td_world_rally_posts(w, 0, T_BARRACKS, 130, 50, xy, 8, &why), 3);
  rally(w, 0, 130, 50);
  td_test_step(w);
  assert_int_equal(td_test_count_events(w, TD_EVENT_RALLIED), 1);
  assert_int_equal(soldiers_in(w, 0, TD_SOLDIER_MOVE), 3);
  td_tower_view tv;
  assert_true(td_world_tower(w, 0, &tv));
  assert_float_equal(tv.rally_x, 130, 0);
  for (size_t i = 0; i < 3; i++) {
    td_soldier_view v;
    assert_true(td_world_soldier(w, i, &v));
    assert_float_equal(v.post_x, xy[2 * i], 0); /* slot i holds post i */
    assert_float_equal(v.post_y, xy[2 * i + 1], 0);
    float path[32];
    assert_true(td_world_soldier_path(w, v.handle, path, 16) >= 2);
    assert_float_equal(path[0], v.x, 0);
  }
  assert_true(step_until(w, 0, TD_SOLDIER_IDLE, 300));
  td_test_steps(w, 60);
  assert_int_equal(soldiers_in(w, 0, TD_SOLDIER_IDLE), 3);
  assert_true(td_world_arrows(w, TD_UNIT_SOLDIER, TD_SOLDIER_IDLE, TD_SOLDIER_MOVE) > 0);
  world_done(w);
  td_test_fixture_free(&f);
}

/* Waypoint maps: a rally far away (along the loop road) is walked along
** the graph (the path queue answers, the way has the graph's nodes as
** corners), past a tower standing between the roads, whose footprint no
** soldier ever enters. */
static void test_waypoint_far_walk(void **state) {
  (void)state;
  fixture f;
  road_map(&f.map);
  rules_make(&f.rules, E_GRUNT, 1);
  f.rules.first_wave_delay = 1000;
  f.rules.levels[L_BARRACKS].range = 15;
  td_world *w = world_new(&f, 13);
  place(w, 3, T_BARRACKS);
  place(w, 1, T_GUN);
  assert_true(step_until(w, 3, TD_SOLDIER_IDLE, 300));
  td_test_steps(w, 120);
  assert_int_equal(soldiers_in(w, 3, TD_SOLDIER_IDLE), 3);
  uint64_t asked = td_world_pathq_stats(w)->delivered;
  rally(w, 3, 140, 150);
  td_test_step(w);
  assert_int_equal(td_test_count_events(w, TD_EVENT_RALLIED), 1);
  size_t longest = 0;
  const td_tower_base *gun = &f.map.bases[1];
  for (int t = 0; t < 60 * 20 && soldiers_in(w, 3, TD_SOLDIER_IDLE) < 3; t++) {
    td_test_step(w);
    for (size_t i = 0; i < td_world_soldier_capacity(w); i++) {
      td_soldier_view v;
      if (!td_world_soldier(w, i, &v)) continue;
      float xy[2 * 80];
      size_t n = td_world_soldier_path(w, v.handle, xy, 80);
      if (n > longest) longest = n;
      assert_false(v.x > (float)gun->x && v.x < (float)(gun->x + gun->w) && v.y > (float)gun->y &&
                   v.y < (float)(gun->y + gun->h));
    }
  }
  assert_int_equal(soldiers_in(w, 3, TD_SOLDIER_IDLE), 3);
  assert_true(td_world_pathq_stats(w)->delivered >= asked + 3); /* each asked the queue */
  assert_true(longest >= 5); /* position, nodes of the road, the post */
  for (size_t i = 0; i < td_world_soldier_capacity(w); i++) {
    td_soldier_view v;
    assert_true(td_world_soldier(w, i, &v));
    assert_true(fabsf(v.y - 150) <= TILE / 2.0f); /* on the loop road */
    assert_true(fabsf(v.x - 140) <= TILE);
  }
  world_done(w);
  td_test_fixture_free(&f);
}

/* Towers shoot held enemies: one killed while its soldier (slow here)
** still walks to it goes (BLOCKED -> DYING, ENGAGE -> MOVE); one killed
** in the fight too (ATTACK -> DYING); kills by soldiers credit the
** barracks. The gun stuns: a held enemy stays stunned (and does not hit
** back), then fights on or waits again. */
static void test_towers_shoot_held_enemies(void **state) {
  (void)state;
  fixture f;
  road_map(&f.map);
  rules_make(&f.rules, E_GRUNT, 10);
  f.rules.soldier_types[S_FOOT].speed = 0.3f;
  f.rules.soldier_types[S_FOOT].sight = 3;
  f.rules.levels[L_GUN].range = 8;
  f.rules.levels[L_GUN].damage = 4;
  f.rules.levels[L_GUN].rate = 1;
  f.rules.levels[L_GUN].effect = (td_effect){TD_EFFECT_STUN, 0, 0.8f};
  td_world *w = world_new(&f, 9);
  place(w, 0, T_BARRACKS);
  place(w, 1, T_GUN);
  td_test_step(w);
  td_tower_view barracks;
  assert_true(td_world_tower(w, 0, &barracks));
  int by_soldier = 0;
  for (int t = 0; t < 60 * 60 && td_world_state(w) == TD_GAME_PLAYING; t++) {
    td_test_step(w);
    size_t n;
    const td_event *ev = td_world_events(w, &n);
    for (size_t k = 0; k < n; k++)
      if (ev[k].kind == TD_EVENT_HIT && ev[k].source == TD_HIT_SOLDIER) {
        assert_int_equal(ev[k].tower, barracks.handle);
        td_soldier_view v;
        assert_true(td_world_soldier_get(w, ev[k].soldier, &v));
        /* fighting; walking back when that hit killed; fallen when the
        ** enemy's answer killed it */
        assert_true(v.state == TD_SOLDIER_ATTACK || v.state == TD_SOLDIER_MOVE ||
                    v.state == TD_SOLDIER_DIE);
        by_soldier++;
      }
  }
  assert_true(by_soldier > 0);
  assert_true(td_world_arrows(w, TD_UNIT_ENEMY, TD_ENEMY_BLOCKED, TD_ENEMY_DYING) > 0);
  assert_true(td_world_arrows(w, TD_UNIT_ENEMY, TD_ENEMY_ATTACK, TD_ENEMY_DYING) > 0);
  assert_true(td_world_arrows(w, TD_UNIT_SOLDIER, TD_SOLDIER_ENGAGE, TD_SOLDIER_MOVE) > 0);
  static const int stun[][2] = {{TD_ENEMY_BLOCKED, TD_ENEMY_STUNNED}, {TD_ENEMY_ATTACK, TD_ENEMY_STUNNED},
                                {TD_ENEMY_STUNNED, TD_ENEMY_BLOCKED}, {TD_ENEMY_STUNNED, TD_ENEMY_ATTACK}};
  for (size_t k = 0; k < sizeof stun / sizeof stun[0]; k++)
    if (td_world_arrows(w, TD_UNIT_ENEMY, stun[k][0], stun[k][1]) == 0)
      fail_msg("enemy arrow %s -> %s never taken", td_unit_state_name(TD_UNIT_ENEMY, stun[k][0]),
               td_unit_state_name(TD_UNIT_ENEMY, stun[k][1]));
  world_done(w);
  td_test_fixture_free(&f);
}

/* Flyers pass over a barracks: never engaged. */
static void test_flyers_never_engaged(void **state) {
  (void)state;
  fixture f;
  road_map(&f.map);
  rules_make(&f.rules, E_FLYER, 10);
  td_world *w = world_new(&f, 8);
  place(w, 0, T_BARRACKS);
  place(w, 3, T_BARRACKS);
  int flying = 0;
  for (int t = 0; t < 60 * 30; t++) {
    td_test_step(w);
    for (size_t i = 0; i < td_world_enemy_capacity(w); i++) {
      td_enemy_view e;
      if (!td_world_enemy(w, i, &e)) continue;
      assert_true(e.flying);
      assert_int_equal(e.holder, 0);
      flying++;
    }
    assert_int_equal(td_test_count_events(w, TD_EVENT_ENGAGED), 0);
    assert_int_equal(soldiers_in(w, -1, TD_SOLDIER_ENGAGE) + soldiers_in(w, -1, TD_SOLDIER_ATTACK), 0);
  }
  assert_true(flying > 1000);
  world_done(w);
  td_test_fixture_free(&f);
}

/* A long game on a grid with towers placed and sold at random among the
** bases, rallies here and there and two waves: no soldier ever stands in
** a closed cell or a footprint, and no tick's move crosses a closed cell
** (line of sight from the cell it left to the cell it reached); a tower
** built where a soldier stands puts it on an open cell. */
static void test_grid_never_through_walls(void **state) {
  (void)state;
  fixture f;
  grid_map(&f.map, room_rows, (int)(sizeof room_rows / sizeof room_rows[0]));
  rules_make(&f.rules, E_GRUNT, 12);
  f.rules.wave_interval = 25;
  f.rules.levels[L_BARRACKS].range = 5;
  td_world *w = world_new(&f, 11);
  const td_grid *grid = f.map.grid;
  const td_graph *g = td_route_graph(td_world_route(w));
  size_t nb = f.map.base_count;
  for (size_t b = 0; b < nb; b += 3) place(w, (int32_t)b, T_BARRACKS);
  td_test_rng rng = {42};
  enum { CAP = 256 };
  uint32_t handle[CAP] = {0};
  float px[CAP] = {0}, py[CAP] = {0};
  int pst[CAP] = {0};
  long moves = 0, pushes = 0;
  for (int t = 0; t < 60 * 90; t++) {
    if (t % 45 == 44) { /* a tower comes or goes on some base */
      int32_t b = (int32_t)td_test_below(&rng, (uint32_t)nb);
      td_tower_view tv;
      if (td_world_tower(w, (size_t)b, &tv) && b % 3 != 0)
        td_test_cmd(w, (td_command){.kind = TD_COMMAND_SELL, .base = b});
      else if (!td_world_tower(w, (size_t)b, &tv))
        place(w, b, td_test_below(&rng, 3) == 0 ? T_BARRACKS : T_GUN);
    }
    if (t % 100 == 50) { /* a rally somewhere near a barracks */
      int32_t b = (int32_t)(3 * td_test_below(&rng, (uint32_t)((nb + 2) / 3)));
      td_tower_view tv;
      if (td_world_tower(w, (size_t)b, &tv))
        rally(w, b, tv.x + (float)(td_test_unit(&rng) * 80 - 40),
              tv.y + (float)(td_test_unit(&rng) * 80 - 40));
    }
    td_test_step(w);
    for (size_t i = 0; i < td_world_soldier_capacity(w) && i < CAP; i++) {
      td_soldier_view v;
      if (!td_world_soldier(w, i, &v)) {
        handle[i] = 0;
        continue;
      }
      int32_t cx, cy;
      if (!cell_of(grid, v.x, v.y, &cx, &cy) || !cell_open(w, cx, cy) ||
          td_world_nonfinite(w, NULL, 0) != 0)
        fail_msg("tick %d: soldier %zu (%s) at (%g, %g): not in an open cell", t, i,
                 td_unit_state_name(TD_UNIT_SOLDIER, v.state), (double)v.x, (double)v.y);
      if (in_footprint(w, v.x, v.y))
        fail_msg("tick %d: soldier %zu at (%g, %g): in a footprint", t, i, (double)v.x, (double)v.y);
      int32_t ox, oy;
      /* the same soldier, that walked (not the fall's or the door's jump),
      ** from a cell still open (a tower may have come where it stood) */
      if (handle[i] == v.handle && pst[i] != TD_SOLDIER_DIE && pst[i] != TD_SOLDIER_RESPAWN &&
          cell_of(grid, px[i], py[i], &ox, &oy) && cell_open(w, ox, oy)) {
        if (px[i] != v.x || py[i] != v.y) moves++;
        if (!td_grid_line_of_sight(grid, g, ox, oy, cx, cy))
          fail_msg("tick %d: soldier %zu moved from cell (%d, %d) to (%d, %d) out of its sight", t,
                   i, (int)ox, (int)oy, (int)cx, (int)cy);
      } else if (handle[i] == v.handle && (px[i] != v.x || py[i] != v.y)) {
        pushes++;
      }
      handle[i] = v.handle;
      px[i] = v.x;
      py[i] = v.y;
      pst[i] = (int)v.state;
    }
  }
  assert_true(moves > 5000);
  assert_true(td_world_arrows(w, TD_UNIT_SOLDIER, TD_SOLDIER_ENGAGE, TD_SOLDIER_ATTACK) > 0);
  assert_true(pushes > 0); /* towers came where soldiers stood: out to open cells */
  world_done(w);
  td_test_fixture_free(&f);
}

/* Many soldiers on a serpentine, their posts moved across walls: the path
** queue never spends more than its budget in a tick, and it does spend
** all of it (requests wait for later ticks). */
/* A cost rule on one cell: the grid is no longer uniform, and the path
** queue searches with A* instead of JPS (nav/pathq.h). */
static void weigh_grid(td_world *w) {
  td_err err;
  int32_t node = 0;
  if (td_world_set_cost(w, TD_COST_NODE, &node, 1, 1.5, &err) != 0) fail_msg("%s", err.msg);
}

static void path_budget(bool astar, int width, int corridors) {
  fixture f;
  serpent_map(&f.map, width, corridors);
  rules_make(&f.rules, E_GRUNT, 10);
  td_world *w = world_new(&f, 12);
  if (astar) weigh_grid(w);
  size_t nb = f.map.base_count;
  for (size_t b = 0; b < nb; b++) place(w, (int32_t)b, T_BARRACKS);
  td_test_step(w);
  assert_true(td_world_soldier_count(w) >= 90);
  /* a pad's posts lie on one side of its wall: each sees the others */
  const td_graph *g = td_route_graph(td_world_route(w));
  for (size_t i = 0; i < td_world_soldier_capacity(w); i++)
    for (size_t j = 0; j < td_world_soldier_capacity(w); j++) {
      td_soldier_view a, b;
      int32_t ax, ay, bx, by;
      if (!td_world_soldier(w, i, &a) || !td_world_soldier(w, j, &b) || a.base != b.base) continue;
      assert_true(cell_of(f.map.grid, a.post_x, a.post_y, &ax, &ay));
      assert_true(cell_of(f.map.grid, b.post_x, b.post_y, &bx, &by));
      if (!td_grid_line_of_sight(f.map.grid, g, ax, ay, bx, by))
        fail_msg("base %d: posts (%d, %d) and (%d, %d) across a wall", (int)a.base, (int)ax,
                 (int)ay, (int)bx, (int)by);
    }
  uint64_t full = 0, spent = 0;
  size_t most_pending = 0;
  for (int t = 0; t < 60 * 40; t++) {
    if (t % 300 == 100) /* every barracks' posts to the other side of its wall */
      for (size_t b = 0; b < nb; b++) {
        td_tower_view tv;
        assert_true(td_world_tower(w, b, &tv));
        td_soldier_view v;
        float y = tv.y + 1.5f * TILE;
        for (size_t i = 0; i < td_world_soldier_capacity(w); i++)
          if (td_world_soldier(w, i, &v) && v.base == (int32_t)b) {
            y = v.post_y < tv.y ? tv.y + 1.5f * TILE : tv.y - 1.5f * TILE;
            break;
          }
        rally(w, (int32_t)b, tv.x, y);
      }
    td_test_step(w);
    const td_pathq_stats *st = td_world_pathq_stats(w);
    if (st->last_expansions > TD_WORLD_PATH_BUDGET)
      fail_msg("tick %d: %llu expansions", t, (unsigned long long)st->last_expansions);
    full += st->last_expansions == TD_WORLD_PATH_BUDGET;
    spent += st->last_expansions;
    if (td_world_pathq_pending(w) > most_pending) most_pending = td_world_pathq_pending(w);
  }
  if (getenv("TD_TEST_VERBOSE"))
    print_message("path budget (%s, %dx%d): %llu full ticks, %zu pending at most\n",
                  astar ? "A*" : "JPS", width, corridors, (unsigned long long)full, most_pending);
  assert_true(full >= 3);
  assert_true(most_pending >= 50);
  assert_int_equal(spent, td_world_pathq_stats(w)->expansions);
  world_done(w);
  td_test_fixture_free(&f);
}

/* With A* (a cost rule weighs the grid) and with JPS, which expands far
** fewer nodes: a longer serpentine and more barracks fill its budget. */
static void test_path_budget(void **state) {
  (void)state;
  path_budget(true, 90, 8);
  path_budget(false, 150, 16);
}

/* Two worlds with the same commands: a runs on, b is saved and loaded
** every `every` ticks and every tick of the ten after 600 k + 120 (when
** serpent_rallies may move posts: requests are pending, searches under way);
** their checksums agree every tick and their saves at every load. Returns
** how many loads found requests pending; in *busy, how many found a search
** in progress (the last tick spent the whole budget). */
static int save_often(const fixture *f, td_world *a, td_world **bp, int ticks, int every,
                      void (*commands)(td_world *w, int t), int *busy) {
  int pending = 0;
  *busy = 0;
  for (int t = 0; t < ticks; t++) {
    if (t % every == every - 1 || (t % 600 > 120 && t % 600 <= 130)) {
      td_world *b = td_test_save_and_load(f, *bp, NULL);
      td_world_destroy(*bp);
      *bp = b;
      assert_int_equal(td_world_checksum(a), td_world_checksum(b));
      td_test_assert_same_saves(a, b);
      pending += td_world_pathq_pending(b) > 0;
      *busy += td_world_pathq_stats(b)->last_expansions == TD_WORLD_PATH_BUDGET;
    }
    if (commands) {
      commands(a, t);
      commands(*bp, t);
    }
    td_test_step(a);
    td_test_step(*bp);
    if (td_world_checksum(a) != td_world_checksum(*bp))
      fail_msg("tick %d: the loaded world went another way", t);
  }
  return pending;
}

static void serpent_rallies(td_world *w, int t) {
  if (t % 600 != 120 || t % 1200 == 720) return;
  const td_map *m = td_world_map(w);
  for (size_t b = 0; b < m->base_count; b++) {
    td_tower_view tv;
    if (!td_world_tower(w, b, &tv)) continue;
    float y = (t / 1200) % 2 ? tv.y - 1.5f * TILE : tv.y + 1.5f * TILE;
    rally(w, (int32_t)b, tv.x, y);
  }
}

static void road_commands(td_world *w, int t) {
  if (t == 0) {
    place(w, 0, T_BARRACKS);
    place(w, 1, T_GUN);
    place(w, 3, T_BARRACKS);
  }
  if (t == 700) rally(w, 3, 140, 150); /* far: along the graph */
  if (t == 1500) td_test_cmd(w, (td_command){.kind = TD_COMMAND_UPGRADE, .base = 0, .upgrade = 0});
  if (t == 2300) rally(w, 0, 170, 50);
}

/* Barracks on a serpentine whose posts move across the walls, saved and
** loaded often: with searches in progress, A*'s (astar) or JPS's. */
static void serpent_saves(bool astar, int width, int corridors) {
  fixture f;
  serpent_map(&f.map, width, corridors);
  rules_make(&f.rules, E_GRUNT, 10);
  td_world *a = world_new(&f, 22), *b = world_new(&f, 22);
  if (astar) {
    weigh_grid(a);
    weigh_grid(b);
  }
  for (size_t k = 0; k < f.map.base_count; k++) {
    place(a, (int32_t)k, T_BARRACKS);
    place(b, (int32_t)k, T_BARRACKS);
  }
  int busy;
  int pending = save_often(&f, a, &b, 60 * 60, 23, serpent_rallies, &busy);
  if (getenv("TD_TEST_VERBOSE"))
    print_message("serpent saves (%s): %d loads with requests pending, %d mid-search\n",
                  astar ? "A*" : "JPS", pending, busy);
  assert_true(pending >= 4);
  assert_true(busy >= 2); /* loaded with a search half done */
  assert_true(td_world_arrows(a, TD_UNIT_SOLDIER, TD_SOLDIER_ENGAGE, TD_SOLDIER_ATTACK) > 0);
  world_done(a);
  td_world_destroy(b);
  td_test_fixture_free(&f);
}

/* Saves in the middle of fights, of walks, of searches: a loaded world
** goes on exactly as the one that was saved (waypoint map and grid). */
static void test_saves_mid_fight(void **state) {
  (void)state;
  fixture f;
  road_map(&f.map);
  rules_make(&f.rules, E_BRUTE, 6);
  f.rules.levels[L_BARRACKS].range = 15;
  td_world *a = world_new(&f, 21), *b = world_new(&f, 21);
  int busy;
  int pending = save_often(&f, a, &b, 60 * 50, 37, road_commands, &busy);
  assert_true(td_world_arrows(a, TD_UNIT_SOLDIER, TD_SOLDIER_ATTACK, TD_SOLDIER_DIE) > 0);
  assert_true(td_world_pathq_stats(a)->delivered >= 3); /* the far rally's */
  (void)pending;
  assert_true(td_world_soldier_count(a) > 0);
  world_done(a);
  td_world_destroy(b);
  td_test_fixture_free(&f);

  serpent_saves(true, 40, 6);   /* A*: a cost rule weighs the grid */
  serpent_saves(false, 150, 16); /* JPS: more soldiers to fill its budget */
}

/* A save whose soldier was tampered with is refused, naming the soldier. */
static void test_bad_soldier_saves(void **state) {
  (void)state;
  fixture f;
  road_map(&f.map);
  rules_make(&f.rules, E_GRUNT, 1);
  f.rules.first_wave_delay = 1000;
  f.rules.soldier_types[S_FOOT].health = 77.125f;
  td_world *w = world_new(&f, 5);
  place(w, 0, T_BARRACKS);
  td_test_steps(w, 300);
  td_blob blob = {0};
  td_world_save(w, &blob);
  float good = 77.125f;
  uint8_t *hit = NULL;
  for (size_t k = 0; k + 4 <= blob.len && !hit; k++)
    if (memcmp(blob.data + k, &good, 4) == 0) hit = blob.data + k;
  assert_non_null(hit);
  float bad = NAN;
  memcpy(hit, &bad, 4);
  td_blob_reader r = td_blob_read(blob.data, blob.len);
  td_err err = {{0}};
  assert_null(td_world_load(&f.map, &f.rules, &r, &err));
  assert_non_null(strstr(err.msg, "save: bad soldier 0: health is nan"));
  /* as big as its type allows, not more */
  bad = 78.0f;
  memcpy(hit, &bad, 4);
  r = td_blob_read(blob.data, blob.len);
  assert_null(td_world_load(&f.map, &f.rules, &r, &err));
  assert_non_null(strstr(err.msg, "save: bad soldier 0: health is 78"));
  memcpy(hit, &good, 4);
  r = td_blob_read(blob.data, blob.len);
  td_world *again = td_world_load(&f.map, &f.rules, &r, &err);
  if (!again) fail_msg("%s", err.msg);
  td_world_destroy(again);
  td_blob_free(&blob);
  world_done(w);
  td_test_fixture_free(&f);
}

/* A short grid game with barracks, a fight, rallies and a save mid-search;
** 0 when all of it worked, -1 when an allocation failed and it said so. */
static int soldiers_under_pressure(const fixture *f) {
  td_err err = {{0}};
  td_world *w = td_world_create(&f->map, &f->rules, 3, &err);
  if (!w) {
    if (!strstr(err.msg, "out of memory")) fail_msg("create: '%s'", err.msg);
    return -1;
  }
  int status = 0;
  for (int32_t b = 0; b < (int32_t)f->map.base_count && status == 0; b++) {
    td_command c = {.kind = TD_COMMAND_PLACE, .base = b, .tower_type = T_BARRACKS};
    if (td_world_command(w, &c, &err) != 0) status = -1;
  }
  for (int t = 0; t < 400 && status == 0; t++) {
    if (t == 200) {
      td_tower_view tv;
      if (td_world_tower(w, 0, &tv)) {
        td_command c = {.tick = (uint64_t)t, .kind = TD_COMMAND_RALLY, .base = 0, .x = tv.x,
                        .y = tv.y + 1.5f * TILE};
        if (td_world_command(w, &c, &err) != 0) status = -1;
      }
    }
    if (status == 0 && td_world_step(w, &err) != 0) {
      if (!strstr(err.msg, "out of memory")) fail_msg("step: '%s'", err.msg);
      status = -1;
    }
  }
  if (status == 0) status = td_test_reload_check(f, w);
  td_world_destroy(w);
  return status;
}

/* Every allocation of that game failing in turn: no leak, no wrong size,
** a clean message each time. */
static void test_allocation_failures(void **state) {
  (void)state;
  fixture f;
  serpent_map(&f.map, 24, 3);
  rules_make(&f.rules, E_GRUNT, 4);
  td_test_alloc al = {0};
  td_test_alloc_install(&al);
  assert_int_equal(soldiers_under_pressure(&f), 0);
  long total = al.calls;
  td_test_alloc_assert_clean(&al);
  for (long n = 1; n <= total; n++) {
    al = (td_test_alloc){.fail_at = n};
    soldiers_under_pressure(&f);
    if (al.live_blocks || al.live_bytes || al.bad_sizes)
      fail_msg("allocation %ld failing: %ld blocks (%lld bytes) leaked, %ld bad sizes", n,
               al.live_blocks, al.live_bytes, al.bad_sizes);
  }
  td_test_alloc_remove();
  assert_true(total > 50);
  td_test_fixture_free(&f);
}

/* Last: every arrow of unit.h's soldier table was taken in the games
** above (world_done checked that no other was), and the enemies' fighting
** arrows too. */
static void test_every_arrow_taken(void **state) {
  (void)state;
  for (int k = 0; k < TD_UNIT_KIND_COUNT; k++) {
    size_t n;
    const td_unit_arrow *a = td_unit_arrows((td_unit_kind)k, &n);
    for (size_t i = 0; i < n; i++) {
      if (k == TD_UNIT_ENEMY && (a[i].to == TD_ENEMY_ATTACK && a[i].from == TD_ENEMY_WALK))
        continue; /* a sapper's (siege.c) */
      if (k == TD_UNIT_ENEMY && a[i].from == TD_ENEMY_ATTACK && a[i].to == TD_ENEMY_BLOCKED)
        continue; /* a sapper engaged at its tower (siege.c's tests) */
      if (seen[k][a[i].from][a[i].to] == 0)
        fail_msg("%s arrow %s -> %s (%s) never taken", k == TD_UNIT_ENEMY ? "enemy" : "soldier",
                 td_unit_state_name(k, a[i].from), td_unit_state_name(k, a[i].to), a[i].when);
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_barracks_holds_a_wave),
      cmocka_unit_test(test_soldiers_fall_and_return),
      cmocka_unit_test(test_sold_in_every_state),
      cmocka_unit_test(test_rules_reload),
      cmocka_unit_test(test_rally),
      cmocka_unit_test(test_waypoint_far_walk),
      cmocka_unit_test(test_towers_shoot_held_enemies),
      cmocka_unit_test(test_flyers_never_engaged),
      cmocka_unit_test(test_grid_never_through_walls),
      cmocka_unit_test(test_path_budget),
      cmocka_unit_test(test_saves_mid_fight),
      cmocka_unit_test(test_bad_soldier_saves),
      cmocka_unit_test(test_allocation_failures),
      cmocka_unit_test(test_every_arrow_taken),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
