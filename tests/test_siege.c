/*
** test_siege.c: towers under fire (sim/siege.c): sappers that pick, hit
** and destroy towers, the base reopening through the route's incremental
** update, stuns and sales during a siege, health across upgrades, repair,
** td_world_damage_tower, the enemy arrows taken, and saves mid-siege, on
** small maps and rules built in code.
*/
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "worlds.h"

/* ---- fixtures: maps ------------------------------------------------------ */

/* The fork (worlds.h), its spawn "west": base 0 (75, 50) blocks edge 1-2,
** base 1 (75, 100) blocks edge 4-5, base 2 (75, 75) blocks nothing. */
static void fork_map(td_map *m) {
  static const td_test_base bases[3] = {
    {75, 50, 1, {{.kind = TD_CHANGE_BLOCK_EDGE, .id = FORK_E12}}},
    {75, 100, 1, {{.kind = TD_CHANGE_BLOCK_EDGE, .id = FORK_E45}}},
    {75, 75, 0, {{.kind = TD_CHANGE_BLOCK_EDGE}}},
  };
  td_test_fork_map(m, "west", bases, 3);
}

/* The line (worlds.h), its spawn "west". Bases block nothing: 0 at
** (90, 20) and 1 at (90, 80), each 25 from the line (the footprint's
** edge); 2 at (40, 50) on the line; 3 at (150, 20), 25 off. */
static void line_map(td_map *m) {
  static const td_test_base bases[4] = {{.cx = 90, .cy = 20}, {.cx = 90, .cy = 80},
                                        {.cx = 40, .cy = 50}, {.cx = 150, .cy = 20}};
  td_test_line_map(m, "west", bases, 4);
}

/* ---- fixtures: rules ----------------------------------------------------- */

enum { E_GRUNT, E_SAPPER, E_LONG, E_FLYSAP, E_COUNT };
enum { T_WALL, T_ROCK, T_GUN, T_COUNT };
enum { L_WALL, L_KEEP, L_STONE, L_ROCK, L_GUN, L_COUNT };

static td_enemy_type enemy(const char *name, float health) {
  td_enemy_type e = td_test_enemy(name, health, 1);
  e.bounty = 1;
  e.lives = 1;
  return e;
}

static td_tower_level level(const char *name, int32_t tower, int32_t parent, int32_t cost,
                            float health) {
  td_tower_level l = td_test_level(name, tower, parent, cost);
  l.range = 1;
  l.hits_air = true;
  l.health = health;
  return l;
}

/* Sappers hit 10 twice a second from 2 tiles (E_LONG from 2.5); walls do
** not fire (rate 0, no buff): towers are unguarded unless a test places a
** gun. No wave comes unless a test says so. */
static void rules_make(td_rules *r) {
  td_test_rules_init(r);
  r->enemies = td_mem_calloc(E_COUNT, sizeof *r->enemies);
  r->enemy_count = E_COUNT;
  td_enemy_type *e = r->enemies;
  e[E_GRUNT] = enemy("grunt", 100);
  e[E_SAPPER] = enemy("sapper", 100);
  e[E_SAPPER].siege_damage = 10;
  e[E_SAPPER].siege_rate = 2;
  e[E_SAPPER].siege_range = 2;
  e[E_LONG] = e[E_SAPPER];
  snprintf(e[E_LONG].name, TD_RULES_NAME_MAX, "long");
  e[E_LONG].siege_range = 2.5f;
  e[E_FLYSAP] = e[E_SAPPER];
  snprintf(e[E_FLYSAP].name, TD_RULES_NAME_MAX, "bat");
  e[E_FLYSAP].flying = true;
  e[E_FLYSAP].siege_range = 1;

  r->towers = td_mem_calloc(T_COUNT, sizeof *r->towers);
  r->tower_count = T_COUNT;
  static const char *tnames[T_COUNT] = {"wall", "rock", "gun"};
  static const int32_t roots[T_COUNT] = {L_WALL, L_ROCK, L_GUN};
  for (int t = 0; t < T_COUNT; t++) {
    snprintf(r->towers[t].name, TD_RULES_NAME_MAX, "%s", tnames[t]);
    r->towers[t].root = roots[t];
  }
  r->levels = td_mem_calloc(L_COUNT, sizeof *r->levels);
  r->level_count = L_COUNT;
  td_tower_level *l = r->levels;
  l[L_WALL] = level("wall", T_WALL, -1, 40, 50);
  l[L_WALL].children[0] = L_KEEP;
  l[L_WALL].children[1] = L_STONE;
  l[L_KEEP] = level("keep", T_WALL, L_WALL, 20, 200);
  l[L_STONE] = level("stone", T_WALL, L_WALL, 10, 0);
  l[L_ROCK] = level("rock", T_ROCK, -1, 10, 0);
  l[L_GUN] = level("gun", T_GUN, -1, 50, 100);
  l[L_GUN].range = 3;
  l[L_GUN].rate = 1;
  l[L_GUN].damage = 4;

  r->groups = td_mem_calloc(1, sizeof *r->groups);
  r->group_count = 1;
  r->groups[0] = (td_spawn_group){.enemy = E_SAPPER, .begin = 1, .every = 1, .count = 2,
                                  .max_count = 10, .spawn = -1, .per_row = 2, .width = 1,
                                  .spacing = 1};
  r->wave_count = 3;
  r->first_wave_delay = 1e5f;
  r->wave_interval = 10;
  r->start_gold = 500;
  r->start_lives = 100;
  r->sell_refund = 0.5f;
  r->repair_cost = 0.5f;
}

typedef td_test_fixture fixture;

/* ---- helpers ------------------------------------------------------------- */

static td_world *world_new(const fixture *f, uint64_t seed) {
  return td_test_world(&f->map, &f->rules, seed);
}

/* A command applied now (one step); the refusal it met, NONE if none. */
static td_refusal command_now(td_world *w, td_command c) {
  c.tick = 0; /* now */
  td_test_cmd(w, c);
  td_test_step(w);
  return td_test_refusal(w);
}

static void place(td_world *w, int32_t base, int32_t type) {
  assert_int_equal(command_now(w, (td_command){.kind = TD_COMMAND_PLACE, .base = base,
                                               .tower_type = type}),
                   TD_REFUSAL_NONE);
}

static uint32_t spawn_at(td_world *w, int32_t type, int32_t node) {
  return td_test_spawn(w, type, node, 0, 0);
}

/* Spawned at node with a lane offset (tiles). */
static uint32_t spawn_lane(td_world *w, int32_t type, int32_t node, float lane) {
  return td_test_spawn(w, type, node, lane, 0);
}

/* Steps until the enemy attacks a tower (at most `limit` steps). */
static void until_attacking(td_world *w, uint32_t h, int limit) {
  for (int t = 0; t < limit; t++) {
    td_test_step(w);
    if (td_test_enemy_view(w, h).state == TD_ENEMY_ATTACK) return;
  }
  fail_msg("enemy %u did not attack within %d steps", h, limit);
}

/* Every enemy arrow the world took is one of unit.h's table. */
static void assert_arrows_in_table(const td_world *w) {
  td_test_arrows_check(w, TD_UNIT_ENEMY, NULL, NULL);
}

static uint64_t arrows(const td_world *w, td_enemy_state a, td_enemy_state b) {
  return td_world_arrows(w, TD_UNIT_ENEMY, a, b);
}

/* The world's route equals a full recompute on a copy of its graph (the
** same blocked flags and weights). */
static void assert_route_is_full(const td_world *w) {
  const td_route *rt = td_world_route(w);
  td_err err = {{0}};
  assert_int_equal(td_route_validate(rt, &err), 0);
  td_graph *copy = td_graph_clone(td_route_graph(rt), &err);
  assert_non_null(copy);
  const int32_t *goals;
  size_t ng = td_route_goals(rt, &goals);
  td_route *fresh = td_route_create(copy, goals, ng, &err);
  assert_non_null(fresh);
  size_t nn = (size_t)copy->node_count;
  assert_memory_equal(td_route_dist(fresh), td_route_dist(rt), nn * sizeof(td_cost));
  assert_memory_equal(td_route_next(fresh), td_route_next(rt), nn * sizeof(int32_t));
  td_route_destroy(fresh);
  td_graph_destroy(copy);
}

/* ---- a sapper wave destroys an unguarded tower ---------------------------- */

static void test_wave_destroys_tower(void **state) {
  (void)state;
  fixture f;
  fork_map(&f.map);
  rules_make(&f.rules);
  f.rules.first_wave_delay = 0.5f;
  td_world *w = world_new(&f, 1);
  place(w, 0, T_WALL);
  td_tower_view wall = td_test_tower_view(w, 0);
  assert_true(wall.health == 50 && wall.max_health == 50);
  const td_route *rt = td_world_route(w);
  const int32_t *next = td_route_next(rt);
  assert_int_equal(next[1], 4); /* the wall sends the route round */
  assert_true(td_route_graph(rt)->edges[FORK_E12].blocked);

  /* the wave comes; its sappers stop at the wall; a grunt follows them */
  uint32_t grunt = 0;
  float health = 50, sum = 0;
  uint32_t last_hitter = 0;
  const td_event *fell = NULL;
  int t = 0;
  for (; t < 60 * 20 && !fell; t++) {
    td_test_step(w);
    size_t n;
    const td_event *e = td_world_events(w, &n);
    for (size_t i = 0; i < n; i++) {
      if (e[i].kind == TD_EVENT_TOWER_DAMAGED) {
        assert_int_equal(e[i].tower, wall.handle);
        assert_int_equal(e[i].base, 0);
        assert_int_equal(e[i].type, L_WALL);
        assert_float_equal(e[i].x, 75, 1e-6);
        td_enemy_view sv;
        assert_true(td_world_enemy_get(w, e[i].enemy, &sv)); /* a live sapper */
        assert_int_equal(sv.type, E_SAPPER);
        assert_true(e[i].amount == 10);
        health -= e[i].amount;
        sum += e[i].amount;
        last_hitter = e[i].enemy;
        if (health > 0) assert_true(td_test_tower_view(w, 0).health == health);
      } else if (e[i].kind == TD_EVENT_TOWER_DESTROYED) {
        /* right after the hit that took the last health, in the same step */
        assert_true(i > 0 && e[i - 1].kind == TD_EVENT_TOWER_DAMAGED);
        assert_int_equal(e[i].enemy, e[i - 1].enemy);
        fell = &e[i];
      }
    }
    if (!grunt && sum > 0) {
      grunt = spawn_at(w, E_GRUNT, 0);
      /* while it stands, its sappers are in ATTACK and name the base */
      size_t attackers = 0;
      for (size_t s = 0; s < td_world_enemy_capacity(w); s++) {
        td_enemy_view v;
        if (td_world_enemy(w, s, &v) && v.state == TD_ENEMY_ATTACK) {
          assert_int_equal(v.siege, 0);
          attackers++;
        }
      }
      assert_true(attackers >= 1);
    }
  }
  assert_non_null(fell);
  printf("  the wall fell at tick %d\n", t);
  assert_true(sum == 50 && health == 0);
  assert_int_equal(fell->tower, wall.handle);
  assert_int_equal(fell->type, L_WALL);
  assert_int_equal(fell->base, 0);
  assert_int_equal(fell->enemy, last_hitter);
  assert_float_equal(fell->x, 75, 1e-6);
  assert_float_equal(fell->y, 50, 1e-6);
  assert_int_equal(td_test_count_events(w, TD_EVENT_SOLD), 0);
  /* no refund: the gold is what it was after the placement */
  assert_int_equal(td_world_gold(w), 500 - 40);

  /* the base is free again, the handle dead, the short way open */
  assert_false(td_world_tower(w, 0, &(td_tower_view){0}));
  assert_false(td_world_tower_get(w, wall.handle, &(td_tower_view){0}));
  assert_int_equal(td_world_tower_count(w), 0);
  assert_false(td_route_graph(rt)->edges[FORK_E12].blocked);
  assert_int_equal(next[1], 2);
  assert_route_is_full(w);
  /* every sapper walks on */
  for (size_t s = 0; s < td_world_enemy_capacity(w); s++) {
    td_enemy_view v;
    if (!td_world_enemy(w, s, &v)) continue;
    assert_int_equal(v.siege, -1);
    assert_int_equal(v.state, TD_ENEMY_WALK);
  }
  assert_true(arrows(w, TD_ENEMY_WALK, TD_ENEMY_ATTACK) >= 1);
  assert_true(arrows(w, TD_ENEMY_ATTACK, TD_ENEMY_WALK) >= 1);

  /* the grunt, still before node 1 when the wall fell, takes the short
  ** way (it would have gone by y = 100) */
  assert_true(grunt != 0 && td_test_enemy_view(w, grunt).x < 45);
  float ymax = 0;
  while (td_world_enemy_get(w, grunt, &(td_enemy_view){0})) {
    td_enemy_view v = td_test_enemy_view(w, grunt);
    if (v.y > ymax) ymax = v.y;
    td_test_step(w);
  }
  assert_true(ymax < 60);
  assert_arrows_in_table(w);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

/* A base a tower fell from can be built on again: it blocks again. */
static void test_rebuild_after_fall(void **state) {
  (void)state;
  fixture f;
  fork_map(&f.map);
  rules_make(&f.rules);
  td_world *w = world_new(&f, 1);
  place(w, 0, T_WALL);
  td_tower_view old = td_test_tower_view(w, 0);
  assert_true(td_world_damage_tower(w, old.handle, 1e9f, 0) == 50);
  assert_int_equal(td_route_next(td_world_route(w))[1], 2);
  place(w, 0, T_WALL);
  td_tower_view v = td_test_tower_view(w, 0);
  assert_true(v.handle != old.handle);
  assert_true(v.health == 50);
  assert_int_equal(td_route_next(td_world_route(w))[1], 4);
  assert_true(td_route_graph(td_world_route(w))->edges[FORK_E12].blocked);
  assert_route_is_full(w);
  assert_int_equal(td_world_gold(w), 500 - 80);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

/* ---- which towers a sapper attacks ---------------------------------------- */

static void test_ignores_undamageable_and_far_towers(void **state) {
  (void)state;
  fixture f;
  line_map(&f.map);
  rules_make(&f.rules);
  td_world *w = world_new(&f, 1);
  place(w, 2, T_ROCK); /* on its way, but it cannot be damaged */
  place(w, 0, T_WALL); /* 25 off its way: out of a reach of 23 */
  place(w, 3, T_WALL);
  uint32_t s = spawn_at(w, E_SAPPER, 0);
  while (td_world_enemy_get(w, s, &(td_enemy_view){0})) {
    td_test_step(w);
    assert_int_equal(td_test_count_events(w, TD_EVENT_TOWER_DAMAGED), 0);
  }
  assert_int_equal(arrows(w, TD_ENEMY_WALK, TD_ENEMY_ATTACK), 0);
  assert_true(td_test_tower_view(w, 0).health == 50 && td_test_tower_view(w, 3).health == 50);
  assert_int_equal(td_world_lives(w), 99); /* it walked through */

  /* one that reaches 28: base 0 (25 off) is first within it */
  uint32_t l = spawn_at(w, E_LONG, 0);
  until_attacking(w, l, 60 * 20);
  td_enemy_view v = td_test_enemy_view(w, l);
  assert_int_equal(v.siege, 0);
  float gx = v.x < 85 ? 85 - v.x : v.x > 95 ? v.x - 95 : 0;
  assert_true(gx * gx + 25.0f * 25.0f <= 28.0f * 28.0f + 1e-3f);
  assert_true(v.x > 70 && v.x < 95);
  /* it stands while it attacks (the crowd stops it within a few steps) */
  td_test_steps(w, 5);
  float x = td_test_enemy_view(w, l).x;
  td_test_steps(w, 30);
  assert_true(td_test_enemy_view(w, l).x == x);
  assert_true(td_test_tower_view(w, 0).health < 50);
  assert_arrows_in_table(w);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

/* Two towers as near: the lower base. A flying sapper attacks too. */
static void test_ties_and_flyers(void **state) {
  (void)state;
  fixture f;
  line_map(&f.map);
  rules_make(&f.rules);
  td_world *w = world_new(&f, 1);
  place(w, 1, T_WALL); /* (90, 80) */
  place(w, 0, T_WALL); /* (90, 20): as near as base 1 to the line */
  uint32_t l = spawn_at(w, E_LONG, 0);
  until_attacking(w, l, 60 * 20);
  assert_int_equal(td_test_enemy_view(w, l).siege, 0);
  td_world_destroy(w);

  w = world_new(&f, 1);
  place(w, 2, T_WALL); /* on the flyer's way */
  uint32_t b = spawn_at(w, E_FLYSAP, 0);
  until_attacking(w, b, 60 * 20);
  assert_int_equal(td_test_enemy_view(w, b).siege, 2);
  for (int t = 0; t < 60 * 10 && td_world_tower_count(w) > 0; t++) td_test_step(w);
  assert_int_equal(td_world_tower_count(w), 0);
  td_enemy_view v = td_test_enemy_view(w, b);
  assert_int_equal(v.state, TD_ENEMY_WALK);
  assert_int_equal(v.siege, -1);
  assert_arrows_in_table(w);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

/* ---- stuns and sales during a siege --------------------------------------- */

static void test_stunned_sapper_resumes(void **state) {
  (void)state;
  fixture f;
  line_map(&f.map);
  rules_make(&f.rules);
  td_world *w = world_new(&f, 1);
  place(w, 0, T_WALL);
  uint32_t l = spawn_at(w, E_LONG, 0);
  until_attacking(w, l, 60 * 20);
  td_test_steps(w, 10);
  float before = td_test_tower_view(w, 0).health;
  float cool = td_test_enemy_view(w, l).attack_cooldown;
  assert_true(before < 50);
  td_effect stun = {TD_EFFECT_STUN, 0, 1};
  assert_int_equal(td_world_apply_effect(w, l, &stun, 0, 0), 0);
  assert_int_equal(td_test_enemy_view(w, l).state, TD_ENEMY_STUNNED);
  assert_int_equal(td_test_enemy_view(w, l).siege, 0);
  /* no hit while stunned, and its clock waits */
  for (int t = 0; t < 59; t++) {
    td_test_step(w);
    assert_int_equal(td_test_enemy_view(w, l).state, TD_ENEMY_STUNNED);
  }
  assert_true(td_test_tower_view(w, 0).health == before);
  assert_true(td_test_enemy_view(w, l).attack_cooldown == cool);
  td_test_step(w);
  assert_int_equal(td_test_enemy_view(w, l).state, TD_ENEMY_ATTACK);
  assert_true(arrows(w, TD_ENEMY_ATTACK, TD_ENEMY_STUNNED) == 1);
  assert_true(arrows(w, TD_ENEMY_STUNNED, TD_ENEMY_ATTACK) == 1);
  td_test_steps(w, 31);
  assert_true(td_test_tower_view(w, 0).health < before);
  assert_arrows_in_table(w);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

/* Two sappers side by side at a wall on their way (base 2); one is
** stunned when the wall is sold. */
static void test_sell_while_sieged(void **state) {
  (void)state;
  fixture f;
  line_map(&f.map);
  rules_make(&f.rules);
  td_world *w = world_new(&f, 1);
  place(w, 2, T_WALL);
  uint32_t a = spawn_lane(w, E_SAPPER, 0, -0.5f), b = spawn_lane(w, E_SAPPER, 0, 0.5f);
  until_attacking(w, a, 60 * 20);
  until_attacking(w, b, 60 * 20);
  assert_int_equal(td_test_enemy_view(w, a).siege, 2);
  assert_int_equal(td_test_enemy_view(w, b).siege, 2);
  /* a stunned when the tower goes: it forgets the tower, then walks */
  td_effect stun = {TD_EFFECT_STUN, 0, 0.5f};
  assert_int_equal(td_world_apply_effect(w, a, &stun, 0, 0), 0);
  int32_t gold = td_world_gold(w);
  assert_int_equal(command_now(w, (td_command){.kind = TD_COMMAND_SELL, .base = 2}),
                   TD_REFUSAL_NONE);
  assert_int_equal(td_test_count_events(w, TD_EVENT_SOLD), 1);
  assert_int_equal(td_test_count_events(w, TD_EVENT_TOWER_DESTROYED), 0);
  assert_int_equal(td_world_gold(w), gold + 20); /* half of 40 */
  assert_int_equal(td_test_enemy_view(w, b).state, TD_ENEMY_WALK);
  assert_int_equal(td_test_enemy_view(w, b).siege, -1);
  assert_int_equal(td_test_enemy_view(w, a).state, TD_ENEMY_STUNNED);
  assert_int_equal(td_test_enemy_view(w, a).siege, -1);
  float bx = td_test_enemy_view(w, b).x;
  td_test_steps(w, 30);
  assert_int_equal(td_test_enemy_view(w, a).state, TD_ENEMY_WALK);
  assert_true(td_test_enemy_view(w, b).x > bx + 2);
  assert_true(arrows(w, TD_ENEMY_ATTACK, TD_ENEMY_WALK) >= 1);
  assert_true(arrows(w, TD_ENEMY_STUNNED, TD_ENEMY_WALK) >= 1);
  /* both leak: nothing else to attack */
  for (int t = 0; t < 60 * 30 && td_world_enemy_count(w) > 0; t++) td_test_step(w);
  assert_int_equal(td_world_enemy_count(w), 0);
  assert_int_equal(td_world_lives(w), 98);
  assert_arrows_in_table(w);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

/* ---- health across upgrades, repair --------------------------------------- */

static void test_upgrade_keeps_share(void **state) {
  (void)state;
  fixture f;
  line_map(&f.map);
  rules_make(&f.rules);
  td_world *w = world_new(&f, 1);
  place(w, 0, T_WALL);
  place(w, 3, T_WALL);
  uint32_t h0 = td_test_tower_view(w, 0).handle;
  assert_true(td_world_damage_tower(w, h0, 20, 0) == 20);
  assert_int_equal(command_now(w, (td_command){.kind = TD_COMMAND_UPGRADE, .base = 0,
                                               .upgrade = 0}),
                   TD_REFUSAL_NONE);
  td_tower_view v = td_test_tower_view(w, 0);
  assert_int_equal(v.level, L_KEEP);
  assert_true(v.max_health == 200);
  assert_float_equal(v.health, 120, 1e-4); /* 30 of 50: 60 % */
  /* to a level that cannot be damaged: health 0, and the sapper at it
  ** walks on */
  uint32_t l = spawn_at(w, E_LONG, 0);
  until_attacking(w, l, 60 * 20);
  assert_int_equal(td_test_enemy_view(w, l).siege, 0);
  td_world_destroy(w);

  w = world_new(&f, 1);
  place(w, 0, T_WALL);
  l = spawn_at(w, E_LONG, 0);
  until_attacking(w, l, 60 * 20);
  assert_int_equal(command_now(w, (td_command){.kind = TD_COMMAND_UPGRADE, .base = 0,
                                               .upgrade = 1}),
                   TD_REFUSAL_NONE);
  v = td_test_tower_view(w, 0);
  assert_true(v.level == L_STONE && v.health == 0 && v.max_health == 0);
  assert_int_equal(td_test_enemy_view(w, l).state, TD_ENEMY_WALK);
  assert_int_equal(td_test_enemy_view(w, l).siege, -1);
  assert_int_equal(td_world_repair_cost(w, 0), -1);
  assert_arrows_in_table(w);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

/* A reload: towers keep their share of health; an enemy no longer a
** sapper leaves its tower. */
static void test_reload_keeps_share(void **state) {
  (void)state;
  fixture f;
  line_map(&f.map);
  rules_make(&f.rules);
  td_rules next;
  rules_make(&next);
  next.levels[L_WALL].health = 100;
  next.enemies[E_LONG].siege_damage = 0;
  td_world *w = world_new(&f, 1);
  place(w, 0, T_WALL);
  place(w, 3, T_WALL);
  uint32_t l = spawn_at(w, E_LONG, 0);
  until_attacking(w, l, 60 * 20);
  assert_true(td_test_tower_view(w, 0).health == 40);
  td_err err = {{0}};
  assert_int_equal(td_world_set_rules(w, &next, &err), 0);
  assert_true(td_test_tower_view(w, 0).health == 80 && td_test_tower_view(w, 0).max_health == 100);
  assert_true(td_test_tower_view(w, 3).health == 100);
  assert_int_equal(td_test_enemy_view(w, l).state, TD_ENEMY_WALK);
  assert_int_equal(td_test_enemy_view(w, l).siege, -1);
  td_test_steps(w, 60);
  assert_true(td_test_tower_view(w, 0).health == 80);
  assert_int_equal(td_test_enemy_view(w, l).state, TD_ENEMY_WALK);
  /* a save after the reload loads (health within the new maximum) */
  td_blob blob = {0};
  td_world_save(w, &blob);
  td_blob_reader r = td_blob_read(blob.data, blob.len);
  td_world *b = td_world_load(&f.map, &next, &r, &err);
  if (!b) fail_msg("%s", err.msg);
  assert_int_equal(td_world_checksum(b), td_world_checksum(w));
  td_world_destroy(b);
  td_blob_free(&blob);
  assert_arrows_in_table(w);
  td_world_destroy(w);
  td_rules_free(&next);
  td_test_fixture_free(&f);
}

static td_refusal repair(td_world *w, int32_t base) {
  return command_now(w, (td_command){.kind = TD_COMMAND_REPAIR, .base = base});
}

static void test_repair(void **state) {
  (void)state;
  fixture f;
  line_map(&f.map);
  rules_make(&f.rules);
  td_world *w = world_new(&f, 1);
  place(w, 0, T_WALL); /* spent 40, health 50 */
  place(w, 2, T_ROCK);
  uint32_t h = td_test_tower_view(w, 0).handle;
  assert_int_equal(td_world_repair_cost(w, 0), -1); /* full */
  assert_int_equal(repair(w, 0), TD_REFUSAL_NOT_DAMAGED);
  assert_int_equal(repair(w, 2), TD_REFUSAL_NOT_DAMAGED); /* cannot be damaged */
  assert_int_equal(repair(w, 1), TD_REFUSAL_NO_TOWER);
  assert_int_equal(repair(w, -1), TD_REFUSAL_NO_BASE);
  assert_int_equal(repair(w, 4), TD_REFUSAL_NO_BASE);
  assert_int_equal(td_world_repair_cost(w, 1), -1);
  assert_int_equal(td_world_repair_cost(w, 99), -1);
  /* 20 of 50 missing: 0.5 x 40 x 0.4 = 8 */
  assert_true(td_world_damage_tower(w, h, 20, 0) == 20);
  assert_int_equal(td_world_repair_cost(w, 0), 8);
  /* 1 of 50 missing: 0.4, rounded up */
  assert_true(td_world_damage_tower(w, h, 1, 0) == 1);
  assert_int_equal(td_world_repair_cost(w, 0), 9); /* 8.4 */
  int32_t gold = td_world_gold(w);
  td_world_give_gold(w, -(gold - 8));
  assert_int_equal(td_world_gold(w), 8);
  assert_int_equal(repair(w, 0), TD_REFUSAL_GOLD);
  assert_true(td_test_tower_view(w, 0).health == 29);
  td_world_give_gold(w, 1);
  assert_int_equal(repair(w, 0), TD_REFUSAL_NONE);
  const td_event *e = td_test_find_event(w, TD_EVENT_REPAIRED);
  assert_non_null(e);
  assert_int_equal(e->tower, h);
  assert_int_equal(e->base, 0);
  assert_int_equal(e->type, L_WALL);
  assert_true(e->amount == 9);
  assert_int_equal(td_world_gold(w), 0);
  assert_true(td_test_tower_view(w, 0).health == 50);
  assert_int_equal(repair(w, 0), TD_REFUSAL_NOT_DAMAGED);
  /* a fallen tower: nothing to repair */
  assert_true(td_world_damage_tower(w, h, 50, 0) == 50);
  assert_int_equal(repair(w, 0), TD_REFUSAL_NO_TOWER);
  td_world_destroy(w);

  /* a share written 0.3 costs what it says: 0.3 x 40 x 50 % = 6 (the
  ** float 0.3 makes it 6.0000002) */
  f.rules.repair_cost = 0.3f;
  w = world_new(&f, 1);
  place(w, 0, T_WALL);
  h = td_test_tower_view(w, 0).handle;
  assert_true(td_world_damage_tower(w, h, 25, 0) == 25);
  assert_int_equal(td_world_repair_cost(w, 0), 6);
  assert_true(td_world_damage_tower(w, h, 24.5f, 0) == 24.5f);
  assert_int_equal(td_world_repair_cost(w, 0), 12); /* 11.88 */
  td_world_destroy(w);
  f.rules.repair_cost = 0.0f; /* free */
  w = world_new(&f, 1);
  place(w, 0, T_WALL);
  h = td_test_tower_view(w, 0).handle;
  td_world_damage_tower(w, h, 5, 0);
  assert_int_equal(td_world_repair_cost(w, 0), 0);
  assert_int_equal(repair(w, 0), TD_REFUSAL_NONE);
  assert_true(td_test_find_event(w, TD_EVENT_REPAIRED)->amount == 0);
  assert_true(td_test_tower_view(w, 0).health == 50);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

/* ---- td_world_damage_tower ------------------------------------------------ */

static void test_damage_tower_edges(void **state) {
  (void)state;
  fixture f;
  line_map(&f.map);
  rules_make(&f.rules);
  td_world *w = world_new(&f, 1);
  place(w, 0, T_WALL);
  place(w, 2, T_ROCK);
  uint32_t h = td_test_tower_view(w, 0).handle, rock = td_test_tower_view(w, 2).handle;
  td_test_step(w); /* a fresh event list */
  size_t n0;
  td_world_events(w, &n0);
  assert_true(td_world_damage_tower(w, 0, 10, 0) == 0);
  assert_true(td_world_damage_tower(w, h + 1, 10, 0) == 0);        /* another slot */
  assert_true(td_world_damage_tower(w, h + (1u << 20), 10, 0) == 0); /* another generation */
  assert_true(td_world_damage_tower(w, rock, 10, 0) == 0);
  assert_true(td_world_damage_tower(w, h, NAN, 0) == 0);
  assert_true(td_world_damage_tower(w, h, INFINITY, 0) == 0);
  assert_true(td_world_damage_tower(w, h, -1, 0) == 0);
  assert_true(td_world_damage_tower(w, h, 0, 0) == 0);
  size_t n1;
  td_world_events(w, &n1);
  assert_int_equal(n1, n0); /* none of those did anything */
  assert_true(td_test_tower_view(w, 0).health == 50);
  /* credited to a live enemy; a dead handle is credited as none */
  uint32_t g = spawn_at(w, E_GRUNT, 0);
  assert_true(td_world_damage_tower(w, h, 5, g) == 5);
  const td_event *e = &td_world_events(w, &n1)[n1 - 1];
  assert_int_equal(e->kind, TD_EVENT_TOWER_DAMAGED);
  assert_int_equal(e->enemy, g);
  assert_true(e->amount == 5);
  assert_true(td_world_damage_tower(w, h, 5, g + (1u << 20)) == 5);
  e = &td_world_events(w, &n1)[n1 - 1];
  assert_int_equal(e->enemy, 0);
  assert_true(td_test_tower_view(w, 0).health == 40);
  /* more than it has: it takes what is left and falls */
  assert_true(td_world_damage_tower(w, h, 1000, 0) == 40);
  const td_event *ev = td_world_events(w, &n1);
  assert_int_equal(ev[n1 - 2].kind, TD_EVENT_TOWER_DAMAGED);
  assert_true(ev[n1 - 2].amount == 40);
  assert_int_equal(ev[n1 - 1].kind, TD_EVENT_TOWER_DESTROYED);
  assert_int_equal(ev[n1 - 1].enemy, 0);
  assert_int_equal(ev[n1 - 1].tower, h);
  assert_false(td_world_tower(w, 0, &(td_tower_view){0}));
  assert_true(td_world_damage_tower(w, h, 10, 0) == 0); /* its handle is dead */
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

/* ---- saves mid-siege ------------------------------------------------------ */

/* Sappers and grunts in waves against walls, a keep and a gun on the fork;
** repairs, a sale and a rebuild on the way. */
static void siege_game(td_world *w) {
  static const td_command c[] = {
      {.tick = 0, .kind = TD_COMMAND_PLACE, .base = 0, .tower_type = T_WALL},
      {.tick = 0, .kind = TD_COMMAND_PLACE, .base = 2, .tower_type = T_GUN},
      {.tick = 1, .kind = TD_COMMAND_UPGRADE, .base = 0, .upgrade = 0},
      {.tick = 360, .kind = TD_COMMAND_REPAIR, .base = 0},
      {.tick = 390, .kind = TD_COMMAND_REPAIR, .base = 0},
      {.tick = 560, .kind = TD_COMMAND_REPAIR, .base = 2},
      {.tick = 700, .kind = TD_COMMAND_PLACE, .base = 1, .tower_type = T_WALL},
      {.tick = 760, .kind = TD_COMMAND_REPAIR, .base = 1},
      {.tick = 800, .kind = TD_COMMAND_SELL, .base = 2},
      {.tick = 900, .kind = TD_COMMAND_SELL, .base = 1},
      {.tick = 950, .kind = TD_COMMAND_PLACE, .base = 0, .tower_type = T_WALL},
      {.tick = 1000, .kind = TD_COMMAND_PLACE, .base = 2, .tower_type = T_GUN},
      {.tick = 1150, .kind = TD_COMMAND_REPAIR, .base = 0},
      {.tick = 1300, .kind = TD_COMMAND_REPAIR, .base = 2},
  };
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
    assert_int_equal(td_world_command(w, &c[i], NULL), 0);
}

static void game_rules(td_rules *r) {
  rules_make(r);
  r->first_wave_delay = 1;
  r->wave_interval = 6;
  r->wave_count = 4;
  td_spawn_group *g = td_mem_calloc(2, sizeof *g);
  g[0] = r->groups[0];
  g[0].count = 3;
  g[0].per_row = 3;
  g[0].width = 1.5f;
  g[1] = (td_spawn_group){.enemy = E_GRUNT, .begin = 1, .every = 1, .count = 2, .max_count = 5,
                          .spawn = -1, .per_row = 1, .spacing = 1, .delay = 1};
  td_mem_free(r->groups, r->group_count * sizeof *r->groups);
  r->groups = g;
  r->group_count = 2;
  r->levels[L_KEEP].health = 120;
}

#define MAX_LOADS 16

static void test_save_mid_siege_continues(void **state) {
  (void)state;
  fixture f;
  fork_map(&f.map);
  game_rules(&f.rules);
  td_world *a = world_new(&f, 3);
  siege_game(a);
  td_world *loaded[MAX_LOADS];
  int at[MAX_LOADS];
  size_t nl = 0, sieging_ticks = 0, destroyed = 0, repaired = 0;
  for (int t = 0; t < 60 * 30; t++) {
    td_test_step(a);
    for (size_t k = 0; k < nl; k++) {
      td_test_step(loaded[k]);
      if (td_world_checksum(loaded[k]) != td_world_checksum(a))
        fail_msg("loaded at tick %d: checksums differ at tick %d", at[k], t + 1);
    }
    destroyed += td_test_count_events(a, TD_EVENT_TOWER_DESTROYED);
    repaired += td_test_count_events(a, TD_EVENT_REPAIRED);
    size_t attacking = 0;
    for (size_t s = 0; s < td_world_enemy_capacity(a); s++) {
      td_enemy_view v;
      attacking += td_world_enemy(a, s, &v) && v.state == TD_ENEMY_ATTACK && v.siege >= 0;
    }
    if (!attacking) continue;
    /* mid-siege: saved at every 9th such tick, each copy run alongside */
    if (sieging_ticks++ % 9 == 4 && nl < MAX_LOADS) {
      at[nl] = t + 1;
      loaded[nl] = td_test_save_and_load(&f, a, NULL);
      assert_int_equal(td_world_checksum(loaded[nl]), td_world_checksum(a));
      nl++;
    }
  }
  printf("  %zu ticks under siege, %zu towers fell, %zu repairs, %zu loads\n", sieging_ticks,
         destroyed, repaired, nl);
  assert_true(nl >= 8);
  assert_true(destroyed >= 1);
  assert_true(repaired >= 1);
  assert_arrows_in_table(a);
  for (size_t k = 0; k < nl; k++) td_world_destroy(loaded[k]);
  td_world_destroy(a);
  td_test_fixture_free(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_wave_destroys_tower),
    cmocka_unit_test(test_rebuild_after_fall),
    cmocka_unit_test(test_ignores_undamageable_and_far_towers),
    cmocka_unit_test(test_ties_and_flyers),
    cmocka_unit_test(test_stunned_sapper_resumes),
    cmocka_unit_test(test_sell_while_sieged),
    cmocka_unit_test(test_upgrade_keeps_share),
    cmocka_unit_test(test_reload_keeps_share),
    cmocka_unit_test(test_repair),
    cmocka_unit_test(test_damage_tower_edges),
    cmocka_unit_test(test_save_mid_siege_continues),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
