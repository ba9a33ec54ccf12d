/*
** test_world.c: the world on small maps and rules built in code:
** placement and the route, economy, upgrades, targeting, every shot kind,
** damage, effects and their stacking, splits, healers, waves, win and
** lose, hooks, determinism, save/load, and allocation failures.
*/
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "worlds.h"

/* ---- fixtures: maps ------------------------------------------------------ */

/* The fork (worlds.h), its spawn "north":
**   base 0 blocks edge 1 (1-2)     base 1 blocks edge 4 (4-5)
**   base 2 and base 4 block nothing     base 3 blocks edge 0 (the spawn's) */
static void fork_map(td_map *m) {
  td_test_base bases[5] = {
    {75, 50, 1, {{.kind = TD_CHANGE_BLOCK_EDGE, .id = FORK_E12}}},
    {75, 100, 1, {{.kind = TD_CHANGE_BLOCK_EDGE, .id = FORK_E45}}},
    {75, 75, 0, {{.kind = TD_CHANGE_BLOCK_EDGE}}},
    {25, 50, 1, {{.kind = TD_CHANGE_BLOCK_EDGE, .id = FORK_E01}}},
    {125, 75, 0, {{.kind = TD_CHANGE_BLOCK_EDGE}}},
  };
  td_test_fork_map(m, "north", bases, 5);
}

/* The line (worlds.h), its spawn "north"; bases block nothing: base 0
** centred at (90, 20), base 1 at (40, 50) on the line, base 2 at (150, 20). */
static void line_map(td_map *m) {
  td_test_base bases[3] = {{90, 20, 0, {{.kind = TD_CHANGE_BLOCK_EDGE}}}, {40, 50, 0, {{.kind = TD_CHANGE_BLOCK_EDGE}}}, {150, 20, 0, {{.kind = TD_CHANGE_BLOCK_EDGE}}}};
  td_test_line_map(m, "north", bases, 3);
}

/* ---- fixtures: rules ----------------------------------------------------- */

enum { E_GRUNT, E_TANK, E_FLYER, E_BOSS, E_HEALER, E_SPLIT, E_DUMMY, E_REGEN, E_COUNT };
enum { T_GUN, T_AURA, T_MORTAR, T_HOMING, T_CHAIN, T_PIERCE, T_COUNT };
enum { L_GUN, L_GUN_A, L_GUN_B, L_AURA, L_MORTAR, L_HOMING, L_CHAIN, L_PIERCE, L_COUNT };
enum { D_PHYS, D_FIRE };

static td_tower_level level(const char *name, int32_t tower, int32_t parent, int32_t cost,
                            td_shot_kind shot, float damage) {
  td_tower_level l = td_test_level(name, tower, parent, cost);
  l.range = 3;
  l.rate = 2;
  l.damage = damage;
  l.damage_type = D_PHYS;
  l.shot = shot;
  l.shot_speed = 10;
  l.hits_air = true;
  return l;
}

/* Rules every test starts from; no wave comes before 1e5 s unless a test
** says so. */
static void rules_make(td_rules *r) {
  td_test_rules_init(r); /* D_PHYS: "physical" */
  snprintf(r->damage_types[D_FIRE], TD_RULES_NAME_MAX, "fire");
  r->damage_type_count = 2;
  r->enemies = td_mem_calloc(E_COUNT, sizeof *r->enemies);
  r->enemy_count = E_COUNT;
  td_enemy_type *e = r->enemies;
  e[E_GRUNT] = td_test_enemy("grunt", 100, 1);
  e[E_GRUNT].bounty = 5;
  e[E_GRUNT].lives = 1;
  e[E_TANK] = td_test_enemy("tank", 500, 1);
  e[E_TANK].armour = 5;
  e[E_TANK].resist[D_FIRE] = 0.5f;
  e[E_TANK].radius = 0.4f;
  e[E_TANK].bounty = 20;
  e[E_TANK].lives = 2;
  e[E_FLYER] = td_test_enemy("flyer", 50, 1);
  e[E_FLYER].flying = true;
  e[E_FLYER].bounty = 3;
  e[E_FLYER].lives = 1;
  e[E_BOSS] = td_test_enemy("boss", 1000, 1e-3f);
  e[E_BOSS].boss = true;
  e[E_BOSS].radius = 0.5f;
  e[E_BOSS].bounty = 100;
  e[E_BOSS].lives = 5;
  e[E_HEALER] = td_test_enemy("healer", 100, 1e-3f);
  e[E_HEALER].heal_radius = 2;
  e[E_HEALER].heal_rate = 10;
  e[E_SPLIT] = td_test_enemy("splitter", 50, 1);
  e[E_SPLIT].split_into = E_GRUNT;
  e[E_SPLIT].split_count = 3;
  e[E_SPLIT].bounty = 7;
  e[E_SPLIT].lives = 1;
  e[E_DUMMY] = td_test_enemy("dummy", 100, 1e-3f);
  e[E_REGEN] = td_test_enemy("regen", 100, 1e-3f);
  e[E_REGEN].regen = 5;

  r->towers = td_mem_calloc(T_COUNT, sizeof *r->towers);
  r->tower_count = T_COUNT;
  static const char *tnames[T_COUNT] = {"gun", "aura", "mortar", "homing", "chain", "pierce"};
  static const int32_t roots[T_COUNT] = {L_GUN, L_AURA, L_MORTAR, L_HOMING, L_CHAIN, L_PIERCE};
  for (int t = 0; t < T_COUNT; t++) {
    snprintf(r->towers[t].name, TD_RULES_NAME_MAX, "%s", tnames[t]);
    r->towers[t].root = roots[t];
    r->towers[t].default_target = TD_TARGET_FIRST;
  }
  r->towers[T_GUN].script_target = true;

  r->levels = td_mem_calloc(L_COUNT, sizeof *r->levels);
  r->level_count = L_COUNT;
  td_tower_level *l = r->levels;
  l[L_GUN] = level("gun", T_GUN, -1, 50, TD_SHOT_INSTANT, 10);
  l[L_GUN].children[0] = L_GUN_A;
  l[L_GUN].children[1] = L_GUN_B;
  l[L_GUN_A] = level("gun.a", T_GUN, L_GUN, 40, TD_SHOT_INSTANT, 20);
  l[L_GUN_B] = level("gun.b", T_GUN, L_GUN, 60, TD_SHOT_INSTANT, 30);
  l[L_AURA] = level("aura", T_AURA, -1, 30, TD_SHOT_INSTANT, 0);
  l[L_AURA].rate = 0;
  l[L_AURA].range = 4;
  l[L_AURA].buff_damage = 0.5f;
  l[L_AURA].buff_rate = 0.25f;
  l[L_MORTAR] = level("mortar", T_MORTAR, -1, 80, TD_SHOT_BALLISTIC, 15);
  l[L_MORTAR].splash = 1;
  l[L_MORTAR].shot_speed = 4;
  l[L_MORTAR].rate = 0.5f;
  l[L_MORTAR].range = 4;
  l[L_MORTAR].damage_type = D_FIRE;
  l[L_MORTAR].effect = (td_effect){TD_EFFECT_DOT, 5, 2};
  l[L_MORTAR].hits_air = false;
  l[L_HOMING] = level("homing", T_HOMING, -1, 60, TD_SHOT_HOMING, 12);
  l[L_HOMING].shot_speed = 6;
  l[L_HOMING].rate = 1;
  l[L_HOMING].effect = (td_effect){TD_EFFECT_SLOW, 0.4f, 1.5f};
  l[L_HOMING].aim_time = 0.25f;
  l[L_HOMING].turn_rate = 6;
  l[L_CHAIN] = level("chain", T_CHAIN, -1, 70, TD_SHOT_CHAIN, 10);
  l[L_CHAIN].chain = 2;
  l[L_CHAIN].chain_range = 1.5f;
  l[L_CHAIN].chain_falloff = 0.5f;
  l[L_CHAIN].effect = (td_effect){TD_EFFECT_STUN, 0, 0.2f};
  l[L_PIERCE] = level("pierce", T_PIERCE, -1, 40, TD_SHOT_PIERCE, 10);
  l[L_PIERCE].pierce = 2;
  l[L_PIERCE].shot_speed = 20;
  l[L_PIERCE].range = 5;

  r->groups = td_mem_calloc(1, sizeof *r->groups);
  r->group_count = 1;
  r->groups[0] = (td_spawn_group){.enemy = E_GRUNT, .begin = 1, .every = 1, .count = 3,
                                  .max_count = 10, .spawn = -1, .per_row = 1, .spacing = 1};
  r->wave_count = 3;
  r->first_wave_delay = 1e5f;
  r->wave_interval = 10;
  r->start_gold = 200;
  r->start_lives = 10;
  r->wave_income = 25;
  r->sell_refund = 0.75f;
  r->early_bonus = 2;
  r->endless_health_growth = 0.1f;
}

/* ---- helpers ------------------------------------------------------------- */

static void place(td_world *w, int32_t base, int32_t type) {
  td_test_cmd(w, (td_command){.kind = TD_COMMAND_PLACE, .base = base, .tower_type = type});
}

static uint32_t spawn_at(td_world *w, int32_t type, int32_t node, float health) {
  return td_test_spawn(w, type, node, 0, health);
}

static float health_of(const td_world *w, uint32_t h) { return td_test_enemy_view(w, h).health; }

typedef td_test_fixture fixture;

/* ---- placement, the route, economy --------------------------------------- */

static void test_place_blocks_and_sell_unblocks(void **state) {
  (void)state;
  fixture f;
  fork_map(&f.map);
  rules_make(&f.rules);
  td_world *w = td_test_world(&f.map, &f.rules, 1);
  const int32_t *next = td_route_next(td_world_route(w));
  assert_int_equal(next[1], 2);
  place(w, 0, T_GUN);
  td_test_step(w);
  const td_event *e = td_test_find_event(w, TD_EVENT_PLACED);
  assert_non_null(e);
  assert_int_equal(e->base, 0);
  assert_int_equal(e->type, L_GUN);
  assert_int_equal((int)e->amount, 50);
  assert_int_equal(td_world_gold(w), 150);
  /* the world's own graph is blocked and the route goes round; the map's is not */
  next = td_route_next(td_world_route(w));
  assert_int_equal(next[1], 4);
  assert_true(td_route_graph(td_world_route(w))->edges[FORK_E12].blocked);
  assert_false(f.map.graph->edges[FORK_E12].blocked);
  assert_int_equal(td_world_tower_count(w), 1);
  td_tower_view tv = td_test_tower_view(w, 0);
  assert_int_equal(tv.level, L_GUN);
  assert_int_equal(tv.spent, 50);
  assert_float_equal(tv.x, 75, 1e-6);
  /* sell: 0.75 x 50 = 37.5 -> 37, and the short way is open again */
  td_test_cmd(w, (td_command){.kind = TD_COMMAND_SELL, .base = 0});
  td_test_step(w);
  e = td_test_find_event(w, TD_EVENT_SOLD);
  assert_non_null(e);
  assert_int_equal((int)e->amount, 37);
  assert_int_equal(td_world_gold(w), 187);
  assert_int_equal(td_route_next(td_world_route(w))[1], 2);
  assert_false(td_route_graph(td_world_route(w))->edges[FORK_E12].blocked);
  assert_int_equal(td_world_tower_count(w), 0);
  assert_false(td_world_tower_get(w, tv.handle, &tv)); /* the handle died */
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

static void test_place_refusals(void **state) {
  (void)state;
  fixture f;
  fork_map(&f.map);
  rules_make(&f.rules);
  f.rules.start_gold = 120;
  td_world *w = td_test_world(&f.map, &f.rules, 1);
  /* base 3 blocks the spawn's only edge */
  td_place_check pc;
  assert_false(td_world_check_place(w, 3, T_GUN, &pc));
  assert_int_equal(pc.reason, TD_REFUSAL_CUTS_ROUTE);
  assert_int_equal(pc.spawn, 0);
  assert_int_equal(pc.node, 0);
  assert_non_null(strstr(pc.text, "spawn 'north' (object 7)"));
  assert_true(td_world_check_place(w, 0, T_GUN, &pc)); /* a preview changes nothing */
  assert_int_equal(td_route_next(td_world_route(w))[1], 2);
  place(w, 3, T_GUN);
  td_test_step(w);
  const td_event *e = td_test_find_event(w, TD_EVENT_REFUSED);
  assert_non_null(e);
  assert_int_equal(e->reason, TD_REFUSAL_CUTS_ROUTE);
  assert_int_equal(e->base, 3);
  assert_int_equal((int)e->amount, 0);
  char msg[160];
  td_world_refusal_message(w, e, msg, sizeof msg);
  assert_string_equal(msg, "would cut spawn 'north' (object 7) off from every goal");
  assert_int_equal(td_world_gold(w), 120);
  /* base 0 then base 1: the second would close both ways */
  place(w, 0, T_GUN);
  place(w, 1, T_GUN);
  td_test_step(w);
  assert_int_equal(td_test_count_events(w, TD_EVENT_PLACED), 1);
  e = td_test_find_event(w, TD_EVENT_REFUSED);
  assert_int_equal(e->reason, TD_REFUSAL_CUTS_ROUTE);
  assert_int_equal(e->base, 1);
  assert_false(td_route_graph(td_world_route(w))->edges[FORK_E45].blocked);
  /* occupied, no base, no tower type, not enough gold, bad command */
  place(w, 0, T_GUN);
  place(w, 9, T_GUN);
  place(w, 2, 99);
  place(w, 2, T_MORTAR); /* 80 > 70 */
  td_test_cmd(w, (td_command){.kind = (td_command_kind)42});
  td_test_step(w);
  size_t n;
  const td_event *ev = td_world_events(w, &n);
  assert_int_equal(n, 5);
  td_refusal want[5] = {TD_REFUSAL_OCCUPIED, TD_REFUSAL_NO_BASE, TD_REFUSAL_NO_TOWER,
                        TD_REFUSAL_GOLD, TD_REFUSAL_BAD_COMMAND};
  for (int i = 0; i < 5; i++) {
    assert_int_equal(ev[i].kind, TD_EVENT_REFUSED);
    assert_int_equal(ev[i].reason, want[i]);
  }
  assert_int_equal(td_world_gold(w), 70);
  assert_string_equal(td_refusal_text(TD_REFUSAL_GOLD), "not enough gold");
  assert_string_equal(td_event_name(TD_EVENT_KILLED), "killed");
  assert_null(td_event_name(TD_EVENT_KIND_COUNT));
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

/* A walker past the fork keeps the route it needs: a tower that would
** strand it (no way back to a goal from the node it came from) is refused;
** one that only reroutes others is not. */
static void test_place_refused_when_it_strands_an_enemy(void **state) {
  (void)state;
  fixture f;
  fork_map(&f.map);
  rules_make(&f.rules);
  f.rules.start_gold = 1000;
  td_world *w = td_test_world(&f.map, &f.rules, 1);
  uint32_t h = spawn_at(w, E_DUMMY, 4, 0); /* on the detour: from 4 */
  place(w, 0, T_GUN);                      /* 1-2 closed: fine */
  td_test_step(w);
  assert_int_equal(td_test_count_events(w, TD_EVENT_PLACED), 1);
  td_enemy_view v = td_test_enemy_view(w, h);
  assert_int_equal(v.state, TD_ENEMY_WALK);
  td_place_check pc;
  assert_false(td_world_check_place(w, 1, T_GUN, &pc)); /* would cut the spawn too */
  assert_int_equal(pc.reason, TD_REFUSAL_CUTS_ROUTE);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

static void test_upgrade_tree_and_refund(void **state) {
  (void)state;
  fixture f;
  fork_map(&f.map);
  rules_make(&f.rules);
  td_world *w = td_test_world(&f.map, &f.rules, 1);
  place(w, 2, T_GUN);
  td_test_cmd(w, (td_command){.kind = TD_COMMAND_UPGRADE, .base = 2, .upgrade = 2}); /* no third child */
  td_test_cmd(w, (td_command){.kind = TD_COMMAND_UPGRADE, .base = 2, .upgrade = -1});
  td_test_cmd(w, (td_command){.kind = TD_COMMAND_UPGRADE, .base = 4, .upgrade = 0}); /* no tower */
  td_test_cmd(w, (td_command){.kind = TD_COMMAND_UPGRADE, .base = 2, .upgrade = 1});
  td_test_step(w);
  size_t n;
  const td_event *e = td_world_events(w, &n);
  assert_int_equal(n, 5);
  assert_int_equal(e[0].kind, TD_EVENT_PLACED);
  assert_int_equal(e[1].reason, TD_REFUSAL_NO_UPGRADE);
  assert_int_equal(e[2].reason, TD_REFUSAL_NO_UPGRADE);
  assert_int_equal(e[3].reason, TD_REFUSAL_NO_TOWER);
  assert_int_equal(e[4].kind, TD_EVENT_UPGRADED);
  assert_int_equal(e[4].type, L_GUN_B);
  assert_int_equal((int)e[4].amount, 60);
  assert_int_equal(td_world_gold(w), 90);
  td_tower_view tv = td_test_tower_view(w, 2);
  assert_int_equal(tv.level, L_GUN_B);
  assert_int_equal(tv.depth, 1);
  assert_int_equal(tv.spent, 110);
  /* gun.b has no children */
  td_test_cmd(w, (td_command){.kind = TD_COMMAND_UPGRADE, .base = 2, .upgrade = 0});
  /* 90 gold: a second gun (50) then an upgrade to gun.b (60) is too much */
  place(w, 4, T_GUN);
  td_test_cmd(w, (td_command){.kind = TD_COMMAND_UPGRADE, .base = 4, .upgrade = 1});
  td_test_step(w);
  e = td_world_events(w, &n);
  assert_int_equal(n, 3);
  assert_int_equal(e[0].reason, TD_REFUSAL_NO_UPGRADE);
  assert_int_equal(e[1].kind, TD_EVENT_PLACED);
  assert_int_equal(e[2].reason, TD_REFUSAL_GOLD);
  assert_int_equal(e[2].type, L_GUN_B);
  assert_int_equal(td_world_gold(w), 40);
  /* selling the upgraded one: floor(0.75 x 110) = 82 */
  td_test_cmd(w, (td_command){.kind = TD_COMMAND_SELL, .base = 2});
  td_test_cmd(w, (td_command){.kind = TD_COMMAND_SELL, .base = 2});
  td_test_step(w);
  e = td_world_events(w, &n);
  assert_int_equal(n, 2);
  assert_int_equal((int)e[0].amount, 82);
  assert_int_equal(e[1].reason, TD_REFUSAL_NO_TOWER);
  assert_int_equal(td_world_gold(w), 122);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

/* ---- targeting ----------------------------------------------------------- */

static int32_t pick_second(void *ud, td_world *w, uint32_t tower, const uint32_t *enemies,
                           size_t n) {
  (void)w;
  (void)tower;
  size_t *calls = ud;
  (*calls)++;
  for (size_t k = 1; k < n; k++) assert_true((enemies[k] & 0xFFFFF) > (enemies[k - 1] & 0xFFFFF));
  return n >= 2 ? 1 : -1;
}

/* Dummies at nodes 6, 9 and 12 (route left 140, 110, 80), healths 50, 300,
** 100; a tower at (90, 20) sees them all (range 5). */
static void test_targeting_modes(void **state) {
  (void)state;
  fixture f;
  line_map(&f.map);
  rules_make(&f.rules);
  f.rules.levels[L_GUN].range = 5;
  f.rules.levels[L_GUN].damage = 0;
  td_target_mode modes[5] = {TD_TARGET_FIRST, TD_TARGET_LAST, TD_TARGET_STRONGEST,
                             TD_TARGET_CLOSEST, TD_TARGET_SCRIPT};
  int want[5] = {2, 0, 1, 1, 1}; /* index of the dummy */
  for (int m = 0; m < 5; m++) {
    td_world *w = td_test_world(&f.map, &f.rules, 1);
    size_t calls = 0;
    td_world_hooks hooks = {.ud = &calls, .target = pick_second};
    td_world_set_hooks(w, &hooks);
    uint32_t h[3] = {spawn_at(w, E_DUMMY, 6, 50), spawn_at(w, E_DUMMY, 9, 300),
                     spawn_at(w, E_DUMMY, 12, 100)};
    place(w, 0, T_GUN);
    td_test_cmd(w, (td_command){.kind = TD_COMMAND_TARGET, .base = 0, .mode = modes[m]});
    td_test_step(w);
    td_tower_view tv = td_test_tower_view(w, 0);
    assert_int_equal(tv.mode, modes[m]);
    if (tv.target != h[want[m]]) fail_msg("mode %d picked %u, not %u", m, tv.target, h[want[m]]);
    assert_int_equal(td_test_count_events(w, TD_EVENT_FIRED), 1);
    assert_true(td_test_enemy_view(w, h[0]).route_left > td_test_enemy_view(w, h[1]).route_left);
    assert_float_equal(td_test_enemy_view(w, h[2]).route_left, 80, 0.01);
    if (modes[m] == TD_TARGET_SCRIPT) assert_int_equal(calls, 1);
    td_world_destroy(w);
  }
  /* a ground-only tower does not see a flyer; a tower without a script
  ** mode refuses SCRIPT */
  f.rules.levels[L_GUN].hits_air = false;
  td_world *w = td_test_world(&f.map, &f.rules, 1);
  spawn_at(w, E_FLYER, 9, 0);
  place(w, 0, T_GUN);
  place(w, 2, T_PIERCE);
  td_test_cmd(w, (td_command){.kind = TD_COMMAND_TARGET, .base = 2, .mode = TD_TARGET_SCRIPT});
  td_test_step(w);
  assert_int_equal(td_test_tower_view(w, 0).target, 0);
  assert_int_equal(td_test_tower_view(w, 0).state, TD_TOWER_IDLE);
  assert_int_equal(td_test_find_event(w, TD_EVENT_REFUSED)->reason, TD_REFUSAL_BAD_COMMAND);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

/* States: aim_time 0.25 s (15 ticks) before the first shot, then one shot
** every 1 / rate; a support's buffs raise damage and rate. */
static void test_tower_states_rate_and_buffs(void **state) {
  (void)state;
  fixture f;
  line_map(&f.map);
  rules_make(&f.rules);
  td_tower_level *l = &f.rules.levels[L_GUN];
  l->range = 5;
  l->damage = 1;
  l->rate = 4; /* 15 ticks */
  l->aim_time = 0.25f;
  f.rules.levels[L_AURA].range = 6;
  f.rules.start_gold = 1000;
  td_world *w = td_test_world(&f.map, &f.rules, 1);
  uint32_t h = spawn_at(w, E_DUMMY, 9, 1000);
  place(w, 0, T_GUN);
  td_test_step(w); /* acquires: aiming */
  assert_int_equal(td_test_tower_view(w, 0).state, TD_TOWER_AIMING);
  assert_int_equal(td_test_tower_view(w, 0).target, h);
  int fired_at = -1;
  for (int t = 1; t <= 20 && fired_at < 0; t++) {
    td_test_step(w);
    if (td_test_count_events(w, TD_EVENT_FIRED)) fired_at = t;
  }
  assert_int_equal(fired_at, 15);
  assert_int_equal(td_test_tower_view(w, 0).state, TD_TOWER_FIRING);
  td_test_step(w);
  assert_int_equal(td_test_tower_view(w, 0).state, TD_TOWER_COOLDOWN);
  int shots = 0;
  for (int t = 0; t < 60; t++) {
    td_test_step(w);
    shots += (int)td_test_count_events(w, TD_EVENT_FIRED);
  }
  assert_int_equal(shots, 4); /* 4 per second */
  float before = health_of(w, h);
  /* the aura (range 6 tiles) reaches the gun 50 units away: damage x 1.5,
  ** rate x 1.25 (5 per second) */
  place(w, 2, T_AURA);
  td_test_step(w);
  td_tower_view tv = td_test_tower_view(w, 0);
  assert_float_equal(tv.buff_damage, 0.5, 1e-6);
  assert_float_equal(tv.buff_rate, 0.25, 1e-6);
  assert_float_equal(td_test_tower_view(w, 2).buff_damage, 0, 0); /* no self buff */
  shots = 0;
  for (int t = 0; t < 120; t++) {
    td_test_step(w);
    shots += (int)td_test_count_events(w, TD_EVENT_FIRED);
  }
  assert_true(shots >= 9 && shots <= 11);
  assert_int_equal(td_test_count_events(w, TD_EVENT_FIRED), 0);
  td_enemy_view v = td_test_enemy_view(w, h);
  /* every shot after the aura took 1.5; the one in the placing step 1 */
  assert_true(before - v.health > 1.5f * (float)shots - 0.01f);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

/* ---- shots --------------------------------------------------------------- */

static void test_instant_splash(void **state) {
  (void)state;
  fixture f;
  line_map(&f.map);
  rules_make(&f.rules);
  td_tower_level *l = &f.rules.levels[L_GUN];
  l->range = 5;
  l->splash = 1.5f; /* 15 units */
  l->rate = 1;
  td_world *w = td_test_world(&f.map, &f.rules, 1);
  uint32_t a = spawn_at(w, E_DUMMY, 8, 0), b = spawn_at(w, E_DUMMY, 9, 0),
           c = spawn_at(w, E_DUMMY, 12, 0);
  place(w, 0, T_GUN);
  td_test_cmd(w, (td_command){.kind = TD_COMMAND_TARGET, .base = 0, .mode = TD_TARGET_CLOSEST});
  td_test_step(w);
  assert_int_equal(td_test_count_events(w, TD_EVENT_FIRED), 1);
  assert_int_equal(td_test_count_events(w, TD_EVENT_HIT), 2);
  assert_float_equal(health_of(w, a), 90, 1e-4);
  assert_float_equal(health_of(w, b), 90, 1e-4);
  assert_float_equal(health_of(w, c), 100, 0);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

static void test_chain(void **state) {
  (void)state;
  fixture f;
  line_map(&f.map);
  rules_make(&f.rules);
  f.rules.levels[L_CHAIN].range = 5;
  f.rules.levels[L_CHAIN].effect.kind = TD_EFFECT_NONE;
  f.rules.start_gold = 1000;
  td_world *w = td_test_world(&f.map, &f.rules, 1);
  uint32_t h[4] = {spawn_at(w, E_DUMMY, 9, 0), spawn_at(w, E_DUMMY, 10, 0),
                   spawn_at(w, E_DUMMY, 11, 0), spawn_at(w, E_DUMMY, 14, 0)};
  place(w, 0, T_CHAIN);
  td_test_cmd(w, (td_command){.kind = TD_COMMAND_TARGET, .base = 0, .mode = TD_TARGET_CLOSEST});
  td_test_step(w);
  assert_int_equal(td_test_count_events(w, TD_EVENT_HIT), 3); /* the first, then 2 jumps */
  assert_float_equal(health_of(w, h[0]), 90, 1e-4);
  assert_float_equal(health_of(w, h[1]), 95, 1e-4);
  assert_float_equal(health_of(w, h[2]), 97.5, 1e-4);
  assert_float_equal(health_of(w, h[3]), 100, 0); /* 30 units away: out of jump range */
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

static void test_pierce(void **state) {
  (void)state;
  fixture f;
  line_map(&f.map);
  rules_make(&f.rules);
  td_world *w = td_test_world(&f.map, &f.rules, 1);
  /* the tower sits on the line at x = 40; three dummies ahead of it */
  uint32_t h[3] = {spawn_at(w, E_DUMMY, 6, 0), spawn_at(w, E_DUMMY, 7, 0),
                   spawn_at(w, E_DUMMY, 8, 0)};
  place(w, 1, T_PIERCE);
  td_test_cmd(w, (td_command){.kind = TD_COMMAND_TARGET, .base = 1, .mode = TD_TARGET_CLOSEST});
  td_test_step(w);
  assert_int_equal(td_test_count_events(w, TD_EVENT_FIRED), 1);
  assert_int_equal(td_world_shot_capacity(w), 1);
  td_shot_view sv;
  assert_true(td_world_shot(w, 0, &sv));
  assert_int_equal(sv.kind, TD_SHOT_PIERCE);
  int hits = 0;
  for (int t = 0; t < 20; t++) {
    td_test_step(w);
    hits += (int)td_test_count_events(w, TD_EVENT_HIT);
  }
  assert_int_equal(hits, 2); /* pierce 2 (the next shot is 30 ticks away) */
  assert_float_equal(health_of(w, h[0]), 90, 1e-4);
  assert_float_equal(health_of(w, h[1]), 90, 1e-4);
  assert_float_equal(health_of(w, h[2]), 100, 0);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

static void test_homing_and_ballistic(void **state) {
  (void)state;
  fixture f;
  line_map(&f.map);
  rules_make(&f.rules);
  f.rules.levels[L_HOMING].rate = 0.1f;
  f.rules.levels[L_HOMING].effect.kind = TD_EFFECT_NONE;
  f.rules.levels[L_HOMING].aim_time = 0;
  f.rules.levels[L_HOMING].turn_rate = 0;
  f.rules.levels[L_HOMING].range = 5;
  f.rules.levels[L_MORTAR].rate = 0.1f;
  f.rules.levels[L_MORTAR].range = 5;
  f.rules.levels[L_MORTAR].effect.kind = TD_EFFECT_NONE;
  f.rules.start_gold = 1000;
  /* homing: it flies 60 units/s from (90, 20) to (90, 50): 30 units, hits
  ** after half a second */
  td_world *w = td_test_world(&f.map, &f.rules, 1);
  uint32_t a = spawn_at(w, E_DUMMY, 9, 0);
  place(w, 0, T_HOMING);
  td_test_step(w);
  assert_int_equal(td_test_count_events(w, TD_EVENT_FIRED), 1);
  int hit_at = -1;
  for (int t = 1; t <= 40 && hit_at < 0; t++) {
    td_test_step(w);
    if (td_test_count_events(w, TD_EVENT_HIT)) hit_at = t;
  }
  assert_true(hit_at >= 29 && hit_at <= 31);
  assert_float_equal(health_of(w, a), 88, 1e-4);
  /* the next shot (10 s later): its target dies in flight; it flies on to
  ** the last position and hits nobody */
  uint32_t b = spawn_at(w, E_DUMMY, 8, 0);
  td_shot_view sv;
  bool live = false;
  for (int t = 0; t < 700 && !live; t++) {
    td_test_step(w);
    live = td_world_shot(w, 0, &sv);
  }
  assert_true(live);
  uint32_t victim = sv.target;
  td_enemy_view vv = td_test_enemy_view(w, victim);
  assert_true(td_world_damage(w, victim, 1e6f, D_PHYS, 0) > 0);
  td_test_step(w);
  assert_true(td_world_shot(w, 0, &sv));
  assert_float_equal(sv.tx, vv.x, 0);
  assert_float_equal(sv.ty, vv.y, 0);
  int hits = 0;
  for (int t = 0; t < 40; t++) {
    td_test_step(w);
    hits += (int)td_test_count_events(w, TD_EVENT_HIT);
  }
  assert_int_equal(hits, 0);
  assert_false(td_world_shot(w, 0, &sv));
  uint32_t other = victim == a ? b : a;
  assert_true(health_of(w, other) > 0);
  td_world_destroy(w);
  /* ballistic with splash 1.2 tiles: lands where the target was and hits
  ** the two dummies within 12 units, not the third */
  f.rules.levels[L_MORTAR].splash = 1.2f;
  w = td_test_world(&f.map, &f.rules, 1);
  uint32_t h[3] = {spawn_at(w, E_DUMMY, 9, 0), spawn_at(w, E_DUMMY, 10, 0),
                   spawn_at(w, E_DUMMY, 12, 0)};
  place(w, 0, T_MORTAR);
  td_test_cmd(w, (td_command){.kind = TD_COMMAND_TARGET, .base = 0, .mode = TD_TARGET_CLOSEST});
  td_test_step(w);
  assert_int_equal(td_world_shot_capacity(w), 1);
  assert_true(td_world_shot(w, 0, &sv));
  assert_int_equal(sv.kind, TD_SHOT_BALLISTIC);
  assert_float_equal(sv.tx, 90, 0.01);
  assert_float_equal(sv.ty, 50, 0.01);
  td_test_steps(w, 60);
  assert_float_equal(health_of(w, h[0]), 85, 1e-4);
  assert_float_equal(health_of(w, h[1]), 85, 1e-4);
  assert_float_equal(health_of(w, h[2]), 100, 0);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

/* ---- damage and effects -------------------------------------------------- */

static void test_armour_and_resistance(void **state) {
  (void)state;
  fixture f;
  line_map(&f.map);
  rules_make(&f.rules);
  td_world *w = td_test_world(&f.map, &f.rules, 1);
  uint32_t t = spawn_at(w, E_TANK, 10, 0);
  assert_float_equal(td_world_damage(w, t, 100, D_PHYS, 0), 95, 1e-4);  /* 100 - 5 */
  assert_float_equal(td_world_damage(w, t, 100, D_FIRE, 0), 45, 1e-4);  /* 100 x 0.5 - 5 */
  assert_float_equal(td_world_damage(w, t, 1, D_PHYS, 0), 0.1, 1e-6);   /* the floor */
  assert_float_equal(health_of(w, t), 359.9, 1e-3);
  assert_float_equal(td_world_damage(w, t, 10, 7, 0), 0, 0);            /* no such type */
  assert_int_equal(td_test_count_events(w, TD_EVENT_HIT), 3);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

static void test_effect_stacking(void **state) {
  (void)state;
  fixture f;
  line_map(&f.map);
  rules_make(&f.rules);
  td_world *w = td_test_world(&f.map, &f.rules, 1);
  uint32_t g = spawn_at(w, E_DUMMY, 5, 0), boss = spawn_at(w, E_BOSS, 10, 0);
  /* slow: the strongest magnitude, the longest duration */
  assert_int_equal(td_world_apply_effect(w, g, &(td_effect){TD_EFFECT_SLOW, 0.3f, 2}, 0, 0), 0);
  td_world_apply_effect(w, g, &(td_effect){TD_EFFECT_SLOW, 0.5f, 1}, 0, 0);
  td_enemy_view v = td_test_enemy_view(w, g);
  assert_float_equal(v.slow, 0.5, 1e-6);
  assert_float_equal(v.slow_time, 2, 1e-4);
  td_world_apply_effect(w, g, &(td_effect){TD_EFFECT_SLOW, 0.2f, 3}, 0, 0);
  v = td_test_enemy_view(w, g);
  assert_float_equal(v.slow, 0.5, 1e-6);
  assert_float_equal(v.slow_time, 3, 1e-4);
  td_world_apply_effect(w, boss, &(td_effect){TD_EFFECT_SLOW, 0.6f, 1}, 0, 0);
  assert_float_equal(td_test_enemy_view(w, boss).slow, 0.3, 1e-6); /* bosses take half */
  /* stun: the longest; bosses are immune */
  td_world_apply_effect(w, g, &(td_effect){TD_EFFECT_STUN, 0, 1}, 0, 0);
  td_world_apply_effect(w, g, &(td_effect){TD_EFFECT_STUN, 0, 0.5f}, 0, 0);
  v = td_test_enemy_view(w, g);
  assert_int_equal(v.state, TD_ENEMY_STUNNED);
  assert_float_equal(v.stun_time, 1, 1e-4);
  td_world_apply_effect(w, boss, &(td_effect){TD_EFFECT_STUN, 0, 1}, 0, 0);
  assert_int_equal(td_test_enemy_view(w, boss).state, TD_ENEMY_WALK);
  assert_float_equal(td_test_enemy_view(w, boss).stun_time, 0, 0);
  /* dot: per damage type, the strongest dps and the longest duration */
  td_world_apply_effect(w, g, &(td_effect){TD_EFFECT_DOT, 10, 1}, D_FIRE, 0);
  td_world_apply_effect(w, g, &(td_effect){TD_EFFECT_DOT, 20, 0.5f}, D_FIRE, 0);
  td_world_apply_effect(w, g, &(td_effect){TD_EFFECT_DOT, 6, 0.5f}, D_PHYS, 0);
  assert_int_equal(td_test_enemy_view(w, g).dots, 3u);
  assert_int_equal(td_world_apply_effect(w, g, &(td_effect){TD_EFFECT_DOT, 6, 0.5f}, 5, 0), -1);
  /* fire: 20/s for 1 s (60 ticks), physical 6/s for 0.5 s: 20 + 3 */
  td_test_steps(w, 30);
  v = td_test_enemy_view(w, g);
  assert_float_equal(v.health, 100 - 10 - 3, 1e-3);
  assert_int_equal(v.dots, 1u << D_FIRE);
  td_test_steps(w, 30);
  v = td_test_enemy_view(w, g);
  assert_float_equal(v.health, 77, 1e-3);
  assert_int_equal(v.dots, 0u);
  assert_int_equal(v.state, TD_ENEMY_WALK); /* the stun (1 s) is over */
  assert_float_equal(v.slow, 0.5, 1e-6);    /* 3 s of slow: 2 left */
  assert_float_equal(v.slow_time, 2, 1e-4);
  td_test_steps(w, 120);
  v = td_test_enemy_view(w, g);
  assert_float_equal(v.slow, 0, 0);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

/* A slowed walker moves at (1 - slow) of its speed; a stunned one stands. */
static void test_effects_move_the_crowd(void **state) {
  (void)state;
  fixture f;
  line_map(&f.map);
  rules_make(&f.rules);
  td_world *w = td_test_world(&f.map, &f.rules, 1);
  uint32_t a = spawn_at(w, E_GRUNT, 0, 0), b = spawn_at(w, E_GRUNT, 10, 0);
  td_test_steps(w, 60); /* up to speed */
  td_world_apply_effect(w, a, &(td_effect){TD_EFFECT_SLOW, 0.5f, 10}, 0, 0);
  td_world_apply_effect(w, b, &(td_effect){TD_EFFECT_STUN, 0, 1}, 0, 0);
  td_test_steps(w, 30);
  float ax = td_test_enemy_view(w, a).x, bx = td_test_enemy_view(w, b).x;
  td_test_steps(w, 30);
  float da = td_test_enemy_view(w, a).x - ax, db = td_test_enemy_view(w, b).x - bx;
  assert_float_equal(da, 2.5, 0.3); /* 10 units/s x 0.5 x 0.5 s */
  assert_float_equal(db, 0, 1e-4);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

static void test_split_regen_and_healer(void **state) {
  (void)state;
  fixture f;
  line_map(&f.map);
  rules_make(&f.rules);
  td_world *w = td_test_world(&f.map, &f.rules, 1);
  uint32_t s = spawn_at(w, E_SPLIT, 10, 0);
  td_test_steps(w, 30);
  td_test_step(w);
  td_world_damage(w, s, 1000, D_PHYS, 0);
  assert_int_equal(td_world_gold(w), 207);
  const td_event *k = td_test_find_event(w, TD_EVENT_KILLED);
  assert_non_null(k);
  assert_int_equal(k->type, E_SPLIT);
  assert_int_equal((int)k->amount, 7);
  assert_int_equal(td_test_count_events(w, TD_EVENT_SPAWNED), 3);
  assert_int_equal(td_test_enemy_view(w, s).state, TD_ENEMY_DYING);
  td_test_step(w);
  assert_int_equal(td_world_enemy_count(w), 3);
  for (size_t i = 0; i < td_world_enemy_capacity(w); i++) {
    td_enemy_view v;
    if (!td_world_enemy(w, i, &v)) continue;
    assert_int_equal(v.type, E_GRUNT);
    assert_float_equal(v.max_health, 100, 0);
    assert_true(v.x > 90 && v.x < 130); /* near where it died (x ~ 103) */
  }
  td_world_destroy(w);
  /* regeneration: 5/s; a healer gives 10/s to others within 2 tiles */
  w = td_test_world(&f.map, &f.rules, 1);
  uint32_t r = spawn_at(w, E_REGEN, 2, 0), hl = spawn_at(w, E_HEALER, 10, 0),
           near = spawn_at(w, E_DUMMY, 11, 0), far = spawn_at(w, E_DUMMY, 14, 0);
  td_world_damage(w, r, 50, D_PHYS, 0);
  td_world_damage(w, hl, 50, D_PHYS, 0);
  td_world_damage(w, near, 50, D_PHYS, 0);
  td_world_damage(w, far, 50, D_PHYS, 0);
  td_test_steps(w, 60);
  assert_float_equal(health_of(w, r), 55, 1e-3);
  assert_float_equal(health_of(w, near), 60, 1e-3);
  assert_float_equal(health_of(w, hl), 50, 0); /* not itself */
  assert_float_equal(health_of(w, far), 50, 0);
  td_test_steps(w, 600);
  assert_float_equal(health_of(w, r), 100, 0); /* never past the maximum */
  assert_float_equal(health_of(w, near), 100, 0);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

static void test_bounty_and_lives(void **state) {
  (void)state;
  fixture f;
  line_map(&f.map);
  rules_make(&f.rules);
  td_world *w = td_test_world(&f.map, &f.rules, 1);
  uint32_t t = spawn_at(w, E_TANK, 18, 0);
  uint32_t g = spawn_at(w, E_GRUNT, 10, 0);
  int leaked = 0;
  for (int i = 0; i < 600 && !leaked; i++) {
    td_test_step(w);
    const td_event *e = td_test_find_event(w, TD_EVENT_LEAKED);
    if (e) {
      leaked = 1;
      assert_int_equal(e->enemy, t);
      assert_int_equal((int)e->amount, 2);
    }
  }
  assert_true(leaked);
  assert_int_equal(td_world_lives(w), 8);
  assert_false(td_world_enemy_get(w, t, &(td_enemy_view){0})); /* removed at the end of the step */
  td_world_damage(w, g, 500, D_PHYS, 0);
  assert_int_equal(td_world_gold(w), 205);
  td_world_give_gold(w, -1000);
  assert_int_equal(td_world_gold(w), 0);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

/* An enemy put down on a goal (a script's spawn; a splitter's children
** where it died next to the goal) leaks at once, and is not left alive
** without an agent (td soak found that). */
static void test_enemy_on_goal_leaks(void **state) {
  (void)state;
  fixture f;
  line_map(&f.map);
  rules_make(&f.rules);
  td_world *w = td_test_world(&f.map, &f.rules, 1);
  int32_t lives = td_world_lives(w);
  uint32_t g = spawn_at(w, E_GRUNT, 20, 0); /* node 20: the goal */
  int leaks = 0;
  for (int i = 0; i < 5; i++) {
    td_test_step(w);
    leaks += td_test_count_events(w, TD_EVENT_LEAKED);
  }
  assert_int_equal(leaks, 1);
  assert_int_equal(td_world_enemy_count(w), 0);
  assert_false(td_world_enemy_get(w, g, &(td_enemy_view){0}));
  assert_true(td_world_lives(w) < lives);
  /* a splitter killed beside the goal: its three children leak */
  uint32_t s = spawn_at(w, E_SPLIT, 19, 0);
  while (td_test_enemy_view(w, s).x < 196) td_test_step(w); /* past the middle of the last edge (190..200) */
  assert_int_equal(td_test_enemy_view(w, s).state, TD_ENEMY_WALK);
  td_world_damage(w, s, 1000, D_PHYS, 0);
  leaks = 0;
  for (int i = 0; i < 5; i++) {
    td_test_step(w);
    leaks += td_test_count_events(w, TD_EVENT_LEAKED);
  }
  assert_int_equal(leaks, 3);
  assert_int_equal(td_world_enemy_count(w), 0);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

/* ---- waves --------------------------------------------------------------- */

static void test_wave_formulas_and_preview(void **state) {
  (void)state;
  fixture f;
  line_map(&f.map);
  rules_make(&f.rules);
  td_spawn_group *g = &f.rules.groups[0];
  *g = (td_spawn_group){.enemy = E_DUMMY, .begin = 2, .end = 6, .every = 2, .count = 3,
                        .count_growth = 1.5f, .max_count = 5, .health_growth = 0.5f,
                        .spawn = -1, .delay = 0.5f, .per_row = 2, .width = 1, .spacing = 1};
  f.rules.first_wave_delay = 1;
  f.rules.wave_interval = 2;
  f.rules.wave_count = 6;
  td_world *w = td_test_world(&f.map, &f.rules, 1);
  td_wave_entry e[4];
  assert_int_equal(td_world_preview(w, 1, e, 4), 0);
  assert_int_equal(td_world_preview(w, 2, e, 4), 1);
  assert_int_equal(e[0].count, 3);
  assert_float_equal(e[0].health, 100, 0);
  assert_int_equal(e[0].enemy, E_DUMMY);
  assert_int_equal(e[0].spawns, 1);
  assert_int_equal(td_world_preview(w, 3, e, 4), 0);
  assert_int_equal(td_world_preview(w, 4, e, 4), 1);
  assert_int_equal(e[0].count, 5); /* 3 + floor(1.5 x 2) = 6, capped at 5 */
  assert_float_equal(e[0].health, 200, 1e-3);
  assert_int_equal(td_world_preview(w, 6, e, 4), 1);
  assert_float_equal(e[0].health, 300, 1e-3);
  assert_int_equal(td_world_preview(w, 8, e, 4), 0); /* past end */
  /* the clock: wave 1 at 1 s (tick 60), wave 2 at 3 s; its group 0.5 s later */
  assert_int_equal(td_world_next_wave_ticks(w), 60);
  int started[3] = {0}, n_started = 0, spawned_at = -1, spawned = 0;
  for (int t = 0; t < 300; t++) {
    td_test_step(w);
    const td_event *s = td_test_find_event(w, TD_EVENT_WAVE_STARTED);
    if (s && n_started < 3) started[n_started++] = (int)s->tick;
    size_t k = td_test_count_events(w, TD_EVENT_SPAWNED);
    if (k && spawned_at < 0) spawned_at = t;
    spawned += (int)k;
  }
  assert_int_equal(started[0], 59); /* the 60th step */
  assert_int_equal(started[1], 179);
  assert_int_equal(spawned_at, 179 + 30);
  assert_int_equal(spawned, 3);
  assert_int_equal(td_world_wave(w), 3);
  assert_int_equal(td_world_gold(w), 200 + 3 * 25);
  /* wave 1 and 3 have no groups: they ended at once */
  td_world_destroy(w);
  /* endless: health keeps growing past wave_count */
  g->end = 0;
  f.rules.wave_count = 3;
  w = td_test_world(&f.map, &f.rules, 1);
  assert_int_equal(td_world_preview(w, 6, e, 4), 1);
  /* (1 + 0.5 x 4) x (1 + 0.1 x 3) = 3.9 */
  assert_float_equal(e[0].health, 390, 1e-2);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

static void test_call_wave_early(void **state) {
  (void)state;
  fixture f;
  line_map(&f.map);
  rules_make(&f.rules);
  f.rules.first_wave_delay = 10;
  f.rules.wave_interval = 20;
  f.rules.wave_count = 2;
  f.rules.early_bonus = 3;
  td_world *w = td_test_world(&f.map, &f.rules, 1);
  td_test_steps(w, 60); /* 1 s in: 9 s (540 ticks) early */
  td_test_cmd(w, (td_command){.kind = TD_COMMAND_CALL_WAVE});
  td_test_step(w);
  const td_event *e = td_test_find_event(w, TD_EVENT_WAVE_STARTED);
  assert_non_null(e);
  assert_int_equal(e->wave, 1);
  assert_int_equal((int)e->amount, 26); /* floor(3 x 539 / 60) */
  assert_int_equal(td_world_gold(w), 200 + 25 + 26);
  assert_int_equal(td_test_count_events(w, TD_EVENT_SPAWNED), 3);
  assert_int_equal(td_world_next_wave_ticks(w), 1200);
  td_test_cmd(w, (td_command){.kind = TD_COMMAND_CALL_WAVE});
  td_test_cmd(w, (td_command){.kind = TD_COMMAND_CALL_WAVE});
  td_test_step(w);
  assert_int_equal(td_world_wave(w), 2);
  e = td_test_find_event(w, TD_EVENT_WAVE_STARTED);
  assert_int_equal((int)e->amount, 59); /* floor(3 x 1199 / 60) */
  assert_int_equal(td_test_find_event(w, TD_EVENT_REFUSED)->reason, TD_REFUSAL_NO_WAVE);
  assert_int_equal(td_world_next_wave_ticks(w), -1);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

/* Pause: commands still apply; nothing moves; the wave clock stops. */
static void test_pause(void **state) {
  (void)state;
  fixture f;
  line_map(&f.map);
  rules_make(&f.rules);
  f.rules.first_wave_delay = 1;
  td_world *w = td_test_world(&f.map, &f.rules, 1);
  uint32_t g = spawn_at(w, E_GRUNT, 0, 0);
  td_test_steps(w, 10);
  td_test_cmd(w, (td_command){.kind = TD_COMMAND_PAUSE});
  td_test_cmd(w, (td_command){.tick = 110, .kind = TD_COMMAND_RESUME});
  td_test_step(w);
  assert_true(td_world_paused(w));
  float x = td_test_enemy_view(w, g).x;
  int64_t left = td_world_next_wave_ticks(w);
  td_test_steps(w, 99);
  assert_true(td_world_paused(w));
  assert_float_equal(td_test_enemy_view(w, g).x, x, 0);
  assert_int_equal(td_world_next_wave_ticks(w), left);
  td_test_step(w);
  assert_false(td_world_paused(w));
  assert_true(td_test_enemy_view(w, g).x > x);
  assert_int_equal(td_world_next_wave_ticks(w), left - 1);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

static void test_win_lose_and_endless(void **state) {
  (void)state;
  fixture f;
  line_map(&f.map);
  rules_make(&f.rules);
  f.rules.first_wave_delay = 0.5f;
  f.rules.wave_interval = 5;
  f.rules.wave_count = 2;
  f.rules.groups[0].count = 2;
  f.rules.levels[L_GUN].damage = 1000;
  f.rules.levels[L_GUN].range = 8;
  /* win: a gun that kills everything in sight */
  td_world *w = td_test_world(&f.map, &f.rules, 1);
  place(w, 0, T_GUN);
  int won_at = -1, ended = 0;
  for (int t = 0; t < 60 * 30 && won_at < 0; t++) {
    td_test_step(w);
    ended += (int)td_test_count_events(w, TD_EVENT_WAVE_ENDED);
    if (td_test_find_event(w, TD_EVENT_WON)) won_at = t;
  }
  assert_true(won_at > 300); /* after wave 2 (at 5.5 s) was cleared */
  assert_int_equal(ended, 2);
  assert_int_equal(td_world_state(w), TD_GAME_WON);
  assert_int_equal(td_world_lives(w), 10);
  assert_int_equal(td_world_gold(w), 200 - 50 + 2 * 25 + 4 * 5);
  place(w, 2, T_GUN);
  td_test_step(w);
  assert_int_equal(td_test_find_event(w, TD_EVENT_REFUSED)->reason, TD_REFUSAL_GAME_OVER);
  td_world_destroy(w);
  /* endless: the same game goes on to wave 3 and beyond */
  w = td_test_world(&f.map, &f.rules, 1);
  td_world_set_endless(w, true);
  place(w, 0, T_GUN);
  td_test_steps(w, 60 * 16);
  assert_int_equal(td_world_state(w), TD_GAME_PLAYING);
  assert_int_equal(td_world_wave(w), 4);
  assert_true(td_world_next_wave_ticks(w) > 0);
  td_world_destroy(w);
  /* lose: no towers, 3 lives, 4 grunts leak */
  f.rules.start_lives = 3;
  f.rules.groups[0].count = 4;
  w = td_test_world(&f.map, &f.rules, 1);
  int lost_at = -1;
  for (int t = 0; t < 60 * 40 && lost_at < 0; t++) {
    td_test_step(w);
    if (td_test_find_event(w, TD_EVENT_LOST)) lost_at = t;
  }
  assert_true(lost_at > 0);
  assert_int_equal(td_world_state(w), TD_GAME_LOST);
  assert_int_equal(td_world_lives(w), 0);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

/* ---- hooks --------------------------------------------------------------- */

typedef struct hook_log {
  int ticks, events, kills;
  uint64_t last_tick;
  bool runaway;
} hook_log;

static void on_tick(void *ud, td_world *w) {
  (void)w;
  ((hook_log *)ud)->ticks++;
}

static void on_event(void *ud, td_world *w, const td_event *e) {
  hook_log *l = ud;
  l->events++;
  l->last_tick = e->tick;
  if (e->kind == TD_EVENT_KILLED) {
    l->kills++;
    td_world_give_gold(w, 1000);
  }
  if (l->runaway && e->kind == TD_EVENT_SPAWNED) { /* every spawn spawns one more */
    td_spawn_desc d = {.type = E_DUMMY, .spawn = 0};
    td_world_spawn_enemy(w, &d, NULL);
  }
  if (e->kind == TD_EVENT_HIT && e->amount < 1000) td_world_damage(w, e->enemy, 1e6f, D_PHYS, 0);
}

typedef struct reenter_log {
  int rc;
  td_err err;
} reenter_log;

static void reenter(void *ud, td_world *w) {
  reenter_log *l = ud;
  l->rc = td_world_step(w, &l->err);
}

static void test_hooks(void **state) {
  (void)state;
  fixture f;
  line_map(&f.map);
  rules_make(&f.rules);
  f.rules.levels[L_GUN].range = 5;
  td_world *w = td_test_world(&f.map, &f.rules, 1);
  hook_log log = {0};
  td_world_hooks h = {.ud = &log, .event = on_event, .tick = on_tick};
  td_world_set_hooks(w, &h);
  spawn_at(w, E_DUMMY, 9, 0);
  place(w, 0, T_GUN);
  td_test_step(w);
  /* placed, fired, hit (10), then the hook's hit kills: hit, killed */
  size_t n;
  const td_event *e = td_world_events(w, &n);
  assert_int_equal(n, 5);
  assert_int_equal(e[0].kind, TD_EVENT_PLACED);
  assert_int_equal(e[1].kind, TD_EVENT_FIRED);
  assert_int_equal(e[2].kind, TD_EVENT_HIT);
  assert_int_equal(e[3].kind, TD_EVENT_HIT);
  assert_int_equal(e[4].kind, TD_EVENT_KILLED);
  assert_int_equal(log.events, 5);
  assert_int_equal(log.kills, 1);
  assert_int_equal(log.ticks, 1);
  assert_int_equal(td_world_gold(w), 150 + 1000);
  assert_int_equal(td_world_enemy_count(w), 0);
  /* a step from inside a hook is refused */
  reenter_log re = {0};
  td_world_hooks h2 = {.ud = &re, .tick = reenter};
  td_world_set_hooks(w, &h2);
  td_test_step(w);
  assert_int_equal(re.rc, -1);
  assert_string_equal(re.err.msg, "world: td_world_step called from a hook");
  assert_int_equal(td_world_tick(w), 2);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

static void spawn_in_tick(void *ud, td_world *w) {
  (void)ud;
  td_spawn_desc d = {.type = E_DUMMY, .spawn = 0};
  td_world_spawn_enemy(w, &d, NULL);
}

static void test_runaway_hook_is_capped(void **state) {
  (void)state;
  fixture f;
  line_map(&f.map);
  rules_make(&f.rules);
  td_world *w = td_test_world(&f.map, &f.rules, 1);
  hook_log log = {.runaway = true};
  td_world_hooks h = {.ud = &log, .event = on_event, .tick = spawn_in_tick};
  td_world_set_hooks(w, &h);
  td_test_step(w);
  assert_int_equal(log.events, TD_WORLD_HOOK_EVENTS);
  size_t n;
  td_world_events(w, &n);
  assert_int_equal(n, TD_WORLD_HOOK_EVENTS + 1); /* the last one listed, not handed on */
  assert_int_equal(td_world_enemy_count(w), TD_WORLD_HOOK_EVENTS + 1);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

/* ---- a whole game: determinism, saves ------------------------------------ */

/* The fork with every kind of tower and three kinds of enemy; commands
** place, upgrade, retarget, sell and call a wave; one is refused. */
static void game_rules(td_rules *r) {
  rules_make(r);
  td_mem_free(r->groups, r->group_count * sizeof *r->groups);
  r->groups = td_mem_calloc(4, sizeof *r->groups);
  r->group_count = 4;
  r->groups[0] = (td_spawn_group){.enemy = E_GRUNT, .begin = 1, .every = 1, .count = 6,
                                  .count_growth = 2, .max_count = 20, .health_growth = 0.2f,
                                  .spawn = -1, .per_row = 3, .width = 1.2f, .spacing = 0.8f};
  r->groups[1] = (td_spawn_group){.enemy = E_SPLIT, .begin = 1, .every = 1, .count = 3,
                                  .max_count = 10, .spawn = 0, .delay = 1.5f, .per_row = 1,
                                  .spacing = 1};
  r->groups[2] = (td_spawn_group){.enemy = E_FLYER, .begin = 2, .every = 1, .count = 4,
                                  .max_count = 10, .spawn = 0, .delay = 0.5f, .per_row = 2,
                                  .width = 1, .spacing = 1};
  r->groups[3] = (td_spawn_group){.enemy = E_TANK, .begin = 2, .every = 2, .count = 2,
                                  .max_count = 4, .spawn = 0, .delay = 2, .per_row = 2,
                                  .width = 1, .spacing = 1};
  r->enemies[E_TANK].speed = 0.6f;
  r->enemies[E_GRUNT].regen = 1;
  r->first_wave_delay = 1;
  r->wave_interval = 8;
  r->wave_count = 4;
  r->start_gold = 1000;
  r->start_lives = 100;
}

static void game_commands(td_world *w) {
  td_command c[] = {
    {.tick = 0, .kind = TD_COMMAND_PLACE, .base = 2, .tower_type = T_MORTAR},
    {.tick = 5, .kind = TD_COMMAND_PLACE, .base = 4, .tower_type = T_HOMING},
    {.tick = 30, .kind = TD_COMMAND_PLACE, .base = 0, .tower_type = T_CHAIN},
    {.tick = 31, .kind = TD_COMMAND_PLACE, .base = 1, .tower_type = T_GUN}, /* cuts: refused */
    {.tick = 200, .kind = TD_COMMAND_TARGET, .base = 4, .mode = TD_TARGET_STRONGEST},
    {.tick = 420, .kind = TD_COMMAND_PLACE, .base = 3, .tower_type = T_PIERCE}, /* cuts */
    {.tick = 450, .kind = TD_COMMAND_CALL_WAVE},
    {.tick = 500, .kind = TD_COMMAND_SELL, .base = 0},
    {.tick = 520, .kind = TD_COMMAND_PLACE, .base = 0, .tower_type = T_GUN},
    {.tick = 600, .kind = TD_COMMAND_UPGRADE, .base = 0, .upgrade = 0},
    {.tick = 700, .kind = TD_COMMAND_PLACE, .base = 1, .tower_type = T_AURA},
  };
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
    assert_int_equal(td_world_command(w, &c[i], NULL), 0);
}

static float health_sum(const td_world *w) {
  float s = 0;
  for (size_t i = 0; i < td_world_enemy_capacity(w); i++) {
    td_enemy_view v;
    if (td_world_enemy(w, i, &v)) s += v.health;
  }
  return s;
}

/* A tick hook that uses the RNG: every 30 ticks it hurts a random enemy. */
static void random_hurt(void *ud, td_world *w) {
  (void)ud;
  if (td_world_tick(w) % 30 != 0 || td_world_enemy_count(w) == 0) return;
  size_t cap = td_world_enemy_capacity(w);
  size_t s = (size_t)td_world_random_range(w, 0, (int32_t)cap - 1);
  td_enemy_view v;
  if (td_world_enemy(w, s, &v)) td_world_damage(w, v.handle, 5 * td_world_random_float(w), 0, 0);
}

static void test_determinism(void **state) {
  (void)state;
  fixture f;
  fork_map(&f.map);
  game_rules(&f.rules);
  td_world *a = td_test_world(&f.map, &f.rules, 42), *b = td_test_world(&f.map, &f.rules, 42),
           *c = td_test_world(&f.map, &f.rules, 43);
  td_world_hooks h = {.tick = random_hurt};
  td_world *all[3] = {a, b, c};
  for (int i = 0; i < 3; i++) {
    game_commands(all[i]);
    td_world_set_hooks(all[i], &h);
  }
  assert_int_equal(td_world_checksum(a), td_world_checksum(b));
  assert_true(td_world_checksum(a) != td_world_checksum(c)); /* the RNG's state */
  int differ = 0, kills = 0, hits = 0, shots = 0, refused = 0;
  for (int t = 0; t < 60 * 40; t++) {
    td_test_step(a);
    td_test_step(b);
    td_test_step(c);
    if (td_world_checksum(a) != td_world_checksum(b)) fail_msg("tick %d: checksums differ", t);
    size_t na, nb;
    const td_event *ea = td_world_events(a, &na), *eb = td_world_events(b, &nb);
    assert_int_equal(na, nb);
    for (size_t i = 0; i < na; i++) {
      const td_event *x = &ea[i], *y = &eb[i];
      assert_true(x->kind == y->kind && x->tick == y->tick && x->enemy == y->enemy &&
                  x->tower == y->tower && x->type == y->type && x->base == y->base &&
                  x->wave == y->wave && x->reason == y->reason && x->amount == y->amount &&
                  x->x == y->x && x->y == y->y);
    }
    kills += (int)td_test_count_events(a, TD_EVENT_KILLED);
    hits += (int)td_test_count_events(a, TD_EVENT_HIT);
    refused += (int)td_test_count_events(a, TD_EVENT_REFUSED);
    shots += (int)td_world_shot_capacity(a) > 0;
    differ += fabsf(health_sum(a) - health_sum(c)) > 1e-3f;
  }
  printf("  game: wave %d, gold %d, lives %d, kills %d, hits %d, refused %d, state %d\n",
         td_world_wave(a), td_world_gold(a), td_world_lives(a), kills, hits, refused,
         td_world_state(a));
  assert_true(kills > 10);
  assert_int_equal(refused, 3); /* ticks 31, 420 and 700: each would cut the spawn */
  assert_true(differ > 0); /* the other seed hurt other enemies */
  td_world_destroy(a);
  td_world_destroy(b);
  td_world_destroy(c);
  td_test_fixture_free(&f);
}


/* Runs the game to tick `at` with active effects and shots in flight,
** saves, loads, and runs both 600 more ticks. */
static void test_save_load_continues(void **state) {
  (void)state;
  fixture f;
  fork_map(&f.map);
  game_rules(&f.rules);
  td_world *a = td_test_world(&f.map, &f.rules, 7);
  game_commands(a);
  int t = 0;
  bool ready = false;
  for (; t < 60 * 30 && !ready; t++) {
    td_test_step(a);
    size_t shots = 0, slowed = 0, dotted = 0, stunned = 0;
    for (size_t s = 0; s < td_world_shot_capacity(a); s++) shots += td_world_shot(a, s, &(td_shot_view){0});
    for (size_t s = 0; s < td_world_enemy_capacity(a); s++) {
      td_enemy_view v;
      if (!td_world_enemy(a, s, &v)) continue;
      slowed += v.slow_time > 0;
      dotted += v.dots != 0;
      stunned += v.state == TD_ENEMY_STUNNED;
    }
    ready = t > 380 && shots > 0 && slowed > 0 && dotted > 0;
  }
  assert_true(ready);
  printf("  saved at tick %d, wave %d, %zu enemies\n", t, td_world_wave(a), td_world_enemy_count(a));
  td_blob blob = {0};
  td_world *b = td_test_save_and_load(&f, a, &blob);
  assert_int_equal(td_world_checksum(a), td_world_checksum(b));
  assert_int_equal(td_world_gold(a), td_world_gold(b));
  for (int k = 0; k < 600; k++) {
    td_test_step(a);
    td_test_step(b);
    if (td_world_checksum(a) != td_world_checksum(b))
      fail_msg("%d ticks after the load: checksums differ", k + 1);
  }
  /* a save of the loaded world is the same bytes */
  td_test_assert_same_saves(a, b);
  td_blob_free(&blob);
  td_world_destroy(a);
  td_world_destroy(b);
  td_test_fixture_free(&f);
}

static void test_bad_saves(void **state) {
  (void)state;
  fixture f;
  fork_map(&f.map);
  game_rules(&f.rules);
  td_world *a = td_test_world(&f.map, &f.rules, 7);
  game_commands(a);
  td_test_steps(a, 400);
  td_blob blob = {0};
  td_world_save(a, &blob);
  assert_false(blob.failed);
  td_world_destroy(a);
  td_test_alloc al = {0};
  td_test_alloc_install(&al);
  /* every truncation is refused, cleanly */
  for (size_t len = 0; len < blob.len; len++) {
    al = (td_test_alloc){0};
    td_blob_reader r = td_blob_read(blob.data, len);
    td_err err = {{0}};
    td_world *w = td_world_load(&f.map, &f.rules, &r, &err);
    if (w) fail_msg("a save cut at %zu of %zu bytes loaded", len, blob.len);
    if (!strstr(err.msg, "truncated at byte"))
      fail_msg("cut at %zu: '%s'", len, err.msg);
    if (al.live_blocks || al.bad_sizes) fail_msg("cut at %zu: %ld blocks leaked", len, al.live_blocks);
  }
  td_err err = {{0}};
  td_blob_reader r = td_blob_read(blob.data, 30);
  td_world_load(&f.map, &f.rules, &r, &err);
  assert_string_equal(err.msg, "save: truncated at byte 30");
  /* a flipped byte anywhere: refused cleanly or loaded; never a leak */
  size_t refused = 0;
  for (size_t i = 0; i < blob.len; i += 3) {
    al = (td_test_alloc){0};
    blob.data[i] ^= 0x5a;
    r = td_blob_read(blob.data, blob.len);
    td_world *w = td_world_load(&f.map, &f.rules, &r, &err);
    if (w) td_world_destroy(w);
    else refused++;
    blob.data[i] ^= 0x5a;
    if (al.live_blocks || al.bad_sizes) fail_msg("flip at %zu: %ld blocks leaked", i, al.live_blocks);
  }
  assert_true(refused > 10);
  td_test_alloc_remove();
  /* other rules, another map, not a save, trailing bytes */
  f.rules.levels[L_GUN].damage += 1;
  r = td_blob_read(blob.data, blob.len);
  assert_null(td_world_load(&f.map, &f.rules, &r, &err));
  assert_non_null(strstr(err.msg, "save: made with other rules"));
  f.rules.levels[L_GUN].damage -= 1;
  td_map other;
  line_map(&other);
  r = td_blob_read(blob.data, blob.len);
  assert_null(td_world_load(&other, &f.rules, &r, &err));
  assert_string_equal(err.msg, "save: made on another map");
  td_map_free(&other);
  r = td_blob_read("nonsense, not a save", 20);
  assert_null(td_world_load(&f.map, &f.rules, &r, &err));
  assert_string_equal(err.msg, "save: not a td world save");
  td_blob_u8(&blob, 0);
  r = td_blob_read(blob.data, blob.len);
  assert_null(td_world_load(&f.map, &f.rules, &r, &err));
  assert_string_equal(err.msg, "save: 1 bytes of unknown data after the end");
  td_blob_free(&blob);
  td_test_fixture_free(&f);
}

/* ---- allocation failures ------------------------------------------------- */

/* Creates a world, plays 500 ticks of the game, saves and loads it. 0 when
** all of it worked; -1 when an allocation failed and it said so cleanly. */
static int game_under_pressure(const fixture *f) {
  td_err err = {{0}};
  td_world *w = td_world_create(&f->map, &f->rules, 3, &err);
  if (!w) {
    if (!strstr(err.msg, "out of memory")) fail_msg("create: '%s'", err.msg);
    return -1;
  }
  int status = 0;
  td_command c[] = {
    {.tick = 0, .kind = TD_COMMAND_PLACE, .base = 2, .tower_type = T_MORTAR},
    {.tick = 5, .kind = TD_COMMAND_PLACE, .base = 4, .tower_type = T_HOMING},
    {.tick = 30, .kind = TD_COMMAND_PLACE, .base = 0, .tower_type = T_CHAIN},
    {.tick = 31, .kind = TD_COMMAND_PLACE, .base = 1, .tower_type = T_GUN},
    {.tick = 300, .kind = TD_COMMAND_SELL, .base = 0},
  };
  for (size_t i = 0; i < sizeof c / sizeof c[0] && status == 0; i++)
    if (td_world_command(w, &c[i], &err) != 0) status = -1;
  for (int t = 0; t < 500 && status == 0; t++) {
    if (td_world_step(w, &err) != 0) {
      if (!strstr(err.msg, "out of memory")) fail_msg("step: '%s'", err.msg);
      status = -1;
    }
    if (t == 250 && status == 0) { /* mud on the short way, a bridge on the detour */
      int32_t e = FORK_E12, n = 4;
      if (td_world_set_cost(w, TD_COST_EDGE, &e, 1, 4.0, &err) != 0 ||
          td_world_set_cost(w, TD_COST_NODE, &n, 1, 0.5, &err) != 0) {
        if (!strstr(err.msg, "out of memory")) fail_msg("set_cost: '%s'", err.msg);
        status = -1;
      }
    }
  }
  if (status == 0) status = td_test_reload_check(f, w);
  td_world_destroy(w);
  return status;
}

static void test_allocation_failures(void **state) {
  (void)state;
  fixture f;
  fork_map(&f.map);
  game_rules(&f.rules);
  td_test_alloc al = {0};
  td_test_alloc_install(&al);
  assert_int_equal(game_under_pressure(&f), 0);
  long total = al.calls;
  td_test_alloc_assert_clean(&al);
  long absorbed = 0;
  for (long n = 1; n <= total; n++) {
    al = (td_test_alloc){.fail_at = n};
    /* the crowd absorbs a failed growth of its scratch (a slower way to the
    ** same result): then the game goes on, and the checksum after the load
    ** still matches */
    if (game_under_pressure(&f) == 0) absorbed++;
    if (al.live_blocks || al.live_bytes || al.bad_sizes)
      fail_msg("allocation %ld failing: %ld blocks (%lld bytes) leaked, %ld bad sizes", n,
               al.live_blocks, al.live_bytes, al.bad_sizes);
  }
  td_test_alloc_remove();
  printf("  %ld allocations, each failed once (%ld absorbed by the crowd)\n", total, absorbed);
  assert_true(absorbed < total / 4);
  assert_true(total > 50);
  td_test_fixture_free(&f);
}

/* ---- costs --------------------------------------------------------------- */

static void test_cost_reroutes(void **state) {
  (void)state;
  fixture f;
  fork_map(&f.map);
  rules_make(&f.rules);
  td_world *w = td_test_world(&f.map, &f.rules, 1);
  const td_route *rt = td_world_route(w);
  const td_graph *g = td_route_graph(rt);
  const int32_t *next = td_route_next(rt);
  uint64_t sum0 = td_world_checksum(w);
  assert_int_equal(next[1], 2);
  assert_true(td_world_cost(w, TD_COST_EDGE, FORK_E12) == 1.0);
  /* a cost is in the checksum while it differs from the map's */
  int32_t e = FORK_E12;
  td_err err = {{0}};
  assert_int_equal(td_world_set_cost(w, TD_COST_EDGE, &e, 1, 5.0, &err), 0);
  assert_true(td_world_checksum(w) != sum0);
  assert_int_equal(td_world_set_cost(w, TD_COST_EDGE, &e, 1, 1.0, &err), 0);
  assert_true(td_world_checksum(w) == sum0);
  /* an enemy on the first edge, heading for node 1 */
  uint32_t h = spawn_at(w, E_GRUNT, 0, 0);
  td_test_steps(w, 20);
  assert_true(td_test_enemy_view(w, h).x < 50);
  /* mud on 1-2 (50 x 5 = 250 against the detour's 150) */
  assert_int_equal(td_world_set_cost(w, TD_COST_EDGE, &e, 1, 5.0, &err), 0);
  assert_int_equal(next[1], 4);
  assert_true(g->edges[FORK_E12].factor == 5.0);
  assert_true(td_world_cost(w, TD_COST_EDGE, FORK_E12) == 5.0);
  assert_int_equal(td_route_validate(rt, NULL), 0);
  /* the enemy takes the detour: it passes y = 100 */
  float ymax = 0;
  for (int t = 0; t < 600 && td_world_enemy_get(w, h, &(td_enemy_view){0}); t++) {
    td_test_step(w);
    td_enemy_view v;
    if (td_world_enemy_get(w, h, &v) && v.y > ymax) ymax = v.y;
  }
  assert_true(ymax > 90);
  /* a tile's cost: node 4 at 0.5 makes edges 1-4 and 4-5 cost 0.75 */
  int32_t n4 = 4;
  assert_int_equal(td_world_set_cost(w, TD_COST_NODE, &n4, 1, 0.5, &err), 0);
  assert_true(g->edges[FORK_E14].factor == 0.75 && g->edges[FORK_E45].factor == 0.75);
  assert_true(g->edges[FORK_E52].factor == 1.0);
  assert_true(td_world_cost(w, TD_COST_NODE, 4) == 0.5 && td_world_cost(w, TD_COST_NODE, 5) == 1);
  /* refusals change nothing */
  uint64_t sum2 = td_world_checksum(w);
  double bad[4] = {0.0, -2.0, 1000.5, NAN};
  for (int i = 0; i < 4; i++) {
    assert_int_equal(td_world_set_cost(w, TD_COST_EDGE, &e, 1, bad[i], &err), -1);
    assert_non_null(strstr(err.msg, "is not in (0, 1000]"));
  }
  int32_t ids[2] = {FORK_E01, 6};
  assert_int_equal(td_world_set_cost(w, TD_COST_EDGE, ids, 2, 2.0, &err), -1);
  assert_string_equal(err.msg, "world: no edge 6 (the map has 6)");
  ids[1] = -1;
  assert_int_equal(td_world_set_cost(w, TD_COST_NODE, ids, 2, 2.0, &err), -1);
  assert_string_equal(err.msg, "world: no node -1 (the map has 6)");
  assert_true(td_world_cost(w, TD_COST_EDGE, 6) == -1 && td_world_cost(w, TD_COST_NODE, -1) == -1);
  assert_true(td_world_checksum(w) == sum2 && g->edges[FORK_E01].factor == 1.0);
  /* back to the map's costs, the short way again */
  assert_int_equal(td_world_set_cost(w, TD_COST_NODE, &n4, 1, 1.0, &err), 0);
  assert_int_equal(td_world_set_cost(w, TD_COST_EDGE, &e, 1, 1.0, &err), 0);
  assert_int_equal(next[1], 2);
  assert_true(g->edges[FORK_E14].factor == 1.0);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

/* A tick hook that changes costs at ticks 300 and 900 (edges and a node). */
static void cost_rules(void *ud, td_world *w) {
  (void)ud;
  int32_t e = FORK_E12, n = 5;
  if (td_world_tick(w) == 300) td_world_set_cost(w, TD_COST_EDGE, &e, 1, 6.0, NULL);
  if (td_world_tick(w) == 900) {
    td_world_set_cost(w, TD_COST_NODE, &n, 1, 0.25, NULL);
    td_world_set_cost(w, TD_COST_EDGE, &e, 1, 2.5, NULL);
  }
}

/* Costs are state: a save after a change loads with the same checksum and
** goes on with the same ones (the hook's later change included), and the
** checksum tells a changed world from one without the change. */
static void test_cost_save_load(void **state) {
  (void)state;
  fixture f;
  fork_map(&f.map);
  game_rules(&f.rules);
  td_world *a = td_test_world(&f.map, &f.rules, 7), *plain = td_test_world(&f.map, &f.rules, 7);
  game_commands(a);
  game_commands(plain);
  td_world_hooks h = {.tick = cost_rules};
  td_world_set_hooks(a, &h);
  for (int t = 0; t < 600; t++) {
    td_test_step(a);
    td_test_step(plain);
    if (t < 300) assert_true(td_world_checksum(a) == td_world_checksum(plain));
  }
  assert_true(td_world_checksum(a) != td_world_checksum(plain));
  assert_true(td_world_cost(a, TD_COST_EDGE, FORK_E12) == 6.0);
  td_blob blob = {0};
  td_world *b = td_test_save_and_load(&f, a, &blob);
  td_world_set_hooks(b, &h);
  assert_true(td_world_cost(b, TD_COST_EDGE, FORK_E12) == 6.0);
  assert_true(td_route_graph(td_world_route(b))->edges[FORK_E12].factor == 6.0);
  assert_memory_equal(td_route_next(td_world_route(a)), td_route_next(td_world_route(b)),
                      6 * sizeof(int32_t));
  assert_true(td_world_checksum(a) == td_world_checksum(b));
  for (int k = 0; k < 900; k++) {
    td_test_step(a);
    td_test_step(b);
    if (td_world_checksum(a) != td_world_checksum(b))
      fail_msg("%d ticks after the load: checksums differ", k + 1);
  }
  assert_true(td_world_cost(b, TD_COST_NODE, 5) == 0.25);
  td_test_assert_same_saves(a, b);
  td_world_destroy(b);
  /* the factors are checked as they load: [u64 1][i32 edge][f64 factor]
  ** [u64 0] just before the crowd's "CRWD" */
  uint8_t *crwd = NULL;
  for (size_t i = 0; i + 4 <= blob.len && !crwd; i++)
    if (memcmp(blob.data + i, "CRWD", 4) == 0) crwd = blob.data + i;
  assert_non_null(crwd);
  uint8_t *fac = crwd - 16, *id = crwd - 20;
  static const struct {
    size_t at;
    uint8_t byte;
    const char *msg;
  } bad[] = {{7, 0x00, "save: bad edge cost 0: factor 0, not in (0, 1000]"},
             {7, 0x40, "save: bad edge cost 0: factor 2000, not in (0, 1000]"},
             {0, 99, "save: bad edge cost 0: edge 99 (ascending, below 6)"}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    uint8_t *p = i < 2 ? fac : id;
    uint8_t keep[8];
    memcpy(keep, p, 8);
    if (i == 0) memset(p, 0, 8);
    else if (i == 1) memcpy(p, "\0\0\0\0\0\x40\x9f\x40", 8); /* 2000.0, little-endian */
    else p[bad[i].at] = bad[i].byte;
    td_blob_reader r = td_blob_read(blob.data, blob.len);
    td_err err = {{0}};
    assert_null(td_world_load(&f.map, &f.rules, &r, &err));
    assert_string_equal(err.msg, bad[i].msg);
    memcpy(p, keep, 8);
  }
  td_blob_free(&blob);
  td_world_destroy(a);
  td_world_destroy(plain);
  td_test_fixture_free(&f);
}

static void test_create_refusals(void **state) {
  (void)state;
  fixture f;
  fork_map(&f.map);
  rules_make(&f.rules);
  td_err err = {{0}};
  f.rules.groups[0].spawn = 3;
  assert_null(td_world_create(&f.map, &f.rules, 1, &err));
  assert_string_equal(err.msg, "spawn group 1: spawn 3, but the map has 1 spawns");
  f.rules.groups[0].spawn = -1;
  f.rules.enemies[0].speed = 0;
  assert_null(td_world_create(&f.map, &f.rules, 1, &err));
  assert_string_equal(err.msg, "enemy 'grunt': speed must be > 0");
  f.rules.enemies[0].speed = 1;
  f.map.tile_w = 0;
  assert_null(td_world_create(&f.map, &f.rules, 1, &err));
  assert_string_equal(err.msg, "world: the map's tile_w must be > 0");
  f.map.tile_w = TILE;
  /* names are identifiers, for rules built in C too (the mod loader says
  ** which file and line; here the object's number) */
  snprintf(f.rules.towers[0].name, TD_RULES_NAME_MAX, "ar row");
  assert_null(td_world_create(&f.map, &f.rules, 1, &err));
  assert_string_equal(err.msg,
                      "tower 1: a name may hold only letters, digits, '_', '-' and '.'");
  snprintf(f.rules.towers[0].name, TD_RULES_NAME_MAX, "gun");
  f.rules.enemies[1].name[0] = '\0';
  assert_null(td_world_create(&f.map, &f.rules, 1, &err));
  assert_string_equal(err.msg, "enemy 2: no name");
  memset(f.rules.enemies[1].name, 'x', TD_RULES_NAME_MAX);
  assert_null(td_world_create(&f.map, &f.rules, 1, &err));
  assert_string_equal(err.msg, "enemy 2: its name has no terminating zero");
  snprintf(f.rules.enemies[1].name, TD_RULES_NAME_MAX, "runner-2.b_");
  snprintf(f.rules.damage_types[1], TD_RULES_NAME_MAX, "fire\n");
  assert_null(td_world_create(&f.map, &f.rules, 1, &err));
  assert_string_equal(err.msg,
                      "damage type 2: a name may hold only letters, digits, '_', '-' and '.'");
  snprintf(f.rules.damage_types[1], TD_RULES_NAME_MAX, "fire");
  snprintf(f.rules.levels[0].name, TD_RULES_NAME_MAX, "l\xc3\xa9vel");
  assert_null(td_world_create(&f.map, &f.rules, 1, &err));
  assert_string_equal(err.msg,
                      "tower level 1: a name may hold only letters, digits, '_', '-' and '.'");
  snprintf(f.rules.levels[0].name, TD_RULES_NAME_MAX, "level-1");
  td_world *w = td_world_create(&f.map, &f.rules, 1, &err);
  if (!w) fail_msg("%s", err.msg);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

static void test_rng(void **state) {
  (void)state;
  fixture f;
  line_map(&f.map);
  rules_make(&f.rules);
  td_world *a = td_test_world(&f.map, &f.rules, 5), *b = td_test_world(&f.map, &f.rules, 5),
           *c = td_test_world(&f.map, &f.rules, 6);
  int same = 0, hist[6] = {0};
  for (int i = 0; i < 6000; i++) {
    uint32_t x = td_world_random(a);
    assert_int_equal(x, td_world_random(b));
    same += x == td_world_random(c);
    int32_t k = td_world_random_range(a, -2, 3);
    assert_true(k >= -2 && k <= 3);
    hist[k + 2]++;
    float u = td_world_random_float(a);
    assert_true(u >= 0.0f && u < 1.0f);
    td_world_random_range(b, -2, 3);
    td_world_random_float(b);
  }
  assert_true(same < 3);
  for (int k = 0; k < 6; k++) assert_true(hist[k] > 850 && hist[k] < 1150);
  assert_int_equal(td_world_random_range(a, 4, 4), 4);
  assert_int_equal(td_world_checksum(a), td_world_checksum(b));
  td_world_destroy(a);
  td_world_destroy(b);
  td_world_destroy(c);
  td_test_fixture_free(&f);
}

static void test_graph_clone(void **state) {
  (void)state;
  td_map m;
  fork_map(&m);
  td_graph *c = td_graph_clone(m.graph, NULL);
  assert_non_null(c);
  assert_int_equal(c->node_count, 6);
  assert_int_equal(c->edge_count, 6);
  assert_true(c->finalized);
  assert_int_equal(td_graph_find_edge(c, 5, 2), FORK_E52);
  c->edges[0].blocked = 1;
  assert_false(m.graph->edges[0].blocked);
  td_graph_destroy(c);
  td_map_free(&m);
}

/* The ghost's preview: the route as it would become, and nothing changed. */
static void test_preview_next(void **state) {
  (void)state;
  fixture f;
  fork_map(&f.map);
  rules_make(&f.rules);
  td_world *w = td_test_world(&f.map, &f.rules, 1);
  const td_route *r = td_world_route(w);
  int32_t n = td_route_graph(r)->node_count;
  int32_t before[6], next[6];
  memcpy(before, td_route_next(r), sizeof before);
  uint64_t sum = td_world_checksum(w);
  /* base 0 closes 1-2: the preview goes round by 4, the route does not */
  for (int i = 0; i < n; i++) next[i] = -7;
  assert_true(td_world_preview_next(w, 0, T_GUN, next));
  assert_int_equal(next[1], 4);
  assert_int_equal(next[4], 5);
  assert_int_equal(td_route_next(r)[1], 2);
  assert_memory_equal(td_route_next(r), before, sizeof before);
  assert_false(td_route_graph(r)->edges[FORK_E12].blocked);
  assert_int_equal(td_world_checksum(w), sum);
  assert_int_equal(td_route_validate(r, NULL), 0);
  /* a base that blocks nothing: the same route */
  assert_true(td_world_preview_next(w, 2, T_GUN, next));
  assert_memory_equal(next, before, sizeof before);
  /* refused: cuts the spawn off (base 3), bad base, bad type; next untouched */
  for (int i = 0; i < n; i++) next[i] = -7;
  assert_false(td_world_preview_next(w, 3, T_GUN, next));
  assert_false(td_world_preview_next(w, 9, T_GUN, next));
  assert_false(td_world_preview_next(w, 0, 99, next));
  for (int i = 0; i < n; i++) assert_int_equal(next[i], -7);
  /* with a tower on base 0, base 1 would cut the detour too: refused;
  ** the world's route keeps going round, and a preview of an edge already
  ** blocked by another tower leaves it blocked */
  place(w, 0, T_GUN);
  td_test_step(w);
  assert_int_equal(td_route_next(r)[1], 4);
  assert_false(td_world_preview_next(w, 1, T_GUN, next));
  assert_false(td_world_preview_next(w, 0, T_GUN, next)); /* occupied */
  assert_true(td_world_preview_next(w, 4, T_GUN, next));
  assert_int_equal(next[1], 4);
  assert_true(td_route_graph(r)->edges[FORK_E12].blocked);
  assert_int_equal(td_route_validate(r, NULL), 0);
  /* same steps with and without previews: same checksums */
  td_world *a = td_test_world(&f.map, &f.rules, 3), *b = td_test_world(&f.map, &f.rules, 3);
  for (int t = 0; t < 200; t++) {
    if (t % 7 == 0) assert_true(td_world_preview_next(a, t <= 50 ? 0 : 4, T_GUN, next));
    if (t == 50) {
      place(a, 1, T_GUN);
      place(b, 1, T_GUN);
    }
    td_test_step(a);
    td_test_step(b);
    assert_int_equal(td_world_checksum(a), td_world_checksum(b));
  }
  td_world_destroy(a);
  td_world_destroy(b);
  td_world_destroy(w);
  td_test_fixture_free(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_graph_clone),
    cmocka_unit_test(test_create_refusals),
    cmocka_unit_test(test_rng),
    cmocka_unit_test(test_place_blocks_and_sell_unblocks),
    cmocka_unit_test(test_place_refusals),
    cmocka_unit_test(test_place_refused_when_it_strands_an_enemy),
    cmocka_unit_test(test_upgrade_tree_and_refund),
    cmocka_unit_test(test_targeting_modes),
    cmocka_unit_test(test_tower_states_rate_and_buffs),
    cmocka_unit_test(test_instant_splash),
    cmocka_unit_test(test_chain),
    cmocka_unit_test(test_pierce),
    cmocka_unit_test(test_homing_and_ballistic),
    cmocka_unit_test(test_armour_and_resistance),
    cmocka_unit_test(test_effect_stacking),
    cmocka_unit_test(test_effects_move_the_crowd),
    cmocka_unit_test(test_split_regen_and_healer),
    cmocka_unit_test(test_bounty_and_lives),
    cmocka_unit_test(test_enemy_on_goal_leaks),
    cmocka_unit_test(test_wave_formulas_and_preview),
    cmocka_unit_test(test_call_wave_early),
    cmocka_unit_test(test_pause),
    cmocka_unit_test(test_win_lose_and_endless),
    cmocka_unit_test(test_hooks),
    cmocka_unit_test(test_runaway_hook_is_capped),
    cmocka_unit_test(test_determinism),
    cmocka_unit_test(test_save_load_continues),
    cmocka_unit_test(test_bad_saves),
    cmocka_unit_test(test_allocation_failures),
    cmocka_unit_test(test_cost_reroutes),
    cmocka_unit_test(test_cost_save_load),
    cmocka_unit_test(test_preview_next),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
