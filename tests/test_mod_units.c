/*
** test_mod_units.c: the Lua side of soldiers and sappers in real games:
** the events engage, soldier_death, tower_damaged, tower_destroyed,
** repaired and rallied reach handlers with their fields, hits by soldiers
** say so, td.soldiers / td.soldier_info follow the barracks, td.tower_info
** and td.enemy_info agree with the events, td.damage_tower and REPAIR.
**
** The mods are written per test: one head (types, towers, handlers that
** print what they see, each line saying whether what td.* returns agrees
** with the event), then the waves of the test.
*/
#define _POSIX_C_SOURCE 200809L
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"

static const char head[] =
    "api_version = 1\n"
    "td.damage_type 'physical'\n"
    "td.soldier { name = 'footman', health = 60, damage = 8, rate = 1.5, speed = 2, sight = 4,\n"
    "  respawn = 2 }\n"
    "td.soldier { name = 'recruit', health = 5, damage = 1, rate = 1, speed = 2, sight = 4,\n"
    "  respawn = 1 }\n"
    "td.tower { name = 'barracks', levels = { { name = 'barracks', cost = 10, range = 4,\n"
    "  health = 100, soldier = 'footman', soldiers = 3 } } }\n"
    "td.tower { name = 'camp', levels = { { name = 'camp', cost = 10, range = 4,\n"
    "  soldier = 'recruit', soldiers = 2 } } }\n"
    "td.tower { name = 'wall', levels = { { name = 'wall', cost = 50, range = 1, rate = 0,\n"
    "  health = 100 } } }\n"
    "td.tower { name = 'target', levels = { { name = 'target', cost = 50, range = 1, rate = 0,\n"
    "  health = 100 } } }\n"
    "td.enemy { name = 'grunt', health = 300, speed = 1, melee = { damage = 2, rate = 1 } }\n"
    "td.enemy { name = 'brute', health = 2000, speed = 1, melee = { damage = 30, rate = 2 } }\n"
    "td.enemy { name = 'sapper', health = 2000, speed = 1,\n"
    "  siege = { damage = 40, rate = 2, range = 3 } }\n"
    "td.rules { start_gold = 1000, first_wave_delay = 1, wave_interval = 60,\n"
    "  repair_cost = 0.5 }\n"
    "soldier_hits = 0\n"
    "td.on('hit', function(e)\n"
    "  if e.source == 'soldier' and e.soldier ~= 0 and e.tower_type then\n"
    "    soldier_hits = soldier_hits + 1\n"
    "  end\n"
    "end)\n"
    "td.on('wave_end', function(e) print(('wave_end %d soldier_hits %s'):format(e.wave,\n"
    "  tostring(soldier_hits > 0))) end)\n"
    "td.on('engage', function(e)\n"
    "  local en, s = td.enemy_info(e.enemy), td.soldier_info(e.soldier)\n"
    "  print(('engage %s %s holder_ok=%s tower_ok=%s'):format(e.enemy_type,\n"
    "    s and s.type or '?', tostring(en ~= nil and en.holder == e.soldier),\n"
    "    tostring(s ~= nil and s.tower == e.tower)))\n"
    "end)\n"
    "td.on('soldier_death', function(e)\n"
    "  print(('soldier_death %s killer=%s tower_ok=%s'):format(e.soldier_type,\n"
    "    tostring(e.enemy ~= 0), tostring(e.tower == 0 or td.tower_info(e.tower) ~= nil)))\n"
    "end)\n"
    "td.on('tower_damaged', function(e)\n"
    "  local t = td.tower_info(e.tower)\n"
    "  local en = e.enemy ~= 0 and td.enemy_info(e.enemy) or nil\n"
    "  print(('tower_damaged %s base=%d damage=%g by=%s health=%s siege_ok=%s'):format(e.level,\n"
    "    e.base, e.damage, e.enemy ~= 0 and 'sapper' or 'script',\n"
    "    t and ('%g'):format(t.health) or 'gone',\n"
    "    tostring(en == nil or t == nil or (en.state == 'attack' and en.siege == e.tower))))\n"
    "end)\n"
    "td.on('tower_destroyed', function(e)\n"
    "  print(('tower_destroyed %s base=%d by=%s info=%s'):format(e.level, e.base,\n"
    "    e.enemy ~= 0 and 'sapper' or 'script', tostring(td.tower_info(e.tower))))\n"
    "end)\n"
    "td.on('repaired', function(e)\n"
    "  local t = td.tower_info(e.tower)\n"
    "  print(('repaired %s base=%d cost=%d health=%g of %g repair=%s'):format(e.level, e.base,\n"
    "    e.cost, t.health, t.max_health, tostring(t.repair_cost)))\n"
    "  if e.level == 'target' then\n"
    "    print(('script destroy %g'):format(td.damage_tower(e.tower, 1000)))\n"
    "  end\n"
    "end)\n"
    "td.on('rallied', function(e)\n"
    "  local t = td.tower_info(e.tower)\n"
    "  print(('rallied base=%d at=%g,%g tower_ok=%s'):format(e.base, e.x, e.y,\n"
    "    tostring(t.rally_x == e.x and t.rally_y == e.y)))\n"
    "end)\n"
    "td.on('place', function(e)\n"
    "  if e.level ~= 'target' then return end\n"
    "  local taken = td.damage_tower(e.tower, 30)\n"
    "  local t = td.tower_info(e.tower)\n"
    "  print(('script damage %g health %g repair %s'):format(taken, t.health,\n"
    "    tostring(t.repair_cost)))\n"
    "end)\n"
    "td.every(60, function()\n"
    "  for _, h in ipairs(td.towers()) do\n"
    "    local info = td.tower_info(h)\n"
    "    if info.soldiers > 0 then\n"
    "      local ss, ok = td.soldiers(h), true\n"
    "      for _, s in ipairs(ss) do\n"
    "        ok = ok and s.tower == h and s.base == info.base and s.health <= s.max_health\n"
    "      end\n"
    "      print(('soldiers %s %d of %d ok=%s'):format(info.level, #ss, info.soldiers,\n"
    "        tostring(ok and #ss <= info.soldiers)))\n"
    "    end\n"
    "  end\n"
    "end)\n";

/* A game on maps/01-crossroads.tmx (its road runs along y = 336, bases 13
** and 15 are 80 map units beside it) with the head and these waves. */
static td_game *open_units(const char *name, const char *waves) {
  char dir[400], path[500];
  snprintf(dir, sizeof dir, "%s", td_test_tmp(name));
  char cmd[450];
  snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
  assert_int_equal(system(cmd), 0);
  snprintf(path, sizeof path, "%s/mod.lua", dir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(head, f);
  fputs(waves, f);
  assert_int_equal(fclose(f), 0);
  char map[512];
  snprintf(map, sizeof map, "%s", td_test_path("maps/01-crossroads.tmx"));
  td_game_options o = {.map_path = map, .mod_dir = dir, .seed = 5};
  td_err err;
  td_game *g = td_game_create(&o, &err);
  if (!g) fail_msg("%s", err.msg);
  return g;
}

static int32_t base_of(td_game *g, int64_t object) {
  const td_tower_base *b = td_map_find_base(td_game_map(g), object);
  assert_non_null(b);
  return (int32_t)(b - td_game_map(g)->bases);
}

static int32_t type_of(td_game *g, const char *name) {
  const td_rules *r = td_game_rules(g);
  for (size_t i = 0; i < r->tower_count; i++)
    if (strcmp(r->towers[i].name, name) == 0) return (int32_t)i;
  fail_msg("no tower type %s", name);
  return -1;
}

static void command(td_game *g, td_command c) {
  td_err err;
  assert_int_equal(td_game_command(g, &c, &err), 0);
}

static void place(td_game *g, uint64_t tick, int64_t object, const char *type) {
  command(g, (td_command){.tick = tick, .kind = TD_COMMAND_PLACE, .base = base_of(g, object),
                          .tower_type = type_of(g, type)});
}

static void step(td_game *g) {
  td_err err;
  if (td_game_step(g, &err) != 0) fail_msg("step: %s", err.msg);
}

static bool log_has(td_game *g, const char *needle) {
  td_mod *m = td_game_mod(g);
  for (size_t i = 0; i < td_mod_log_count(m); i++)
    if (strstr(td_mod_log_line(m, i), needle)) return true;
  return false;
}

static void no_script_errors(td_game *g) {
  td_mod *m = td_game_mod(g);
  if (td_mod_error_count(m))
    fail_msg("%s: %s", td_mod_error_at(m, 0)->where, td_mod_error_at(m, 0)->message);
}

/* Steps until an event of kind is seen (its copy in *out) or limit ticks. */
static bool step_until(td_game *g, td_event_kind kind, uint64_t limit, td_event *out) {
  td_world *w = td_game_world(g);
  while (td_world_tick(w) < limit && td_world_state(w) == TD_GAME_PLAYING) {
    step(g);
    size_t n;
    const td_event *e = td_world_events(w, &n);
    for (size_t i = 0; i < n; i++)
      if (e[i].kind == kind) {
        if (out) *out = e[i];
        return true;
      }
  }
  return false;
}

/* td.damage_tower from a place handler, a REPAIR for the repair_cost the
** tower table said, then td.damage_tower from the repaired handler to 0:
** tower_destroyed naming no sapper, the tower gone. */
static void test_scripted_tower_damage(void **state) {
  (void)state;
  td_game *g = open_units("scripted", "td.wave { { enemy = 'grunt', count = 1 } }\n");
  td_world *w = td_game_world(g);
  int32_t b = base_of(g, 13);
  place(g, 0, 13, "target");
  command(g, (td_command){.tick = 10, .kind = TD_COMMAND_REPAIR, .base = b});
  td_event e;
  assert_true(step_until(g, TD_EVENT_TOWER_DESTROYED, 30, &e));
  no_script_errors(g);
  assert_int_equal(e.enemy, 0);
  assert_int_equal(e.base, b);
  char line[160];
  /* ceil(0.5 x 50 spent x 30 missing / 100) = 8 */
  assert_true(log_has(g, "script damage 30 health 70 repair 8"));
  snprintf(line, sizeof line, "tower_damaged target base=%d damage=30 by=script health=70 "
           "siege_ok=true", b + 1);
  assert_true(log_has(g, line));
  snprintf(line, sizeof line, "repaired target base=%d cost=8 health=100 of 100 repair=nil",
           b + 1);
  assert_true(log_has(g, line));
  assert_true(log_has(g, "script destroy 100"));
  snprintf(line, sizeof line, "tower_destroyed target base=%d by=script info=nil", b + 1);
  assert_true(log_has(g, line));
  td_tower_view v;
  assert_false(td_world_tower(w, (size_t)b, &v));
  assert_int_equal(td_world_gold(w), 1000 - 50 - 8);
  td_game_destroy(g);
}

/* Sappers stop at walls with health beside the road and bring them down;
** while they hit, their tables say attack and name the tower (not after
** the hit that fells it: then the sapper walks on in the same step). */
static void test_sappers(void **state) {
  (void)state;
  td_game *g = open_units("sappers", "td.wave { { enemy = 'sapper', count = 2 } }\n");
  place(g, 0, 13, "wall");
  place(g, 0, 15, "wall");
  td_event e;
  assert_true(step_until(g, TD_EVENT_TOWER_DESTROYED, 60 * 60, &e));
  no_script_errors(g);
  assert_true(e.enemy != 0);
  assert_true(e.base == base_of(g, 13) || e.base == base_of(g, 15));
  char line[160];
  snprintf(line, sizeof line, "tower_destroyed wall base=%d by=sapper info=nil", e.base + 1);
  assert_true(log_has(g, line));
  snprintf(line, sizeof line, "tower_damaged wall base=%d damage=40 by=sapper", e.base + 1);
  assert_true(log_has(g, line));
  assert_true(log_has(g, "siege_ok=true"));
  assert_false(log_has(g, "siege_ok=false"));
  td_game_destroy(g);
}

/* A barracks beside the road, its rally point moved onto the road: three
** footmen in td.soldiers, the rallied event, grunts engaged and hit by
** soldiers (credited to the barracks). */
static void test_barracks(void **state) {
  (void)state;
  td_game *g = open_units("barracks", "td.wave { { enemy = 'grunt', count = 3 } }\n");
  td_world *w = td_game_world(g);
  int32_t b = base_of(g, 15);
  place(g, 0, 15, "barracks");
  float posts[16];
  td_refusal why = TD_REFUSAL_NONE;
  size_t n = td_world_rally_posts(w, b, type_of(g, "barracks"), 224, 336, posts, 8, &why);
  if (n == 0) fail_msg("a rally point on the road is refused: %s", td_refusal_text(why));
  command(g, (td_command){.tick = 30, .kind = TD_COMMAND_RALLY, .base = b, .x = 224, .y = 336});
  assert_true(step_until(g, TD_EVENT_WAVE_ENDED, 60 * 90, NULL));
  no_script_errors(g);
  char line[160];
  snprintf(line, sizeof line, "rallied base=%d at=224,336 tower_ok=true", b + 1);
  assert_true(log_has(g, line));
  assert_true(log_has(g, "soldiers barracks 3 of 3 ok=true"));
  assert_false(log_has(g, " ok=false"));
  assert_true(log_has(g, "engage grunt footman holder_ok=true tower_ok=true"));
  assert_true(log_has(g, "wave_end 1 soldier_hits true"));
  td_game_destroy(g);
}

/* Brutes that hit hard kill a camp's recruits: soldier_death names the
** soldier type and the killer; the recruits walk out again. */
static void test_soldier_death(void **state) {
  (void)state;
  td_game *g = open_units("deaths", "td.wave { { enemy = 'brute', count = 2 } }\n");
  td_world *w = td_game_world(g);
  int32_t b = base_of(g, 15);
  place(g, 0, 15, "camp");
  command(g, (td_command){.tick = 30, .kind = TD_COMMAND_RALLY, .base = b, .x = 224, .y = 336});
  td_event e;
  assert_true(step_until(g, TD_EVENT_SOLDIER_DIED, 60 * 60, &e));
  step(g);
  no_script_errors(g);
  assert_true(e.soldier != 0 && e.enemy != 0);
  assert_true(log_has(g, "soldier_death recruit killer=true tower_ok=true"));
  /* the same soldier (its handle lives on) falls, waits its respawn (1 s)
  ** and walks out again */
  td_soldier_view v;
  bool back = false;
  for (int i = 0; i < 60 * 5 && !back; i++) {
    step(g);
    assert_true(td_world_soldier_get(w, e.soldier, &v));
    back = v.state != TD_SOLDIER_DIE && v.state != TD_SOLDIER_RESPAWN;
  }
  assert_true(back);
  td_game_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scripted_tower_damage),
      cmocka_unit_test(test_sappers),
      cmocka_unit_test(test_barracks),
      cmocka_unit_test(test_soldier_death),
  };
  return cmocka_run_group_tests(tests, td_test_dir_setup, td_test_dir_teardown);
}
