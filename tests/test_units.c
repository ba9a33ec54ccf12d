/*
** test_units.c: unit.h's two state machines as games take them: every
** arrow of the enemies' table and of the soldiers' table is taken in the
** designed games below, and no arrow outside the tables ever is
** (td_world_arrows, counted by enemy_go and soldier_go).
**
** Each game is small and aimed at a few arrows (the hard ones: a sapper
** at a tower engaged by a soldier, a stun that ends with the tower in
** reach or the soldier at hand, a held enemy let go, a barracks sold or
** destroyed with a soldier in each state); each checks its own arrows as
** it goes, and the test checks the union at the end. The map is a road
** with bases beside it, built in code; enemies are spawned, stunned and
** killed through the world's mutators (a script's), towers placed and
** sold by commands.
*/
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "worlds.h"

/* ---- fixtures ------------------------------------------------------------ */

/* The road ("units", td_test_road_map), one tile wide, along y = 50 from node 0 (x = 0, the spawn) to
** node 30 (x = 300, the goal), a node a tile. Bases, one tile, beside the
** road (they close nothing):
**   B_BARRACKS (150, 30) above it     B_WALL (150, 70) below it, facing it
**   B_FAR (60, 70) below it, far from the barracks' posts */
enum { B_BARRACKS, B_WALL, B_FAR, B_COUNT };

static void road_map(td_map *m) {
  static const double bc[B_COUNT][2] = {{150, 30}, {150, 70}, {60, 70}};
  td_test_road_map(m, "units", 10, NULL, 0, NULL, 0, bc, B_COUNT);
}

enum { E_GRUNT, E_BRUTE, E_SAPPER, E_COUNT };
enum { T_BARRACKS, T_WALL, T_COUNT };
enum { L_BARRACKS, L_WALL, L_COUNT };

static td_enemy_type enemy(const char *name, float health, float melee) {
  td_enemy_type e = td_test_enemy(name, health, 1);
  e.bounty = 1;
  e.lives = 1;
  e.melee_damage = melee;
  e.melee_rate = 1;
  return e;
}

static td_tower_level level(const char *name, int32_t tower, float health) {
  td_tower_level l = td_test_level(name, tower, -1, 10);
  l.range = 3;
  l.health = health;
  return l;
}

/* Grunts fight back weakly, brutes kill a footman in two hits; sappers
** hit a tower 10 twice a second from 2 tiles (the wall: 200 health) and
** barely fight back. The barracks (3 footmen) cannot be damaged. No wave
** comes: the games spawn what they need. */
static void rules_make(td_rules *r) {
  td_test_rules_init(r);
  r->enemies = td_mem_calloc(E_COUNT, sizeof *r->enemies);
  r->enemy_count = E_COUNT;
  r->enemies[E_GRUNT] = enemy("grunt", 40, 4);
  r->enemies[E_BRUTE] = enemy("brute", 400, 30);
  r->enemies[E_BRUTE].radius = 0.35f;
  r->enemies[E_SAPPER] = enemy("sapper", 100, 1);
  r->enemies[E_SAPPER].siege_damage = 10;
  r->enemies[E_SAPPER].siege_rate = 2;
  r->enemies[E_SAPPER].siege_range = 2;
  r->soldier_types = td_mem_calloc(1, sizeof *r->soldier_types);
  r->soldier_type_count = 1;
  r->soldier_types[0] = (td_soldier_type){.health = 50, .armour = 1, .damage = 8, .rate = 1,
                                          .speed = 2, .radius = 0.25f, .respawn = 2,
                                          .sight = 3, .regen = 5};
  snprintf(r->soldier_types[0].name, TD_RULES_NAME_MAX, "footman");
  r->towers = td_mem_calloc(T_COUNT, sizeof *r->towers);
  r->tower_count = T_COUNT;
  snprintf(r->towers[T_BARRACKS].name, TD_RULES_NAME_MAX, "barracks");
  r->towers[T_BARRACKS].root = L_BARRACKS;
  snprintf(r->towers[T_WALL].name, TD_RULES_NAME_MAX, "wall");
  r->towers[T_WALL].root = L_WALL;
  r->levels = td_mem_calloc(L_COUNT, sizeof *r->levels);
  r->level_count = L_COUNT;
  r->levels[L_BARRACKS] = level("barracks", T_BARRACKS, 0);
  r->levels[L_BARRACKS].soldiers = 3;
  r->levels[L_BARRACKS].soldier = 0;
  r->levels[L_WALL] = level("wall", T_WALL, 200);
  r->groups = td_mem_calloc(1, sizeof *r->groups);
  r->group_count = 1;
  r->groups[0] = (td_spawn_group){.enemy = E_GRUNT, .begin = 1, .every = 1, .count = 1,
                                  .max_count = 1, .spawn = -1, .per_row = 1, .spacing = 1};
  r->wave_count = 1;
  r->first_wave_delay = 1e5f;
  r->wave_interval = 10;
  r->start_gold = 100000;
  r->start_lives = 1000;
  r->sell_refund = 0.5f;
}

typedef td_test_fixture fixture;

static void fixture_make(fixture *f) {
  road_map(&f->map);
  rules_make(&f->rules);
}

/* ---- helpers ------------------------------------------------------------- */

/* The arrows taken in every game of the test, by kind, from, to. */
typedef uint64_t arrow_counts[TD_UNIT_KIND_COUNT][8][8];

static const char *kind_name(int k) { return k == TD_UNIT_ENEMY ? "enemy" : "soldier"; }

static td_world *world_new(const fixture *f, uint64_t seed) {
  return td_test_world(&f->map, &f->rules, seed);
}

/* Every arrow the world took is one of unit.h's tables; they add up in
** seen. The world is destroyed. */
static void world_done(td_world *w, arrow_counts seen, const char *game) {
  for (int k = 0; k < TD_UNIT_KIND_COUNT; k++) td_test_arrows_check(w, (td_unit_kind)k, game, seen[k]);
  td_world_destroy(w);
}

/* The game meant to take the arrow did. */
static void expect(const td_world *w, td_unit_kind k, int from, int to, const char *game) {
  if (td_world_arrows(w, k, from, to) == 0)
    fail_msg("%s: %s arrow %s -> %s not taken", game, kind_name(k), td_unit_state_name(k, from),
             td_unit_state_name(k, to));
}

#define EXPECT_E(from, to) expect(w, TD_UNIT_ENEMY, TD_ENEMY_##from, TD_ENEMY_##to, game)
#define EXPECT_S(from, to) expect(w, TD_UNIT_SOLDIER, TD_SOLDIER_##from, TD_SOLDIER_##to, game)

/* A command applied now (one step), and not refused. */
static void command(td_world *w, td_command c) {
  c.tick = 0; /* now */
  td_test_cmd(w, c);
  td_test_step(w);
  td_refusal why = td_test_refusal(w);
  if (why != TD_REFUSAL_NONE) fail_msg("command %d refused (%d)", c.kind, why);
}

static void place(td_world *w, int32_t base, int32_t type) {
  command(w, (td_command){.kind = TD_COMMAND_PLACE, .base = base, .tower_type = type});
}

static void sell(td_world *w, int32_t base) {
  command(w, (td_command){.kind = TD_COMMAND_SELL, .base = base});
}

static uint32_t spawn(td_world *w, int32_t type, int32_t node) {
  return td_test_spawn(w, type, node, 0, 0);
}

static void stun(td_world *w, uint32_t h, float seconds) {
  td_effect e = {TD_EFFECT_STUN, 0, seconds};
  assert_int_equal(td_world_apply_effect(w, h, &e, 0, 0), 0);
}

static void kill(td_world *w, uint32_t h) {
  assert_true(td_world_damage(w, h, 1e6f, 0, 0) > 0);
}

/* Steps until enemy h is in state st (at most limit steps). */
static void until_enemy(td_world *w, uint32_t h, td_enemy_state st, int limit) {
  for (int t = 0; t < limit; t++) {
    if (td_test_enemy_view(w, h).state == st) return;
    td_test_step(w);
  }
  if (td_test_enemy_view(w, h).state != st)
    fail_msg("enemy %u not %s within %d steps (it is %s)", h,
             td_unit_state_name(TD_UNIT_ENEMY, (int)st), limit,
             td_unit_state_name(TD_UNIT_ENEMY, (int)td_test_enemy_view(w, h).state));
}

static int soldiers_in(const td_world *w, td_soldier_state st) {
  int n = 0;
  for (size_t i = 0; i < td_world_soldier_capacity(w); i++) {
    td_soldier_view v;
    n += td_world_soldier(w, i, &v) && v.state == st;
  }
  return n;
}

/* Steps until a soldier is in state st (at most limit steps). */
static void until_soldier(td_world *w, td_soldier_state st, int limit) {
  for (int t = 0; t < limit && soldiers_in(w, st) == 0; t++) td_test_step(w);
  if (soldiers_in(w, st) == 0)
    fail_msg("no soldier %s within %d steps", td_unit_state_name(TD_UNIT_SOLDIER, (int)st), limit);
}

/* ---- the games ----------------------------------------------------------- */

/* A sapper at an unguarded wall: it stops and hits (WALK -> ATTACK); a
** stun stops it and, ending with the wall still in reach, puts it back
** (ATTACK -> STUNNED -> ATTACK); the wall falls and it walks on (ATTACK ->
** WALK) to the goal (WALK -> LEAKED -> FREE). Beside it, enemies walking
** are stunned (WALK -> STUNNED), and walk on (STUNNED -> WALK) or are
** killed stunned (STUNNED -> DYING) or walking (WALK -> DYING -> FREE). */
static void game_unguarded_wall(arrow_counts seen) {
  const char *game = "unguarded wall";
  fixture f;
  fixture_make(&f);
  td_world *w = world_new(&f, 1);
  place(w, B_WALL, T_WALL);
  uint32_t s = spawn(w, E_SAPPER, 0);
  until_enemy(w, s, TD_ENEMY_ATTACK, 60 * 20);
  assert_int_equal(td_test_enemy_view(w, s).siege, B_WALL);
  EXPECT_E(FREE, WALK);
  EXPECT_E(WALK, ATTACK);
  stun(w, s, 0.5f);
  assert_int_equal(td_test_enemy_view(w, s).state, TD_ENEMY_STUNNED);
  until_enemy(w, s, TD_ENEMY_ATTACK, 60);
  assert_int_equal(td_test_enemy_view(w, s).siege, B_WALL);
  EXPECT_E(ATTACK, STUNNED);
  EXPECT_E(STUNNED, ATTACK);

  uint32_t a = spawn(w, E_GRUNT, 0), b = spawn(w, E_GRUNT, 2), c = spawn(w, E_GRUNT, 4);
  td_test_steps(w, 10);
  stun(w, a, 0.2f);
  stun(w, b, 0.2f);
  kill(w, c);
  assert_int_equal(td_test_enemy_view(w, b).state, TD_ENEMY_STUNNED);
  kill(w, b);
  until_enemy(w, a, TD_ENEMY_WALK, 60);
  td_test_step(w);
  EXPECT_E(WALK, STUNNED);
  EXPECT_E(STUNNED, WALK);
  EXPECT_E(STUNNED, DYING);
  EXPECT_E(WALK, DYING);
  EXPECT_E(DYING, FREE);

  /* the wall falls: the sapper walks on and leaks */
  for (int t = 0; t < 60 * 30 && td_world_tower(w, B_WALL, &(td_tower_view){0}); t++) td_test_step(w);
  assert_false(td_world_tower(w, B_WALL, &(td_tower_view){0}));
  EXPECT_E(ATTACK, WALK);
  for (int t = 0; t < 60 * 60 && td_world_enemy_count(w) > 0; t++) td_test_step(w);
  assert_int_equal(td_world_enemy_count(w), 0);
  EXPECT_E(WALK, LEAKED);
  EXPECT_E(LEAKED, FREE);
  world_done(w, seen, game);
  td_test_fixture_free(&f);
}

/* A sapper at the wall by the barracks: the barracks is built while it
** hits the wall; a soldier engages it there (ATTACK -> BLOCKED), reaches
** it (BLOCKED -> ATTACK); a stun that ends with the soldier at hand puts it
** back to the fight (STUNNED -> ATTACK); it dies fighting (ATTACK ->
** DYING). The soldiers come out (FREE -> MOVE), engage on the way (MOVE ->
** ENGAGE) or from their posts (MOVE -> IDLE -> ENGAGE), fight (ENGAGE ->
** ATTACK) and walk back (ATTACK -> MOVE). */
static void game_guarded_wall(arrow_counts seen) {
  const char *game = "guarded wall";
  fixture f;
  fixture_make(&f);
  td_world *w = world_new(&f, 2);
  place(w, B_WALL, T_WALL);
  uint32_t s = spawn(w, E_SAPPER, 0);
  until_enemy(w, s, TD_ENEMY_ATTACK, 60 * 20);
  assert_int_equal(td_test_enemy_view(w, s).siege, B_WALL);
  place(w, B_BARRACKS, T_BARRACKS);
  until_enemy(w, s, TD_ENEMY_BLOCKED, 60 * 5);
  assert_int_not_equal(td_test_enemy_view(w, s).holder, 0);
  assert_int_equal(td_test_enemy_view(w, s).siege, -1);
  EXPECT_E(ATTACK, BLOCKED);
  EXPECT_S(FREE, MOVE);
  EXPECT_S(MOVE, ENGAGE);
  until_enemy(w, s, TD_ENEMY_ATTACK, 60 * 5);
  assert_int_not_equal(td_test_enemy_view(w, s).holder, 0); /* the soldier's fight, not the wall's */
  EXPECT_E(BLOCKED, ATTACK);
  EXPECT_S(ENGAGE, ATTACK);
  stun(w, s, 0.3f);
  assert_int_equal(td_test_enemy_view(w, s).state, TD_ENEMY_STUNNED);
  until_enemy(w, s, TD_ENEMY_ATTACK, 60);
  assert_int_not_equal(td_test_enemy_view(w, s).holder, 0);
  EXPECT_E(STUNNED, ATTACK);
  for (int t = 0; t < 60 * 30 && td_world_enemy_get(w, s, &(td_enemy_view){0}); t++) td_test_step(w);
  assert_false(td_world_enemy_get(w, s, &(td_enemy_view){0}));
  EXPECT_E(ATTACK, DYING);
  EXPECT_S(ATTACK, MOVE);
  until_soldier(w, TD_SOLDIER_IDLE, 60 * 10);
  EXPECT_S(MOVE, IDLE);
  /* from their posts: a grunt comes */
  uint32_t g = spawn(w, E_GRUNT, 5);
  until_enemy(w, g, TD_ENEMY_BLOCKED, 60 * 20);
  EXPECT_E(WALK, BLOCKED);
  EXPECT_S(IDLE, ENGAGE);
  world_done(w, seen, game);
  td_test_fixture_free(&f);
}

/* Slow soldiers hold grunts: one stunned while held, its soldier still on
** the way (BLOCKED -> STUNNED -> BLOCKED); one killed held (BLOCKED ->
** DYING; its soldier ENGAGE -> MOVE); one let go when the rally point
** moves (BLOCKED -> WALK; IDLE -> MOVE); a brute kills its soldier
** (ATTACK -> DIE; the brute ATTACK -> WALK), who falls, waits and walks
** out again (DIE -> RESPAWN -> MOVE); a held one is stunned in the fight
** (ATTACK -> STUNNED). */
static void game_held(arrow_counts seen) {
  const char *game = "held";
  fixture f;
  fixture_make(&f);
  f.rules.soldier_types[0].speed = 0.3f;
  td_world *w = world_new(&f, 3);
  place(w, B_BARRACKS, T_BARRACKS);
  until_soldier(w, TD_SOLDIER_IDLE, 60 * 30);
  td_test_steps(w, 60 * 5);
  assert_int_equal(soldiers_in(w, TD_SOLDIER_IDLE), 3);

  /* stunned while held, the soldier not at hand: held again after */
  uint32_t a = spawn(w, E_GRUNT, 8);
  until_enemy(w, a, TD_ENEMY_BLOCKED, 60 * 20);
  stun(w, a, 0.2f);
  assert_int_equal(td_test_enemy_view(w, a).state, TD_ENEMY_STUNNED);
  until_enemy(w, a, TD_ENEMY_BLOCKED, 60);
  EXPECT_E(BLOCKED, STUNNED);
  EXPECT_E(STUNNED, BLOCKED);
  /* killed held: its soldier walks back */
  kill(w, a);
  td_test_step(w);
  EXPECT_E(BLOCKED, DYING);
  EXPECT_S(ENGAGE, MOVE);
  until_soldier(w, TD_SOLDIER_IDLE, 60 * 30);
  td_test_steps(w, 60 * 5);

  /* let go: the rally point moves while it is held */
  uint32_t b = spawn(w, E_GRUNT, 8);
  until_enemy(w, b, TD_ENEMY_BLOCKED, 60 * 20);
  assert_int_equal(soldiers_in(w, TD_SOLDIER_ENGAGE), 1);
  command(w, (td_command){.kind = TD_COMMAND_RALLY, .base = B_BARRACKS, .x = 170, .y = 50});
  assert_int_equal(td_test_enemy_view(w, b).state, TD_ENEMY_WALK);
  EXPECT_E(BLOCKED, WALK);
  EXPECT_S(IDLE, MOVE);

  /* a brute kills the soldier holding it (it is stunned in the fight
  ** first) and walks on */
  until_soldier(w, TD_SOLDIER_IDLE, 60 * 30);
  td_test_steps(w, 60 * 5);
  uint32_t br = spawn(w, E_BRUTE, 8);
  until_enemy(w, br, TD_ENEMY_ATTACK, 60 * 60);
  stun(w, br, 0.1f);
  EXPECT_E(ATTACK, STUNNED);
  until_soldier(w, TD_SOLDIER_DIE, 60 * 20);
  EXPECT_S(ATTACK, DIE);
  until_soldier(w, TD_SOLDIER_RESPAWN, 60 * 2);
  EXPECT_S(DIE, RESPAWN);
  until_soldier(w, TD_SOLDIER_MOVE, 60 * 5);
  for (int t = 0; t < 60 * 5 && td_world_arrows(w, TD_UNIT_SOLDIER, TD_SOLDIER_RESPAWN,
                                                  TD_SOLDIER_MOVE) == 0; t++)
    td_test_step(w);
  EXPECT_S(RESPAWN, MOVE);
  EXPECT_E(ATTACK, WALK);
  world_done(w, seen, game);
  td_test_fixture_free(&f);
}

/* Every soldier state -> FREE: a barracks sold (or, for the last state,
** destroyed through td_world_damage_tower, the sappers' path) while one of
** its soldiers is in that state; the enemies it held walk on. */
static void game_barracks_gone(arrow_counts seen, td_soldier_state st, bool destroy) {
  char game[64];
  snprintf(game, sizeof game, "barracks %s, a soldier %s", destroy ? "destroyed" : "sold",
           td_unit_state_name(TD_UNIT_SOLDIER, (int)st));
  fixture f;
  fixture_make(&f);
  f.rules.levels[L_BARRACKS].health = destroy ? 100 : 0;
  td_world *w = world_new(&f, 10 + (uint64_t)st);
  place(w, B_BARRACKS, T_BARRACKS);
  /* brutes, one at a time, so that soldiers fight and fall */
  bool found = false;
  for (int t = 0; t < 60 * 120 && !found; t++) {
    if (t % (60 * 4) == 0 && td_world_enemy_count(w) < 3) spawn(w, E_BRUTE, 6);
    td_test_step(w);
    found = soldiers_in(w, st) > 0;
  }
  if (!found) fail_msg("%s: no soldier ever in that state", game);
  uint64_t before = td_world_arrows(w, TD_UNIT_SOLDIER, (int)st, TD_SOLDIER_FREE);
  if (destroy) {
    td_tower_view tv;
    assert_true(td_world_tower(w, B_BARRACKS, &tv));
    assert_true(td_world_damage_tower(w, tv.handle, 1000, 0) > 0);
    assert_false(td_world_tower(w, B_BARRACKS, &tv));
    td_test_step(w);
  } else {
    sell(w, B_BARRACKS);
  }
  assert_int_equal(td_world_soldier_count(w), 0);
  if (td_world_arrows(w, TD_UNIT_SOLDIER, (int)st, TD_SOLDIER_FREE) <= before)
    fail_msg("%s: arrow %s -> free not taken", game, td_unit_state_name(TD_UNIT_SOLDIER, (int)st));
  for (size_t i = 0; i < td_world_enemy_capacity(w); i++) {
    td_enemy_view e;
    if (td_world_enemy(w, i, &e)) {
      assert_int_equal(e.holder, 0);
      assert_true(e.state == TD_ENEMY_WALK || e.state == TD_ENEMY_STUNNED);
    }
  }
  world_done(w, seen, game);
  td_test_fixture_free(&f);
}

/* ---- the test ------------------------------------------------------------ */

/* Every arrow of both tables taken in the games above, none other. */
static void test_every_arrow_and_no_other(void **state) {
  (void)state;
  arrow_counts seen;
  memset(seen, 0, sizeof seen);
  game_unguarded_wall(seen);
  game_guarded_wall(seen);
  game_held(seen);
  static const td_soldier_state states[] = {TD_SOLDIER_MOVE,   TD_SOLDIER_IDLE, TD_SOLDIER_ENGAGE,
                                            TD_SOLDIER_ATTACK, TD_SOLDIER_DIE,  TD_SOLDIER_RESPAWN};
  for (size_t k = 0; k < sizeof states / sizeof states[0]; k++) {
    game_barracks_gone(seen, states[k], false);
    game_barracks_gone(seen, states[k], true);
  }
  int missing = 0;
  for (int k = 0; k < TD_UNIT_KIND_COUNT; k++) {
    size_t n;
    const td_unit_arrow *a = td_unit_arrows((td_unit_kind)k, &n);
    assert_true(n > 0);
    for (size_t i = 0; i < n; i++) {
      uint64_t c = seen[k][a[i].from][a[i].to];
      printf("  %-7s %-8s -> %-8s %8llu\n", kind_name(k), td_unit_state_name(k, a[i].from),
             td_unit_state_name(k, a[i].to), (unsigned long long)c);
      if (c == 0) {
        printf("  ^ never taken: %s\n", a[i].when);
        missing++;
      }
    }
  }
  assert_int_equal(missing, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_arrow_and_no_other),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
