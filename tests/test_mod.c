/*
** test_mod.c: Lua mods (script/mod.h): the bundled mod's rules, schema
** errors at file:line, soldiers, barracks and sappers (declarations and
** their events' tables), escape and denial attempts (each refused, the
** offending handler disabled with a report while the others go on),
** dispatch order, every(n), targeting, math.random, sorted_pairs, host
** functions, hot reload, the Lua stack after each call, names (the
** identifier rule and its messages), and allocation failure over a whole
** load. Every test ends with no live td_mem block.
*/
#define _POSIX_C_SOURCE 200809L /* mkdtemp, dup, fileno */

#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>

#include "game/game.h"
#include "script/mod.h"


/* ---- helpers ---------------------------------------------------------------- */

/* A memory error's message: with Lua >= 5.4.6 the sandbox cannot read the
** stack at the refused allocation and names a sampled line (lsandbox.c). */
#if LUA_VERSION_RELEASE_NUM < 50406
#define MEMORY_LIMIT "memory limit exceeded"
#else
#define MEMORY_LIMIT "memory limit exceeded (at or after this line)"
#endif

/* The Lua stack is empty between calls (STYLE.md point 8). */
#define BALANCED(m) assert_int_equal(lua_gettop(td_mod_state(m)), 0)

static const td_mod_options small_limits = {
    .memory = 8u << 20, .load_instructions = 2000000, .call_instructions = 200000};

/* A mod written into a fresh temporary directory: mod.lua and, when
** given, one more file. The directory name is in dir. */
static char dir[256];

static void write_file(const char *name, const char *src) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  fputs(src, f);
  fclose(f);
}

static void make_mod(const char *mod_lua, const char *other, const char *other_src) {
  snprintf(dir, sizeof dir, "/tmp/td_mod_test_XXXXXX");
  assert_non_null(mkdtemp(dir));
  write_file("mod.lua", mod_lua);
  if (other) write_file(other, other_src);
}

static void remove_mod(void) {
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
}

static td_mod *load_ok(const char *path, const td_mod_options *o) {
  td_err err = {{0}};
  td_mod *m = td_mod_load(path, o, &err);
  if (!m) fail_msg("unexpected error: %s", err.msg);
  BALANCED(m);
  return m;
}

/* Loads path and expects an error equal to want (with %s for path). */
static void expect_load_error(const char *path, const char *fmt) {
  td_err err = {{0}};
  char want[1024];
  snprintf(want, sizeof want, fmt, path, path);
  td_mod *m = td_mod_load(path, &small_limits, &err);
  if (m) {
    td_mod_destroy(m);
    fail_msg("loaded, expected \"%s\"", want);
  }
  if (strcmp(err.msg, want) != 0) fail_msg("error\n  \"%s\"\nexpected\n  \"%s\"", err.msg, want);
  assert_null(strchr(err.msg, '\n'));
}

static bool log_has(const td_mod *m, const char *line) {
  for (size_t i = 0; i < td_mod_log_count(m); i++)
    if (strcmp(td_mod_log_line(m, i), line) == 0) return true;
  return false;
}

static const char *mods(const char *name) {
  static char buf[600];
  snprintf(buf, sizeof buf, "%s", td_test_path(name));
  return buf;
}

/* ---- the bundled mod ------------------------------------------------------------ */

static int32_t enemy_of(const td_rules *r, const char *name) {
  for (size_t i = 0; i < r->enemy_count; i++)
    if (strcmp(r->enemies[i].name, name) == 0) return (int32_t)i;
  fail_msg("no enemy %s", name);
  return -1;
}

static int32_t level_of(const td_rules *r, const char *name) {
  for (size_t i = 0; i < r->level_count; i++)
    if (strcmp(r->levels[i].name, name) == 0) return (int32_t)i;
  fail_msg("no level %s", name);
  return -1;
}

/* The schema in full, on a frozen copy of the first bundled rules
** (tests/data/mods/classic): the bundled mod itself changes with the
** content and is checked by test_content.c. */
static void test_classic_mod(void **state) {
  (void)state;
  td_mod *m = load_ok(mods("tests/data/mods/classic"), NULL);
  assert_string_equal(td_mod_name(m), "classic");
  const td_rules *r = td_mod_rules(m);
  td_err err;
  assert_int_equal(td_rules_validate(r, &err), 0);
  assert_int_equal(r->api_version, 1);
  assert_int_equal(r->damage_type_count, 3);
  assert_string_equal(r->damage_types[0], "physical");
  assert_string_equal(r->damage_types[2], "magic");
  assert_int_equal(r->enemy_count, 6);
  int32_t tank = enemy_of(r, "tank"), runner = enemy_of(r, "runner");
  assert_int_equal(tank, 2);
  assert_true(r->enemies[tank].health == 400.0f && r->enemies[tank].speed == 0.8f);
  assert_true(r->enemies[tank].armour == 4.0f && r->enemies[tank].radius == 0.45f);
  assert_true(r->enemies[tank].resist[0] == 0.4f && r->enemies[tank].resist[1] == -0.25f);
  assert_true(r->enemies[tank].resist[2] == 0.0f);
  assert_int_equal(r->enemies[tank].bounty, 12);
  assert_int_equal(r->enemies[tank].lives, 3);
  assert_true(r->enemies[runner].radius == 0.25f);
  assert_int_equal(r->enemies[runner].split_into, -1);
  int32_t sp = enemy_of(r, "splitter");
  assert_int_equal(r->enemies[sp].split_into, runner);
  assert_int_equal(r->enemies[sp].split_count, 3);
  assert_true(r->enemies[enemy_of(r, "wisp")].flying);
  assert_true(r->enemies[enemy_of(r, "warlord")].boss);
  assert_true(r->enemies[enemy_of(r, "grunt")].radius == 0.3f); /* the default */
  /* towers and the upgrade tree */
  assert_int_equal(r->tower_count, 3);
  assert_int_equal(r->level_count, 9);
  assert_string_equal(r->towers[0].name, "arrow");
  assert_int_equal(r->towers[0].root, 0);
  assert_int_equal(r->towers[1].default_target, TD_TARGET_STRONGEST);
  assert_int_equal(r->towers[2].default_target, TD_TARGET_CLOSEST);
  const td_tower_level *a2 = &r->levels[level_of(r, "arrow_2")];
  assert_int_equal(a2->parent, 0);
  assert_int_equal(a2->cost, 40);
  assert_true(a2->damage == 14.0f && a2->rate == 1.8f && a2->range == 3.5f); /* inherited range */
  assert_int_equal(a2->children[0], level_of(r, "sniper"));
  assert_int_equal(a2->children[1], level_of(r, "volley"));
  assert_int_equal(a2->children[2], -1);
  const td_tower_level *volley = &r->levels[level_of(r, "volley")];
  assert_int_equal(volley->shot, TD_SHOT_PIERCE);
  assert_int_equal(volley->pierce, 3);
  const td_tower_level *cannon = &r->levels[level_of(r, "cannon")];
  assert_int_equal(cannon->damage_type, 1);
  assert_int_equal(cannon->shot, TD_SHOT_BALLISTIC);
  assert_false(cannon->hits_air);
  assert_true(cannon->hits_ground);
  const td_tower_level *frost = &r->levels[level_of(r, "frost")];
  assert_int_equal(frost->effect.kind, TD_EFFECT_SLOW);
  assert_true(frost->effect.magnitude == 0.4f && frost->effect.duration == 2.0f);
  const td_tower_level *storm = &r->levels[level_of(r, "storm")];
  assert_int_equal(storm->parent, level_of(r, "frost"));
  assert_int_equal(storm->effect.kind, TD_EFFECT_STUN);
  assert_int_equal(storm->chain, 3);
  /* waves: 10 td.wave calls (16 groups) and 2 endless groups */
  assert_int_equal(r->wave_count, 10);
  assert_int_equal(r->group_count, 18);
  int32_t out[32];
  assert_int_equal(td_rules_wave_groups(r, 3, out), 2);
  assert_int_equal(r->groups[out[0]].enemy, enemy_of(r, "grunt"));
  assert_int_equal(r->groups[out[1]].count, 6);
  assert_true(r->groups[out[1]].delay == 6.0f);
  assert_int_equal(r->groups[out[1]].spawn, -1);
  assert_int_equal(td_rules_wave_groups(r, 11, out), 2);
  assert_int_equal(td_rules_wave_groups(r, 12, out), 1);
  assert_int_equal(td_rules_group_count(r, &r->groups[out[0]], 12), 24);
  /* the rules' numbers */
  assert_int_equal(r->start_gold, 120);
  assert_int_equal(r->start_lives, 20);
  assert_int_equal(r->wave_income, 25);
  assert_true(r->first_wave_delay == 8.0f && r->wave_interval == 30.0f);
  assert_true(r->sell_refund == 0.75f && r->early_bonus == 2.0f);
  /* no soldiers: the defaults of what it does not say */
  assert_true(r->repair_cost == 0.5f);
  assert_int_equal(r->soldier_type_count, 0);
  assert_null(r->soldier_types);
  for (size_t i = 0; i < r->level_count; i++) {
    assert_true(r->levels[i].health == 0.0f);
    assert_int_equal(r->levels[i].soldiers, 0);
    assert_int_equal(r->levels[i].soldier, -1);
  }
  for (size_t i = 0; i < r->enemy_count; i++)
    assert_true(r->enemies[i].melee_rate == 0.0f && r->enemies[i].siege_damage == 0.0f);
  /* its handlers */
  td_event e = {.kind = TD_EVENT_KILLED, .tick = 5, .type = tank, .enemy = 7};
  td_mod_dispatch(m, &e);
  BALANCED(m);
  e.type = runner;
  td_mod_dispatch(m, &e);
  e = (td_event){.kind = TD_EVENT_LEAKED, .tick = 6, .type = runner, .amount = 1};
  td_mod_dispatch(m, &e);
  e = (td_event){.kind = TD_EVENT_WAVE_ENDED, .tick = 9, .wave = 1};
  td_mod_dispatch(m, &e);
  BALANCED(m);
  assert_true(log_has(m, "wave 1 cleared: 2 kills (runner=1 tank=1), 1 lives lost"));
  td_mod_tick(m, 3600);
  BALANCED(m);
  assert_true(log_has(m, "minute 1: 2 kills"));
  assert_int_equal(td_mod_error_count(m), 0);
  assert_false(td_mod_changed(m));
  td_mod_destroy(m);
}

/* ---- schema errors --------------------------------------------------------------- */

static void test_schema_errors(void **state) {
  (void)state;
  expect_load_error(mods("tests/data/mods/bad_type"),
                    "%s/enemies.lua:2: enemy 'runner': health must be a number, got string");
  expect_load_error(mods("tests/data/mods/bad_range"),
                    "%s/enemies.lua:4: enemy 'runner': speed must be > 0, got -1");
  expect_load_error(mods("tests/data/mods/bad_unknown"),
                    "%s/enemies.lua:1: enemy 'runner': unknown field 'sped' (did you mean 'speed'?)");
  expect_load_error(mods("tests/data/mods/bad_ref"),
                    "%s/mod.lua:6: wave 2 group 2: unknown enemy 'runer' (did you mean "
                    "'runner'?)");
  expect_load_error(mods("tests/data/mods/bad_damage_ref"),
                    "%s/mod.lua:5: tower 'torch' level 'torch': unknown damage type 'fier' (did "
                    "you mean 'fire'?)");
  /* a typo in an upgrade names the level */
  expect_load_error(mods("tests/data/mods/bad_level_field"),
                    "%s/mod.lua:4: tower 'mortar' level 'mortar_2': unknown field 'splah' (did "
                    "you mean 'splash'?)");
  expect_load_error(mods("tests/data/mods/no_version"),
                    "%s/mod.lua: api_version is missing: set api_version = 1 at the top of "
                    "mod.lua");
  expect_load_error(mods("tests/data/mods/bad_version"),
                    "%s/mod.lua: api_version 2, this td speaks 1");
  expect_load_error(mods("tests/data/mods/bad_syntax"),
                    "%s/mod.lua:3: '}' expected near 'health'");
  expect_load_error(mods("tests/data/mods/bad_include"),
                    "%s/mod.lua:2: include \"../small/enemies.lua\": not a file of this mod (a "
                    "relative name ending in .lua, letters, digits, _ - . /, no \"..\")");
  expect_load_error(mods("tests/data/mods/bad_include_abs"),
                    "%s/mod.lua:2: include \"/etc/passwd\": not a file of this mod (a relative "
                    "name ending in .lua, letters, digits, _ - . /, no \"..\")");
  expect_load_error(mods("tests/data/mods/nope"), "%s/mod.lua: cannot open: No such file or "
                                                  "directory");
  td_mod_destroy(load_ok(mods("tests/data/mods/small"), &small_limits));
}

/* One-file mods: message after the mod's directory. */
static void expect_src_error(const char *src, const char *want_after_dir) {
  make_mod(src, NULL, NULL);
  char fmt[1024];
  snprintf(fmt, sizeof fmt, "%%s/%s", want_after_dir);
  expect_load_error(dir, fmt);
  remove_mod();
}

#define HEAD "api_version = 1\ntd.damage_type 'physical'\n"

static void test_more_schema_errors(void **state) {
  (void)state;
  expect_src_error(HEAD "td.enemy { name = 'a', health = 1, speed = 1, bounty = 1.5 }",
                   "mod.lua:3: enemy 'a': bounty must be an integer, got 1.5");
  expect_src_error(HEAD "td.enemy { name = 'a', health = 1, speed = 1, resist = { physical = 2 } }",
                   "mod.lua:3: enemy 'a': resist.physical must be in -1 .. 0.95, got 2");
  expect_src_error(HEAD "td.enemy { name = 'a', health = 1, speed = 1, resist = { fyre = 0.1 } }\n"
                   "td.wave {}",
                   "mod.lua:3: enemy 'a': resist: unknown damage type 'fyre'");
  expect_src_error(HEAD "td.enemy { name = 'a', speed = 1 }",
                   "mod.lua:3: enemy 'a': health is missing (a number)");
  /* the first bad field in schema order, whatever pairs() does */
  expect_src_error(HEAD "td.enemy { name = 'a', speed = -5, health = -1, radius = -1 }",
                   "mod.lua:3: enemy 'a': health must be > 0, got -1");
  /* unknown fields: the smallest name is reported */
  expect_src_error(HEAD "td.enemy { name = 'a', health = 1, speed = 1, zzz = 1, bbb = 2, yyy = 3 }",
                   "mod.lua:3: enemy 'a': unknown field 'bbb'");
  expect_src_error(HEAD "td.enemy { name = 'a', health = 1, speed = 1 }\n"
                   "td.enemy { name = 'a', health = 1, speed = 1 }",
                   "mod.lua:4: enemy 'a': declared twice (first at %s/mod.lua:3)");
  expect_src_error(HEAD "td.tower { name = 't', levels = { { name = 't', cost = 1, range = 2, "
                   "shot = 'lazer' } } }",
                   "mod.lua:3: tower 't' level 't': shot must be one of "
                   "instant/homing/ballistic/chain/pierce, got 'lazer'");
  expect_src_error(HEAD "td.tower { name = 't', levels = { { name = 't', cost = 1 } } }",
                   "mod.lua:3: tower 't' level 't': range is missing (a number)");
  expect_src_error(HEAD "td.tower { name = 't', levels = { { name = 't', cost = 1, range = 2 },\n"
                   "  { name = 'u', from = 'x', cost = 1 } } }",
                   "mod.lua:3: tower 't' level 'u': from 'x' names no earlier level of this tower");
  expect_src_error(HEAD "td.tower { name = 't', levels = { { name = 't', cost = 1, range = 2,\n"
                   "  effect = { kind = 'slow', magnitude = 2, duration = 1 } } } }",
                   "mod.lua:3: tower 't' level 't': effect.magnitude of a slow must be <= 0.9, "
                   "got 2");
  expect_src_error(HEAD "td.enemy { name = 'a', health = 1, speed = 1 }\n"
                   "td.group { enemy = 'a', count = 5, max_count = 2 }",
                   "mod.lua:4: group #1: max_count must be >= count (5), got 2");
  expect_src_error(HEAD "td.enemy { name = 'a', health = 1, speed = 1 }\n"
                   "td.wave { { enemy = 'a', first = 2 } }",
                   "mod.lua:4: wave 1 group 1: first is not allowed in td.wave (the group "
                   "spawns in that wave)");
  expect_src_error(HEAD "td.rules { start_gold = 5 }\ntd.rules { start_gold = 6 }",
                   "mod.lua:4: rules: td.rules given twice (first at %s/mod.lua:3)");
  expect_src_error(HEAD "td.rules { sell_refund = 1.5 }",
                   "mod.lua:3: rules: sell_refund must be <= 1, got 1.5");
  expect_src_error(HEAD "td.enemy { name = 'a', health = 1, speed = 1 }",
                   "mod.lua: no waves: declare td.wave { ... } or td.rules { wave_count = N }");
  expect_src_error("api_version = 1\ntd.enemy { name = 'a', health = 1, speed = 1 }\ntd.wave {}",
                   "mod.lua: no damage type declared: a mod declares at least one "
                   "(td.damage_type \"name\"; the first is the default)");
  /* a tower's target: a mode's name or a function, and the message says both */
  expect_src_error(HEAD "td.tower { name = 't', target = 'strongst', levels = { { name = 't', "
                   "cost = 1, range = 2 } } }",
                   "mod.lua:3: tower 't': target must be one of first/last/strongest/closest or "
                   "a function, got 'strongst' (did you mean 'strongest'?)");
  expect_src_error(HEAD "td.tower { name = 't', target = 3, levels = { { name = 't', "
                   "cost = 1, range = 2 } } }",
                   "mod.lua:3: tower 't': target must be a targeting mode name or a function, "
                   "got number");
  expect_src_error(HEAD "td.on('kil', function() end)",
                   "mod.lua:3: td.on: unknown event \"kil\" (did you mean \"kill\"?)");
  expect_src_error(HEAD "error('boom')", "mod.lua:3: boom");
  expect_src_error(HEAD "error({})", "mod.lua:3: (error object is a table value)");
  expect_src_error("api_version = 'one'\ntd.damage_type 'x'",
                   "mod.lua: api_version must be an integer, got string");
  expect_src_error(HEAD "include 'other.lua'", "other.lua: cannot open: No such file or directory");
  /* the name of an included file appears whole in its errors, however long */
  make_mod(HEAD "include 'a_rather_long_file_name_to_pass_the_lua_id_size_limit_of_sixty.lua'",
           "a_rather_long_file_name_to_pass_the_lua_id_size_limit_of_sixty.lua",
           "local x = nil\nreturn x.y\n");
  char fmt[512];
  snprintf(fmt, sizeof fmt, "%%s/a_rather_long_file_name_to_pass_the_lua_id_size_limit_of_"
                            "sixty.lua:2: attempt to index a nil value (local 'x')");
  expect_load_error(dir, fmt);
  remove_mod();
}

/* ---- soldiers, barracks, sappers --------------------------------------------------- */

static int32_t soldier_of(const td_rules *r, const char *name) {
  for (size_t i = 0; i < r->soldier_type_count; i++)
    if (strcmp(r->soldier_types[i].name, name) == 0) return (int32_t)i;
  fail_msg("no soldier %s", name);
  return -1;
}

/* tests/data/mods/soldiers (docs/modding.md quotes it): td.soldier, the
** barracks fields of levels and how upgrades inherit them, melee and
** siege, repair_cost. */
static void test_soldiers_mod(void **state) {
  (void)state;
  td_mod *m = load_ok(mods("tests/data/mods/soldiers"), &small_limits);
  const td_rules *r = td_mod_rules(m);
  td_err err;
  assert_int_equal(td_rules_validate(r, &err), 0);
  assert_int_equal(r->soldier_type_count, 2);
  int32_t footman = soldier_of(r, "footman"), knight = soldier_of(r, "knight");
  assert_int_equal(footman, 0); /* declaration order */
  const td_soldier_type *f = &r->soldier_types[footman], *k = &r->soldier_types[knight];
  assert_true(f->health == 60.0f && f->armour == 1.0f && f->damage == 6.0f && f->rate == 1.2f);
  assert_int_equal(f->damage_type, 0); /* the first damage type */
  assert_true(f->speed == 1.8f && f->respawn == 8.0f && f->sight == 2.5f && f->regen == 2.0f);
  assert_true(f->radius == 0.3f); /* the default */
  assert_int_equal(k->damage_type, 1);
  assert_true(k->health == 150.0f && k->armour == 4.0f && k->radius == 0.35f);
  assert_true(k->respawn == 10.0f && k->sight == 2.0f && k->regen == 0.0f); /* defaults */
  /* a barracks: no rate given, so it does not shoot; upgrades inherit */
  const td_tower_level *b = &r->levels[level_of(r, "barracks")];
  assert_int_equal(b->soldiers, 3);
  assert_int_equal(b->soldier, footman);
  assert_true(b->rate == 0.0f && b->health == 200.0f && b->range == 2.5f);
  const td_tower_level *b2 = &r->levels[level_of(r, "barracks_2")];
  assert_int_equal(b2->soldiers, 4);
  assert_int_equal(b2->soldier, footman);
  assert_true(b2->rate == 0.0f && b2->health == 300.0f && b2->range == 2.5f);
  const td_tower_level *keep = &r->levels[level_of(r, "keep")];
  assert_int_equal(keep->parent, level_of(r, "barracks"));
  assert_int_equal(keep->soldiers, 3);
  assert_int_equal(keep->soldier, knight);
  assert_true(keep->health == 200.0f);
  /* a shooting tower with health, and its upgrade into a barracks that
  ** gives its own rate */
  const td_tower_level *arrow = &r->levels[level_of(r, "arrow")];
  assert_true(arrow->health == 120.0f && arrow->rate == 2.0f);
  assert_int_equal(arrow->soldiers, 0);
  assert_int_equal(arrow->soldier, -1);
  const td_tower_level *guard = &r->levels[level_of(r, "guardhouse")];
  assert_int_equal(guard->soldiers, 2);
  assert_int_equal(guard->soldier, footman);
  assert_true(guard->rate == 1.0f && guard->health == 120.0f && guard->damage == 10.0f);
  /* melee and siege */
  const td_enemy_type *sapper = &r->enemies[enemy_of(r, "sapper")];
  assert_true(sapper->melee_damage == 5.0f && sapper->melee_rate == 1.0f);
  assert_true(sapper->siege_damage == 15.0f && sapper->siege_rate == 0.5f &&
              sapper->siege_range == 0.5f);
  const td_enemy_type *grunt = &r->enemies[enemy_of(r, "grunt")];
  assert_true(grunt->melee_damage == 3.0f && grunt->melee_rate == 1.5f);
  assert_true(grunt->siege_damage == 0.0f && grunt->siege_rate == 0.0f);
  const td_enemy_type *bat = &r->enemies[enemy_of(r, "bat")];
  assert_true(bat->melee_damage == 0.0f && bat->melee_rate == 0.0f);
  assert_true(r->repair_cost == 0.4f);
  assert_int_equal(td_mod_error_count(m), 0);
  td_mod_destroy(m);
}

/* The rate of a barracks level: 0 unless given, except that an upgrade of
** a barracks inherits its parent's, as every field; an upgrade that turns
** a shooting tower into a barracks does not shoot unless it says so. */
static void test_barracks_rate(void **state) {
  (void)state;
  make_mod(HEAD
           "td.soldier { name = 'f', health = 10, damage = 1, rate = 1, speed = 1 }\n"
           "td.tower { name = 'b', levels = {\n"
           "  { name = 'b1', cost = 1, range = 2, soldier = 'f', soldiers = 1, rate = 0.5 },\n"
           "  { name = 'b2', cost = 1, soldiers = 2 },\n"
           "  { name = 'b3', from = 'b1', cost = 1 },\n"
           "} }\n"
           "td.tower { name = 's', levels = {\n"
           "  { name = 's1', cost = 1, range = 2, rate = 3 },\n"
           "  { name = 's2', cost = 1, soldier = 'f', soldiers = 2 },\n"
           "  { name = 's3', from = 's1', cost = 1, damage = 2 },\n"
           "  { name = 's4', from = 's2', cost = 1 },\n"
           "} }\n"
           "td.tower { name = 'd', levels = { { name = 'd1', cost = 1, range = 2 } } }\n"
           "td.soldier { name = 'f', replace = true, health = 20, damage = 2, rate = 1,\n"
           "  speed = 1 }\n"
           "td.wave {}\n",
           NULL, NULL);
  td_mod *m = load_ok(dir, &small_limits);
  const td_rules *r = td_mod_rules(m);
  /* replace = true: in its place, nothing kept */
  assert_int_equal(r->soldier_type_count, 1);
  assert_true(r->soldier_types[0].health == 20.0f && r->soldier_types[0].damage == 2.0f);
  assert_true(r->levels[level_of(r, "b1")].rate == 0.5f); /* given */
  assert_true(r->levels[level_of(r, "b2")].rate == 0.5f); /* inherited from a barracks */
  assert_true(r->levels[level_of(r, "b3")].rate == 0.5f);
  assert_true(r->levels[level_of(r, "s1")].rate == 3.0f);
  assert_true(r->levels[level_of(r, "s2")].rate == 0.0f); /* became a barracks */
  assert_true(r->levels[level_of(r, "s3")].rate == 3.0f);
  assert_true(r->levels[level_of(r, "s4")].rate == 0.0f);
  assert_true(r->levels[level_of(r, "d1")].rate == 1.0f); /* a plain tower's default */
  td_mod_destroy(m);
  remove_mod();
}

#define FOOTMAN "td.soldier { name = 'footman', health = 10, damage = 1, rate = 1, speed = 1 }\n"

/* Bad declarations of soldiers, barracks, sappers and repair_cost: one line
** each, with file:line and the object. */
static void test_soldier_errors(void **state) {
  (void)state;
  expect_src_error(HEAD FOOTMAN "td.tower { name = 'b', levels = { { name = 'b', cost = 1, "
                   "range = 2, soldier = 'fotman', soldiers = 2 } } }\ntd.wave {}",
                   "mod.lua:4: tower 'b' level 'b': unknown soldier 'fotman' (did you mean "
                   "'footman'?)");
  /* named in an upgrade: the upgrade's line is the tower's */
  expect_src_error(HEAD FOOTMAN "td.tower { name = 'b', levels = {\n"
                   "  { name = 'b', cost = 1, range = 2, soldier = 'footman', soldiers = 2 },\n"
                   "  { name = 'b2', cost = 1, soldier = 'knight' } } }\ntd.wave {}",
                   "mod.lua:4: tower 'b' level 'b2': unknown soldier 'knight'");
  expect_src_error(HEAD "td.tower { name = 't', levels = { { name = 't', cost = 1, range = 2, "
                   "health = -5 } } }",
                   "mod.lua:3: tower 't' level 't': health must be >= 0, got -5");
  expect_src_error(HEAD "td.soldier { name = 'f', health = -1, damage = 1, rate = 1, speed = 1 }",
                   "mod.lua:3: soldier 'f': health must be > 0, got -1");
  expect_src_error(HEAD "td.enemy { name = 's', health = 1, speed = 1, siege = { damage = 5, "
                   "range = 1 } }",
                   "mod.lua:3: enemy 's': siege.rate is missing (a number)");
  expect_src_error(HEAD "td.enemy { name = 's', health = 1, speed = 1, siege = { damage = 0, "
                   "rate = 1, range = 1 } }",
                   "mod.lua:3: enemy 's': siege.damage must be > 0, got 0");
  expect_src_error(HEAD "td.enemy { name = 'g', health = 1, speed = 1, melee = 5 }",
                   "mod.lua:3: enemy 'g': melee must be a table, got number");
  expect_src_error(HEAD "td.enemy { name = 'g', health = 1, speed = 1, melee = { damage = 1, "
                   "rat = 1 } }",
                   "mod.lua:3: enemy 'g': unknown field 'melee.rat' (did you mean 'rate'?)");
  expect_src_error(HEAD "td.enemy { name = 'g', health = 1, speed = 1, melee = { 1, 2 } }",
                   "mod.lua:3: enemy 'g': unexpected value at [1] (melee takes named fields)");
  expect_src_error(HEAD "td.enemy { name = 'g', health = 1, speed = 1, melee = { damage = 'x', "
                   "rate = 1 } }",
                   "mod.lua:3: enemy 'g': melee.damage must be a number, got string");
  expect_src_error(HEAD FOOTMAN "td.tower { name = 'b', levels = { { name = 'b', cost = 1, "
                   "range = 2, soldiers = 3 } } }",
                   "mod.lua:4: tower 'b' level 'b': soldiers = 3 needs soldier, the soldier "
                   "type it keeps (declared with td.soldier)");
  expect_src_error(HEAD FOOTMAN "td.tower { name = 'b', levels = { { name = 'b', cost = 1, "
                   "range = 2, soldier = 'footman' } } }",
                   "mod.lua:4: tower 'b' level 'b': soldier 'footman' is given but soldiers "
                   "is 0: a barracks keeps 1 .. 8 soldiers");
  expect_src_error(HEAD FOOTMAN "td.tower { name = 'b', levels = { { name = 'b', cost = 1, "
                   "range = 2, soldier = 'footman', soldiers = 9 } } }",
                   "mod.lua:4: tower 'b' level 'b': soldiers must be <= 8, got 9");
  expect_src_error(HEAD "td.soldier { name = 'f', helth = 1 }",
                   "mod.lua:3: soldier 'f': unknown field 'helth' (did you mean 'health'?)");
  expect_src_error(HEAD "td.soldier { name = 'f', health = 1, damage = 1, speed = 1 }",
                   "mod.lua:3: soldier 'f': rate is missing (a number)");
  expect_src_error(HEAD "td.soldier { name = 'f', health = 1, damage = 1, rate = 1, speed = 1, "
                   "damage_type = 'fier' }\ntd.wave {}",
                   "mod.lua:3: soldier 'f': unknown damage type 'fier'");
  expect_src_error(HEAD FOOTMAN FOOTMAN,
                   "mod.lua:4: soldier 'footman': declared twice (first at %s/mod.lua:3)");
  make_mod(HEAD "td.soldier { name = 'f', health = 1, damage = 1, rate = 1, speed = 1, "
           "replace = true }", NULL, NULL);
  td_err err;
  assert_null(td_mod_load(dir, &small_limits, &err));
  assert_non_null(strstr(err.msg, "/mod.lua:3: soldier 'f': replace = true, but no soldier of "
                                  "this name was declared before (by mod 'td_mod_test_"));
  remove_mod();
  expect_src_error(HEAD "td.soldier 'f'", "mod.lua:3: td.soldier expects one table, got string");
  /* td_rules_validate's word, at the declaration's line */
  expect_src_error(HEAD "td.soldier { name = 'f', health = 1, damage = 1, rate = 0.0001, "
                   "speed = 1 }\ntd.wave {}",
                   "mod.lua:3: soldier 'f': rate must be > 0");
  expect_src_error(HEAD "td.rules { repair_cost = 11 }",
                   "mod.lua:3: rules: repair_cost must be <= 10, got 11");
  /* a declaration in a handler */
  make_mod(HEAD "td.wave {}\ntd.on('tick', function() td.soldier { name = 'late' } end)\n",
           NULL, NULL);
  td_mod *m = load_ok(dir, &small_limits);
  td_mod_tick(m, 1);
  assert_int_equal(td_mod_error_count(m), 1);
  assert_non_null(strstr(td_mod_error_at(m, 0)->message,
                         "td.soldier: declarations are only allowed while the mod loads"));
  td_mod_destroy(m);
  remove_mod();
}

/* Every event kind reaches the handlers of its name, with the fields the
** docs list: the six of soldiers and sappers, and hits by soldiers. */
static void test_unit_events(void **state) {
  (void)state;
  make_mod(HEAD
           FOOTMAN
           "td.enemy { name = 'sapper', health = 1, speed = 1,\n"
           "  siege = { damage = 1, rate = 1, range = 0 } }\n"
           "td.tower { name = 'b', levels = { { name = 'b', cost = 1, range = 2, health = 5,\n"
           "  soldier = 'footman', soldiers = 2 } } }\n"
           "td.wave {}\n"
           "local names = { 'spawn', 'fire', 'hit', 'kill', 'leak', 'wave_start', 'wave_end',\n"
           "  'place', 'upgrade', 'sell', 'refuse', 'win', 'lose', 'engage', 'soldier_death',\n"
           "  'tower_damaged', 'tower_destroyed', 'repaired', 'rallied' }\n"
           "local fields = { 'soldier', 'soldier_type', 'tower', 'level', 'tower_type', 'base',\n"
           "  'enemy', 'enemy_type', 'x', 'y', 'source', 'damage', 'cost', 'reason' }\n"
           "for _, n in ipairs(names) do\n"
           "  td.on(n, function(e)\n"
           "    local parts = { e.kind }\n"
           "    for _, f in ipairs(fields) do\n"
           "      if e[f] ~= nil then parts[#parts + 1] = f .. '=' .. tostring(e[f]) end\n"
           "    end\n"
           "    print(table.concat(parts, ' '))\n"
           "  end)\n"
           "end\n",
           NULL, NULL);
  td_mod *m = load_ok(dir, &small_limits);
  const td_event ev[] = {
      {.kind = TD_EVENT_ENGAGED, .soldier = 5, .tower = 2, .enemy = 9, .type = 0, .base = -1,
       .x = 1.5f, .y = 2},
      {.kind = TD_EVENT_SOLDIER_DIED, .soldier = 5, .tower = 2, .enemy = 9, .type = 0,
       .base = -1, .x = 3, .y = 4},
      {.kind = TD_EVENT_SOLDIER_DIED, .soldier = 6, .type = 0, .base = -1, .x = 3, .y = 4},
      {.kind = TD_EVENT_TOWER_DAMAGED, .tower = 2, .type = 0, .base = 3, .enemy = 9,
       .amount = 2.5f, .x = 7, .y = 8},
      {.kind = TD_EVENT_TOWER_DESTROYED, .tower = 2, .type = 0, .base = 3, .x = 7, .y = 8},
      {.kind = TD_EVENT_REPAIRED, .tower = 2, .type = 0, .base = 3, .amount = 12},
      {.kind = TD_EVENT_RALLIED, .tower = 2, .type = -1, .base = 3, .x = 10, .y = 11},
      {.kind = TD_EVENT_HIT, .enemy = 9, .tower = 2, .soldier = 5, .type = 0, .level = 0,
       .source = TD_HIT_SOLDIER, .amount = 6, .x = 1, .y = 1},
      {.kind = TD_EVENT_HIT, .enemy = 9, .tower = 2, .soldier = 0, .type = 0, .level = 0,
       .source = TD_HIT_TOWER, .amount = 6, .x = 1, .y = 1},
  };
  for (size_t i = 0; i < sizeof ev / sizeof ev[0]; i++) {
    td_mod_dispatch(m, &ev[i]);
    BALANCED(m);
  }
  static const char *const want[] = {
      "engage soldier=5 tower=2 enemy=9 enemy_type=sapper x=1.5 y=2.0",
      "soldier_death soldier=5 soldier_type=footman tower=2 enemy=9 x=3.0 y=4.0",
      "soldier_death soldier=6 soldier_type=footman tower=0 enemy=0 x=3.0 y=4.0",
      "tower_damaged tower=2 level=b tower_type=b base=4 enemy=9 x=7.0 y=8.0 damage=2.5",
      "tower_destroyed tower=2 level=b tower_type=b base=4 enemy=0 x=7.0 y=8.0",
      "repaired tower=2 level=b tower_type=b base=4 cost=12",
      "rallied tower=2 base=4 x=10.0 y=11.0",
      "hit soldier=5 tower=2 level=b tower_type=b enemy=9 enemy_type=sapper x=1.0 y=1.0 "
      "source=soldier damage=6",
      "hit tower=2 level=b tower_type=b enemy=9 enemy_type=sapper x=1.0 y=1.0 source=tower "
      "damage=6",
  };
  size_t n = sizeof want / sizeof want[0];
  for (size_t i = 0; i < n && i < td_mod_log_count(m); i++)
    assert_string_equal(td_mod_log_line(m, i), want[i]);
  assert_int_equal(td_mod_log_count(m), n);
  td_mod_clear_log(m);
  /* every kind has its name: one line per kind */
  for (int k = 0; k < TD_EVENT_KIND_COUNT; k++) {
    td_event e = {.kind = (td_event_kind)k, .type = -1, .base = -1, .level = -1};
    td_mod_dispatch(m, &e);
  }
  assert_int_equal(td_mod_log_count(m), TD_EVENT_KIND_COUNT);
  td_mod_clear_log(m);
  /* every refusal has its name */
  static const char *const reasons[TD_REFUSAL_COUNT] = {
      NULL, "no_base", "occupied", "no_tower", "gold", "cuts_route", "no_upgrade", "no_wave",
      "game_over", "bad_command", "no_soldiers", "rally_range", "rally_ground", "not_damaged"};
  for (int k = 1; k < TD_REFUSAL_COUNT; k++) {
    td_event e = {.kind = TD_EVENT_REFUSED, .reason = (td_refusal)k, .type = -1, .base = 0};
    td_mod_dispatch(m, &e);
    char line[80];
    snprintf(line, sizeof line, "refuse base=1 reason=%s", reasons[k]);
    assert_string_equal(td_mod_log_line(m, td_mod_log_count(m) - 1), line);
  }
  assert_int_equal(td_mod_error_count(m), 0);
  td_mod_destroy(m);
  remove_mod();
}

/* ---- names ------------------------------------------------------------------------------ */

/* A mod that loads, with one name swapped for a Lua expression: slot 0
** the second damage type (line 3), 1 the enemy (line 4), 2 the tower, 3
** its first level, 4 its upgrade (all three line 5). Each name is also
** referred to (resist, damage_type, from, the wave's group). */
static void names_mod(char *out, size_t size, int slot, const char *expr) {
  const char *n[5] = {"'fire'", "'runner'", "'arrow'", "'arrow_1'", "'arrow_2'"};
  if (slot >= 0) n[slot] = expr;
  snprintf(out, size,
           HEAD "td.damage_type(%s)\n"
           "td.enemy { name = %s, health = 5, speed = 1, resist = { [%s] = 0.5 } }\n"
           "td.tower { name = %s, levels = { { name = %s, cost = 1, range = 2, damage_type = %s }, "
           "{ name = %s, from = %s, cost = 2 } } }\n"
           "td.wave { { enemy = %s, count = 2 } }\n",
           n[0], n[1], n[0], n[2], n[3], n[0], n[4], n[3], n[1]);
}

#define ALPHABET "a name may hold only letters, digits, '_', '-' and '.'"

static void test_names(void **state) {
  (void)state;
  /* the messages in full, one per kind and fault */
  expect_src_error(HEAD "td.tower { name = 'ar row', levels = { { name = 'a', cost = 1, range = 2 } } }",
                   "mod.lua:3: tower 'ar row': a name may hold only letters, digits, '_', '-' "
                   "and '.'");
  expect_src_error(HEAD "td.tower { name = 'ar\\trow', levels = { { name = 'a', cost = 1, range = 2 } } }",
                   "mod.lua:3: tower 'ar\\trow': " ALPHABET);
  expect_src_error(HEAD "td.tower { name = 'ar\\nrow', levels = { { name = 'a', cost = 1, range = 2 } } }",
                   "mod.lua:3: tower 'ar\\nrow': " ALPHABET);
  expect_src_error(HEAD "td.tower { name = '', levels = { { name = 'a', cost = 1, range = 2 } } }",
                   "mod.lua:3: tower '': a name must not be empty");
  expect_src_error(HEAD "td.tower { name = 'abcdefghijklmnopqrstuvwxyz0123456789', levels = { "
                   "{ name = 'a', cost = 1, range = 2 } } }",
                   "mod.lua:3: tower 'abcdefghijklmnopqrstuvwxyz01234...': a name must be at "
                   "most 31 bytes long, got 36");
  expect_src_error(HEAD "td.tower { name = 'caf\\u{e9}', levels = { { name = 'a', cost = 1, range = 2 } } }",
                   "mod.lua:3: tower 'caf\\xc3\\xa9': " ALPHABET);
  expect_src_error(HEAD "td.enemy { name = 'run ner', health = 1, speed = 1 }",
                   "mod.lua:3: enemy 'run ner': " ALPHABET);
  expect_src_error(HEAD "td.enemy { name = 'run\\tner', health = 1, speed = 1 }",
                   "mod.lua:3: enemy 'run\\tner': " ALPHABET);
  expect_src_error(HEAD "td.enemy { name = 'run\\nner', health = 1, speed = 1 }",
                   "mod.lua:3: enemy 'run\\nner': " ALPHABET);
  expect_src_error(HEAD "td.enemy { name = '', health = 1, speed = 1 }",
                   "mod.lua:3: enemy '': a name must not be empty");
  expect_src_error(HEAD "td.enemy { name = string.rep('r', 1000), health = 1, speed = 1 }",
                   "mod.lua:3: enemy 'rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr...': a name must be at "
                   "most 31 bytes long, got 1000");
  expect_src_error(HEAD "td.enemy { name = 'r\\xffr', health = 1, speed = 1 }",
                   "mod.lua:3: enemy 'r\\xffr': " ALPHABET);
  expect_src_error(HEAD "td.tower { name = 't', levels = { { name = 'le vel', cost = 1, range = 2 } } }",
                   "mod.lua:3: tower 't' level 'le vel': " ALPHABET);
  expect_src_error(HEAD "td.tower { name = 't', levels = { { name = 'le\\tvel', cost = 1, range = 2 } } }",
                   "mod.lua:3: tower 't' level 'le\\tvel': " ALPHABET);
  expect_src_error(HEAD "td.tower { name = 't', levels = { { name = 't', cost = 1, range = 2 },\n"
                   "  { name = 'le\\nvel', cost = 1 } } }",
                   "mod.lua:3: tower 't' level 'le\\nvel': " ALPHABET);
  expect_src_error(HEAD "td.tower { name = 't', levels = { { name = '', cost = 1, range = 2 } } }",
                   "mod.lua:3: tower 't' level '': a name must not be empty");
  expect_src_error(HEAD "td.tower { name = 't', levels = { { name = string.rep('l', 32), cost = 1, "
                   "range = 2 } } }",
                   "mod.lua:3: tower 't' level 'lllllllllllllllllllllllllllllll...': a name must "
                   "be at most 31 bytes long, got 32");
  expect_src_error(HEAD "td.tower { name = 't', levels = { { name = '\\u{263a}', cost = 1, range = 2 } } }",
                   "mod.lua:3: tower 't' level '\\xe2\\x98\\xba': " ALPHABET);
  expect_src_error("api_version = 1\ntd.damage_type 'fi re'",
                   "mod.lua:2: damage type 'fi re': " ALPHABET);
  expect_src_error("api_version = 1\ntd.damage_type ''", "mod.lua:2: damage type '': a name must "
                   "not be empty");
  /* a byte the quote would hide is escaped: a zero, a quote, a backslash */
  expect_src_error(HEAD "td.enemy { name = 'a\\0b', health = 1, speed = 1 }",
                   "mod.lua:3: enemy 'a\\x00b': " ALPHABET);
  expect_src_error(HEAD "td.enemy { name = \"o'neil\\\\\", health = 1, speed = 1 }",
                   "mod.lua:3: enemy 'o\\'neil\\\\': " ALPHABET);
  /* the object is named by its bad name in messages about other fields too */
  expect_src_error(HEAD "td.enemy { name = 'a b', health = 1, speed = 1, sped = 2 }",
                   "mod.lua:3: enemy 'a b': unknown field 'sped' (did you mean 'speed'?)");
  /* names that refer to one: the field, then the name */
  expect_src_error(HEAD "td.enemy { name = 'a', health = 1, speed = 1, split_into = 'b c' }",
                   "mod.lua:3: enemy 'a': split_into 'b c': " ALPHABET);
  expect_src_error(HEAD "td.enemy { name = 'a', health = 1, speed = 1, resist = { physical = 0.1, "
                   "['fi\\nre'] = 0.2 } }",
                   "mod.lua:3: enemy 'a': resist 'fi\\nre': " ALPHABET);
  expect_src_error(HEAD "td.enemy { name = 'a', health = 1, speed = 1, resist = { [string.rep('x', "
                   "40)] = 0.2 } }",
                   "mod.lua:3: enemy 'a': resist 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...': a name "
                   "must be at most 31 bytes long, got 40");
  expect_src_error(HEAD "td.tower { name = 't', levels = { { name = 't', cost = 1, range = 2, "
                   "damage_type = '' } } }",
                   "mod.lua:3: tower 't' level 't': damage_type '': a name must not be empty");
  expect_src_error(HEAD "td.tower { name = 't', levels = { { name = 't', cost = 1, range = 2 },\n"
                   "  { name = 'u', from = 't ', cost = 1 } } }",
                   "mod.lua:3: tower 't' level 'u': from 't ': " ALPHABET);
  expect_src_error(HEAD "td.wave { { enemy = 'a\\tb' } }",
                   "mod.lua:3: wave 1 group 1: enemy 'a\\tb': " ALPHABET);
  expect_src_error(HEAD "td.group { enemy = '' }", "mod.lua:3: group #1: enemy '': a name must not "
                   "be empty");

  /* every kind against every fault, in a mod that loads without it */
  static const struct {
    int line;
    const char *obj; /* before the quoted name */
  } kinds[] = {{3, "damage type"}, {4, "enemy"}, {5, "tower"}, {5, "tower 'arrow' level"},
               {5, "tower 'arrow' level"}};
  static const struct {
    const char *expr;   /* Lua */
    const char *quoted; /* in the message */
    const char *why;
  } bad[] = {
      {"'ar row'", "'ar row'", ALPHABET},
      {"'ar\\trow'", "'ar\\trow'", ALPHABET},
      {"'ar\\nrow'", "'ar\\nrow'", ALPHABET},
      {"'ar\\rrow'", "'ar\\rrow'", ALPHABET},
      {"'ar\\27[31mrow'", "'ar\\x1b[31mrow'", ALPHABET},
      {"'ar\\127row'", "'ar\\x7frow'", ALPHABET},
      {"''", "''", "a name must not be empty"},
      {"string.rep('a', 32)", "'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...'",
       "a name must be at most 31 bytes long, got 32"},
      {"'\\u{e9}t\\u{e9}'", "'\\xc3\\xa9t\\xc3\\xa9'", ALPHABET},
      {"'a+b'", "'a+b'", ALPHABET},
      {"'a#b'", "'a#b'", ALPHABET},
      {"'a/b'", "'a/b'", ALPHABET},
      {"'a,b'", "'a,b'", ALPHABET},
      {"'a\\0b'", "'a\\x00b'", ALPHABET},
      {"\"it's\"", "'it\\'s'", ALPHABET},
      {"'a\\\\b'", "'a\\\\b'", ALPHABET},
  };
  char src[1024], want[512];
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      names_mod(src, sizeof src, (int)k, bad[i].expr);
      snprintf(want, sizeof want, "mod.lua:%d: %s %s: %s", kinds[k].line, kinds[k].obj,
               bad[i].quoted, bad[i].why);
      expect_src_error(src, want);
    }

  /* the same mod loads as it is, and with names that use the whole alphabet
  ** and the whole length */
  names_mod(src, sizeof src, -1, NULL);
  make_mod(src, NULL, NULL);
  td_mod_destroy(load_ok(dir, &small_limits));
  remove_mod();
  static const char *const good[] = {"'Fire-2.b_X'", "string.rep('z', 31)", "'0'", "'.'", "'-'",
                                     "'_'", "'a.b-c_d.0123456789'", "'ABCDEFGHIJKLMNOPQRSTUVWXYZ'"};
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
      names_mod(src, sizeof src, (int)k, good[i]);
      make_mod(src, NULL, NULL);
      td_mod *m = load_ok(dir, &small_limits);
      const td_rules *r = td_mod_rules(m);
      const char *got = k == 0 ? r->damage_types[1]
                        : k == 1 ? r->enemies[0].name
                        : k == 2 ? r->towers[0].name
                                 : r->levels[k - 3].name;
      char expect[40];
      if (good[i][0] == '\'') snprintf(expect, sizeof expect, "%.*s", (int)strlen(good[i]) - 2, good[i] + 1);
      else snprintf(expect, sizeof expect, "%s", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz");
      assert_string_equal(got, expect);
      assert_int_equal(strlen(got), strlen(expect));
      td_mod_destroy(m);
      remove_mod();
    }
}

/* ---- escape and denial attempts ------------------------------------------------------- */

typedef struct attempt {
  const char *code;  /* body of a tick handler */
  const char *want;  /* in the recorded message */
} attempt;

static const attempt attempts[] = {
  {"io.write('x')", "global 'io') (io is not available to mods)"},
  {"os.exit(1)", "global 'os'"},
  {"debug.sethook()", "global 'debug'"},
  {"package.loadlib('libc.so.6', 'system')", "global 'package'"},
  {"require('os')", "global 'require'"},
  {"dofile('/etc/passwd')", "global 'dofile'"},
  {"loadfile('/etc/passwd')", "global 'loadfile'"},
  {"coroutine.wrap(function() end)", "global 'coroutine'"},
  {"string.dump(print)", "field 'dump'"},
  {"local f = (''). dump; f(print)", "a nil value (local 'f')"},
  {"math.randomseed(1)", "field 'randomseed'"},
  {"assert(load('\\27Lua\\84\\0'))", "attempt to load a binary chunk"},
  {"load('return 1', 'x', 'b')", "load: only text chunks"},
  {"load('return io', 'x', 't', { io = 1 })", "load: no env argument"},
  {"load(function() return nil end)", "load: the chunk must be a string"},
  {"local f = load('return io or os or debug or package') assert(f() == nil) error('contained')",
   "contained"},
  {"getmetatable('').__index = { dump = 1 }", "attempt to index a boolean value"},
  {"setmetatable('', {})", "bad argument #1 to 'setmetatable'"},
  {"rawset(td, 'enemy', print)", "td is read-only"},
  {"td.enemy = print", "td is read-only"},
  {"td.api_version = 2", "td is read-only"},
  {"setmetatable(td, nil)", "cannot change a protected metatable"},
  {"assert(getmetatable(td) == false and next(td) == nil and rawget(td, 'on') == nil) "
   "error('opaque')", "opaque"},
  {"collectgarbage('stop')", "only \"count\" is allowed"},
  {"collectgarbage()", "only \"count\" is allowed"},
  {"while true do end", "instruction limit exceeded"},
  {"while true do pcall(function() while true do end end) end", "instruction limit exceeded"},
  {"xpcall(function() while true do end end, function() while true do end end) "
   "while true do end", "instruction limit exceeded"},
  {"local t = {} while true do t[#t + 1] = string.rep('x', 1000) .. #t end",
   "memory limit exceeded"},
  {"local s = string.rep('x', 1 << 30)", "memory limit exceeded"},
  {"local t = {} while true do pcall(function() for i = 1, 1e6 do t[#t + 1] = "
   "string.rep('x', 100000) .. i end end) end",
   "memory limit exceeded"},
  {"local function f() return f() + 1 end f()", "memory limit exceeded"}, /* before 1M slots */
  {"local function f() return ('x'):gsub('.', f) end f()", "stack overflow"},
  {"local s = string.rep('a', 100000) assert(s:find('b', 1, true) == nil) "
   "assert(#s:gsub('a', 'b') == 100000) s:find('.-.-.-.-b')", "too costly"},
  {"local s = string.rep('a', 100000) for k in s:gmatch('(a*)(a*)b') do end", "too costly"},
  {"setmetatable({}, { __gc = function() while true do end end })", "__gc metamethods are not allowed"},
  {"setmetatable({}, { __gc = function() error('in gc') end })", "__gc metamethods are not allowed"},
  {"local t <close> = setmetatable({}, { __close = function() while true do end end }) "
   "error('x')", "instruction limit exceeded"},
  {"local ok, m = xpcall(error, function(m) return 'handled ' .. m end, 'boom') error(m)",
   "handled boom"},
  {"error(setmetatable({}, { __tostring = function() while true do end end }))",
   "(error object is a table value)"},
  {"local s = string.format('%s', setmetatable({}, { __tostring = function() while true do end "
   "end }))", "instruction limit exceeded"},
  {"print(setmetatable({}, { __tostring = function() return {} end }))",
   "'__tostring' must return a string"},
  {"setmetatable(_G, { __index = function(_, k) return k end }) assert(io == 'io') "
   "io.write('x')", "field 'write'"},
  {"local _ENV = setmetatable({}, { __index = _G }) os.time()", "'os'"},
  {"local _ENV = nil; x = 1", "local '_ENV'"},
  {"td.on('tick', print)", "td.on: handlers are registered while the mod loads"},
  {"include('mod.lua')", "include: only while the mod loads"},
  {"td.enemy { name = 'late', health = 1, speed = 1 }",
   "td.enemy: declarations are only allowed while the mod loads"},
};

static void test_escapes(void **state) {
  (void)state;
  char src[1024];
  size_t n = sizeof attempts / sizeof attempts[0];
  assert_true(n >= 20);
  for (size_t i = 0; i < n; i++) {
    snprintf(src, sizeof src,
             "api_version = 1\n"
             "td.damage_type 'physical'\n"
             "td.wave {}\n"
             "local alive = 0\n"
             "td.on('tick', function(tick)\n"
             "  %s\n"
             "end)\n"
             "td.on('tick', function(tick) alive = alive + 1 print('alive ' .. alive) end)\n",
             attempts[i].code);
    make_mod(src, NULL, NULL);
    if (getenv("TD_MOD_VERBOSE")) print_message("attempt %zu: %s\n", i, attempts[i].code);
    td_mod *m = load_ok(dir, &small_limits);
    td_mod_tick(m, 1);
    BALANCED(m);
    td_mod_tick(m, 2);
    BALANCED(m);
    if (td_mod_error_count(m) != 1)
      fail_msg("attempt %zu (%s): %zu errors", i, attempts[i].code, td_mod_error_count(m));
    const td_mod_error *e = td_mod_error_at(m, 0);
    if (!strstr(e->message, attempts[i].want))
      fail_msg("attempt %zu (%s): message \"%s\" lacks \"%s\"", i, attempts[i].code, e->message,
               attempts[i].want);
    char where[300];
    snprintf(where, sizeof where, "%s/mod.lua:", dir);
    if (strncmp(e->where, where, strlen(where)) != 0)
      fail_msg("attempt %zu: where \"%s\"", i, e->where);
    assert_string_equal(e->mod, strrchr(dir, '/') + 1);
    assert_string_equal(e->handler, "on tick #1");
    assert_int_equal(e->tick, 1);
    assert_non_null(strstr(e->traceback, "stack traceback:"));
    if (!strstr(e->traceback, where)) fail_msg("attempt %zu: traceback \"%s\"", i, e->traceback);
    assert_null(strchr(e->message, '\n'));
    /* the other handler went on, twice; the bad one ran once */
    assert_true(log_has(m, "alive 1"));
    assert_true(log_has(m, "alive 2"));
    assert_int_equal(td_mod_disabled_count(m), 1);
    td_mod_destroy(m);
    remove_mod();
  }
}

/* Data-stage attempts: the load fails with the limit at file:line. */
static void test_data_stage_denials(void **state) {
  (void)state;
  expect_src_error(HEAD "while true do end", "mod.lua:3: instruction limit exceeded");
  /* caught by pcall on line 3, raised again by the next instruction */
  expect_src_error(HEAD "local ok = pcall(function() while true do end end)\nwhile true do end",
                   "mod.lua:4: instruction limit exceeded");
  expect_src_error(HEAD "local t = {}\nwhile true do t[#t + 1] = {} end",
                   "mod.lua:4: " MEMORY_LIMIT);
  expect_src_error(HEAD "td.damage_type(setmetatable({}, { __tostring = error }))",
                   "mod.lua:3: td.damage_type expects a name (a string), got table");
  /* the declaration table's metatable cannot supply fields */
  expect_src_error(HEAD "td.enemy(setmetatable({ name = 'a' }, { __index = function() "
                   "while true do end end }))",
                   "mod.lua:3: enemy 'a': health is missing (a number)");
}

/* A memory error names the line that failed to allocate and the stack
** then, not the handler's definition nor a line the count hook sampled
** (which runs every 1000 instructions: the loop on line 7 passes several
** samples before line 8 fails). */
static void test_memory_where(void **state) {
  (void)state;
  make_mod(HEAD "td.wave {}\n"
           "local function grow(t)\n"                             /* 4 */
           "  while true do t[#t + 1] = string.rep('x', 10000) end\n" /* 5 */
           "end\n"
           "td.on('tick', function()\n"                           /* 7 */
           "  local n = 0 for i = 1, 5000 do n = n + i end\n"
           "  local s = string.rep('x', 1 << 30)\n"               /* 9 */
           "end)\n"
           "td.on('tick', function()\n"                           /* 11 */
           "  grow({})\n"                                         /* 12 */
           "end)\n",
           NULL, NULL);
  td_mod *m = load_ok(dir, &small_limits);
  td_mod_tick(m, 1);
  BALANCED(m);
  assert_int_equal(td_mod_error_count(m), 2);
#if LUA_VERSION_RELEASE_NUM >= 50406
  print_message("Lua %s: memory errors name a sampled line\n", LUA_RELEASE);
  assert_non_null(strstr(td_mod_error_at(m, 0)->message, MEMORY_LIMIT));
  td_mod_destroy(m);
  remove_mod();
  return;
#endif
  char want[1400];
  const td_mod_error *e = td_mod_error_at(m, 0);
  snprintf(want, sizeof want, "%s/mod.lua:9: memory limit exceeded", dir);
  assert_string_equal(e->message, want);
  snprintf(want, sizeof want, "%s/mod.lua:9", dir);
  assert_string_equal(e->where, want);
  snprintf(want, sizeof want, "stack traceback:\n\t[C]: in ?\n\t%s/mod.lua:9: in function "
           "<%s/mod.lua:7>", dir, dir);
  if (strncmp(e->traceback, want, strlen(want)) != 0) fail_msg("traceback \"%s\"", e->traceback);
  e = td_mod_error_at(m, 1);
  snprintf(want, sizeof want, "%s/mod.lua:5: memory limit exceeded", dir);
  assert_string_equal(e->message, want);
  snprintf(want, sizeof want, "\n\t%s/mod.lua:5: in function <%s/mod.lua:4>\n\t%s/mod.lua:12: in "
           "function <%s/mod.lua:11>", dir, dir, dir, dir);
  if (!strstr(e->traceback, want)) fail_msg("traceback \"%s\"", e->traceback);
  td_mod_destroy(m);
  remove_mod();
}

/* A name that is nil at run time gets a "did you mean" as load-time errors
** do: a field td lacks (when it was td that was read, at that line), a
** global (among td's functions and the mod's globals), and what the
** sandbox leaves out. Reading a missing name is no error. */
static void test_runtime_names(void **state) {
  (void)state;
  make_mod(HEAD "td.wave {}\n"
           "function count_kills() end\n"                                   /* 4 */
           "td.on('tick', function() td.enemmy { name = 'x' } end)\n"      /* 5 */
           "td.on('tick', function() count_kils() end)\n"
           "td.on('tick', function() sorted_pair({}) end)\n"
           "td.on('tick', function() local t = {} t.enemmy() end)\n"       /* 8 */
           "td.on('tick', function() if td.evry or nope then error('no') end end)\n"
           "td.on('tick', function() debug.traceback() end)\n"             /* 10 */
           "td.on('tick', function() td.nothing_like_it() end)\n"
           "td.on('tick', function() local x = td.evry print(x) td.every.y = 1 end)\n"
           "td.on('tick', function() td.stat.kills = 1 end)\n",
           NULL, NULL);
  td_mod *m = load_ok(dir, &small_limits);
  td_mod_tick(m, 1);
  BALANCED(m);
  static const char *const want[] = {
      "5: attempt to call a nil value (field 'enemmy') (did you mean 'td.enemy'?)",
      "6: attempt to call a nil value (global 'count_kils') (did you mean 'count_kills'?)",
      "7: attempt to call a nil value (global 'sorted_pair') (did you mean 'sorted_pairs'?)",
      "8: attempt to call a nil value (field 'enemmy')",
      "10: attempt to index a nil value (global 'debug') (debug is not available to mods)",
      "11: attempt to call a nil value (field 'nothing_like_it') (td has no "
      "'nothing_like_it')",
      "12: attempt to index a function value (field 'every')",
      "13: attempt to index a nil value (field 'stat') (did you mean 'td.state'?)",
  };
  size_t n = sizeof want / sizeof want[0];
  if (td_mod_error_count(m) != n) fail_msg("%zu errors", td_mod_error_count(m));
  for (size_t i = 0; i < n; i++) {
    char full[700];
    snprintf(full, sizeof full, "%s/mod.lua:%s", dir, want[i]);
    assert_string_equal(td_mod_error_at(m, i)->message, full);
  }
  td_mod_destroy(m);
  remove_mod();
  /* the same while the mod loads */
  expect_src_error(HEAD "td.wave {}\ntd.grup { enemy = 'a' }",
                   "mod.lua:4: attempt to call a nil value (field 'grup') (did you mean "
                   "'td.group'?)");
}

/* print goes to the log, not to stdout; __gc is refused at setmetatable. */
static void test_print_and_gc(void **state) {
  (void)state;
  make_mod(HEAD "td.wave {}\n"
           "td.on('tick', function(t) print('hello', t, nil, true, 1.5) end)\n"
           "td.on('tick', function() local mt = {} setmetatable({}, mt)\n"
           "  mt.__gc = function() while true do end end end)\n",
           NULL, NULL);
  td_mod *m = load_ok(dir, &small_limits);
  fflush(stdout);
  char path[300];
  snprintf(path, sizeof path, "%s/stdout.txt", dir);
  FILE *f = fopen(path, "w+");
  assert_non_null(f);
  int saved = dup(1);
  assert_true(saved >= 0);
  assert_true(dup2(fileno(f), 1) >= 0);
  for (uint64_t t = 1; t <= 3; t++) td_mod_tick(m, t);
  lua_gc(td_mod_state(m), LUA_GCCOLLECT, 0); /* a __gc set late is no finalizer */
  td_mod_tick(m, 4);
  fflush(stdout);
  assert_true(dup2(saved, 1) >= 0);
  close(saved);
  fseek(f, 0, SEEK_END);
  assert_int_equal(ftell(f), 0); /* nothing reached stdout */
  fclose(f);
  assert_true(log_has(m, "hello\t1\tnil\ttrue\t1.5"));
  assert_true(log_has(m, "hello\t4\tnil\ttrue\t1.5"));
  assert_int_equal(td_mod_error_count(m), 0);
  BALANCED(m);
  td_mod_destroy(m);
  remove_mod();
}

/* ---- dispatch, every, targeting ------------------------------------------------------ */

static void test_dispatch_order(void **state) {
  (void)state;
  make_mod(HEAD
           "td.enemy { name = 'runner', health = 1, speed = 1 }\n"
           "td.wave {}\n"
           "td.on('kill', function(e) print('A ' .. e.enemy .. ' ' .. e.enemy_type .. ' ' .. e.bounty) end)\n"
           "td.every(3, function(t) print('E3 ' .. t) end)\n"
           "td.on('tick', function(t) print('T ' .. t) end)\n"
           "td.on('kill', function(e) print('B ' .. e.kind .. ' ' .. e.tick .. ' ' .. e.x) end)\n"
           "td.every(2, function(t) print('E2 ' .. t) end)\n"
           "td.on('wave_start', function(e) print('W ' .. e.wave .. ' ' .. e.bonus) end)\n"
           "td.on('refuse', function(e) print('R ' .. e.reason .. ' ' .. e.base) end)\n"
           "td.on('spawn', function(e) print('S ' .. tostring(e.bounty) .. ' ' .. e.enemy_type) end)\n",
           NULL, NULL);
  td_mod *m = load_ok(dir, &small_limits);
  td_event e = {.kind = TD_EVENT_KILLED, .tick = 4, .enemy = 42, .type = 0, .amount = 3, .x = 1.5f};
  td_mod_dispatch(m, &e);
  for (uint64_t t = 0; t <= 6; t++) td_mod_tick(m, t);
  e = (td_event){.kind = TD_EVENT_WAVE_STARTED, .wave = 2, .amount = 10};
  td_mod_dispatch(m, &e);
  e = (td_event){.kind = TD_EVENT_REFUSED, .reason = TD_REFUSAL_GOLD, .base = 0};
  td_mod_dispatch(m, &e);
  e = (td_event){.kind = TD_EVENT_SPAWNED, .type = 0};
  td_mod_dispatch(m, &e);
  e = (td_event){.kind = TD_EVENT_FIRED};       /* no handler */
  td_mod_dispatch(m, &e);
  e = (td_event){.kind = TD_EVENT_KIND_COUNT}; /* not an event */
  td_mod_dispatch(m, &e);
  BALANCED(m);
  static const char *const want[] = {
      "A 42 runner 3", "B kill 4 1.5", "T 0", "T 1", "T 2", "E2 2", "E3 3", "T 3", "T 4", "E2 4",
      "T 5", "E3 6", "T 6", "E2 6", "W 2 10", "R gold 1", "S nil runner"};
  size_t n = sizeof want / sizeof want[0];
  assert_int_equal(td_mod_log_count(m), n);
  for (size_t i = 0; i < n; i++) assert_string_equal(td_mod_log_line(m, i), want[i]);
  td_mod_clear_log(m);
  assert_int_equal(td_mod_log_count(m), 0);
  assert_int_equal(td_mod_error_count(m), 0);
  td_mod_destroy(m);
  remove_mod();
}

static void test_targeting(void **state) {
  (void)state;
  make_mod(HEAD
           "td.tower { name = 'last', target = function(tower, c) return #c end,\n"
           "  levels = { { name = 'l', cost = 1, range = 2 } } }\n"
           "td.tower { name = 'plain', levels = { { name = 'p', cost = 1, range = 2 } } }\n"
           "td.tower { name = 'none', target = function(tower, c) if tower == 7 then return nil end\n"
           "  return c[1] end, levels = { { name = 'n', cost = 1, range = 2 } } }\n"
           "td.wave {}\n",
           NULL, NULL);
  td_mod *m = load_ok(dir, &small_limits);
  const td_rules *r = td_mod_rules(m);
  assert_true(r->towers[0].script_target);
  assert_int_equal(r->towers[0].default_target, TD_TARGET_SCRIPT);
  assert_false(r->towers[1].script_target);
  uint32_t cand[3] = {11, 12, 13};
  assert_int_equal(td_mod_target(m, 0, 1, cand, 3), 2);
  assert_int_equal(td_mod_target(m, 0, 1, cand, 1), 0);
  assert_int_equal(td_mod_target(m, 0, 1, cand, 0), -1);
  assert_int_equal(td_mod_target(m, 1, 1, cand, 3), TD_MOD_TARGET_DEFAULT);
  assert_int_equal(td_mod_target(m, 2, 7, cand, 3), -1);
  BALANCED(m);
  /* returning a handle instead of a position is an error: disabled */
  assert_int_equal(td_mod_target(m, 2, 1, cand, 3), TD_MOD_TARGET_DEFAULT);
  BALANCED(m);
  assert_int_equal(td_mod_error_count(m), 1);
  assert_string_equal(td_mod_error_at(m, 0)->handler, "target of tower 'none'");
  assert_non_null(strstr(td_mod_error_at(m, 0)->message,
                         "returned 11, expected a position 1 .. 3 or nil"));
  assert_int_equal(td_mod_target(m, 2, 7, cand, 3), TD_MOD_TARGET_DEFAULT);
  assert_int_equal(td_mod_target(m, 0, 1, cand, 3), 2); /* the others go on */
  td_mod_destroy(m);
  remove_mod();
}

/* ---- math.random, sorted_pairs, host functions ------------------------------------- */

static uint32_t counter_random(void *ud) {
  uint32_t *c = ud;
  return (*c)++ * 2654435761u;
}

static void test_random_and_sorted_pairs(void **state) {
  (void)state;
  make_mod(HEAD "td.wave {}\n"
           "td.on('tick', function()\n"
           "  local out = {}\n"
           "  for i = 1, 8 do out[#out + 1] = math.random(1, 6) end\n"
           "  local x = math.random() assert(x >= 0 and x < 1)\n"
           "  local y = math.random(3) assert(y >= 1 and y <= 3 and math.type(y) == 'integer')\n"
           "  assert(math.type(math.random(0)) == 'integer')\n"
           "  assert(math.random(-5, -5) == -5)\n"
           "  assert(math.random(math.mininteger, math.maxinteger))\n"
           "  assert(not pcall(math.random, 3, 1))\n"
           "  assert(not pcall(math.random, 1, 2, 3))\n"
           "  print(table.concat(out, ' '))\n"
           "  local t = { b = 1, a = 2, [3] = 'x', [1] = 'y', [2.5] = 'z', [-1] = 'w', ['10'] = 0 }\n"
           "  local keys = {}\n"
           "  for k, v in sorted_pairs(t) do keys[#keys + 1] = tostring(k) .. '=' .. tostring(v) end\n"
           "  print(table.concat(keys, ' '))\n"
           "  for k in sorted_pairs({}) do error('empty') end\n"
           "  local ok, msg = pcall(sorted_pairs, { [true] = 1 })\n"
           "  print(msg)\n"
           "end)\n",
           NULL, NULL);
  uint32_t c1 = 0, c2 = 0;
  td_mod_options o = small_limits;
  o.random = counter_random;
  o.random_ud = &c1;
  td_mod *m = load_ok(dir, &o);
  o.random_ud = &c2;
  td_mod *m2 = load_ok(dir, &o);
  td_mod_tick(m, 1);
  td_mod_tick(m2, 1);
  BALANCED(m);
  assert_int_equal(td_mod_error_count(m), 0);
  assert_int_equal(td_mod_log_count(m), 3);
  /* the same generator gives the same draws */
  assert_string_equal(td_mod_log_line(m, 0), td_mod_log_line(m2, 0));
  assert_true(c1 > 8 && c1 == c2);
  for (const char *p = td_mod_log_line(m, 0); *p; p++)
    assert_true(*p == ' ' || (*p >= '1' && *p <= '6'));
  assert_string_equal(td_mod_log_line(m, 1), "-1=w 1=y 2.5=z 3=x 10=0 a=2 b=1");
  assert_non_null(strstr(td_mod_log_line(m, 2), "sorted_pairs: keys must be numbers or strings, "
                                                "got a boolean key"));
  td_mod_destroy(m);
  td_mod_destroy(m2);
  remove_mod();
}

/* tostring, print and string.format show no addresses: a table is
** "table #N", numbered as first shown, the same in every run. */
static void test_no_addresses(void **state) {
  (void)state;
  make_mod(HEAD "td.wave {}\n"
           "local a, b = {}, {}\n"
           "print(tostring(a), tostring(print), tostring(a), b)\n"
           "print(string.format('%s|%5s|%d|%s', b, 'x', 7, a))\n"
           "print(tostring(setmetatable({}, { __tostring = function() return 'mine' end })))\n"
           "print(tostring(setmetatable({}, { __name = 'Thing' })):match('^Thing: ') ~= nil)\n"
           "print(tostring(coroutine == nil), tostring(nil), tostring(1.5), tostring('s'))\n"
           "print(pcall(string.format, '%p', a))\n"
           "print(('%s'):format(a), ('%%s %s'):format(b))\n",
           NULL, NULL);
  td_mod *m = load_ok(dir, NULL);
  assert_int_equal(td_mod_log_count(m), 7);
  assert_string_equal(td_mod_log_line(m, 0), "table #1\tfunction #2\ttable #1\ttable #3");
  assert_string_equal(td_mod_log_line(m, 1), "table #3|    x|7|table #1");
  assert_string_equal(td_mod_log_line(m, 2), "mine");
  assert_string_equal(td_mod_log_line(m, 3), "true"); /* __name: Lua's own form */
  assert_string_equal(td_mod_log_line(m, 4), "true\tnil\t1.5\ts");
  assert_non_null(strstr(td_mod_log_line(m, 5), "false\t"));
  assert_non_null(strstr(td_mod_log_line(m, 5), "string.format: %p is not available"));
  assert_string_equal(td_mod_log_line(m, 6), "table #1\t%s table #3");
  BALANCED(m);
  td_mod_destroy(m);
  remove_mod();
}

static int host_gold(lua_State *L) {
  int *gold = td_mod_host(L);
  lua_Integer add = luaL_optinteger(L, 1, 0);
  *gold += (int)add;
  lua_pushinteger(L, *gold);
  return 1;
}

static int host_setting(lua_State *L) {
  (void)td_mod_host(L);
  lua_pushliteral(L, "easy");
  return 1;
}

static const td_mod_api host_fns[] = {
  {"gold", host_gold, "(add?: integer) -> integer", "Adds gold; returns the total.", 0},
  {"setting", host_setting, "() -> string", "A setting of the game.",
   TD_MOD_API_DATA | TD_MOD_API_RUNTIME},
};

static void test_host_functions(void **state) {
  (void)state;
  int gold = 100;
  td_mod_options o = small_limits;
  td_err err;
  assert_int_equal(td_mod_register(&o, host_fns, 2, &gold, &err), 0);
  make_mod(HEAD "td.wave {}\n"
           "local mode = td.setting()\n"
           "assert(not pcall(td.gold, 5))\n"
           "td.on('kill', function(e) print(mode .. ' ' .. td.gold(e.bounty)) end)\n",
           NULL, NULL);
  td_mod *m = load_ok(dir, &o);
  td_event e = {.kind = TD_EVENT_KILLED, .amount = 7};
  td_mod_dispatch(m, &e);
  BALANCED(m);
  assert_int_equal(gold, 107);
  assert_true(log_has(m, "easy 107"));
  td_mod_destroy(m);
  /* the docs list them */
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  td_mod_write_api_markdown(f, &o);
  td_mod_write_api_stubs(f, &o);
  fclose(f);
  assert_non_null(strstr(buf, "### `td.gold(add?: integer) -> integer`"));
  assert_non_null(strstr(buf, "---@param add? integer\n---@return integer\nfunction td.gold(add) end"));
  free(buf);
  /* a clash with a built-in is refused */
  static const td_mod_api clash[] = {{"enemy", host_gold, "()", "", 0}};
  assert_int_equal(td_mod_register(&o, clash, 1, NULL, &err), 0);
  assert_null(td_mod_load(dir, &o, &err));
  assert_string_equal(err.msg, "mod: host function td.enemy is declared twice");
  remove_mod();
}

/* ---- the stack after each binding ---------------------------------------------------- */

/* Pushes the value of a Lua expression (in the mod's environment). */
static void push_expr(lua_State *L, const char *expr) {
  int top = lua_gettop(L);
  char src[256];
  snprintf(src, sizeof src, "return %s", expr);
  assert_int_equal(luaL_loadstring(L, src), LUA_OK);
  assert_int_equal(lua_pcall(L, 0, 1, 0), LUA_OK); /* the function */
  assert_int_equal(lua_gettop(L), top + 1);
}

static void test_stack_balance(void **state) {
  (void)state;
  td_mod *m = load_ok(mods("scripts/base"), &small_limits);
  lua_State *L = td_mod_state(m);
  static const struct {
    const char *fn;
    const char *args;
    int nargs, results;
  } calls[] = {
      {"sorted_pairs", "{ b = 1, a = 2 }", 1, 3},
      {"print", "'x'", 1, 0},
      {"load", "'return 1'", 1, 1},
      {"load", "'return +'", 1, 2},
      {"rawset", "{}, 1, 2", 3, 1},
      {"collectgarbage", "'count'", 1, 1},
      {"math.random", "1, 6", 2, 1},
      {"math.random", "", 0, 1},
  };
  for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
    int base = lua_gettop(L);
    push_expr(L, calls[i].fn);
    char src[256];
    snprintf(src, sizeof src, "return %s", calls[i].args);
    assert_int_equal(luaL_loadstring(L, src), LUA_OK);
    assert_int_equal(lua_pcall(L, 0, calls[i].nargs, 0), LUA_OK);
    assert_int_equal(lua_pcall(L, calls[i].nargs, LUA_MULTRET, 0), LUA_OK);
    if (lua_gettop(L) - base != calls[i].results)
      fail_msg("%s(%s): %d results, expected %d", calls[i].fn, calls[i].args,
               lua_gettop(L) - base, calls[i].results);
    lua_settop(L, base);
  }
  BALANCED(m);
  td_mod_destroy(m);
}

/* ---- hot reload ------------------------------------------------------------------------ */

static void test_reload(void **state) {
  (void)state;
  make_mod(HEAD "include 'e.lua'\ntd.wave {}\ntd.on('tick', function() print('v1') end)\n", "e.lua",
           "td.enemy { name = 'a', health = 10, speed = 1 }\n");
  td_mod *m = load_ok(dir, &small_limits);
  assert_false(td_mod_changed(m));
  assert_false(td_mod_swap(m));
  const td_rules *r = td_mod_rules(m);
  assert_true(r->enemies[0].health == 10.0f);
  /* an edit: the included file changes size */
  write_file("e.lua", "td.enemy { name = 'a', health = 25.5, speed = 1 }\n");
  assert_true(td_mod_changed(m));
  write_file("mod.lua", HEAD "include 'e.lua'\ntd.wave {}\ntd.on('tick', function() print('v2') end)\n");
  td_err err = {{0}};
  assert_int_equal(td_mod_reload(m, &err), 0);
  assert_false(td_mod_changed(m));
  td_mod_tick(m, 1); /* still the old version until the swap */
  assert_true(log_has(m, "v1"));
  assert_true(td_mod_rules(m)->enemies[0].health == 10.0f);
  assert_true(td_mod_swap(m));
  assert_false(td_mod_swap(m));
  assert_true(td_mod_rules(m)->enemies[0].health == 25.5f);
  td_mod_tick(m, 2);
  assert_true(log_has(m, "v2"));
  BALANCED(m);
  /* a broken edit: the running version stays */
  write_file("e.lua", "td.enemy { name = 'a', health = -1, speed = 1 }\n");
  assert_true(td_mod_changed(m));
  assert_int_equal(td_mod_reload(m, &err), -1);
  char want[600];
  snprintf(want, sizeof want, "%s/e.lua:1: enemy 'a': health must be > 0, got -1", dir);
  assert_string_equal(err.msg, want);
  assert_false(td_mod_changed(m)); /* no retry until the next edit */
  assert_false(td_mod_swap(m));
  assert_true(td_mod_rules(m)->enemies[0].health == 25.5f);
  td_mod_clear_log(m);
  td_mod_tick(m, 3);
  assert_true(log_has(m, "v2"));
  assert_int_equal(td_mod_error_count(m), 1);
  assert_string_equal(td_mod_error_at(m, 0)->handler, "reload");
  assert_string_equal(td_mod_error_at(m, 0)->message, want);
  snprintf(want, sizeof want, "%s/e.lua:1", dir);
  assert_string_equal(td_mod_error_at(m, 0)->where, want);
  td_mod_clear_errors(m);
  assert_int_equal(td_mod_error_count(m), 0);
  /* a deleted file counts as a change; a pending version is replaced */
  write_file("e.lua", "td.enemy { name = 'a', health = 30, speed = 1 }\n");
  assert_int_equal(td_mod_reload(m, &err), 0);
  write_file("e.lua", "td.enemy { name = 'a', health = 40, speed = 1 }\n");
  assert_int_equal(td_mod_reload(m, &err), 0);
  assert_true(td_mod_swap(m));
  assert_true(td_mod_rules(m)->enemies[0].health == 40.0f);
  char path[600];
  snprintf(path, sizeof path, "%s/e.lua", dir);
  unlink(path);
  assert_true(td_mod_changed(m));
  td_mod_destroy(m);
  remove_mod();
}

/* ---- allocation failures -------------------------------------------------------------- */

/* A list of mod directories, loaded in order. */
typedef struct mod_list {
  const char *dirs[2];
  size_t n;
} mod_list;

/* A whole load of the mods (ud: a mod_list), then events through their
** handlers (a load that survived a failed allocation must still work). */
static int load_and_dispatch(void *ud, td_err *err) {
  const mod_list *l = ud;
  td_mod *m = td_mod_load_list(l->dirs, l->n, NULL, err);
  if (!m) return -1;
  BALANCED(m);
  td_event e = {.kind = TD_EVENT_KILLED, .type = 0};
  td_mod_dispatch(m, &e);
  e = (td_event){.kind = TD_EVENT_WAVE_STARTED, .wave = 1};
  td_mod_dispatch(m, &e);
  BALANCED(m);
  td_mod_destroy(m);
  return 0;
}

/* Each allocation of a load of the bundled mod fails in turn (every one:
** TD_MOD_SWEEP_STRIDE=N takes every N-th instead, for a quick run). */
static void test_alloc_failures(void **state) {
  td_test_alloc *a = *state;
  char where[600];
  snprintf(where, sizeof where, "%s", mods("scripts/base"));
  long stride = getenv("TD_MOD_SWEEP_STRIDE") ? atol(getenv("TD_MOD_SWEEP_STRIDE")) : 1;
  td_test_sweep s = {.what = "scripts/base", .stride = stride > 1 ? stride : 1,
                     .expect = "out of memory"};
  mod_list l = {{where}, 1};
  td_test_alloc_sweep(a, load_and_dispatch, &l, &s);
  assert_true(s.total > 100);
  assert_int_equal(s.runs, (s.total + s.stride - 1) / s.stride);
  print_message("scripts/base: failed each of %ld allocations (stride %ld): %ld loads survived, "
                "%ld refused\n", s.total, s.stride, s.survived, s.refused);
}

/* The same for a list of two mods (their environments, the second mod's
** declarations and handlers). */
static void test_alloc_failures_list(void **state) {
  td_test_alloc *a = *state;
  char base[600], extra[600];
  snprintf(base, sizeof base, "%s", mods("tests/data/mods/several/base"));
  snprintf(extra, sizeof extra, "%s", mods("tests/data/mods/several/extra"));
  mod_list l = {{base, extra}, 2};
  td_test_sweep s = {.what = "several/base+extra", .stride = 1, .expect = "out of memory"};
  td_test_alloc_sweep(a, load_and_dispatch, &l, &s);
  assert_true(s.total > 100);
  assert_true(s.survived > 0 && s.refused > 0);
}

/* ---- docs ------------------------------------------------------------------------------ */

/* What a td_mod_write_api_* function writes, as a string to free(). */
static char *api_text(void (*write)(FILE *, const td_mod_options *), const td_mod_options *o,
                      size_t *len) {
  char *buf = NULL;
  FILE *f = open_memstream(&buf, len);
  assert_non_null(f);
  write(f, o);
  assert_int_equal(fclose(f), 0);
  return buf;
}

/* The stubs are Lua: they compile (parsed, never run). */
static void assert_compiles(const char *buf, size_t len) {
  lua_State *L = luaL_newstate();
  assert_non_null(L);
  if (luaL_loadbufferx(L, buf, len, "=stubs", "t") != LUA_OK)
    fail_msg("stubs do not parse: %s", lua_tostring(L, -1));
  lua_close(L);
}

static void test_docs(void **state) {
  (void)state;
  size_t len;
  char *buf = api_text(td_mod_write_api_markdown, NULL, &len);
  assert_non_null(strstr(buf, "| `speed` | `number` | **required** | > 0, <= 1000 | Tiles per second. |"));
  assert_non_null(strstr(buf, "### `td.on(event: td.event_name, f: fun(e: td.event))`"));
  assert_non_null(strstr(buf, "| `kill` | An enemy died. |"));
  /* the index table: what counts from 0, from 1, and what is a Tiled id */
  assert_non_null(strstr(buf, "\n## Numbers: 0-based, 1-based, Tiled object ids\n"));
  assert_non_null(strstr(buf, "`td.spawn(type, { spawn = i })` | 1-based, in map order |"));
  assert_non_null(strstr(buf, "`td shot --hover`/`--select` | the Tiled object id of the "
                              "`tower_base` object |"));
  assert_non_null(strstr(buf, "| 0-based: the first step is tick 0; 60 a second |"));
  /* soldiers and sappers */
  assert_non_null(strstr(buf, "### `td.soldier(t: td.soldier_decl)`"));
  assert_non_null(strstr(buf, "\n#### `td.soldier_decl`\n"));
  assert_non_null(strstr(buf, "\n#### `td.siege`\n"));
  assert_non_null(strstr(buf, "| `siege` | `td.siege` | none |"));
  assert_non_null(strstr(buf, "| `soldiers` | `integer` | `0` | 0 .. 8 |"));
  assert_non_null(strstr(buf, "| `repair_cost` | `number` | `0.5` | 0 .. 10 |"));
  assert_non_null(strstr(buf, "| `tower_destroyed` | "));
  assert_non_null(strstr(buf, "`no_soldiers`, `rally_range`, `rally_ground`, `not_damaged`."));
  assert_null(strstr(buf, "(null)"));
  free(buf);
  buf = api_text(td_mod_write_api_stubs, NULL, &len);
  assert_true(strncmp(buf, "---@meta\n", 9) == 0);
  assert_non_null(strstr(buf, "---@class td.enemy_decl\n---@field name string "));
  assert_non_null(strstr(buf, "---@field armour? number "));
  assert_non_null(strstr(buf, "---@param t td.enemy_decl\nfunction td.enemy(t) end"));
  assert_non_null(strstr(buf, "function sorted_pairs(t) end"));
  assert_compiles(buf, len);
  free(buf);
  /* with the game's functions: the tables they return are classes */
  td_mod_options o = {0};
  td_err err;
  assert_int_equal(td_game_api(&o, &err), 0);
  buf = api_text(td_mod_write_api_stubs, &o, &len);
  assert_non_null(strstr(buf, "---@class td.enemy_state\n---@field handle integer "));
  assert_non_null(strstr(buf, "---@return td.enemy_state?\nfunction td.enemy_info(h) end"));
  assert_non_null(strstr(buf, "---@return td.tower_state?\nfunction td.tower_info(h) end"));
  assert_non_null(strstr(buf, "---@return td.wave_entry[]\nfunction td.wave_preview(n) end"));
  assert_non_null(strstr(buf, "---@return td.soldier_state[]\nfunction td.soldiers(tower) end"));
  assert_non_null(strstr(buf, "---@return td.soldier_state?\nfunction td.soldier_info(h) end"));
  assert_non_null(strstr(buf, "---@class td.soldier_decl\n---@field name string "));
  assert_non_null(strstr(buf, "---@field siege? td.siege "));
  assert_non_null(strstr(buf, "|\"engage\"|\"soldier_death\"|\"tower_damaged\"|"
                              "\"tower_destroyed\"|\"repaired\"|\"rallied\""));
  assert_non_null(strstr(buf, "---@field source? \"tower\"|\"soldier\"|\"script\"\n"));
  assert_null(strstr(buf, "function dofile("));
  assert_compiles(buf, len);
  free(buf);
}

/* Every test runs under the counting allocation hook (support.h), whose
** teardown fails it if a td_mem block is still live or a size was wrong. */
/* ---- several mods ------------------------------------------------------------ */

/* Two mods a and b in dir/a, dir/b: b replaces a's tower (levels and
** targeting function), adds its own, keeps its globals apart from a's,
** includes its own util.lua, and its failing handler is named as b's. */
static void test_several_mods(void **state) {
  (void)state;
  make_mod("-- unused\n", NULL, NULL);
  char a[200], b[200], cmd[500];
  snprintf(a, sizeof a, "%.190s/a", dir);
  snprintf(b, sizeof b, "%.190s/b", dir);
  snprintf(cmd, sizeof cmd, "mkdir '%s' '%s'", a, b);
  assert_int_equal(system(cmd), 0);
  char top[256];
  snprintf(top, sizeof top, "%s", dir);
  snprintf(dir, sizeof dir, "%s", a);
  write_file("mod.lua", HEAD
             "td.enemy { name = 'runner', health = 10, speed = 1 }\n"
             "td.tower { name = 't', target = function(t, c) return 1 end, levels = {\n"
             "  { name = 't1', cost = 1, range = 2 }, { name = 't2', cost = 2 } } }\n"
             "td.tower { name = 'u', levels = { { name = 'u1', cost = 1, range = 2 },\n"
             "  { name = 'u2', cost = 5 } } }\n"
             "td.wave { { enemy = 'runner' } }\n"
             "td.rules { start_gold = 7, start_lives = 3 }\n"
             "who = 'a'\n"
             "print(include 'util.lua')\n"
             "td.on('kill', function(e) print('a ' .. who .. ' ' .. load('return who')()) end)\n");
  write_file("util.lua", "return 'a util'\n");
  snprintf(dir, sizeof dir, "%s", b);
  write_file("mod.lua", "api_version = 1\n"
             "depends = { 'a' }\n"
             "who = 'b'\n"
             "math.floor = nil -- its own copy of math\n"
             "print(include 'util.lua')\n"
             "td.tower { name = 't', replace = true, levels = { { name = 'x1', cost = 3, range = 1 } } }\n"
             "td.tower { name = 'v', levels = { { name = 'v1', cost = 1, range = 2 } } }\n"
             "td.wave { { enemy = 'runner', count = 2 } }\n"
             "td.rules { start_gold = 9 }\n"
             "td.on('kill', function(e) print('b ' .. who .. ' ' .. load('return who')()) end)\n"
             "td.on('kill', function(e) error('boom') end)\n");
  write_file("util.lua", "return 'b util'\n");
  snprintf(dir, sizeof dir, "%s", top);
  const char *list[] = {a, b};
  td_err err = {{0}};
  td_mod *m = td_mod_load_list(list, 2, &small_limits, &err);
  if (!m) fail_msg("unexpected error: %s", err.msg);
  BALANCED(m);
  assert_int_equal(td_mod_count(m), 2);
  assert_string_equal(td_mod_name(m), "a+b");
  assert_string_equal(td_mod_name_at(m, 1), "b");
  assert_string_equal(td_mod_dir_at(m, 0), a);
  assert_true(td_mod_hash_at(m, 0) != td_mod_hash_at(m, 1));
  const td_rules *r = td_mod_rules(m);
  assert_int_equal(r->tower_count, 3);
  assert_int_equal(r->level_count, 4); /* t1 and t2 dropped, x1 in */
  assert_string_equal(r->towers[0].name, "t");
  assert_string_equal(r->levels[r->towers[0].root].name, "x1");
  assert_string_equal(r->levels[r->towers[1].root].name, "u1");
  assert_string_equal(r->levels[r->levels[r->towers[1].root].children[0]].name, "u2");
  assert_int_equal(r->levels[level_of(r, "u2")].parent, level_of(r, "u1"));
  assert_string_equal(r->levels[r->towers[2].root].name, "v1");
  assert_false(r->towers[0].script_target);
  uint32_t cand[2] = {5, 6};
  assert_int_equal(td_mod_target(m, 0, 1, cand, 2), TD_MOD_TARGET_DEFAULT); /* a's is gone */
  assert_int_equal(r->start_gold, 9);
  assert_int_equal(r->start_lives, 3);
  assert_int_equal(r->wave_count, 2);
  assert_true(log_has(m, "a util"));
  assert_true(log_has(m, "b util"));
  td_mod_clear_log(m);
  td_event e = {.kind = TD_EVENT_KILLED, .tick = 4, .enemy = 1, .type = 0};
  td_mod_dispatch(m, &e);
  BALANCED(m);
  assert_int_equal(td_mod_log_count(m), 2);
  /* a's first, each with its own `who`, in its code and in what it loads */
  assert_string_equal(td_mod_log_line(m, 0), "a a a");
  assert_string_equal(td_mod_log_line(m, 1), "b b b");
  assert_int_equal(td_mod_error_count(m), 1);
  assert_string_equal(td_mod_error_at(m, 0)->mod, "b");
  assert_string_equal(td_mod_error_at(m, 0)->handler, "on kill #2");
  /* hot reload: a change in the second mod's file rebuilds the whole list */
  assert_false(td_mod_changed(m));
  snprintf(dir, sizeof dir, "%s", b);
  write_file("util.lua", "return 'b util, changed'\n");
  snprintf(dir, sizeof dir, "%s", top);
  assert_true(td_mod_changed(m));
  td_mod_clear_log(m);
  assert_int_equal(td_mod_reload(m, &err), 0);
  assert_true(td_mod_swap(m));
  assert_true(log_has(m, "a util"));
  assert_true(log_has(m, "b util, changed"));
  assert_int_equal(td_mod_rules(m)->tower_count, 3);
  td_mod_destroy(m);

  /* b alone: its dependency is missing, named before what follows fails */
  m = td_mod_load_list(&list[1], 1, &small_limits, &err);
  assert_null(m);
  char want[900];
  snprintf(want, sizeof want, "%s/mod.lua: mod 'b' depends on mod 'a', which is not loaded",
           b);
  if (strncmp(err.msg, want, strlen(want)) != 0) fail_msg("error %s", err.msg);
  /* a plain duplicate: both mods named */
  snprintf(dir, sizeof dir, "%s", b);
  write_file("mod.lua", "api_version = 1\ntd.enemy { name = 'runner', health = 5, speed = 1 }\n");
  snprintf(dir, sizeof dir, "%s", top);
  m = td_mod_load_list(list, 2, &small_limits, &err);
  assert_null(m);
  snprintf(want, sizeof want, "%s/mod.lua:2: enemy 'runner': declared twice: mod 'a' declared "
           "it at %s/mod.lua:3; to change it, mod 'b' declares it with replace = true", b, a);
  assert_string_equal(err.msg, want);
  /* replace = true with nothing to replace */
  snprintf(dir, sizeof dir, "%s", b);
  write_file("mod.lua", "api_version = 1\ntd.enemy { name = 'walker', replace = true, health = 5, speed = 1 }\n");
  snprintf(dir, sizeof dir, "%s", top);
  m = td_mod_load_list(list, 2, &small_limits, &err);
  assert_null(m);
  assert_non_null(strstr(err.msg, "enemy 'walker': replace = true, but no enemy of this name"));
  remove_mod();
}

/* ---- display names ------------------------------------------------------------- */

static void expect_title(const char *name, const char *want) {
  char out[TD_RULES_TITLE_MAX];
  td_mod_title_from_name(name, out, sizeof out);
  if (strcmp(out, want) != 0) fail_msg("title of '%s': '%s', expected '%s'", name, out, want);
}

static void test_titles(void **state) {
  (void)state;
  expect_title("arrow", "Arrow");
  expect_title("arrow_2", "Arrow II");
  expect_title("tesla_12", "Tesla XII");
  expect_title("fire-bomb.4", "Fire Bomb IV");
  expect_title("wave_40", "Wave 40");
  expect_title("2", "2");
  expect_title("01-crossroads", "Crossroads");
  expect_title("__", "Unnamed");
  expect_title("", "Unnamed");
  char out[TD_RULES_TITLE_MAX];
  td_mod_title_from_path("maps/01-crossroads.tmx", out, sizeof out);
  assert_string_equal(out, "Crossroads");
  td_mod_title_from_path("06-the_great-expanse.tmx", out, sizeof out);
  assert_string_equal(out, "The Great Expanse");
  char small[12]; /* cut on a whole word */
  td_mod_title_from_name("very_long_name_here", small, sizeof small);
  assert_string_equal(small, "Very Long");

  /* given, derived, and not inherited by an upgrade */
  make_mod(HEAD "td.enemy { name = 'big_bad', title = 'Big Bad \xc3\x89lan', health = 1, speed = 1,\n"
           "  description = 'Hits hard.' }\n"
           "td.enemy { name = 'imp_3', health = 1, speed = 1 }\n"
           "td.tower { name = 'arrow', title = 'Archer', description = 'Shoots.', levels = {\n"
           "  { name = 'arrow', title = 'Archer Tower', description = 'A bow.', cost = 1, range = 2 },\n"
           "  { name = 'arrow_2', cost = 2 } } }\n"
           "td.wave { { enemy = 'imp_3' } }\n",
           NULL, NULL);
  td_mod *m = load_ok(dir, NULL);
  const td_rules *r = td_mod_rules(m);
  assert_string_equal(r->enemies[0].title, "Big Bad \xc3\x89lan");
  assert_string_equal(r->enemies[0].description, "Hits hard.");
  assert_string_equal(r->enemies[1].title, "Imp III");
  assert_string_equal(r->enemies[1].description, "");
  assert_string_equal(r->towers[0].title, "Archer");
  assert_string_equal(r->towers[0].description, "Shoots.");
  assert_string_equal(r->levels[0].title, "Archer Tower");
  assert_string_equal(r->levels[1].title, "Arrow II");
  assert_string_equal(r->levels[1].description, "");
  /* the sim ignores them: the rules hash does not see them */
  td_rules copy = *r;
  td_enemy_type e0 = r->enemies[0];
  snprintf(e0.title, sizeof e0.title, "Other");
  td_enemy_type es[2] = {e0, r->enemies[1]};
  copy.enemies = es;
  assert_true(td_world_rules_hash(&copy) == td_world_rules_hash(r));
  td_mod_destroy(m);
  remove_mod();

  expect_src_error(HEAD "td.enemy { name = 'a', health = 1, speed = 1, title = '' }",
                   "mod.lua:3: enemy 'a': title must not be empty");
  expect_src_error(HEAD "td.enemy { name = 'a', health = 1, speed = 1, title = 7 }",
                   "mod.lua:3: enemy 'a': title must be a string, got number");
  expect_src_error(HEAD "td.enemy { name = 'a', health = 1, speed = 1, title = 'x\\ny' }",
                   "mod.lua:3: enemy 'a': title must be one line without control characters "
                   "(byte 2)");
  expect_src_error(HEAD "td.enemy { name = 'a', health = 1, speed = 1, description = 'ab\\xc3' }",
                   "mod.lua:3: enemy 'a': description is not UTF-8 (byte 3)");
  expect_src_error(HEAD "td.enemy { name = 'a', health = 1, speed = 1, description = '\\xc0\\xaf' }",
                   "mod.lua:3: enemy 'a': description is not UTF-8 (byte 1)");
  expect_src_error(HEAD "td.enemy { name = 'a', health = 1, speed = 1, title = "
                   "'0123456789012345678901234567890123456789' }",
                   "mod.lua:3: enemy 'a': title must be at most 39 bytes long, got 40");
  expect_src_error(HEAD "td.tower { name = 't', levels = { { name = 't', cost = 1, range = 2, "
                   "title = false } } }",
                   "mod.lua:3: tower 't' level 't': title must be a string, got boolean");
}

#define TEST(f) cmocka_unit_test_setup_teardown(f, td_test_alloc_setup, td_test_alloc_teardown)

int main(void) {
  const struct CMUnitTest tests[] = {
      TEST(test_classic_mod),
      TEST(test_schema_errors),
      TEST(test_more_schema_errors),
      TEST(test_soldiers_mod),
      TEST(test_barracks_rate),
      TEST(test_soldier_errors),
      TEST(test_unit_events),
      TEST(test_names),
      TEST(test_escapes),
      TEST(test_data_stage_denials),
      TEST(test_memory_where),
      TEST(test_runtime_names),
      TEST(test_print_and_gc),
      TEST(test_dispatch_order),
      TEST(test_targeting),
      TEST(test_random_and_sorted_pairs),
      TEST(test_no_addresses),
      TEST(test_host_functions),
      TEST(test_stack_balance),
      TEST(test_reload),
      TEST(test_alloc_failures),
      TEST(test_docs),
      TEST(test_several_mods),
      TEST(test_alloc_failures_list),
      TEST(test_titles),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
