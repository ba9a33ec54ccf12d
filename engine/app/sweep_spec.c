/*
** sweep_spec.c: a sweep spec (sweep.h, docs/sweep.md): the Lua file run in
** the sandbox with two functions, sweep{...} and range(a, b [, step]),
** checked into a sweep_spec; and the td sim command line of each job.
*/
#define _GNU_SOURCE /* realpath, readlink */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>

#include "app/cmds.h"
#include "app/sweep.h"
#include "game/auto.h"
#include "script/lsandbox.h"

#define SPEC_MAX_BYTES (1u << 20)
#define SPEC_MEMORY ((size_t)32 << 20)

typedef struct loader {
  sweep_spec *s;
  const char *src;       /* the spec's text */
  size_t len;
  int call_line;         /* of sweep{...} */
  bool called;
  char dir[SWEEP_PATH_MAX]; /* the spec's directory */
} loader;

static const char *const keys[] = {"maps",  "difficulties", "seeds", "players", "strategies",
                                   "overrides", "ticks", "mods", "record"};
#define NKEYS (sizeof keys / sizeof keys[0])
#define KEY_LIST "maps, difficulties, seeds, players, strategies, overrides, ticks, mods, record"

static const char *const record_names[] = {"gold_curve", "lives_curve", "kills_by_tower",
                                           "leaks_by_enemy", "wave_gold", "wave_lives"};
#define NRECORD (sizeof record_names / sizeof record_names[0])
/* The fixed columns may be named in record too (they are always there). */
static const char *const fixed_names[] = {"result", "wave", "lives", "gold", "kills", "leaks",
                                          "ticks", "towers", "built", "upgrades"};
#define NFIXED (sizeof fixed_names / sizeof fixed_names[0])

const char *sweep_record_name(unsigned bit) {
  for (size_t i = 0; i < NRECORD; i++)
    if (bit == 1u << i) return record_names[i];
  return NULL;
}

/* The first line of the spec holding needle (1-based), or the call's line. */
static int line_of(const loader *ld, const char *needle) {
  size_t n = strlen(needle);
  int line = 1;
  for (size_t i = 0; n && i + n <= ld->len; i++) {
    if (ld->src[i] == '\n') line++;
    else if (!memcmp(ld->src + i, needle, n)) return line;
  }
  return ld->call_line;
}

/* Raises "path:LINE: msg" (the line of needle, else of the call). */
static _Noreturn void fail(lua_State *L, const loader *ld, const char *needle, const char *fmt,
                           ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static _Noreturn void fail(lua_State *L, const loader *ld, const char *needle, const char *fmt,
                           ...) {
  char msg[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  lua_pushfstring(L, "%s:%d: %s", ld->s->path, needle ? line_of(ld, needle) : ld->call_line, msg);
  lua_error(L);
  abort(); /* lua_error does not return */
}

/* "\"text\"" for searching a string value in the source. */
static const char *quoted(const char *text, char *buf, size_t cap) {
  snprintf(buf, cap, "\"%s\"", text);
  return buf;
}

/* The list at key k of the table at index 1: its length (0 when absent);
** the table is pushed when present. */
static size_t get_list(lua_State *L, const loader *ld, const char *k, bool *present) {
  lua_getfield(L, 1, k);
  *present = !lua_isnil(L, -1);
  if (!*present) {
    lua_pop(L, 1);
    return 0;
  }
  if (!lua_istable(L, -1))
    fail(L, ld, k, "%s: expected a list ({...}%s), got a %s", k,
         !strcmp(k, "seeds") ? " or range(A, B)" : "", luaL_typename(L, -1));
  size_t n = (size_t)lua_rawlen(L, -1);
  if (n == 0) fail(L, ld, k, "%s: an empty list (no game to play)", k);
  return n;
}

/* Element i (1-based) of the list on top as a string, or a failure. */
static const char *get_string(lua_State *L, const loader *ld, const char *k, size_t i) {
  lua_rawgeti(L, -1, (lua_Integer)i);
  if (lua_type(L, -1) != LUA_TSTRING)
    fail(L, ld, k, "%s[%zu]: expected a string, got a %s", k, i, luaL_typename(L, -1));
  const char *v = lua_tostring(L, -1);
  lua_pop(L, 1); /* the list still holds it */
  return v;
}

static uint64_t get_whole(lua_State *L, const loader *ld, const char *k, size_t i, int idx) {
  int isnum = 0;
  lua_Integer v = lua_tointegerx(L, idx, &isnum);
  if (!isnum || v < 0)
    fail(L, ld, k, "%s[%zu]: expected a whole number >= 0, got %s", k, i,
         lua_type(L, idx) == LUA_TNUMBER ? "a fraction or a negative number"
                                         : luaL_typename(L, idx));
  return (uint64_t)v;
}

/* path relative to the spec's directory, made absolute; fails naming needle. */
static void resolve(lua_State *L, const loader *ld, const char *what, const char *rel,
                    char *out, size_t cap) {
  char joined[SWEEP_PATH_MAX * 2], q[SWEEP_PATH_MAX + 2];
  if (rel[0] == '/') snprintf(joined, sizeof joined, "%s", rel);
  else snprintf(joined, sizeof joined, "%s/%s", ld->dir, rel);
  char real[PATH_MAX];
  if (!realpath(joined, real))
    fail(L, ld, quoted(rel, q, sizeof q), "%s '%s': %s", what, rel, strerror(errno));
  if (strlen(real) >= cap) fail(L, ld, quoted(rel, q, sizeof q), "%s '%s': path too long", what, rel);
  snprintf(out, cap, "%s", real);
}

static void read_maps(lua_State *L, loader *ld) {
  sweep_spec *s = ld->s;
  bool present;
  size_t n = get_list(L, ld, "maps", &present);
  if (!present) fail(L, ld, NULL, "maps: required (a list of map names or files)");
  if (n > SWEEP_MAX_MAPS) fail(L, ld, "maps", "maps: more than %d", SWEEP_MAX_MAPS);
  char dir[SWEEP_PATH_MAX], q[SWEEP_PATH_MAX + 2];
  td_app_find_dir("maps", dir, sizeof dir);
  for (size_t i = 1; i <= n; i++) {
    const char *m = get_string(L, ld, "maps", i);
    char path[SWEEP_PATH_MAX * 2];
    const char *dot = strrchr(m, '.');
    bool file = strchr(m, '/') || (dot && (!strcmp(dot, ".tmx") || !strcmp(dot, ".tmj") ||
                                           !strcmp(dot, ".json") || !strcmp(dot, ".lua")));
    if (file) {
      resolve(L, ld, "map", m, s->maps[s->nmaps], sizeof s->maps[0]);
    } else { /* a name in the maps folder: NAME.tmx, else NAME.tmj, else NAME.lua */
      static const char *const exts[] = {"tmx", "tmj", "lua"};
      char real[PATH_MAX];
      bool found = false;
      for (size_t e = 0; e < sizeof exts / sizeof *exts && !found && *m; e++) {
        snprintf(path, sizeof path, "%s/%s.%s", dir, m, exts[e]);
        found = realpath(path, real) != NULL;
      }
      if (!found || strlen(real) >= sizeof s->maps[0])
        fail(L, ld, quoted(m, q, sizeof q), "maps: no map '%s' in %s (a name there, or a file "
             "relative to the spec)", m, dir);
      snprintf(s->maps[s->nmaps], sizeof s->maps[0], "%s", real);
    }
    td_game_map_name_of(s->maps[s->nmaps], s->map_names[s->nmaps], sizeof s->map_names[0]);
    for (size_t k = 0; k < s->nmaps; k++)
      if (!strcmp(s->map_names[k], s->map_names[s->nmaps]))
        fail(L, ld, quoted(m, q, sizeof q), "maps: '%s' twice (maps are keyed by name)", m);
    s->nmaps++;
  }
  lua_pop(L, 1);
}

static void read_difficulties(lua_State *L, loader *ld) {
  sweep_spec *s = ld->s;
  bool present;
  size_t n = get_list(L, ld, "difficulties", &present);
  if (!present) {
    s->difficulties[s->ndifficulties++] = TD_DIFFICULTY_NORMAL;
    return;
  }
  char q[80];
  for (size_t i = 1; i <= n; i++) {
    const char *d = get_string(L, ld, "difficulties", i);
    td_difficulty v;
    if (td_difficulty_parse(d, &v) != 0)
      fail(L, ld, quoted(d, q, sizeof q), "difficulties: '%.40s' is none of easy, normal, hard", d);
    for (size_t k = 0; k < s->ndifficulties; k++)
      if (s->difficulties[k] == v) fail(L, ld, quoted(d, q, sizeof q), "difficulties: '%s' twice", d);
    s->difficulties[s->ndifficulties++] = v;
  }
  lua_pop(L, 1);
}

static void read_seeds(lua_State *L, loader *ld) {
  sweep_spec *s = ld->s;
  bool present;
  size_t n = get_list(L, ld, "seeds", &present);
  if (!present) {
    s->seeds[s->nseeds++] = 1;
    return;
  }
  if (n > SWEEP_MAX_SEEDS) fail(L, ld, "seeds", "seeds: more than %d", SWEEP_MAX_SEEDS);
  for (size_t i = 1; i <= n; i++) {
    lua_rawgeti(L, -1, (lua_Integer)i);
    s->seeds[s->nseeds++] = get_whole(L, ld, "seeds", i, -1);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

static void read_players(lua_State *L, loader *ld) {
  sweep_spec *s = ld->s;
  bool present, auto_ = false, idle = false;
  char q[80];
  size_t n = get_list(L, ld, "players", &present);
  for (size_t i = 1; i <= n; i++) {
    const char *p = get_string(L, ld, "players", i);
    if (!strcmp(p, "auto")) auto_ = true;
    else if (!strcmp(p, "idle")) idle = true;
    else fail(L, ld, quoted(p, q, sizeof q), "players: '%.40s' is neither auto nor idle", p);
  }
  if (present) lua_pop(L, 1);
  else auto_ = true;
  int strategies[TD_AUTO_STRATEGIES];
  size_t ns = 0;
  n = get_list(L, ld, "strategies", &present);
  for (size_t i = 1; i <= n; i++) {
    const char *name = get_string(L, ld, "strategies", i);
    int k = td_auto_strategy_find(name);
    if (k < 0) {
      char list[160] = "";
      for (int j = 0; td_auto_strategy_name(j); j++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", j ? ", " : "",
                 td_auto_strategy_name(j));
      fail(L, ld, quoted(name, q, sizeof q), "strategies: no strategy '%.40s' (%s)", name, list);
    }
    for (size_t j = 0; j < ns; j++)
      if (strategies[j] == k) fail(L, ld, quoted(name, q, sizeof q), "strategies: '%s' twice", name);
    strategies[ns++] = k;
  }
  if (present) {
    lua_pop(L, 1);
    if (!auto_) fail(L, ld, "strategies", "strategies: only the auto player has them (players "
                     "lacks \"auto\")");
  } else {
    strategies[ns++] = TD_AUTO_DEFAULT;
  }
  if (auto_)
    for (size_t j = 0; j < ns; j++) s->players[s->nplayers++] = (sweep_player){false, strategies[j]};
  if (idle) s->players[s->nplayers++] = (sweep_player){true, 0};
}

static void read_overrides(lua_State *L, loader *ld) {
  sweep_spec *s = ld->s;
  bool present;
  char q[SWEEP_PATH_MAX];
  size_t n = get_list(L, ld, "overrides", &present);
  if (n > SWEEP_MAX_PARAMS) fail(L, ld, "overrides", "overrides: more than %d", SWEEP_MAX_PARAMS);
  for (size_t i = 1; i <= n; i++) {
    lua_rawgeti(L, -1, (lua_Integer)i);
    if (!lua_istable(L, -1))
      fail(L, ld, "overrides", "overrides[%zu]: expected {param = \"...\", scale = {...}} or "
           "set = {...}, got a %s", i, luaL_typename(L, -1));
    lua_getfield(L, -1, "param");
    if (lua_type(L, -1) != LUA_TSTRING)
      fail(L, ld, "overrides", "overrides[%zu]: param: expected a string like "
           "\"tower.cannon.cost\", got a %s", i, luaL_typename(L, -1));
    const char *param = lua_tostring(L, -1);
    lua_pop(L, 1); /* the entry still holds it */
    const char *at = quoted(param, q, sizeof q);
    lua_getfield(L, -1, "scale");
    lua_getfield(L, -2, "set");
    bool scale = !lua_isnil(L, -2), set = !lua_isnil(L, -1);
    if (scale == set)
      fail(L, ld, at, "overrides[%zu] (%.80s): give either scale = {...} or set = {...}", i, param);
    lua_remove(L, scale ? -1 : -2); /* the list on top */
    sweep_param *p = &s->params[s->nparams];
    p->op = scale ? TD_OVERRIDE_SCALE : TD_OVERRIDE_SET;
    const char *word = scale ? "scale" : "set";
    if (!lua_istable(L, -1))
      fail(L, ld, at, "overrides[%zu] (%.80s): %s: expected a list of numbers, got a %s", i, param,
           word, luaL_typename(L, -1));
    size_t nv = (size_t)lua_rawlen(L, -1);
    if (nv == 0) fail(L, ld, at, "overrides[%zu] (%.80s): %s: an empty list", i, param, word);
    if (nv > SWEEP_MAX_VALUES)
      fail(L, ld, at, "overrides[%zu]: more than %d values", i, SWEEP_MAX_VALUES);
    for (size_t v = 1; v <= nv; v++) {
      lua_rawgeti(L, -1, (lua_Integer)v);
      int isnum = 0;
      double x = lua_tonumberx(L, -1, &isnum);
      if (!isnum || !isfinite(x))
        fail(L, ld, at, "overrides[%zu] (%.80s): %s[%zu]: expected a finite number, got a %s", i,
             param, word, v, luaL_typename(L, -1));
      p->values[p->nvalues++] = x;
      lua_pop(L, 1);
    }
    char arg[TD_OVERRIDE_PARAM_MAX + 40];
    snprintf(arg, sizeof arg, "%.*s=1", TD_OVERRIDE_PARAM_MAX, param);
    td_override o;
    td_err e;
    if (td_override_parse(p->op, arg, &o, &e) != 0) {
      char *eq = strrchr(e.msg, '=');
      if (eq && !strcmp(eq, "=1")) *eq = '\0';
      fail(L, ld, at, "overrides[%zu]: %s", i, e.msg);
    }
    snprintf(p->param, sizeof p->param, "%s", o.param);
    for (size_t k = 0; k < s->nparams; k++)
      if (!strcmp(s->params[k].param, p->param))
        fail(L, ld, at, "overrides: '%s' twice", p->param);
    s->nparams++;
    lua_pop(L, 2); /* the list, the entry */
  }
  if (present) lua_pop(L, 1);
}

static void read_rest(lua_State *L, loader *ld) {
  sweep_spec *s = ld->s;
  lua_getfield(L, 1, "ticks");
  if (!lua_isnil(L, -1)) {
    s->ticks = get_whole(L, ld, "ticks", 1, -1);
    if (s->ticks < 1) fail(L, ld, "ticks", "ticks: at least 1");
  }
  lua_pop(L, 1);
  bool present;
  size_t n = get_list(L, ld, "mods", &present);
  if (n > TD_MOD_MAX_MODS) fail(L, ld, "mods", "mods: more than %d", TD_MOD_MAX_MODS);
  for (size_t i = 1; i <= n; i++)
    resolve(L, ld, "mod", get_string(L, ld, "mods", i), s->mods[s->nmods++], sizeof s->mods[0]);
  if (present) lua_pop(L, 1);
  n = get_list(L, ld, "record", &present);
  s->record = present ? 0 : SWEEP_REC_ALL;
  char q[80];
  for (size_t i = 1; i <= n; i++) {
    const char *r = get_string(L, ld, "record", i);
    size_t k = 0;
    while (k < NRECORD && strcmp(r, record_names[k]) != 0) k++;
    if (k < NRECORD) {
      s->record |= 1u << k;
      continue;
    }
    k = 0;
    while (k < NFIXED && strcmp(r, fixed_names[k]) != 0) k++;
    if (k == NFIXED)
      fail(L, ld, quoted(r, q, sizeof q), "record: no field '%.40s' (result, wave, lives, gold, "
           "kills, leaks, ticks, towers, built, upgrades are always there; gold_curve, "
           "lives_curve, kills_by_tower, leaks_by_enemy, wave_gold, wave_lives)", r);
  }
  if (present) lua_pop(L, 1);
}

/* sweep{...}: [ud-upvalue] (t) -> () */
static int l_sweep(lua_State *L) {
  loader *ld = lua_touserdata(L, lua_upvalueindex(1));
  lua_Debug ar;
  ld->call_line = lua_getstack(L, 1, &ar) && lua_getinfo(L, "Sl", &ar) ? ar.currentline : 0;
  if (ld->called) fail(L, ld, NULL, "sweep{...} called twice (one sweep a file)");
  ld->called = true;
  if (lua_gettop(L) != 1 || !lua_istable(L, 1))
    fail(L, ld, NULL, "sweep: expected one table, sweep{maps = {...}, ...}");
  /* an unknown key: the first in byte order, whatever pairs() gives */
  char unknown[64] = "";
  lua_pushnil(L);
  while (lua_next(L, 1)) {
    lua_pop(L, 1);
    const char *k = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(not a name)";
    size_t j = 0;
    while (j < NKEYS && strcmp(k, keys[j]) != 0) j++;
    if (j == NKEYS && (!unknown[0] || strcmp(k, unknown) < 0))
      snprintf(unknown, sizeof unknown, "%s", k);
  }
  if (unknown[0]) fail(L, ld, unknown, "sweep: unknown key '%s' (" KEY_LIST ")", unknown);
  read_maps(L, ld);
  read_difficulties(L, ld);
  read_seeds(L, ld);
  read_players(L, ld);
  read_overrides(L, ld);
  read_rest(L, ld);
  return 0;
}

/* range(a, b [, step]): the list a, a+step, ... up to b */
static int l_range(lua_State *L) {
  loader *ld = lua_touserdata(L, lua_upvalueindex(1));
  lua_Debug ar;
  ld->call_line = lua_getstack(L, 1, &ar) && lua_getinfo(L, "Sl", &ar) ? ar.currentline : 0;
  int n = lua_gettop(L);
  lua_Integer v[3] = {0, 0, 1};
  for (int i = 1; i <= n && i <= 3; i++) {
    int isnum = 0;
    v[i - 1] = lua_tointegerx(L, i, &isnum);
    if (!isnum) fail(L, ld, NULL, "range: argument %d: expected a whole number, got %s", i,
                     lua_type(L, i) == LUA_TNUMBER ? "a fraction" : luaL_typename(L, i));
  }
  if (n < 2 || n > 3) fail(L, ld, NULL, "range(A, B [, STEP]): expected 2 or 3 arguments, got %d", n);
  if (v[2] == 0) fail(L, ld, NULL, "range: a step of 0");
  lua_Integer count = v[2] > 0 ? (v[1] >= v[0] ? (v[1] - v[0]) / v[2] + 1 : 0)
                               : (v[0] >= v[1] ? (v[0] - v[1]) / -v[2] + 1 : 0);
  if (count == 0)
    fail(L, ld, NULL, "range(%lld, %lld%s): no values", (long long)v[0], (long long)v[1],
         n == 3 ? ", ..." : "");
  if (count > SWEEP_MAX_SEEDS) fail(L, ld, NULL, "range: more than %d values", SWEEP_MAX_SEEDS);
  lua_createtable(L, (int)count, 0);
  for (lua_Integer i = 0; i < count; i++) {
    lua_pushinteger(L, v[0] + i * v[2]);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

/* [ld] -> [env]: the spec's _ENV with sweep and range */
static int make_env(lua_State *L) {
  loader *ld = lua_touserdata(L, 1);
  lua_createtable(L, 0, 2);
  lua_pushlightuserdata(L, ld);
  lua_pushcclosure(L, l_sweep, 1);
  lua_setfield(L, -2, "sweep");
  lua_pushlightuserdata(L, ld);
  lua_pushcclosure(L, l_range, 1);
  lua_setfield(L, -2, "range");
  return 1;
}

/* The overrides checked against the rules of each map's game: a name the
** rules lack, or a value they refuse. */
static int check_overrides(loader *ld, td_err *err) {
  sweep_spec *s = ld->s;
  if (!s->nparams) return 0;
  const char *mods[TD_MOD_MAX_MODS];
  for (size_t i = 0; i < s->nmods; i++) mods[i] = s->mods[i];
  char def[SWEEP_PATH_MAX];
  const char *mod = s->nmods ? s->mods[0] : td_app_find_dir("scripts/base", def, sizeof def);
  for (size_t m = 0; m < s->nmaps; m++) {
    td_game_options go = {.map_path = s->maps[m], .mod_dir = mod, .seed = 1,
                          .mod_dirs = mods, .mod_count = s->nmods};
    td_err gerr;
    td_game *g = td_game_create(&go, &gerr);
    if (!g) return td_err_set(err, "%s: %s", s->path, gerr.msg);
    for (size_t p = 0; p < s->nparams; p++)
      for (size_t v = 0; v < s->params[p].nvalues; v++) {
        td_override o = {.op = s->params[p].op, .value = s->params[p].values[v]};
        snprintf(o.param, sizeof o.param, "%s", s->params[p].param);
        td_rules tmp;
        if (td_override_apply(&o, 1, td_game_rules(g), &tmp, &gerr) != 0) {
          char q[SWEEP_PATH_MAX];
          td_game_destroy(g);
          return td_err_set(err, "%s:%d: overrides[%zu]: %s (on %s)", s->path,
                            line_of(ld, quoted(s->params[p].param, q, sizeof q)), p + 1,
                            gerr.msg, s->map_names[m]);
        }
        td_rules_free(&tmp);
      }
    td_game_destroy(g);
    if (m == 0) break; /* names do not depend on the map; one game is enough */
  }
  return 0;
}

sweep_spec *sweep_spec_load(const char *path, td_err *err) {
  sweep_spec *s = calloc(1, sizeof *s);
  if (!s) {
    td_err_set(err, "%s: out of memory", path);
    return NULL;
  }
  loader ld = {.s = s};
  snprintf(s->path, sizeof s->path, "%s", path);
  char *buf = NULL;
  size_t len = 0, cap = 0;
  td_lsandbox *sb = NULL;
  if (td_mem_read_file(path, SPEC_MAX_BYTES, &buf, &len, &cap, err) != 0) goto fail;
  ld.src = buf;
  ld.len = len;
  char real[PATH_MAX];
  if (!realpath(path, real)) {
    td_err_set(err, "%s: %s", path, strerror(errno));
    goto fail;
  }
  char *slash = strrchr(real, '/');
  if (slash) *slash = '\0';
  snprintf(ld.dir, sizeof ld.dir, "%s", slash == real ? "/" : real);
  /* the td that runs the games: this one */
  ssize_t n = readlink("/proc/self/exe", s->td, sizeof s->td - 1);
  if (n <= 0) snprintf(s->td, sizeof s->td, "td");
  else s->td[n] = '\0';
  td_lsandbox_limits lim = {.memory = SPEC_MEMORY};
  sb = td_lsandbox_create(&lim, err);
  if (!sb) goto fail;
  if (td_lsandbox_call(sb, path, make_env, &ld, 0, 1, err) != 0) goto fail;
  if (td_lsandbox_run(sb, path, buf, len, -1, err) != 0) goto fail;
  if (!ld.called) {
    td_err_set(err, "%s: no sweep{...} in the file (docs/sweep.md)", path);
    goto fail;
  }
  td_lsandbox_destroy(sb);
  sb = NULL;
  if (check_overrides(&ld, err) != 0) goto fail;
  td_mem_free(buf, cap);
  return s;
fail:
  td_lsandbox_destroy(sb);
  td_mem_free(buf, cap);
  free(s);
  return NULL;
}

void sweep_spec_free(sweep_spec *s) { free(s); }

static size_t override_combos(const sweep_spec *s) {
  size_t n = 1;
  for (size_t p = 0; p < s->nparams; p++) n *= s->params[p].nvalues;
  return n;
}

size_t sweep_job_count(const sweep_spec *s) {
  return s->nmaps * s->ndifficulties * s->nplayers * override_combos(s) * s->nseeds;
}

typedef struct argbuf {
  char **argv;
  int argc, max;
  char *buf;
  size_t used, cap;
  bool full;
} argbuf;

static void arg(argbuf *a, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void arg(argbuf *a, const char *fmt, ...) {
  if (a->full || a->argc + 1 >= a->max) {
    a->full = true;
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  int w = vsnprintf(a->buf + a->used, a->cap - a->used, fmt, ap);
  va_end(ap);
  if (w < 0 || (size_t)w >= a->cap - a->used) {
    a->full = true;
    return;
  }
  a->argv[a->argc++] = a->buf + a->used;
  a->used += (size_t)w + 1;
}

int sweep_job_argv(const sweep_spec *s, size_t i, char **argv, int max_args, char *buf,
                   size_t cap, char *key) {
  size_t seed = i % s->nseeds;
  i /= s->nseeds;
  size_t pick[SWEEP_MAX_PARAMS] = {0};
  for (size_t p = s->nparams; p-- > 0;) {
    pick[p] = i % s->params[p].nvalues;
    i /= s->params[p].nvalues;
  }
  const sweep_player *pl = &s->players[i % s->nplayers];
  i /= s->nplayers;
  td_difficulty d = s->difficulties[i % s->ndifficulties];
  size_t m = i / s->ndifficulties;
  argbuf a = {.argv = argv, .max = max_args, .buf = buf, .cap = cap};
  const char *strategy = pl->idle ? "-" : td_auto_strategy_name(pl->strategy);
  int kw = snprintf(key, SWEEP_KEY_MAX, "%s %s %s %s seed=%llu", s->map_names[m],
                    td_difficulty_name(d), pl->idle ? "idle" : "auto", strategy,
                    (unsigned long long)s->seeds[seed]);
  for (size_t p = 0; p < s->nparams && kw > 0 && kw < SWEEP_KEY_MAX; p++) {
    char num[32];
    td_override_number(s->params[p].values[pick[p]], num, sizeof num);
    kw += snprintf(key + kw, SWEEP_KEY_MAX - (size_t)kw, " %s%s%s", s->params[p].param,
                   s->params[p].op == TD_OVERRIDE_SCALE ? "*" : "=", num);
  }
  arg(&a, "%s", s->td);
  arg(&a, "sim");
  arg(&a, "--map");
  arg(&a, "%s", s->maps[m]);
  arg(&a, "--%s", pl->idle ? "idle" : "auto");
  if (!pl->idle && pl->strategy != TD_AUTO_DEFAULT) {
    arg(&a, "--strategy");
    arg(&a, "%s", strategy);
  }
  for (size_t k = 0; k < s->nmods; k++) {
    arg(&a, "--mod");
    arg(&a, "%s", s->mods[k]);
  }
  arg(&a, "--difficulty");
  arg(&a, "%s", td_difficulty_name(d));
  arg(&a, "--seed");
  arg(&a, "%llu", (unsigned long long)s->seeds[seed]);
  if (s->ticks) {
    arg(&a, "--ticks");
    arg(&a, "%llu", (unsigned long long)s->ticks);
  }
  for (size_t p = 0; p < s->nparams; p++) {
    char num[32];
    td_override_number(s->params[p].values[pick[p]], num, sizeof num);
    arg(&a, "--%s", td_override_op_name(s->params[p].op));
    arg(&a, "%s=%s", s->params[p].param, num);
  }
  arg(&a, "--json");
  arg(&a, "--tag");
  arg(&a, "%s", key);
  if (a.full || kw <= 0 || kw >= SWEEP_KEY_MAX) return -1;
  argv[a.argc] = NULL;
  return a.argc;
}

void sweep_print_command(FILE *f, char *const *argv) {
  for (int i = 0; argv[i]; i++) {
    const char *w = argv[i];
    bool plain = *w != '\0';
    for (const char *p = w; *p && plain; p++)
      plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+",
                     *p) != NULL;
    if (i) fputc(' ', f);
    if (plain) {
      fputs(w, f);
      continue;
    }
    fputc('\'', f);
    for (const char *p = w; *p; p++) {
      if (*p == '\'') fputs("'\\''", f);
      else fputc(*p, f);
    }
    fputc('\'', f);
  }
  fputc('\n', f);
}
