/*
** test_game.c: the game layer (engine/game): a map, a mod and a world bound
** together; the td.* world functions (those of soldiers and sappers too);
** math.random on the world's RNG; hot reload; saves (atomic, refused when cut or changed); replays (recorded,
** read, played back to the same checksums, refused with file:line, every
** cut refused as one, quoted paths, the map's name bound); the
** built-in player; the mod's load budget (load_instructions).
*/
#define _POSIX_C_SOURCE 200809L /* st_mtim, unlink */
#include "support.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "game/auto.h"
#include "game/game.h"
#include "game/replay.h"

static const char *tmp(const char *name) { return td_test_tmp(name); }

static td_game *open_game(const char *mod, uint64_t seed) {
  char map[512], dir[512];
  snprintf(map, sizeof map, "%s", td_test_path("maps/01-crossroads.tmx"));
  snprintf(dir, sizeof dir, "%s", mod[0] == '/' ? mod : td_test_path(mod));
  td_game_options o = {.map_path = map, .mod_dir = dir, .seed = seed};
  td_err err;
  td_game *g = td_game_create(&o, &err);
  if (!g) fail_msg("%s", err.msg);
  return g;
}

static void step(td_game *g, int n) {
  td_err err;
  for (int i = 0; i < n; i++)
    if (td_game_step(g, &err) != 0) fail_msg("step: %s", err.msg);
}

static bool log_has(td_game *g, const char *needle) {
  td_mod *m = td_game_mod(g);
  for (size_t i = 0; i < td_mod_log_count(m); i++)
    if (strstr(td_mod_log_line(m, i), needle)) return true;
  return false;
}

static void place(td_game *g, uint64_t tick, int64_t object, int32_t type) {
  const td_tower_base *b = td_map_find_base(td_game_map(g), object);
  assert_non_null(b);
  td_command c = {.tick = tick, .kind = TD_COMMAND_PLACE,
                  .base = (int32_t)(b - td_game_map(g)->bases), .tower_type = type};
  td_err err;
  assert_int_equal(td_game_command(g, &c, &err), 0);
}

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

/* ---- creation and errors ------------------------------------------------- */

static void test_errors(void **state) {
  (void)state;
  td_err err;
  td_game_options o = {.map_path = "/nonexistent/map.lua", .mod_dir = "scripts/base"};
  assert_null(td_game_create(&o, &err));
  assert_non_null(strstr(err.msg, "/nonexistent/map.lua"));
  char map[512];
  snprintf(map, sizeof map, "%s", td_test_path("maps/01-crossroads.tmx"));
  o.map_path = map;
  o.mod_dir = td_test_path("tests/data/mods/bad_syntax");
  assert_null(td_game_create(&o, &err));
  assert_non_null(strstr(err.msg, "bad_syntax/mod.lua:"));
}

/* ---- handlers call the world ---------------------------------------------- */

static void test_world_functions(void **state) {
  (void)state;
  td_game *g = open_game("tests/data/mods/game_api", 7);
  td_world *w = td_game_world(g);
  assert_int_equal(td_world_gold(w), 200);
  place(g, 0, 15, 0); /* beside the road: it stays open */
  place(g, 0, 13, 0);
  int64_t kills = 0, spawns = 0, imps = 0;
  bool runner_hurt = true;
  while (td_world_state(w) == TD_GAME_PLAYING && td_world_tick(w) < 60 * 60) {
    step(g, 1);
    size_t n;
    const td_event *e = td_world_events(w, &n);
    for (size_t i = 0; i < n; i++) {
      if (e[i].kind == TD_EVENT_KILLED) kills++;
      if (e[i].kind != TD_EVENT_SPAWNED) continue;
      spawns++;
      td_enemy_view v;
      assert_true(td_world_enemy_get(w, e[i].enemy, &v));
      if (v.type == 1) imps++;
      /* the spawn handler hurt every runner by 5 (fire, no resistance) */
      else if (v.health > v.max_health - 5 + 1e-3f) runner_hurt = false;
    }
  }
  if (td_mod_error_count(td_game_mod(g)))
    fail_msg("%s: %s", td_mod_error_at(td_game_mod(g), 0)->where,
             td_mod_error_at(td_game_mod(g), 0)->message);
  assert_true(runner_hurt);
  assert_int_equal(imps, 1);           /* the first kill spawned one imp */
  assert_int_equal(spawns, 4 + 6 + 1);
  assert_true(kills > 0);
  /* each kill paid its bounty and the handler's 100 */
  assert_true(td_world_gold(w) >= 100 + 101 * kills);
  assert_true(log_has(g, "tick 60 gold 100 lives 8 wave 0"));
  assert_true(log_has(g, "towers 2"));
  /* td.wave_preview at wave 1's start */
  assert_true(log_has(g, "preview of 1: 4 runner of 40 hp after 0s"));
  assert_true(log_has(g, "preview of 2: 6 runner of 40 hp after 0s"));
  assert_true(log_has(g, "preview of 3: ") && !log_has(g, "preview of 3: 1"));
  assert_true(log_has(g, "preview of next: 6 runner"));
  assert_true(log_has(g, "preview of 0: false td.wave_preview: wave 0 is not >= 1"));
  td_game_destroy(g);
}

/* A hit says where it came from: a handler that answers a tower's hits with
** td.damage sees its own hits as source "script" (crediting the same tower,
** with its type and level) and skips them, instead of recursing. */
static const char hit_handler[] =
    "\nlocal tower_hits, script_hits, named = 0, 0, true\n"
    "td.on('hit', function(e)\n"
    "  if e.source == 'script' then\n"
    "    script_hits = script_hits + 1\n"
    "    if e.tower ~= 0 and not (e.tower_type and e.level) then named = false end\n"
    "    return\n"
    "  end\n"
    "  tower_hits = tower_hits + 1\n"
    "  if e.source ~= 'tower' or not (e.tower_type and e.level and e.enemy_type) then\n"
    "    named = false\n"
    "  end\n"
    "  td.damage(e.enemy, 1, nil, e.tower)\n"
    "end)\n"
    "td.every(600, function() print(('hits %d %d %s'):format(tower_hits, script_hits,\n"
    "  tostring(named))) end)\n";

/* A game on mod (a one-file mod of the tree) with more appended to its
** mod.lua, in tmp(name). */
static td_game *open_mod_plus(const char *mod, const char *name, const char *more,
                              uint64_t seed) {
  char cmd[1200], dir[400];
  snprintf(dir, sizeof dir, "%s", tmp(name));
  snprintf(cmd, sizeof cmd, "mkdir -p '%s' && cp '%s'/mod.lua '%s'/", dir, td_test_path(mod),
           dir);
  assert_int_equal(system(cmd), 0);
  char file[450];
  snprintf(file, sizeof file, "%s/mod.lua", dir);
  FILE *f = fopen(file, "a");
  assert_non_null(f);
  fputs(more, f);
  assert_int_equal(fclose(f), 0);
  return open_game(dir, seed);
}

/* The same on tests/data/mods/game_api. */
static td_game *open_game_plus(const char *name, const char *more, uint64_t seed) {
  return open_mod_plus("tests/data/mods/game_api", name, more, seed);
}

static void test_hit_source(void **state) {
  (void)state;
  td_game *g = open_game_plus("hitmod", hit_handler, 7);
  td_world *w = td_game_world(g);
  place(g, 0, 15, 0);
  int64_t tower = 0, script = 0, credited = 0;
  while (td_world_state(w) == TD_GAME_PLAYING && td_world_tick(w) < 60 * 40) {
    step(g, 1);
    size_t n;
    const td_event *e = td_world_events(w, &n);
    for (size_t i = 0; i < n; i++) {
      if (e[i].kind != TD_EVENT_HIT) continue;
      if (e[i].source == TD_HIT_TOWER) {
        tower++;
        assert_true(e[i].level >= 0);
      } else {
        script++;
        if (e[i].tower) credited++, assert_true(e[i].level >= 0);
        else assert_int_equal(e[i].level, -1);
      }
    }
  }
  assert_int_equal(td_mod_error_count(td_game_mod(g)), 0);
  assert_true(tower > 0);
  /* every tower hit answered once (on a living enemy), the spawn handler's
  ** hits credit no tower */
  assert_true(credited > 0 && credited <= tower);
  assert_true(script > credited);
  char line[64];
  snprintf(line, sizeof line, "hits %" PRId64 " %" PRId64 " true", tower, script);
  /* the last print was at tick 2400, the end of the loop */
  assert_true(log_has(g, line));
  td_game_destroy(g);
}

/* A handler cannot talk past the engine's limits: a flood of td.spawn (cheap
** in instructions) inside a pcall is stopped at 256 in the step, the error
** names the limit and the line, the handler is disabled, the game goes on;
** a flood of td.damage likewise. */
static const char flood_handlers[] =
    "\ntd.on('wave_start', function(e)\n"
    "  local ok = pcall(function() for i = 1, 100000 do td.spawn('imp') end end)\n"
    "  print('swallowed ' .. tostring(ok))\n"
    "end)\n"
    "td.on('spawn', function(e)\n"
    "  if td.enemy_info(e.enemy).type ~= 'runner' then return end\n"
    "  for i = 1, 100000 do td.slow(e.enemy, 0.1, 1) end\n"
    "end)\n";

static void test_api_limits(void **state) {
  (void)state;
  td_game *g = open_game_plus("floodmod", flood_handlers, 7);
  td_world *w = td_game_world(g);
  size_t most = 0;
  while (td_world_state(w) == TD_GAME_PLAYING && td_world_tick(w) < 60 * 30) {
    step(g, 1);
    if (td_world_enemy_count(w) > most) most = td_world_enemy_count(w);
  }
  td_mod *m = td_game_mod(g);
  assert_false(log_has(g, "swallowed"));
  assert_true(most >= TD_GAME_STEP_SPAWNS && most <= TD_GAME_STEP_SPAWNS + 10);
  bool spawn_err = false, slow_err = false;
  for (size_t i = 0; i < td_mod_error_count(m); i++) {
    const td_mod_error *e = td_mod_error_at(m, i);
    if (strstr(e->message, "td.spawn: more than 256 spawns in one step")) {
      spawn_err = true;
      assert_non_null(strstr(e->where, "mod.lua:"));
    }
    if (strstr(e->message, "td.slow: more than 16384 calls that hit enemies in one step"))
      slow_err = true;
  }
  assert_true(spawn_err);
  assert_true(slow_err);
  /* the other handlers and the game went on (the imps leak: lost) */
  assert_int_equal(td_world_state(w), TD_GAME_LOST);
  char last[32];
  snprintf(last, sizeof last, "tick %" PRIu64 " ", td_world_tick(w) / 60 * 60);
  assert_true(td_world_tick(w) > 600);
  assert_true(log_has(g, last));
  td_game_destroy(g);
}

/* td.spawn's documented options (health, lane) and its message for a bad
** health; a runtime typo in a game function gets the "did you mean" of
** load-time errors. */
static const char spawn_handlers[] =
    "\ntd.on('wave_start', function(e)\n"
    "  if e.wave ~= 1 then return end\n"
    "  local h = td.spawn('imp', { health = 7, lane = 0.25 })\n"
    "  local s = td.enemy_info(h)\n"
    "  print(('spawned %s health %g of %g wave %d'):format(s.type, s.health, s.max_health, "
    "s.wave))\n"
    "  print(select(2, pcall(td.spawn, 'imp', { health = -1 })))\n"
    "  print(select(2, pcall(td.spawn, 'imp', { lane = 'left' })))\n"
    "  print(select(2, pcall(td.spawn, 'imp', { spawn = 1.5 })))\n"
    "end)\n"
    "td.on('wave_start', function(e) td.spwn('imp') end)\n";

static void test_spawn_options(void **state) {
  (void)state;
  td_game *g = open_game_plus("spawnmod", spawn_handlers, 7);
  td_world *w = td_game_world(g);
  while (td_world_wave(w) < 1) step(g, 1);
  step(g, 1);
  assert_true(log_has(g, "spawned imp health 7 of 7 wave 0"));
  assert_true(log_has(g, "td.spawn: at.health must be > 0 and <= 1e9, got -1"));
  assert_true(log_has(g, "td.spawn: at.lane must be a number, got string"));
  assert_true(log_has(g, "td.spawn: at.spawn must be an integer, got a number with a fraction"));
  td_mod *m = td_game_mod(g);
  assert_int_equal(td_mod_error_count(m), 1);
  const char *msg = td_mod_error_at(m, 0)->message;
  if (!strstr(msg, "/mod.lua:") ||
      !strstr(msg, ": attempt to call a nil value (field 'spwn') (did you mean 'td.spawn'?)"))
    fail_msg("message \"%s\"", msg);
  td_game_destroy(g);
}

/* td.set_cost and td.cost from a handler: a path's edges (all of them), the
** nearest edge to a point; the route follows; a flood past 64 a step is
** stopped like the other limits. */
static const char cost_handlers[] =
    "\ntd.every(60, function(t)\n"
    "  if t ~= 60 then return end\n"
    "  td.set_cost { path = 1, factor = 4 }\n"
    "  td.set_cost { at = { 600, 150 }, factor = 0.5 }\n" /* the north road, 8-9 */
    "  print(('costs %g %g %g'):format(td.cost { path = 1 }, td.cost { at = { 600, 150 } },\n"
    "        td.cost { path = 5 }))\n"
    "  for i = 1, 100 do td.set_cost { path = 4, factor = i } end\n"
    "end)\n";

static void test_costs(void **state) {
  (void)state;
  td_game *g = open_game_plus("costmod", cost_handlers, 7);
  td_world *w = td_game_world(g);
  const td_map *m = td_world_map(w);
  const td_route *rt = td_world_route(w);
  int32_t spawn = m->spawns[0].node;
  int32_t straight = td_route_next(rt)[1];
  step(g, 61);
  assert_true(log_has(g, "costs 4 0.5 2"));
  const td_map_path *trunk = td_map_find_path(m, 1);
  for (size_t i = 0; i < trunk->edge_count; i++) {
    assert_true(td_world_cost(w, TD_COST_EDGE, trunk->edges[i]) == 4.0);
    assert_true(td_route_graph(rt)->edges[trunk->edges[i]].factor == 4.0);
  }
  assert_true(td_route_next(rt)[1] != straight); /* round the trunk now */
  assert_true(td_route_dist(rt)[spawn] != TD_COST_INF);
  assert_int_equal(td_route_validate(rt, NULL), 0);
  /* the flood stopped at 64 calls: path 4's factor is the 64th call's (i = 62) */
  td_mod *mod = td_game_mod(g);
  assert_int_equal(td_mod_error_count(mod), 1);
  assert_non_null(strstr(td_mod_error_at(mod, 0)->message,
                         "td.set_cost: more than 64 cost changes in one step"));
  assert_true(td_world_cost(w, TD_COST_EDGE, td_map_find_path(m, 4)->edges[0]) == 62.0);
  td_game_destroy(g);
}

/* ---- soldiers and sappers -------------------------------------------------- */

/* The td.* functions of soldiers and sappers on tests/data/mods/soldiers,
** as far as they hold whatever soldier.c and siege.c do: tower tables'
** health, soldiers and rally point when built, enemy tables' state,
** holder and siege at their spawn, td.soldiers against the world's own
** list, td.damage_tower's argument errors and its limit. (tests/pending
** has what needs the soldiers and sappers to act.) */
static const char unit_handlers[] =
    "\ntd.on('place', function(e)\n"
    "  local t = td.tower_info(e.tower)\n"
    "  print(('placed %s health %g of %g soldiers %d rally %s repair %s'):format(t.level,\n"
    "    t.health, t.max_health, t.soldiers, tostring(t.rally_x == t.x and t.rally_y == t.y),\n"
    "    tostring(t.repair_cost)))\n"
    "end)\n"
    "td.on('spawn', function(e)\n"
    "  local i = td.enemy_info(e.enemy)\n"
    "  print(('spawned %s %s holder %d siege %d'):format(i.type, i.state, i.holder, i.siege))\n"
    "end)\n"
    "td.every(30, function(tick)\n"
    "  local all, n = td.soldiers(), 0\n"
    "  for _, h in ipairs(td.towers()) do n = n + #td.soldiers(h) end\n"
    "  local fine = type(all) == 'table' and #all == n\n"
    "  for i, s in ipairs(all) do\n"
    "    local again = td.soldier_info(s.handle)\n"
    "    fine = fine and again and again.handle == s.handle and again.x == s.x and\n"
    "      td.tower_info(s.tower).base == s.base and (s.type == 'footman' or s.type == 'knight')\n"
    "      and s.health <= s.max_health and type(s.state) == 'string' and s.post_x and s.post_y\n"
    "    if i > 1 then fine = fine and s.handle ~= all[i - 1].handle end\n"
    "  end\n"
    "  print(('soldiers %d at %d %s'):format(#all, tick, tostring(fine)))\n"
    "end)\n"
    "td.on('wave_start', function(e)\n"
    "  if e.wave ~= 1 then return end\n"
    "  local t = td.towers()[1]\n"
    "  print(select(2, pcall(td.damage_tower, 'x', 1)))\n"
    "  print(select(2, pcall(td.damage_tower, 1.5, 1)))\n"
    "  print(select(2, pcall(td.damage_tower, t)))\n"
    "  print(select(2, pcall(td.damage_tower, t, -1)))\n"
    "  print(select(2, pcall(td.damage_tower, t, 1e10)))\n"
    "  print(select(2, pcall(td.soldiers, 'x')))\n"
    "  print(select(2, pcall(td.soldier_info)))\n"
    "  print(('dead %g %s %d'):format(td.damage_tower(999999, 5), tostring(td.soldier_info(999999)),\n"
    "    #td.soldiers(999999)))\n"
    "  for i = 1, 2000 do td.damage_tower(0, 1) end\n"
    "end)\n";

static void test_unit_api(void **state) {
  (void)state;
  td_game *g = open_mod_plus("tests/data/mods/soldiers", "unitmod", unit_handlers, 7);
  td_world *w = td_game_world(g);
  place(g, 0, 15, 0); /* a barracks */
  place(g, 0, 13, 1); /* an arrow tower */
  int checked = 0;
  while (td_world_wave(w) < 2 && td_world_tick(w) < 60 * 60) {
    step(g, 1);
    if (td_world_tick(w) % 30 != 1 || td_world_tick(w) < 30) continue; /* every(30) ran */
    char line[64];
    snprintf(line, sizeof line, "soldiers %zu at %" PRIu64 " true", td_world_soldier_count(w),
             td_world_tick(w) - 1);
    if (!log_has(g, line)) fail_msg("no line '%s'", line);
    checked++;
  }
  assert_true(checked > 10);
  assert_true(log_has(g, "placed barracks health 200 of 200 soldiers 3 rally true repair nil"));
  assert_true(log_has(g, "placed arrow health 120 of 120 soldiers 0 rally true repair nil"));
  assert_true(log_has(g, "spawned grunt walk holder 0 siege 0"));
  assert_true(log_has(g, "td.damage_tower: tower must be a handle (an integer), got string"));
  assert_true(log_has(g, "td.damage_tower: tower must be a handle (an integer), got a number "
                         "with a fraction"));
  assert_true(log_has(g, "td.damage_tower: amount must be a number, got no value"));
  assert_true(log_has(g, "td.damage_tower: amount must be 0 .. 1e9"));
  assert_true(log_has(g, "td.soldiers: tower must be a handle (an integer), got string"));
  assert_true(log_has(g, "td.soldier_info: h must be a handle (an integer), got no value"));
  assert_true(log_has(g, "dead 0 nil 0"));
  /* the flood: 1024 calls in the step, the one past stops the handler */
  td_mod *m = td_game_mod(g);
  assert_int_equal(td_mod_error_count(m), 1);
  assert_non_null(strstr(td_mod_error_at(m, 0)->message,
                         "td.damage_tower: more than 1024 calls that hit towers in one step"));
  td_game_destroy(g);
}

/* math.random draws from the world's RNG: the seed decides the rolls, and
** the same seed gives the same game. */
static void test_random_is_the_worlds(void **state) {
  (void)state;
  td_game *a = open_game("tests/data/mods/game_api", 1);
  td_game *b = open_game("tests/data/mods/game_api", 1);
  td_game *c = open_game("tests/data/mods/game_api", 2);
  step(a, 600);
  step(b, 600);
  step(c, 600);
  td_mod *ma = td_game_mod(a), *mb = td_game_mod(b), *mc = td_game_mod(c);
  assert_int_equal(td_mod_log_count(ma), 9 + 5); /* nine ticks, five previews */
  bool differ = false;
  for (size_t i = 0; i < td_mod_log_count(ma); i++) {
    assert_string_equal(td_mod_log_line(ma, i), td_mod_log_line(mb, i));
    differ |= strcmp(td_mod_log_line(ma, i), td_mod_log_line(mc, i)) != 0;
  }
  assert_true(differ);
  assert_int_equal(td_world_checksum(td_game_world(a)), td_world_checksum(td_game_world(b)));
  /* a draw is a change of state: the RNG is in the checksum */
  td_world_random(td_game_world(b));
  assert_int_not_equal(td_world_checksum(td_game_world(a)), td_world_checksum(td_game_world(b)));
  td_game_destroy(a);
  td_game_destroy(b);
  td_game_destroy(c);
}

/* ---- saves --------------------------------------------------------------- */

static void test_save_continues(void **state) {
  (void)state;
  td_game *a = open_game("scripts/base", 3);
  place(a, 0, 13, 0);
  place(a, 500, 15, 1);
  step(a, 700);
  td_err err;
  const char *path = tmp("game.tds");
  assert_int_equal(td_game_save(a, path, &err), 0);
  char map[512], dir[512];
  snprintf(map, sizeof map, "%s", td_test_path("maps/01-crossroads.tmx"));
  snprintf(dir, sizeof dir, "%s", td_test_path("scripts/base"));
  td_game_options o = {.map_path = map, .mod_dir = dir};
  td_game *b = td_game_load(&o, path, &err);
  if (!b) fail_msg("%s", err.msg);
  assert_int_equal(td_game_seed(b), 3);
  size_t na, nb;
  td_game_commands(a, &na);
  td_game_commands(b, &nb);
  assert_int_equal(na, nb);
  place(a, 900, 11, 2);
  place(b, 900, 11, 2);
  for (int i = 0; i < 3000; i++) {
    step(a, 1);
    step(b, 1);
    assert_int_equal(td_world_checksum(td_game_world(a)), td_world_checksum(td_game_world(b)));
  }
  td_game_destroy(b);

  /* cut at any byte: refused, naming the file */
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  static unsigned char buf[1 << 20];
  size_t len = fread(buf, 1, sizeof buf, f);
  fclose(f);
  assert_true(len > 100 && len < sizeof buf);
  const char *cut = tmp("cut.tds");
  for (size_t n = 0; n < len; n += (n < 64 ? 1 : 97)) {
    f = fopen(cut, "wb");
    fwrite(buf, 1, n, f);
    fclose(f);
    assert_null(td_game_load(&o, cut, &err));
    assert_non_null(strstr(err.msg, "cut.tds"));
  }
  /* one flipped bit: refused by the checksum */
  buf[len / 2] ^= 4;
  f = fopen(cut, "wb");
  fwrite(buf, 1, len, f);
  fclose(f);
  assert_null(td_game_load(&o, cut, &err));
  assert_non_null(strstr(err.msg, "corrupt or truncated"));

  /* a save that cannot be written (a disk full after 100 bytes: the file
  ** size limit) leaves the previous one as it was, and no temporary */
  struct stat before, after;
  assert_int_equal(stat(path, &before), 0);
  td_test_disk_full(100);
  int rc = td_game_save(a, path, &err);
  td_test_disk_full(-1);
  assert_int_not_equal(rc, 0);
  if (!strstr(err.msg, "game.tds: write failed: File too large")) fail_msg("%s", err.msg);
  assert_int_equal(stat(path, &after), 0);
  assert_int_equal(before.st_size, after.st_size);
  assert_int_equal(before.st_mtim.tv_nsec, after.st_mtim.tv_nsec);
  assert_int_equal(td_test_tmp_count(".tmp"), 0);
  b = td_game_load(&o, path, &err);
  assert_non_null(b);
  td_game_destroy(b);

  /* another mod than the save's */
  snprintf(dir, sizeof dir, "%s", td_test_path("tests/data/mods/game_api"));
  assert_null(td_game_load(&o, path, &err));
  if (!strstr(err.msg, "made with the mods base, this game has game_api")) fail_msg("%s", err.msg);
  td_game_destroy(a);
}

/* Reads a whole (small) file. */
static size_t read_all(const char *path, unsigned char *buf, size_t cap) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  size_t len = fread(buf, 1, cap, f);
  fclose(f);
  assert_true(len < cap);
  return len;
}

/* A save interrupted at any byte: the new save's bytes so far sit in its
** temporary file (prev.tds.XXXXXX.tmp) while prev.tds keeps the previous
** save, byte for byte and loadable; the cut bytes, loaded as a save, are
** refused with a message naming the file and why; the next save goes
** through (beside the one a killed writer left, which it neither reuses nor
** removes). */
static void test_save_interrupted(void **state) {
  (void)state;
  td_game *a = open_game("scripts/base", 4);
  place(a, 0, 13, 0);
  step(a, 600);
  td_err err;
  const char *path = tmp("prev.tds");
  assert_int_equal(td_game_save(a, path, &err), 0);
  uint64_t prev_sum = td_world_checksum(td_game_world(a));
  static unsigned char prev[1 << 20], next[1 << 20], now[1 << 20];
  size_t prev_len = read_all(path, prev, sizeof prev);

  /* the save that gets interrupted: 400 ticks later */
  step(a, 400);
  const char *next_path = tmp("next.tds");
  assert_int_equal(td_game_save(a, next_path, &err), 0);
  size_t next_len = read_all(next_path, next, sizeof next);
  assert_true(next_len > 100);

  char map[512], dir[512];
  snprintf(map, sizeof map, "%s", td_test_path("maps/01-crossroads.tmx"));
  snprintf(dir, sizeof dir, "%s", td_test_path("scripts/base"));
  td_game_options o = {.map_path = map, .mod_dir = dir};
  char tmp_path[512];
  snprintf(tmp_path, sizeof tmp_path, "%s.k1ll3d.tmp", path);
  for (size_t n = 0; n < next_len; n++) {
    FILE *f = fopen(tmp_path, "wb"); /* what td_game_save had written so far */
    assert_non_null(f);
    assert_int_equal(fwrite(next, 1, n, f), n);
    fclose(f);
    /* the cut bytes are refused, clearly */
    assert_null(td_game_load(&o, tmp_path, &err));
    if (!strstr(err.msg, tmp_path) ||
        !(strstr(err.msg, "truncated") || strstr(err.msg, "not a td save")))
      fail_msg("cut at byte %zu of %zu: \"%s\"", n, next_len, err.msg);
    /* the previous save is untouched */
    assert_int_equal(read_all(path, now, sizeof now), prev_len);
    assert_memory_equal(now, prev, prev_len);
  }
  print_message("a save of %zu bytes cut at each byte: refused; the previous one intact\n",
                next_len);
  td_game *b = td_game_load(&o, path, &err); /* and loads, with its state */
  if (!b) fail_msg("%s", err.msg);
  assert_int_equal(td_world_checksum(td_game_world(b)), prev_sum);
  td_game_destroy(b);

  /* the next save goes through; what the interrupted one left stays */
  assert_int_equal(td_game_save(a, path, &err), 0);
  assert_int_equal(td_test_tmp_count(".tmp"), 1);
  assert_int_equal(read_all(tmp_path, now, sizeof now), next_len - 1);
  assert_int_equal(unlink(tmp_path), 0);
  b = td_game_load(&o, path, &err);
  if (!b) fail_msg("%s", err.msg);
  assert_int_equal(td_world_checksum(td_game_world(b)), td_world_checksum(td_game_world(a)));
  td_game_destroy(b);
  td_game_destroy(a);
}

/* ---- replays ------------------------------------------------------------- */

static void play_auto(td_game *g, td_replay *rec, uint64_t ticks) {
  td_err err;
  td_auto *au = td_auto_create(&err);
  assert_non_null(au);
  td_world *w = td_game_world(g);
  while (td_world_state(w) == TD_GAME_PLAYING && td_world_tick(w) < ticks) {
    assert_int_equal(td_auto_play(au, g, &err), 0);
    step(g, 1);
    if (td_world_tick(w) % rec->every == 0)
      assert_int_equal(td_replay_add_check(rec, td_world_tick(w), td_world_checksum(w), &err), 0);
  }
  int32_t built, upgraded;
  td_auto_counts(au, &built, &upgraded);
  assert_true(built >= 2);
  td_auto_destroy(au);
  size_t n;
  const td_command *c = td_game_commands(g, &n);
  assert_int_equal(n, (size_t)(built + upgraded));
  for (size_t i = 0; i < n; i++) assert_int_equal(td_replay_add_command(rec, g, &c[i], &err), 0);
  td_replay_end(rec, g);
}

static void test_replay_round_trip(void **state) {
  (void)state;
  td_game *g = open_game("scripts/base", 5);
  td_replay rec;
  td_replay_init(&rec, g, 300);
  play_auto(g, &rec, 60 * 120);
  td_err err;
  const char *path = tmp("game.replay");
  assert_int_equal(td_replay_write(&rec, path, &err), 0);
  td_replay rd;
  if (td_replay_read(path, &rd, &err) != 0) fail_msg("%s", err.msg);
  assert_int_equal(rd.ncmd, rec.ncmd);
  assert_int_equal(rd.ncheck, rec.ncheck);
  assert_true(rd.ncheck >= 10);
  assert_int_equal(rd.end_checksum, rec.end_checksum);
  assert_int_equal(rd.seed, 5);

  /* played back: every checksum again */
  td_game *h = open_game("scripts/base", rd.seed);
  assert_int_equal(td_replay_check_game(&rd, h, &err), 0);
  td_world *w = td_game_world(h);
  size_t k = 0, c = 0;
  while (td_world_tick(w) < rd.end_ticks) {
    for (; k < rd.ncmd && rd.cmds[k].tick <= td_world_tick(w); k++) {
      td_command cmd;
      assert_int_equal(td_replay_command(&rd, k, h, &cmd, &err), 0);
      assert_int_equal(td_game_command(h, &cmd, &err), 0);
    }
    step(h, 1);
    if (c < rd.ncheck && rd.checks[c].tick == td_world_tick(w))
      assert_int_equal(td_world_checksum(w), rd.checks[c++].checksum);
  }
  assert_int_equal(c, rd.ncheck);
  assert_int_equal(td_world_checksum(w), rd.end_checksum);
  td_game_destroy(h);
  td_replay_free(&rd);
  td_replay_free(&rec);
  td_game_destroy(g);
}

/* A replay header for the refusal cases: map and mod with 16-digit hashes. */
#define HDR "td-replay 2\nmap m.lua 0000000000000012\nmod d 0000000000000012\n"
#define H16 "00000000000000ff"

static void test_replay_refused(void **state) {
  (void)state;
  static const struct {
    const char *text, *msg;
  } cases[] = {
      {"", "empty, not a td replay"},
      {"hello\n", ":1: not a td replay"},
      {"hello", ":1: not a td replay"},
      {"td-rep", ":1: cut short: the file ends inside line 1"},
      {"td-replay 9\n", ":1: replay version 9, this td reads versions 2 to 4"},
      {"td-replay 1\nmap m.lua 12\nmod d 12\nend 10 won 3 ff\n", ":1: a version 1 replay: this td reads version 4, which proves the end and the commands; re-record it"},
      {HDR "cmd 5 plant 9 arrow\n", ":4: unknown command 'plant'"},
      {HDR "cmd 5 place 9\n", ":4: expected 'cmd TICK place BASE TOWER'"},
      {HDR "cmd x place 9 a\n", ":4: tick: expected a number, got 'x'"},
      {HDR "cmd 9 sell 1\ncmd 5 sell 1\n", ":5: tick 5 is before"},
      {HDR "cmd 9 upgrade 1 7\n", ":4: upgrade: expected an integer in 1 .. 4"},
      {HDR "cmd 9 target 1 weakest\n", ":4: unknown targeting mode 'weakest'"},
      {"td-replay 2\ncmd 9 sell 1\n", ":2: 'cmd' before the map and mod lines"},
      {"td-replay 2\nmap m.lua " H16 "\nmap m.lua " H16 "\n", ":3: 'map' given twice"},
      {"td-replay 2\nmod a " H16 "\nmod b " H16 "\n", ":3: 'mod' given twice"}, /* v3: a list */
      {"td-replay 3\nmod a " H16 "\nmod b " H16 "\nmod c " H16 "\nmod d " H16 "\nmod e " H16
       "\nmod f " H16 "\nmod g " H16 "\nmod h " H16 "\nmod i " H16 "\nmod j " H16 "\nmod k " H16
       "\nmod l " H16 "\nmod m " H16 "\nmod n " H16 "\nmod o " H16 "\nmod p " H16 "\nmod q " H16
       "\n", ":18: more than 16 mods"},
      {"td-replay 2\nmap m.lua zz\n", ":2: hash: expected 16 hex digits, got 'zz'"},
      {"td-replay 2\nmap m.lua 12\n", ":2: hash: expected 16 hex digits, got '12'"},
      {"td-replay 2\nmap \"\" " H16 "\n", ":2: an empty path"},
      {HDR "end 10 drawn 3 0 " H16 " " H16 "\n", ":4: result must be won, lost or playing"},
      {HDR "end 10 won 3 " H16 "\n", ":4: expected 'end TICKS won|lost|playing LIVES GOLD CHECKSUM RECORDS'"},
      {HDR "end 10 won 3 0 ff " H16 "\n", ":4: checksum: expected 16 hex digits, got 'ff'"},
      {HDR "end 10 won 3 0 " H16 " 00ff\n", ":4: records hash: expected 16 hex digits, got '00ff'"},
      {HDR "end 10 won 3 x " H16 " " H16 "\n", ":4: gold: expected an integer"},
      {HDR "end 10 won 3 0 " H16 " " H16 "\ncmd 11 sell 1\n", ":5: 'cmd' after 'end'"},
      {HDR "cmd 11 sell 1\nend 10 won 3 0 " H16 " " H16 "\n", ":5: the cmd of line 4 (tick 11) is after the end (tick 10)"},
      {HDR "check 600 " H16 "\nend 10 won 3 0 " H16 " " H16 "\n", ":5: the check of line 4 (tick 600) is after the end (tick 10)"},
      {HDR "check 10 " H16 "\ncheck 10 " H16 "\n", ":5: check at tick 10 is not after"},
      {HDR "check 0 " H16 "\n", ":4: check at tick 0"},
      {HDR "check 600 4b5e\n", ":4: checksum: expected 16 hex digits, got '4b5e'"},
      {"td-replay 2\nmap m.lua " H16 "\n", ":2: no 'end' record: the replay stops after line 2"},
      {HDR "end 10 won 3 0 " H16 " " H16, ":4: cut short: the file ends inside line 4, without a newline"},
      {HDR "cmd 5 sell 1\n", ":4: no 'end' record: the replay stops after line 4 (cut short"},
      {"td-replay 2\nmap m.lua " H16 "\nend 10 won 3 0 " H16 " " H16 "\n", ":3: 'end' before the map and mod lines"},
      {HDR "wave 3\n", ":4: unknown record 'wave'"},
      {"td-replay 2\nmap m.lua " H16 "\ndifficulty brutal\n", ":3: difficulty must be normal, easy or hard, got 'brutal'"},
      {"td-replay 2\ndifficulty\n", ":2: expected 'difficulty normal|easy|hard'"},
      {"td-replay 2\nmap \"m.lua " H16 "\n", ":2: a quoted word without its closing '\"'"},
      {"td-replay 2\nmap \"m\\.lua\" " H16 "\n", ":2: a quoted word holds '\\' before '.'"},
      {"td-replay 2\nmap \"m.lua\"x " H16 "\n", ":2: a quoted word runs into 'x'"},
      {"td-replay 2\nmap m\"a\".lua " H16 "\n", ":2: a '\"' inside a word"},
      {"td-replay 2\nmap m\x01.lua " H16 "\n", ":2: a control character (byte 0x01)"},
      {"td-replay 2\nmap \"m\t.lua\" " H16 "\n", ":2: a tab or CR inside a quoted word"},
  };
  const char *path = tmp("bad.replay");
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    write_file(path, cases[i].text);
    td_replay r;
    td_err err;
    assert_int_equal(td_replay_read(path, &r, &err), -1);
    if (!strstr(err.msg, cases[i].msg)) fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, cases[i].msg);
    assert_non_null(strstr(err.msg, "bad.replay"));
    assert_null(r.cmds);
  }
  /* names resolved against the game, with the line; a quoted word read back */
  write_file(path, HDR "\n# a comment\ncmd 1 place 99 arrow\ncmd 2 place 9 \"ballista\" # x\n"
                   "end 10 won 3 0 " H16 " " H16 "\n");
  td_replay r;
  td_err err;
  if (td_replay_read(path, &r, &err) != 0) fail_msg("%s", err.msg);
  assert_string_equal(r.cmds[1].name, "ballista");
  assert_int_equal(r.end_line, 8);
  td_game *g = open_game("scripts/base", 1);
  td_command c;
  assert_int_equal(td_replay_command(&r, 0, g, &c, &err), -1);
  assert_non_null(strstr(err.msg, "bad.replay:6: m.lua has no tower base with object id 99"));
  assert_int_equal(td_replay_command(&r, 1, g, &c, &err), -1);
  assert_non_null(strstr(err.msg, "bad.replay:7: no tower type 'ballista' in d"));
  /* the end's records hash is not that of its lines */
  assert_int_equal(td_replay_check_game(&r, g, &err), -1);
  if (!strstr(err.msg, "bad.replay:8: the end's records hash 00000000000000ff is not that of the "
                       "cmd and check lines"))
    fail_msg("%s", err.msg);
  r.end_records = td_replay_records_hash(&r);
  assert_int_equal(td_replay_check_game(&r, g, &err), -1);
  if (!strstr(err.msg, "made with a map named 'm', not '01-crossroads'")) fail_msg("%s", err.msg);
  td_replay_free(&r);
  td_game_destroy(g);
}

/* Every cut of a recorded replay, at a line or at a byte, is refused as a
** cut (naming the file and the last line), or is the whole file. */
static void test_replay_cut(void **state) {
  (void)state;
  td_game *g = open_game("scripts/base", 3);
  td_replay rec;
  td_replay_init(&rec, g, 300);
  play_auto(g, &rec, 60 * 60);
  td_err err;
  const char *path = tmp("whole.replay"), *cut = tmp("cut.replay");
  assert_int_equal(td_replay_write(&rec, path, &err), 0);
  static unsigned char text[1 << 16];
  size_t len = read_all(path, text, sizeof text);
  assert_true(len > 300 && len < sizeof text);
  int lines = 0, refused = 0;
  for (size_t n = 0; n <= len; n++) {
    FILE *f = fopen(cut, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, n, f), n);
    fclose(f);
    td_replay r;
    int rc = td_replay_read(cut, &r, &err);
    if (n == len) {
      if (rc != 0) fail_msg("the whole file: %s", err.msg);
      assert_int_equal(r.ncmd, rec.ncmd);
      assert_int_equal(r.end_records, td_replay_records_hash(&rec));
      td_replay_free(&r);
      break;
    }
    if (rc == 0) fail_msg("cut at byte %zu of %zu: read as a replay", n, len);
    refused++;
    char want[64];
    if (n == 0) snprintf(want, sizeof want, "empty");
    else if (text[n - 1] == '\n') snprintf(want, sizeof want, ":%d: no 'end' record", lines);
    else snprintf(want, sizeof want, ":%d: cut short: the file ends inside line %d", lines + 1,
                  lines + 1);
    if (!strstr(err.msg, cut) || !strstr(err.msg, want))
      fail_msg("cut at byte %zu of %zu: \"%s\" lacks \"%s\"", n, len, err.msg, want);
    if (n < len && text[n] == '\n') lines++;
  }
  print_message("a replay of %zu bytes, %d lines: %d cuts refused as cuts\n", len, lines + 1,
                refused);
  td_replay_free(&rec);
  td_game_destroy(g);
}

/* Paths with blanks, '#', '"' and '\' are written quoted and read back
** exactly; a control character is refused before anything is written. */
static void test_replay_quoted_paths(void **state) {
  (void)state;
  td_game *g = open_game("scripts/base", 1);
  td_replay rec;
  td_replay_init(&rec, g, 0);
  td_replay_end(&rec, g);
  static const char *const paths[] = {"maps/my map.lua", "a#b.lua", "say \"hi\".lua",
                                      "back\\slash.lua", "caf\xc3\xa9.lua",
                                      "\"", "#"};
  const char *path = tmp("quoted.replay");
  td_err err;
  for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
    snprintf(rec.map_path, sizeof rec.map_path, "%s", paths[i]);
    snprintf(rec.mod_dirs[0], sizeof rec.mod_dirs[0], "mods/%s", paths[i]);
    if (td_replay_write(&rec, path, &err) != 0) fail_msg("%s: %s", paths[i], err.msg);
    td_replay r;
    if (td_replay_read(path, &r, &err) != 0) fail_msg("%s: %s", paths[i], err.msg);
    assert_string_equal(r.map_path, paths[i]);
    assert_string_equal(r.mod_dir, rec.mod_dirs[0]);
    assert_string_equal(r.mod_dirs[0], rec.mod_dirs[0]);
    assert_int_equal(r.nmods, 1);
    td_replay_free(&r);
  }
  snprintf(rec.map_path, sizeof rec.map_path, "new\nline.lua");
  assert_int_equal(td_replay_check_writable(&rec, path, &err), -1);
  assert_int_equal(td_replay_write(&rec, path, &err), -1);
  if (!strstr(err.msg, "cannot write 'new\\x0aline.lua' in a replay")) fail_msg("%s", err.msg);
  td_replay_free(&rec);
  td_game_destroy(g);
}

/* A mod may read the map's name (td.map_name): a copy of a map under
** another name is another map to a replay and a save. */
static void test_map_name_is_identity(void **state) {
  (void)state;
  char copy[512];
  snprintf(copy, sizeof copy, "%s", tmp("copy.tmx"));
  static unsigned char text[1 << 20];
  size_t len = read_all(td_test_path("maps/01-crossroads.tmx"), text, sizeof text);
  FILE *f = fopen(copy, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(text, 1, len, f), len);
  fclose(f);
  td_game *g = open_game("scripts/base", 1);
  char dir[512];
  snprintf(dir, sizeof dir, "%s", td_test_path("scripts/base"));
  td_game_options o = {.map_path = copy, .mod_dir = dir, .seed = 1};
  td_err err;
  td_game *h = td_game_create(&o, &err);
  if (!h) fail_msg("%s", err.msg);
  assert_string_equal(td_game_map_name(g), "01-crossroads");
  assert_string_equal(td_game_map_name(h), "copy");
  assert_true(td_game_map_hash(g) != td_game_map_hash(h));
  td_replay rec;
  td_replay_init(&rec, g, 0);
  td_replay_end(&rec, g);
  assert_int_equal(td_replay_check_game(&rec, g, &err), 0);
  assert_int_equal(td_replay_check_game(&rec, h, &err), -1);
  if (!strstr(err.msg, "made with a map named '01-crossroads', not 'copy'")) fail_msg("%s", err.msg);
  /* a save too */
  const char *save = tmp("named.tds");
  assert_int_equal(td_game_save(g, save, &err), 0);
  td_game *l = td_game_load(&o, save, &err);
  assert_null(l);
  if (!strstr(err.msg, "made with another map than") || !strstr(err.msg, "its name 'copy'"))
    fail_msg("%s", err.msg);
  char name[8];
  td_game_map_name_of("a/b.c/d.e.lua", name, sizeof name);
  assert_string_equal(name, "d");
  td_game_map_name_of("/x/verylongname.lua", name, sizeof name);
  assert_string_equal(name, "verylon");
  td_replay_free(&rec);
  td_game_destroy(h);
  td_game_destroy(g);
}

/* ---- hot reload ---------------------------------------------------------- */

static const char reload_v1[] =
    "api_version = 1\n"
    "td.damage_type 'physical'\n"
    "td.enemy { name = 'runner', health = 40, speed = 2 }\n"
    "td.tower { name = 'arrow', levels = { { name = 'arrow', cost = 50, range = 4, damage = 10 } } }\n"
    "td.wave { { enemy = 'runner', count = 3 } }\n"
    "td.rules { start_gold = 500 }\n"
    "td.every(60, function(t) print('v1 ' .. t) end)\n";

static void test_hot_reload(void **state) {
  (void)state;
  char dir[400];
  snprintf(dir, sizeof dir, "%s", tmp("reload"));
  assert_int_equal(mkdir(dir, 0700), 0);
  char file[450];
  snprintf(file, sizeof file, "%s/mod.lua", dir);
  write_file(file, reload_v1);
  td_game *g = open_game(dir, 1);
  td_world *w = td_game_world(g);
  place(g, 0, 9, 0);
  step(g, 120);
  assert_true(log_has(g, "v1 60"));
  td_err err;

  /* a broken file: refused, the old version runs on */
  write_file(file, "api_version = 1\ntd.enemy { name = 'runner', speed = -1 }\n");
  assert_int_equal(td_game_reload(g, &err), -1);
  assert_non_null(strstr(err.msg, "mod.lua:2"));
  step(g, 60);
  assert_true(log_has(g, "v1 120"));
  assert_false(log_has(g, "v1 180"));
  assert_int_equal(td_game_reloads(g), 0);

  /* a version without the tower that stands: does not fit */
  write_file(file, "api_version = 1\ntd.damage_type 'physical'\n"
                   "td.enemy { name = 'runner', health = 40, speed = 2 }\n"
                   "td.tower { name = 'cannon', levels = { { name = 'cannon', cost = 5, range = 2 } } }\n"
                   "td.wave { { enemy = 'runner', count = 3 } }\n");
  assert_int_equal(td_game_reload(g, &err), -1);
  assert_non_null(strstr(err.msg, "does not fit the game in progress"));
  assert_non_null(strstr(err.msg, "'arrow'"));

  /* a good one: swapped in at the next step, at a tick boundary */
  char v2[sizeof reload_v1 + 64];
  snprintf(v2, sizeof v2, "%s", reload_v1);
  char *p = strstr(v2, "damage = 10");
  memcpy(p, "damage = 25", 11);
  p = strstr(v2, "'v1 '");
  p[2] = '2';
  write_file(file, v2);
  assert_int_equal(td_game_reload(g, &err), 0);
  assert_float_equal(td_world_rules(w)->levels[0].damage, 10, 0);
  step(g, 1);
  assert_int_equal(td_game_reloads(g), 1);
  assert_float_equal(td_world_rules(w)->levels[0].damage, 25, 0);
  step(g, 60);
  assert_true(log_has(g, "v2 180"));
  assert_true(log_has(g, "v2 240"));
  assert_false(log_has(g, "v1 180"));
  /* the errors are on record for the game's overlay */
  assert_int_equal(td_mod_error_count(td_game_mod(g)), 2);
  assert_string_equal(td_mod_error_at(td_game_mod(g), 0)->handler, "reload");
  td_game_destroy(g);
}


/* ---- the mod's budgets ------------------------------------------------------ */

/* load_instructions reaches the mod's data stage, for the first load and for
** reloads: a loop the default budget allows is refused under a smaller one,
** and one that never ends is refused at its line instead of running 50M
** instructions. */
static void test_load_instructions(void **state) {
  (void)state;
  char dir[400], file[450], map[512], want[600];
  snprintf(dir, sizeof dir, "%s", tmp("budget"));
  assert_int_equal(mkdir(dir, 0700), 0);
  snprintf(file, sizeof file, "%s/mod.lua", dir);
  snprintf(map, sizeof map, "%s", td_test_path("maps/01-crossroads.tmx"));
  char src[sizeof reload_v1 + 200];
  snprintf(src, sizeof src, "%slocal n = 0 for i = 1, 100000 do n = n + i end\n", reload_v1);
  write_file(file, src);
  td_err err;
  td_game_options o = {.map_path = map, .mod_dir = dir, .load_instructions = 20000};
  assert_null(td_game_create(&o, &err));
  snprintf(want, sizeof want, "%s/mod.lua:8: instruction limit exceeded", dir);
  assert_string_equal(err.msg, want);
  o.load_instructions = 0; /* the default */
  td_game *g = td_game_create(&o, &err);
  if (!g) fail_msg("%s", err.msg);
  td_game_destroy(g);
  /* a data stage that runs away */
  snprintf(src, sizeof src, "%swhile true do end\n", reload_v1);
  write_file(file, src);
  o.load_instructions = 20000;
  assert_null(td_game_create(&o, &err));
  assert_string_equal(err.msg, want);
  /* a reload runs under the same budget */
  snprintf(src, sizeof src, "%slocal n = 0 for i = 1, 1000 do n = n + i end\n", reload_v1);
  write_file(file, src);
  g = td_game_create(&o, &err);
  if (!g) fail_msg("%s", err.msg);
  step(g, 1);
  snprintf(src, sizeof src, "%slocal n = 0 for i = 1, 100000 do n = n + i end\n", reload_v1);
  write_file(file, src);
  assert_int_equal(td_game_reload(g, &err), -1);
  assert_string_equal(err.msg, want);
  step(g, 1);
  assert_int_equal(td_game_reloads(g), 0);
  td_game_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_world_functions),
      cmocka_unit_test(test_hit_source),
      cmocka_unit_test(test_api_limits),
      cmocka_unit_test(test_spawn_options),
      cmocka_unit_test(test_costs),
      cmocka_unit_test(test_unit_api),
      cmocka_unit_test(test_random_is_the_worlds),
      cmocka_unit_test(test_save_continues),
      cmocka_unit_test(test_save_interrupted),
      cmocka_unit_test(test_replay_round_trip),
      cmocka_unit_test(test_replay_refused),
      cmocka_unit_test(test_replay_cut),
      cmocka_unit_test(test_replay_quoted_paths),
      cmocka_unit_test(test_map_name_is_identity),
      cmocka_unit_test(test_hot_reload),
      cmocka_unit_test(test_load_instructions),
  };
  return cmocka_run_group_tests(tests, td_test_dir_setup, td_test_dir_teardown);
}
