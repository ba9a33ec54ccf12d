/*
** bind.c: the td.* functions a mod's handlers call to read and change the
** world (game.h). One registration table: the bindings, their signatures
** and their docs, so docs/lua-api.md and the stubs cannot drift.
**
** Conventions. Enemies, towers and soldiers are named by their handles (integers, as
** in event tables; a dead handle reads as nil or false, never an error).
** Types, levels and damage types are names. Positions and distances are map
** units, like the x and y of events (td.tile() units make a tile). Every
** function raises "td.name: ..." for a bad argument, and outside a game
** (from the data stage, or a mod loaded for its rules only) for a world it
** does not have.
*/
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "game/game_int.h"
#include "script/lsandbox.h"

static td_world *world_of(lua_State *L, const char *fn) {
  td_game *g = td_mod_host(L);
  if (!g || !g->world) {
    luaL_error(L, "td.%s: no game is running", fn);
    abort(); /* not reached: luaL_error raises */
  }
  return g->world;
}

/* Counts a call against one of game.h's per-step limits; past it, stops
** the handler (td_lsandbox_raise_limit). */
static void count_call(lua_State *L, uint32_t *count, uint32_t limit, const char *fn,
                       const char *what) {
  if (++*count <= limit) return;
  char msg[160];
  snprintf(msg, sizeof msg, "td.%s: more than %u %s in one step", fn, (unsigned)limit, what);
  td_lsandbox_raise_limit(L, msg);
}

/* Argument i, what of td.fn, as a handle (a number or a numeric string
** with an integer value; one out of range is dead: 0), or raises naming
** the function and the argument (Lua's "bad argument #1 to '?'" cannot
** name a function called through the sandbox's host call). */
static uint32_t check_handle(lua_State *L, int i, const char *fn, const char *what) {
  int ok = 0;
  lua_Integer h = lua_tointegerx(L, i, &ok);
  if (!ok)
    luaL_error(L, "td.%s: %s must be a handle (an integer), got %s", fn, what,
               lua_isnumber(L, i) ? "a number with a fraction" : luaL_typename(L, i));
  return h > 0 && h <= (lua_Integer)UINT32_MAX ? (uint32_t)h : 0;
}

/* Argument i, what of td.fn, as a number, or raises as check_handle. */
static double check_number(lua_State *L, int i, const char *fn, const char *what) {
  int ok = 0;
  double v = (double)lua_tonumberx(L, i, &ok);
  if (!ok) luaL_error(L, "td.%s: %s must be a number, got %s", fn, what, luaL_typename(L, i));
  return v;
}

static int find_name(const char *name, const void *base, size_t count, size_t stride) {
  for (size_t i = 0; i < count; i++)
    if (strcmp((const char *)base + i * stride, name) == 0) return (int)i;
  return -1;
}

static int32_t check_damage_type(lua_State *L, int i, const td_rules *r, const char *fn) {
  if (lua_isnoneornil(L, i)) return 0;
  const char *name = luaL_checkstring(L, i);
  for (int32_t k = 0; k < r->damage_type_count; k++)
    if (strcmp(r->damage_types[k], name) == 0) return k;
  return luaL_error(L, "td.%s: no damage type '%s'", fn, name);
}

static void set_num(lua_State *L, const char *k, double v) {
  lua_pushnumber(L, v);
  lua_setfield(L, -2, k);
}
static void set_int(lua_State *L, const char *k, lua_Integer v) {
  lua_pushinteger(L, v);
  lua_setfield(L, -2, k);
}
static void set_bool(lua_State *L, const char *k, bool v) {
  lua_pushboolean(L, v);
  lua_setfield(L, -2, k);
}
static void set_str(lua_State *L, const char *k, const char *v) {
  lua_pushstring(L, v);
  lua_setfield(L, -2, k);
}

/* ---- reading ------------------------------------------------------------- */

static int l_tick(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)td_world_tick(world_of(L, "tick")));
  return 1;
}
static int l_gold(lua_State *L) {
  lua_pushinteger(L, td_world_gold(world_of(L, "gold")));
  return 1;
}
static int l_lives(lua_State *L) {
  lua_pushinteger(L, td_world_lives(world_of(L, "lives")));
  return 1;
}
static int l_wave(lua_State *L) {
  lua_pushinteger(L, td_world_wave(world_of(L, "current_wave")));
  return 1;
}
static int l_tile(lua_State *L) {
  td_game *g = td_mod_host(L);
  if (!g || !g->map_loaded) return luaL_error(L, "td.tile: no map is loaded");
  lua_pushnumber(L, g->map.tile_w);
  return 1;
}

static int l_map_name(lua_State *L) {
  td_game *g = td_mod_host(L);
  if (!g) return luaL_error(L, "td.map_name: no map is loaded");
  lua_pushstring(L, g->map_name);
  return 1;
}

static int l_difficulty(lua_State *L) {
  td_game *g = td_mod_host(L);
  if (!g) return luaL_error(L, "td.difficulty: no game");
  lua_pushstring(L, td_difficulty_name(g->difficulty));
  return 1;
}

static int l_wave_preview(lua_State *L) {
  td_world *w = world_of(L, "wave_preview");
  lua_Integer n = luaL_optinteger(L, 1, (lua_Integer)td_world_wave(w) + 1);
  if (n < 1 || n > INT32_MAX) return luaL_error(L, "td.wave_preview: wave %d is not >= 1", (int)n);
  td_wave_entry e[64];
  size_t k = td_world_preview(w, (int32_t)n, e, sizeof e / sizeof e[0]);
  if (k > sizeof e / sizeof e[0]) k = sizeof e / sizeof e[0];
  const td_rules *r = td_world_rules(w);
  lua_createtable(L, (int)k, 0);
  for (size_t i = 0; i < k; i++) {
    lua_createtable(L, 0, 5);
    set_str(L, "enemy", r->enemies[e[i].enemy].name);
    set_int(L, "count", (lua_Integer)e[i].count * e[i].spawns);
    set_int(L, "spawns", e[i].spawns);
    set_num(L, "health", e[i].health);
    set_num(L, "delay", e[i].delay);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

/* An enemy on the map and alive: walking, stunned, held by a soldier or
** fighting (unit.h); not dying, leaked or waiting at its gate. */
static bool on_map(const td_enemy_view *v) {
  return !v->waiting && (v->state == TD_ENEMY_WALK || v->state == TD_ENEMY_STUNNED ||
                         v->state == TD_ENEMY_BLOCKED || v->state == TD_ENEMY_ATTACK);
}

static int l_enemies(lua_State *L) {
  td_world *w = world_of(L, "enemies");
  bool near = !lua_isnoneornil(L, 1);
  double x = 0, y = 0, r = 0;
  if (near) {
    x = luaL_checknumber(L, 1);
    y = luaL_checknumber(L, 2);
    r = luaL_checknumber(L, 3);
  }
  lua_newtable(L);
  lua_Integer n = 0;
  size_t cap = td_world_enemy_capacity(w);
  for (size_t s = 0; s < cap; s++) {
    td_enemy_view v;
    if (!td_world_enemy(w, s, &v) || !on_map(&v)) continue;
    if (near) {
      double dx = (double)v.x - x, dy = (double)v.y - y;
      if (dx * dx + dy * dy > r * r) continue;
    }
    lua_pushinteger(L, v.handle);
    lua_rawseti(L, -2, ++n);
  }
  return 1;
}

static int l_enemy(lua_State *L) {
  td_world *w = world_of(L, "enemy_info");
  td_enemy_view v;
  if (!td_world_enemy_get(w, check_handle(L, 1, "enemy_info", "h"), &v) ||
      (v.state != TD_ENEMY_WALK && v.state != TD_ENEMY_STUNNED &&
       v.state != TD_ENEMY_BLOCKED && v.state != TD_ENEMY_ATTACK)) {
    lua_pushnil(L);
    return 1;
  }
  const td_rules *r = td_world_rules(w);
  lua_createtable(L, 0, 17);
  set_int(L, "handle", v.handle);
  set_str(L, "type", r->enemies[v.type].name);
  set_num(L, "x", v.x);
  set_num(L, "y", v.y);
  set_num(L, "radius", v.radius);
  set_num(L, "facing", v.facing);
  set_num(L, "health", v.health);
  set_num(L, "max_health", v.max_health);
  set_int(L, "wave", v.wave);
  set_num(L, "slow", v.slow_time > 0 ? (double)v.slow : 0);
  set_num(L, "stun", v.stun_time);
  set_num(L, "route_left", v.route_left);
  set_bool(L, "flying", v.flying);
  set_bool(L, "boss", v.boss);
  set_str(L, "state", td_unit_state_name(TD_UNIT_ENEMY, (int)v.state));
  set_int(L, "holder", v.holder);
  td_tower_view t;
  bool sieging = v.siege >= 0 && td_world_tower(w, (size_t)v.siege, &t);
  set_int(L, "siege", sieging ? (lua_Integer)t.handle : 0);
  return 1;
}

static const char *const mode_names[] = {"first", "last", "strongest", "closest", "script"};
static const char *const tower_states[] = {"idle", "aiming", "firing", "cooldown"};

static int l_towers(lua_State *L) {
  td_world *w = world_of(L, "towers");
  lua_newtable(L);
  lua_Integer n = 0;
  size_t bases = td_world_map(w)->base_count;
  for (size_t b = 0; b < bases; b++) {
    td_tower_view v;
    if (!td_world_tower(w, b, &v)) continue;
    lua_pushinteger(L, v.handle);
    lua_rawseti(L, -2, ++n);
  }
  return 1;
}

static int l_tower(lua_State *L) {
  td_world *w = world_of(L, "tower_info");
  td_tower_view v;
  if (!td_world_tower_get(w, check_handle(L, 1, "tower_info", "h"), &v)) {
    lua_pushnil(L);
    return 1;
  }
  const td_rules *r = td_world_rules(w);
  lua_createtable(L, 0, 12);
  set_int(L, "handle", v.handle);
  set_int(L, "base", (lua_Integer)v.base + 1);
  set_str(L, "type", r->towers[v.type].name);
  set_str(L, "level", r->levels[v.level].name);
  set_num(L, "x", v.x);
  set_num(L, "y", v.y);
  set_num(L, "range", r->levels[v.level].range * (float)td_world_map(w)->tile_w);
  set_str(L, "mode", mode_names[v.mode]);
  set_str(L, "state", tower_states[v.state]);
  set_int(L, "target", v.target);
  set_int(L, "spent", v.spent);
  set_num(L, "health", v.health);
  set_num(L, "max_health", v.max_health);
  int32_t repair = td_world_repair_cost(w, v.base);
  if (repair >= 0) set_int(L, "repair_cost", repair);
  set_int(L, "soldiers", v.soldiers);
  set_num(L, "rally_x", v.rally_x);
  set_num(L, "rally_y", v.rally_y);
  return 1;
}

/* ---- soldiers ------------------------------------------------------------ */

static void push_soldier(lua_State *L, const td_rules *r, const td_soldier_view *v) {
  lua_createtable(L, 0, 12);
  set_int(L, "handle", v->handle);
  set_str(L, "type", r->soldier_types[v->type].name);
  set_str(L, "state", td_unit_state_name(TD_UNIT_SOLDIER, (int)v->state));
  set_int(L, "tower", v->tower);
  set_int(L, "base", (lua_Integer)v->base + 1);
  set_int(L, "enemy", v->enemy);
  set_num(L, "x", v->x);
  set_num(L, "y", v->y);
  set_num(L, "health", v->health);
  set_num(L, "max_health", v->max_health);
  set_num(L, "post_x", v->post_x);
  set_num(L, "post_y", v->post_y);
}

static int l_soldiers(lua_State *L) {
  td_world *w = world_of(L, "soldiers");
  bool one = !lua_isnoneornil(L, 1);
  uint32_t tower = one ? check_handle(L, 1, "soldiers", "tower") : 0;
  const td_rules *r = td_world_rules(w);
  lua_newtable(L);
  lua_Integer n = 0;
  size_t cap = td_world_soldier_capacity(w);
  for (size_t s = 0; s < cap; s++) {
    td_soldier_view v;
    if (!td_world_soldier(w, s, &v) || (one && v.tower != tower)) continue;
    push_soldier(L, r, &v);
    lua_rawseti(L, -2, ++n);
  }
  return 1;
}

static int l_soldier(lua_State *L) {
  td_world *w = world_of(L, "soldier_info");
  td_soldier_view v;
  if (!td_world_soldier_get(w, check_handle(L, 1, "soldier_info", "h"), &v)) {
    lua_pushnil(L);
    return 1;
  }
  push_soldier(L, td_world_rules(w), &v);
  return 1;
}

/* ---- changing ------------------------------------------------------------ */

static int l_give_gold(lua_State *L) {
  td_world *w = world_of(L, "give_gold");
  lua_Integer a = luaL_checkinteger(L, 1);
  if (a > INT32_MAX || a < -INT32_MAX) return luaL_error(L, "td.give_gold: %I is too large", a);
  td_world_give_gold(w, (int32_t)a);
  lua_pushinteger(L, td_world_gold(w));
  return 1;
}

static int l_damage(lua_State *L) {
  td_world *w = world_of(L, "damage");
  count_call(L, &((td_game *)td_mod_host(L))->step_hits, TD_GAME_STEP_HITS, "damage",
             "calls that hit enemies");
  uint32_t h = check_handle(L, 1, "damage", "h");
  double amount = check_number(L, 2, "damage", "amount");
  if (!(amount >= 0) || amount > 1e9) return luaL_error(L, "td.damage: amount must be 0 .. 1e9");
  int32_t t = check_damage_type(L, 3, td_world_rules(w), "damage");
  uint32_t tower = lua_isnoneornil(L, 4) ? 0 : check_handle(L, 4, "damage", "tower");
  lua_pushnumber(L, td_world_damage(w, h, (float)amount, t, tower));
  return 1;
}

static int l_damage_tower(lua_State *L) {
  td_world *w = world_of(L, "damage_tower");
  count_call(L, &((td_game *)td_mod_host(L))->step_tower_hits, TD_GAME_STEP_TOWER_HITS,
             "damage_tower", "calls that hit towers");
  uint32_t h = check_handle(L, 1, "damage_tower", "tower");
  double amount = check_number(L, 2, "damage_tower", "amount");
  if (!(amount >= 0) || amount > 1e9)
    return luaL_error(L, "td.damage_tower: amount must be 0 .. 1e9");
  lua_pushnumber(L, td_world_damage_tower(w, h, (float)amount, 0));
  return 1;
}

static int effect(lua_State *L, const char *fn, td_effect_kind kind, double mag, double secs,
                  int32_t dtype) {
  td_world *w = world_of(L, fn);
  count_call(L, &((td_game *)td_mod_host(L))->step_hits, TD_GAME_STEP_HITS, fn,
             "calls that hit enemies");
  uint32_t h = check_handle(L, 1, fn, "h");
  if (!(secs > 0) || secs > 3600) return luaL_error(L, "td.%s: seconds must be > 0 and <= 3600", fn);
  td_effect e = {.kind = kind, .magnitude = (float)mag, .duration = (float)secs};
  lua_pushboolean(L, td_world_apply_effect(w, h, &e, dtype, 0) == 0);
  return 1;
}

static int l_slow(lua_State *L) {
  double share = luaL_checknumber(L, 2);
  if (!(share > 0) || share > 0.9) return luaL_error(L, "td.slow: share must be > 0 and <= 0.9");
  return effect(L, "slow", TD_EFFECT_SLOW, share, luaL_checknumber(L, 3), 0);
}

static int l_stun(lua_State *L) {
  return effect(L, "stun", TD_EFFECT_STUN, 0, luaL_checknumber(L, 2), 0);
}

static int l_burn(lua_State *L) {
  double dps = luaL_checknumber(L, 2);
  if (!(dps > 0) || dps > 1e6) return luaL_error(L, "td.burn: dps must be > 0 and <= 1e6");
  double secs = luaL_checknumber(L, 3);
  int32_t t = check_damage_type(L, 4, td_world_rules(world_of(L, "burn")), "burn");
  return effect(L, "burn", TD_EFFECT_DOT, dps, secs, t);
}

/* The field on top of the stack of td.spawn's `at` table, as a number (an
** integer with integer): a bad one raises naming the field. */
static double at_number(lua_State *L, const char *field, bool integer) {
  int ok = 0;
  double v = integer ? (double)lua_tointegerx(L, -1, &ok) : (double)lua_tonumberx(L, -1, &ok);
  if (!ok)
    luaL_error(L, "td.spawn: at.%s must be %s, got %s", field, integer ? "an integer" : "a number",
               lua_isnumber(L, -1) ? "a number with a fraction" : luaL_typename(L, -1));
  return v;
}

static int l_spawn(lua_State *L) {
  td_world *w = world_of(L, "spawn");
  count_call(L, &((td_game *)td_mod_host(L))->step_spawns, TD_GAME_STEP_SPAWNS, "spawn",
             "spawns");
  if (td_world_enemy_count(w) >= TD_GAME_LIVE_ENEMIES) {
    char msg[160];
    snprintf(msg, sizeof msg, "td.spawn: %u enemies are alive, the most a script may spawn to",
             (unsigned)TD_GAME_LIVE_ENEMIES);
    td_lsandbox_raise_limit(L, msg);
  }
  const td_rules *r = td_world_rules(w);
  const char *name = luaL_checkstring(L, 1);
  int type = find_name(name, r->enemies, r->enemy_count, sizeof r->enemies[0]);
  if (type < 0) return luaL_error(L, "td.spawn: no enemy type '%s'", name);
  td_spawn_desc d = {.type = type, .spawn = 0, .node = -1,
                     .wave = td_mod_script_wave(((td_game *)td_mod_host(L))->mod)};
  if (!lua_isnoneornil(L, 2)) {
    luaL_checktype(L, 2, LUA_TTABLE);
    if (lua_getfield(L, 2, "spawn") != LUA_TNIL) {
      lua_Integer s = (lua_Integer)at_number(L, "spawn", true);
      if (s < 1 || (size_t)s > td_world_map(w)->spawn_count)
        return luaL_error(L, "td.spawn: spawn %I, the map has %d", s,
                          (int)td_world_map(w)->spawn_count);
      d.spawn = (int32_t)s - 1;
    }
    bool at_xy = false;
    double x = 0, y = 0;
    if (lua_getfield(L, 2, "near") != LUA_TNIL) {
      td_enemy_view v;
      lua_Integer nh = (lua_Integer)at_number(L, "near", true);
      uint32_t near = nh > 0 && nh <= (lua_Integer)UINT32_MAX ? (uint32_t)nh : 0;
      if (!td_world_enemy_get(w, near, &v)) {
        lua_pushnil(L);
        return 1;
      }
      at_xy = true, x = v.x, y = v.y;
    }
    if (lua_getfield(L, 2, "x") != LUA_TNIL) {
      at_xy = true;
      x = at_number(L, "x", false);
      lua_getfield(L, 2, "y");
      y = at_number(L, "y", false);
    }
    if (at_xy) { /* at the routed waypoint nearest to (x, y) */
      const td_route *rt = td_world_route(w);
      const td_graph *gr = td_route_graph(rt);
      const td_cost *dist = td_route_dist(rt);
      int32_t best = -1;
      double bd = 0;
      for (int32_t n = 0; n < gr->node_count; n++) {
        if (dist[n] == TD_COST_INF) continue;
        double dx = gr->x[n] - x, dy = gr->y[n] - y, dd = dx * dx + dy * dy;
        if (best < 0 || dd < bd) best = n, bd = dd;
      }
      if (best < 0) {
        lua_pushnil(L);
        return 1;
      }
      d.spawn = -1;
      d.node = best;
    }
    if (lua_getfield(L, 2, "health") != LUA_TNIL) {
      double hp = at_number(L, "health", false);
      if (!(hp > 0) || hp > 1e9)
        return luaL_error(L, "td.spawn: at.health must be > 0 and <= 1e9, got %f", hp);
      d.health = (float)hp;
    }
    if (lua_getfield(L, 2, "lane") != LUA_TNIL) {
      double lane = at_number(L, "lane", false);
      if (!(fabs(lane) <= 1000)) return luaL_error(L, "td.spawn: at.lane must be -1000 .. 1000");
      d.lane = (float)lane;
    }
    lua_settop(L, 2);
  }
  td_err err;
  uint32_t h = td_world_spawn_enemy(w, &d, &err);
  if (!h) return luaL_error(L, "td.spawn: %s", err.msg);
  lua_pushinteger(L, h);
  return 1;
}

/* ---- costs: mud and bridges ---------------------------------------------- */

/* What td.set_cost and td.cost name: edges or a node of the world's graph. */
typedef struct cost_where {
  td_cost_target t;
  const int32_t *ids;
  size_t n;
  int32_t one;             /* the id when there is one (tile, at) */
} cost_where;

/* v as %g would print it (lua_pushfstring has no %g), pushed on the stack
** so that it lives until the error that quotes it. */
static const char *num(lua_State *L, double v) {
  char buf[40];
  snprintf(buf, sizeof buf, "%g", v);
  return lua_pushstring(L, buf);
}

/* luaL_error (the position of the caller, then the message; Lua's format:
** %s %d %I %f %p %c %U %%) that the compiler and the analyzer know does not
** return. */
static _Noreturn void raise_error(lua_State *L, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  luaL_where(L, 1);
  lua_pushvfstring(L, fmt, ap);
  va_end(ap);
  lua_concat(L, 2);
  lua_error(L);
  abort(); /* not reached: lua_error raises */
}

/* Field k of the table at index t as a number: a whole one when integer
** (3 or 3.0, not 3.5). */
static double table_num(lua_State *L, int t, lua_Integer k, const char *fn, const char *field,
                        bool integer) {
  int type = lua_geti(L, t, k), whole = 0;
  if (type == LUA_TNUMBER && integer) lua_tointegerx(L, -1, &whole);
  if (type != LUA_TNUMBER || (integer && !whole))
    raise_error(L, "td.%s: %s: expected {%s, %s} (%s), item %d is %s", fn, field,
               integer ? "col" : "x", integer ? "row" : "y", integer ? "integers" : "numbers",
               (int)k, type == LUA_TNUMBER ? "not an integer" : lua_typename(L, type));
  double v = lua_tonumber(L, -1);
  lua_pop(L, 1);
  if (!isfinite(v)) raise_error(L, "td.%s: %s: item %d is not a finite number", fn, field, (int)k);
  return v;
}

/* Squared distance from (x, y) to the segment of edge e. */
static double seg_dist2(const td_graph *g, int32_t e, double x, double y) {
  double ax = g->x[g->edges[e].a], ay = g->y[g->edges[e].a];
  double dx = g->x[g->edges[e].b] - ax, dy = g->y[g->edges[e].b] - ay;
  double len2 = dx * dx + dy * dy, u = 0.0;
  if (len2 > 0.0) u = ((x - ax) * dx + (y - ay) * dy) / len2;
  u = u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
  double px = ax + u * dx - x, py = ay + u * dy - y;
  return px * px + py * py;
}

/* Reads the where-table at index 1: exactly one of path, tile, at. */
static void cost_place(lua_State *L, const char *fn, td_world *w, cost_where *out) {
  const td_map *m = td_world_map(w);
  const td_graph *g = td_route_graph(td_world_route(w));
  if (!lua_istable(L, 1))
    raise_error(L, "td.%s: expected a table {path = id | tile = {col, row} | at = {x, y}%s}, "
               "got %s", fn, fn[0] == 's' ? ", factor = number" : "", luaL_typename(L, 1));
  static const char *const keys[3] = {"path", "tile", "at"};
  int which = -1;
  for (int k = 0; k < 3; k++) {
    if (lua_getfield(L, 1, keys[k]) == LUA_TNIL) {
      lua_pop(L, 1);
      continue;
    }
    lua_pop(L, 1);
    if (which >= 0)
      raise_error(L, "td.%s: give one of path, tile and at, not both %s and %s", fn, keys[which],
                 keys[k]);
    which = k;
  }
  if (which < 0) raise_error(L, "td.%s: give one of path (a path object's id), tile = {col, "
                            "row} or at = {x, y}", fn);
  lua_getfield(L, 1, keys[which]);
  int v = lua_gettop(L);
  *out = (cost_where){.t = TD_COST_EDGE, .ids = &out->one, .n = 1};
  if (which == 0) { /* a Tiled path object */
    if (m->grid)
      raise_error(L, "td.%s: path: this is a grid map: name a tile (tile = {col, row}) or a "
                 "point (at = {x, y})", fn);
    if (!lua_isinteger(L, v))
      raise_error(L, "td.%s: path: expected a path object's id (an integer), got %s", fn,
                 lua_isnumber(L, v) ? "a fraction" : luaL_typename(L, v));
    lua_Integer id = lua_tointeger(L, v);
    const td_map_path *p = td_map_find_path(m, id);
    if (!p) {
      char ids[160] = "";
      size_t at = 0;
      for (size_t i = 0; i < m->path_count && at + 16 < sizeof ids; i++)
        at += (size_t)snprintf(ids + at, sizeof ids - at, "%s%d", i ? ", " : "",
                               (int)m->paths[i].object_id);
      if (m->path_count > 0 && at + 16 >= sizeof ids) snprintf(ids + at, sizeof ids - at, ", ...");
      raise_error(L, "td.%s: no path object %I on this map (its paths are objects %s)", fn, id,
                 ids);
    }
    out->ids = p->edges;
    out->n = p->edge_count;
  } else if (which == 1) { /* a grid map's tile */
    if (!m->grid)
      raise_error(L, "td.%s: tile: this is a waypoint map: name a path (path = object id) or a "
                 "point (at = {x, y})", fn);
    if (!lua_istable(L, v))
      raise_error(L, "td.%s: tile: expected {col, row}, got %s", fn, luaL_typename(L, v));
    double cx = table_num(L, v, 1, fn, "tile", true), cy = table_num(L, v, 2, fn, "tile", true);
    if (cx < 0 || cy < 0 || cx >= m->grid->width || cy >= m->grid->height)
      raise_error(L, "td.%s: tile {%d, %d} is outside the map (columns 0 .. %d, rows 0 .. %d)",
                 fn, (int)fmax(fmin(cx, 1e9), -1e9), (int)fmax(fmin(cy, 1e9), -1e9),
                 (int)m->grid->width - 1, (int)m->grid->height - 1);
    out->one = td_grid_node_at(m->grid, (int32_t)cx, (int32_t)cy);
    if (out->one == TD_NONE)
      raise_error(L, "td.%s: tile {%d, %d} is not walkable", fn, (int)cx, (int)cy);
    out->t = TD_COST_NODE;
  } else { /* a point: the tile under it, or the nearest edge */
    if (!lua_istable(L, v))
      raise_error(L, "td.%s: at: expected {x, y}, got %s", fn, luaL_typename(L, v));
    double x = table_num(L, v, 1, fn, "at", false), y = table_num(L, v, 2, fn, "at", false);
    if (m->grid) {
      const td_grid *gr = m->grid;
      double fx = floor((x - gr->origin_x) / gr->cell), fy = floor((y - gr->origin_y) / gr->cell);
      if (!(fx >= 0 && fy >= 0 && fx < gr->width && fy < gr->height))
        raise_error(L, "td.%s: at {%s, %s} is outside the map", fn, num(L, x), num(L, y));
      out->one = td_grid_node_at(gr, (int32_t)fx, (int32_t)fy);
      if (out->one == TD_NONE)
        raise_error(L, "td.%s: at {%s, %s}: tile {%d, %d} is not walkable", fn, num(L, x),
                   num(L, y), (int)fx, (int)fy);
      out->t = TD_COST_NODE;
    } else {
      double bd = 0;
      out->one = TD_NONE;
      for (int32_t e = 0; e < g->edge_count; e++) { /* ties: the smaller id */
        double d = seg_dist2(g, e, x, y);
        if (out->one == TD_NONE || d < bd) out->one = e, bd = d;
      }
      if (out->one == TD_NONE) raise_error(L, "td.%s: the map has no edge", fn);
    }
  }
  lua_settop(L, 1);
}

static int l_set_cost(lua_State *L) {
  td_world *w = world_of(L, "set_cost");
  count_call(L, &((td_game *)td_mod_host(L))->step_costs, TD_GAME_STEP_COSTS, "set_cost",
             "cost changes");
  cost_where c;
  cost_place(L, "set_cost", w, &c);
  int type = lua_getfield(L, 1, "factor");
  if (type != LUA_TNUMBER)
    return luaL_error(L, "td.set_cost: factor: expected a number in (0, %s], got %s",
                      num(L, TD_WORLD_MAX_COST),
                      type == LUA_TNIL ? "nothing" : lua_typename(L, type));
  double f = lua_tonumber(L, -1);
  if (!(f > 0 && f <= TD_WORLD_MAX_COST))
    return luaL_error(L, "td.set_cost: factor must be > 0 and <= %s, is %s",
                      num(L, TD_WORLD_MAX_COST), num(L, f));
  lua_pop(L, 1);
  td_err err;
  if (td_world_set_cost(w, c.t, c.ids, c.n, f, &err) != 0)
    return luaL_error(L, "td.set_cost: %s", err.msg);
  return 0;
}

static int l_cost(lua_State *L) {
  td_world *w = world_of(L, "cost");
  cost_where c;
  cost_place(L, "cost", w, &c);
  lua_pushnumber(L, td_world_cost(w, c.t, c.ids[0]));
  return 1;
}

/* ---- the table ----------------------------------------------------------- */

/* The tables the functions return, field by field as l_enemy, l_tower and
** l_wave_preview fill them (docs/lua-api.md and the stubs' classes). */
#define FIELDS(a) (a), sizeof(a) / sizeof((a)[0])

static const td_mod_field_doc enemy_state_fields[] = {
    {"handle", "integer", "The enemy's handle (as given)."},
    {"type", "string", "Its enemy type's name."},
    {"x", "number", "Position, map units."},
    {"y", "number", "Position, map units."},
    {"radius", "number", "Body radius, map units."},
    {"facing", "number", "Heading, radians."},
    {"health", "number", "Health left."},
    {"max_health", "number", "Health at its spawn."},
    {"wave", "integer",
     "The wave it came with (0: spawned by td.spawn; a split enemy keeps its parent's)."},
    {"slow", "number", "The share of speed it has lost (0: none)."},
    {"stun", "number", "Seconds of stun left (0: none)."},
    {"route_left", "number", "Map units along its route to a goal."},
    {"flying", "boolean", "A flyer (only towers with hits_air reach it)."},
    {"boss", "boolean", "A boss (immune to stun, half the slow)."},
    {"state", "\"walk\"|\"stunned\"|\"blocked\"|\"attack\"",
     "What it is doing: blocked, held by a soldier that walks to it; attack, fighting that "
     "soldier or (a sapper) hitting a tower."},
    {"holder", "integer", "The soldier that holds it (blocked, attack), 0: none."},
    {"siege", "integer", "The tower it attacks (a sapper), 0: none."},
};
static const td_mod_class enemy_state = {"td.enemy_state", "An enemy's state (td.enemy_info).",
                                        FIELDS(enemy_state_fields)};

static const td_mod_field_doc tower_state_fields[] = {
    {"handle", "integer", "The tower's handle (as given)."},
    {"base", "integer", "Its tower base, 1-based in map order (events' `base`)."},
    {"type", "string", "Its tower type's name."},
    {"level", "string", "Its level's name."},
    {"x", "number", "Position, map units."},
    {"y", "number", "Position, map units."},
    {"range", "number", "Range, map units."},
    {"mode", "\"first\"|\"last\"|\"strongest\"|\"closest\"|\"script\"",
     "Its targeting mode (script: the type's targeting function)."},
    {"state", "\"idle\"|\"aiming\"|\"firing\"|\"cooldown\"", "What it is doing."},
    {"target", "integer", "The enemy handle it aims at (0: none)."},
    {"spent", "integer", "Gold spent on it (build and upgrades)."},
    {"health", "number", "Health left against sappers."},
    {"max_health", "number", "Its level's health (0: it cannot be damaged)."},
    {"repair_cost", "integer?",
     "Gold a repair to full health costs now (the rules' repair_cost); nil when there is "
     "nothing to repair."},
    {"soldiers", "integer", "A barracks: the soldiers it keeps (its level's); 0: not one."},
    {"rally_x", "number", "A barracks: its rally point, map units (else its centre)."},
    {"rally_y", "number", "A barracks: its rally point, map units (else its centre)."},
};
static const td_mod_class tower_state = {"td.tower_state", "A tower's state (td.tower_info).",
                                        FIELDS(tower_state_fields)};

static const td_mod_field_doc soldier_state_fields[] = {
    {"handle", "integer", "The soldier's handle (events' `soldier`)."},
    {"type", "string", "Its soldier type's name."},
    {"state", "\"idle\"|\"move\"|\"engage\"|\"attack\"|\"die\"|\"respawn\"",
     "What it is doing: idle at its post, move to it, engage (walk to) the enemy it holds, "
     "attack it, die (falling), respawn (waiting in the barracks)."},
    {"tower", "integer", "Its barracks' handle."},
    {"base", "integer", "Its barracks' tower base, 1-based in map order."},
    {"enemy", "integer", "The enemy it holds (engage, attack), 0: none."},
    {"x", "number", "Position, map units."},
    {"y", "number", "Position, map units."},
    {"health", "number", "Health left."},
    {"max_health", "number", "Its type's health."},
    {"post_x", "number", "Where it stands when idle, map units."},
    {"post_y", "number", "Where it stands when idle, map units."},
};
static const td_mod_class soldier_state = {"td.soldier_state",
                                          "A soldier's state (td.soldiers, td.soldier_info).",
                                          FIELDS(soldier_state_fields)};

static const td_mod_field_doc wave_entry_fields[] = {
    {"enemy", "string", "The group's enemy type."},
    {"count", "integer", "Enemies in all, over its spawns."},
    {"spawns", "integer", "Spawn points it comes from."},
    {"health", "number", "Each one's health (scaled for the wave)."},
    {"delay", "number", "Seconds after the wave's start."},
};
static const td_mod_class wave_entry = {"td.wave_entry",
                                        "One spawn group of a wave (td.wave_preview).",
                                        FIELDS(wave_entry_fields)};

#define RT TD_MOD_API_RUNTIME

static const td_mod_api world_api[] = {
    {"tick", l_tick, "() -> integer", "The world's tick (60 per second) being stepped.", RT},
    {"gold", l_gold, "() -> integer", "The player's gold.", RT},
    {"lives", l_lives, "() -> integer", "The player's lives.", RT},
    {"current_wave", l_wave, "() -> integer", "The last wave started (0: none yet).", RT},
    {"tile", l_tile, "() -> number",
     "Map units per tile: positions and distances in the world functions and in events are "
     "map units.", TD_MOD_API_DATA | RT},
    {"map_name", l_map_name, "() -> string",
     "The map's file name without directory and extension (\"01-crossroads\"), so a mod can "
     "declare different waves per map: `include(\"waves_\" .. td.map_name() .. \".lua\")`. "
     "The name is part of the map's identity: a replay or a save made with a map is refused "
     "with a copy of it under another name.",
     TD_MOD_API_DATA | RT},
    {"difficulty", l_difficulty, "() -> string",
     "The difficulty the player chose: \"normal\" (the default), \"easy\" or \"hard\" "
     "(`td play`'s settings, `td sim --difficulty`). The engine changes nothing with it; the "
     "mod decides what it means (scripts/base/maps.lua scales health, gold and lives).",
     TD_MOD_API_DATA | RT},
    {"wave_preview", l_wave_preview, "(n?: integer) -> td.wave_entry[]",
     "What wave n (default: the next) brings, as the game's preview shows it: one entry per "
     "spawn group in the rules' order; endless waves included.", RT},
    {"enemies", l_enemies, "(x?: number, y?: number, r?: number) -> integer[]",
     "Handles of the living enemies on the map (walking, stunned, held by soldiers or "
     "fighting), in slot order (stable), optionally only those whose centre is within r of "
     "(x, y). Enemies still waiting at their spawn's gate (a wave's rows enter one after "
     "another) are not on the map yet.", RT},
    {"enemy_info", l_enemy, "(h: integer) -> td.enemy_state?",
     "An enemy's state, or nil when the handle is dead (or the enemy is dying or has "
     "leaked).", RT},
    {"towers", l_towers, "() -> integer[]", "Handles of the towers, in base order.", RT},
    {"tower_info", l_tower, "(h: integer) -> td.tower_state?",
     "A tower's state, or nil when the handle is dead.", RT},
    {"soldiers", l_soldiers, "(tower?: integer) -> td.soldier_state[]",
     "The soldiers of every barracks, or of one (a tower handle; a dead one or a tower that "
     "is not a barracks: an empty array), in slot order (stable), those falling or waiting "
     "to respawn included.", RT},
    {"soldier_info", l_soldier, "(h: integer) -> td.soldier_state?",
     "A soldier's state (an event's `soldier`), or nil when the handle is dead (its barracks "
     "was sold or destroyed).", RT},
    {"give_gold", l_give_gold, "(amount: integer) -> integer",
     "Adds gold (negative takes, never below 0); returns the new total.", RT},
    {"damage", l_damage, "(h: integer, amount: number, damage_type?: string, tower?: integer) -> number",
     "Hits an enemy (armour and resistance apply; the first damage type when none is given), "
     "credited to a tower if given; returns the health taken (0 for a dead handle). td.damage, "
     "td.slow, td.stun and td.burn together may be called 16384 times a step: the call past "
     "stops the handler with an error. Raises a "
     "`hit` event with `source` \"script\" (a `hit` handler that calls it skips those). May "
     "kill: the kill event is handed to the handlers after the current one.", RT},
    {"damage_tower", l_damage_tower, "(tower: integer, amount: number) -> number",
     "Takes amount (0 .. 1e9) off a tower's health as a sapper's hit does: a `tower_damaged` "
     "event with `enemy` 0, and at 0 health the tower is destroyed (`tower_destroyed`: no "
     "refund, its base free again, the route reopens). Returns the health taken: 0 for a "
     "dead handle or a tower that cannot be damaged (its level has no `health`). All handlers "
     "together may call it 1024 times a step: the call past stops the handler with an "
     "error.", RT},
    {"slow", l_slow, "(h: integer, share: number, seconds: number) -> boolean",
     "Slows an enemy by share (0 .. 0.9) under the world's stacking rules (the strongest "
     "slow, the longest duration). false for a dead handle.", RT},
    {"stun", l_stun, "(h: integer, seconds: number) -> boolean",
     "Stuns an enemy (bosses are immune). false for a dead handle.", RT},
    {"burn", l_burn, "(h: integer, dps: number, seconds: number, damage_type?: string) -> boolean",
     "Damage over time (one per damage type: the larger dps and the longer duration stay). "
     "false for a dead handle.", RT},
    {"spawn", l_spawn,
     "(enemy_type: string, at?: { spawn?: integer, near?: integer, x?: number, y?: number, health?: number, lane?: number }) -> integer?",
     "Spawns one enemy now: at a spawn point (`spawn`, 1-based, default 1), or at the routed "
     "waypoint nearest to a living enemy (`near`, a handle) or to a point (`x`, `y`: a kill "
     "event's, say); returns its handle, nil when `near` is dead or no waypoint is routed. It "
     "belongs to no wave. `health`: its health (> 0, default the type's); `lane`: its offset "
     "across the road in tiles (-1000 .. 1000, default 0: the middle). All handlers together may spawn "
     "256 enemies a step, and none once 8192 are alive: the call past either stops the "
     "handler with an error (like the instruction limit).", RT},
    {"set_cost", l_set_cost,
     "(where: { path?: integer, tile?: integer[], at?: number[], factor: number })",
     "Mud and bridges: sets the cost factor of a stretch of ground, as a path's `cost` "
     "property does in the map (an edge costs its length times its factor: enemies take the "
     "cheapest way, so `factor = 3` is mud, `0.5` a bridge or a road). `factor` is > 0 and "
     "<= 1000. Name the ground with one of: `path`, a Tiled path object's id (waypoint "
     "maps: every edge that path drew, shared ones too); `tile = {col, row}`, a tile "
     "(grid maps; 0-based, as Tiled shows them: a tile's factor is what crossing it costs, "
     "half of each step in or out); `at = {x, y}`, a point in map units (an event's x and "
     "y: the tile under it on a grid map, the nearest edge on a waypoint map). The route "
     "changes as it does for a tower, at once, and the enemies re-route (one in the middle "
     "of a segment may turn back). Costs are part of the game: saves, loads and replays "
     "keep them. A factor never cuts a route. All handlers together may change costs 64 "
     "times a step: the call past stops the handler with an error.", RT},
    {"cost", l_cost, "(where: { path?: integer, tile?: integer[], at?: number[] }) -> number",
     "The cost factor td.set_cost gave the ground named as for td.set_cost (the map's until "
     "a rule set one; for a path, its first edge's: all of them unless a later change named "
     "part of it).", RT},
};

int game_register_api(td_mod_options *o, td_game *g, td_err *err) {
  if (td_mod_register_class(o, &wave_entry, err) != 0 ||
      td_mod_register_class(o, &enemy_state, err) != 0 ||
      td_mod_register_class(o, &tower_state, err) != 0 ||
      td_mod_register_class(o, &soldier_state, err) != 0)
    return -1;
  return td_mod_register(o, world_api, sizeof world_api / sizeof world_api[0], g, err);
}

int td_game_api(td_mod_options *o, td_err *err) { return game_register_api(o, NULL, err); }
