/*
** scenario.c: behaviour scenarios (scenario.h, docs/check.md): the file
** format's reader, the name resolution against a game, and the headless run.
**
** The reader is the C function behind `scenario { ... }`: it checks one
** table and appends a td_scenario, raising a plain message on the first
** problem ("scenario 'x': towers[2]: ..."); the file's loader adds the
** position (the line of the innermost Lua function: the `scenario {` call).
** Fields are never read in pairs() order: a table's names are checked
** against its schema keeping the smallest unknown one (strcmp), then read
** one by one in a fixed order.
*/
#include "game/scenario.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "game/game.h"
#include "script/lsandbox.h"
#include "script/modout.h"
#include "script/mod_int.h" /* mod_distance: the "did you mean" of the mod schemas */

static const char *const key_names[TD_SCENARIO_KEY_COUNT] = {
  "result", "lives", "gold", "wave", "ticks", "spawned", "kills", "leaks", "refused",
  "script_errors", "min_gap", "lane_error", "lane_swaps", "group_spread", "jitter", "orbits",
  "off_road", "off_road_depth", "first_leak", "held", "engaged", "soldier_deaths",
  "towers_destroyed", "route_updates",
};
static const char *const op_names[] = {"<", "<=", ">", ">=", "==", "~="};
static const char *const state_names[] = {"playing", "won", "lost"};
static const char *const mode_names[TD_TARGET_MODE_COUNT] = {"first", "last", "strongest",
                                                             "closest", "script"};

#define SCENARIO_FIELDS "name|map|mod|seed|ticks|stop|endless|towers|call_wave|expect"
#define ACTION_FIELDS "tick|base|tower|sell|upgrade|to|target|mode|rally|x|y|repair"

const char *td_scenario_key_name(td_scenario_key key) {
  return (unsigned)key < TD_SCENARIO_KEY_COUNT ? key_names[key] : "?";
}

const char *td_scenario_op_name(td_scenario_op op) {
  return (unsigned)op <= TD_SCENARIO_NE ? op_names[op] : "?";
}

/* ---- paths ---------------------------------------------------------------- */

/* dir/rel (rel as it is when absolute), lexically normalised: "." and empty
** components dropped, "x/.." folded. -1 when it does not fit. */
static int resolve_path(const char *file, const char *rel, char *out, size_t cap) {
  char joined[2 * TD_SCENARIO_PATH_MAX + 2];
  const char *slash = strrchr(file, '/');
  if (rel[0] == '/' || !slash)
    snprintf(joined, sizeof joined, "%s", rel);
  else
    snprintf(joined, sizeof joined, "%.*s/%s", (int)(slash - file + 1), file, rel);
  bool absolute = joined[0] == '/';
  char norm[sizeof joined];
  size_t len = 0, kept = 0; /* kept: components that a ".." may fold */
  for (char *p = joined; *p;) {
    size_t n = strcspn(p, "/");
    if (n == 0 || (n == 1 && p[0] == '.')) {
      /* skip */
    } else if (n == 2 && p[0] == '.' && p[1] == '.' && kept > 0) {
      while (len > 0 && norm[len - 1] != '/') len--;
      if (len > 0) len--;
      kept--;
    } else if (!(n == 2 && p[0] == '.' && p[1] == '.' && absolute && len == 0)) {
      if (len > 0 || absolute) norm[len++] = '/';
      memcpy(norm + len, p, n);
      len += n;
      if (!(n == 2 && p[0] == '.' && p[1] == '.')) kept++;
    }
    p += n;
    if (*p == '/') p++;
  }
  if (len == 0) norm[len++] = absolute ? '/' : '.';
  norm[len] = '\0';
  if (len >= cap) return -1;
  memcpy(out, norm, len + 1);
  return 0;
}

/* ---- the reader ----------------------------------------------------------- */

typedef struct loader {
  td_scenario_file *f;
  size_t cap;            /* f->items allocated */
} loader;

/* What is being read, for messages: "scenario 'x': towers[2]". */
typedef struct reader {
  lua_State *L;
  loader *ld;
  td_scenario *s;        /* NULL until the name is read */
  char field[64];        /* "" or "towers[2]" */
} reader;

static void fail(reader *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((noreturn, format(printf, 2, 3)))
#endif
    ;
static void fail(reader *r, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  char who[TD_SCENARIO_NAME_MAX + 16] = "scenario";
  if (r->s && r->s->name[0]) snprintf(who, sizeof who, "scenario '%s'", r->s->name);
  lua_pushfstring(r->L, "%s: %s%s%s", who, r->field, r->field[0] ? ": " : "", msg);
  lua_error(r->L);
  abort(); /* not reached */
}

/* " (did you mean 'x'?)" for the closest of the '|'-separated choices
** (distance <= 2, and less than the word), or "". */
static const char *suggest(const char *got, const char *choices, char *buf, size_t cap) {
  int best = 3;
  char pick[64] = "";
  for (const char *p = choices; *p;) {
    size_t n = strcspn(p, "|");
    char name[64];
    if (n < sizeof name) {
      memcpy(name, p, n);
      name[n] = '\0';
      int d = mod_distance(got, name);
      if (d < best && (size_t)d < strlen(got)) {
        best = d;
        memcpy(pick, name, n + 1);
      }
    }
    p += n + (p[n] == '|');
  }
  if (pick[0]) snprintf(buf, cap, " (did you mean '%s'?)", pick);
  else buf[0] = '\0';
  return buf;
}

static bool one_of(const char *word, const char *choices) {
  size_t n = strlen(word);
  for (const char *p = choices; *p;) {
    size_t k = strcspn(p, "|");
    if (k == n && strncmp(p, word, n) == 0) return true;
    p += k + (p[k] == '|');
  }
  return false;
}

/* The table at idx has only string keys out of `fields` (the smallest
** unknown one is reported, whatever pairs() order is). [-0, +0] */
static void check_fields(reader *r, int idx, const char *fields) {
  lua_State *L = r->L;
  idx = lua_absindex(L, idx);
  char unknown[64] = "";
  bool have = false;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    lua_pop(L, 1);
    if (lua_type(L, -1) != LUA_TSTRING) {
      const char *what = luaL_typename(L, -1);
      if (lua_isinteger(L, -1)) fail(r, "expected named fields, got a list entry [%lld]",
                                    (long long)lua_tointeger(L, -1));
      fail(r, "expected named fields, got a %s key", what);
    }
    const char *k = lua_tostring(L, -1);
    if (!one_of(k, fields) && (!have || strcmp(k, unknown) < 0)) {
      snprintf(unknown, sizeof unknown, "%s", k);
      have = true;
    }
  }
  if (have) {
    char hint[96];
    fail(r, "unknown field '%s'%s", unknown, suggest(unknown, fields, hint, sizeof hint));
  }
}

/* The entries of the list at idx: keys 1..n only. */
static size_t list_length(reader *r, int idx) {
  lua_State *L = r->L;
  idx = lua_absindex(L, idx);
  size_t n = (size_t)lua_rawlen(L, idx);
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    lua_pop(L, 1);
    lua_Integer k = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : 0;
    if (k < 1 || (lua_Unsigned)k > n) {
      if (lua_type(L, -1) == LUA_TSTRING)
        fail(r, "expected a list, got a field '%s' (put each entry in its own { })",
             lua_tostring(L, -1));
      fail(r, "expected a list (keys 1..n)");
    }
  }
  return n;
}

/* An integer in [lo, hi] (a float with an integral value counts). */
static uint64_t to_uint(reader *r, int idx, const char *what, uint64_t lo, uint64_t hi) {
  lua_State *L = r->L;
  if (lua_type(L, idx) != LUA_TNUMBER)
    fail(r, "%s: expected an integer, got %s", what, luaL_typename(L, idx));
  lua_Integer v;
  if (lua_isinteger(L, idx)) {
    v = lua_tointeger(L, idx);
  } else {
    lua_Number d = lua_tonumber(L, idx);
    if (!(d == floor(d)) || d < -9e15 || d > 9e15)
      fail(r, "%s: expected an integer, got %.14g", what, (double)d);
    v = (lua_Integer)d;
  }
  if (v < 0 || (uint64_t)v < lo || (uint64_t)v > hi)
    fail(r, "%s: %lld is out of range (%llu .. %llu)", what, (long long)v,
         (unsigned long long)lo, (unsigned long long)hi);
  return (uint64_t)v;
}

/* Pushes field k of the table at idx [-0, +1]; returns its type. */
static int get(reader *r, int idx, const char *k) {
  idx = lua_absindex(r->L, idx);
  lua_pushstring(r->L, k);
  return lua_rawget(r->L, idx);
}

static void get_string(reader *r, int idx, const char *k, char *out, size_t cap, bool required) {
  int t = get(r, idx, k);
  if (t == LUA_TNIL) {
    lua_pop(r->L, 1);
    if (required) fail(r, "field '%s' is missing", k);
    return;
  }
  if (t != LUA_TSTRING) fail(r, "%s: expected a string, got %s", k, lua_typename(r->L, t));
  size_t n;
  const char *s = lua_tolstring(r->L, -1, &n);
  if (n == 0) fail(r, "%s: is empty", k);
  if (n >= cap || strlen(s) != n) fail(r, "%s: longer than %zu characters", k, cap - 1);
  memcpy(out, s, n + 1);
  lua_pop(r->L, 1);
}

static bool get_uint(reader *r, int idx, const char *k, uint64_t lo, uint64_t hi, uint64_t *out) {
  if (get(r, idx, k) == LUA_TNIL) {
    lua_pop(r->L, 1);
    return false;
  }
  *out = to_uint(r, -1, k, lo, hi);
  lua_pop(r->L, 1);
  return true;
}

static void get_path(reader *r, int idx, const char *k, char *out) {
  char rel[TD_SCENARIO_PATH_MAX];
  get_string(r, idx, k, rel, sizeof rel, true);
  if (resolve_path(r->ld->f->path, rel, out, TD_SCENARIO_PATH_MAX) != 0)
    fail(r, "%s: the path is too long", k);
}

/* mod = "dir" or an array of directories (loaded in order). */
static void get_mods(reader *r, td_scenario *s) {
  lua_State *L = r->L;
  int t = get(r, 1, "mod");
  lua_pop(L, 1);
  if (t != LUA_TTABLE) {
    get_path(r, 1, "mod", s->mods[0]);
    s->nmods = 1;
  } else {
    get(r, 1, "mod");
    lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
    if (n < 1 || n > TD_MOD_MAX_MODS)
      fail(r, "mod: expected a directory or an array of 1 to %d, got %d entries", TD_MOD_MAX_MODS,
           (int)n);
    for (lua_Integer i = 1; i <= n; i++) {
      size_t len;
      if (lua_rawgeti(L, -1, i) != LUA_TSTRING || (lua_tolstring(L, -1, &len), len == 0))
        fail(r, "mod[%d]: expected a directory (a non-empty string)", (int)i);
      if (len >= TD_SCENARIO_PATH_MAX ||
          resolve_path(r->ld->f->path, lua_tostring(L, -1), s->mods[i - 1],
                       TD_SCENARIO_PATH_MAX) != 0)
        fail(r, "mod[%d]: the path is too long", (int)i);
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
    s->nmods = (size_t)n;
  }
  memcpy(s->mod, s->mods[0], sizeof s->mod);
}

/* ---- expectations --------------------------------------------------------- */

static const char *skip_space(const char *p) {
  while (*p == ' ' || *p == '\t') p++;
  return p;
}

/* One condition (the value on top of the stack) on key into e. */
static void parse_condition(reader *r, td_scenario_key key, td_scenario_expect *e) {
  lua_State *L = r->L;
  e->key = key;
  e->op = TD_SCENARIO_EQ;
  int t = lua_type(L, -1);
  if (t == LUA_TNUMBER && key != TD_SCENARIO_RESULT) {
    e->value = (double)lua_tonumber(L, -1);
  } else if (t == LUA_TSTRING) {
    const char *s = skip_space(lua_tostring(L, -1)), *p = s;
    static const struct { const char *text; td_scenario_op op; } ops[] = {
      {"<=", TD_SCENARIO_LE}, {">=", TD_SCENARIO_GE}, {"==", TD_SCENARIO_EQ},
      {"~=", TD_SCENARIO_NE}, {"!=", TD_SCENARIO_NE}, {"<", TD_SCENARIO_LT},
      {">", TD_SCENARIO_GT}};
    int op = -1;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0] && op < 0; i++)
      if (strncmp(p, ops[i].text, strlen(ops[i].text)) == 0) {
        op = (int)ops[i].op;
        p += strlen(ops[i].text);
      }
    p = skip_space(p);
    if (key == TD_SCENARIO_RESULT) {
      if (op >= 0 && op != TD_SCENARIO_EQ && op != TD_SCENARIO_NE)
        fail(r, "'%s': result takes == or ~= (or just a word): playing, won, lost", s);
      size_t n = strcspn(p, " \t");
      if (p[n + strspn(p + n, " \t")] != '\0') n = (size_t)-1;
      int v = -1;
      for (int i = 0; i < 3 && n != (size_t)-1; i++)
        if (strlen(state_names[i]) == n && strncmp(p, state_names[i], n) == 0) v = i;
      if (v < 0) fail(r, "'%s': expected playing, won or lost", s);
      e->op = op < 0 ? TD_SCENARIO_EQ : (td_scenario_op)op;
      e->value = v;
    } else {
      if (op < 0)
        fail(r, "'%s': expected an operator (<, <=, >, >=, ==, ~=) and a number, e.g. \"<= 3\"",
             s);
      char *end;
      double v = strtod(p, &end);
      if (end == p || *skip_space(end) != '\0' || !isfinite(v))
        fail(r, "'%s': expected a number after '%s'", s, op_names[op]);
      e->op = (td_scenario_op)op;
      e->value = v;
    }
  } else {
    fail(r, "expected %s, got %s",
         key == TD_SCENARIO_RESULT ? "\"won\", \"lost\" or \"playing\"" : "a string like \"> 0\" or a number",
         luaL_typename(L, -1));
  }
  if (key == TD_SCENARIO_RESULT)
    snprintf(e->text, sizeof e->text, "result %s %s", op_names[e->op], state_names[(int)e->value]);
  else
    snprintf(e->text, sizeof e->text, "%s %s %.6g", key_names[key], op_names[e->op], e->value);
}

static void read_expect(reader *r, int idx) {
  lua_State *L = r->L;
  td_scenario *s = r->s;
  int t = get(r, idx, "expect");
  snprintf(r->field, sizeof r->field, "expect");
  if (t == LUA_TNIL) fail(r, "is missing (a scenario checks something)");
  if (t != LUA_TTABLE) fail(r, "expected a table, got %s", lua_typename(L, t));
  char names[256] = "";
  for (int k = 0; k < TD_SCENARIO_KEY_COUNT; k++)
    snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? "|" : "",
             key_names[k]);
  check_fields(r, -1, names);
  /* count, then fill */
  size_t n = 0;
  for (int k = 0; k < TD_SCENARIO_KEY_COUNT; k++) {
    int kt = get(r, -1, key_names[k]);
    if (kt == LUA_TTABLE) {
      snprintf(r->field, sizeof r->field, "expect.%s", key_names[k]);
      size_t len = list_length(r, -1);
      if (len == 0) fail(r, "an empty list");
      n += len;
    } else if (kt != LUA_TNIL) {
      n++;
    }
    lua_pop(L, 1);
  }
  if (n == 0) {
    snprintf(r->field, sizeof r->field, "expect");
    fail(r, "is empty (a scenario checks something)");
  }
  s->expects = td_mem_calloc(n, sizeof *s->expects);
  if (!s->expects) fail(r, "out of memory");
  s->expect_count = n;
  size_t at = 0;
  for (int k = 0; k < TD_SCENARIO_KEY_COUNT; k++) {
    int kt = get(r, -1, key_names[k]);
    snprintf(r->field, sizeof r->field, "expect.%s", key_names[k]);
    if (kt == LUA_TTABLE) {
      size_t len = (size_t)lua_rawlen(L, -1);
      for (size_t i = 1; i <= len; i++) {
        lua_rawgeti(L, -1, (lua_Integer)i);
        snprintf(r->field, sizeof r->field, "expect.%s[%zu]", key_names[k], i);
        parse_condition(r, (td_scenario_key)k, &s->expects[at++]);
        lua_pop(L, 1);
      }
    } else if (kt != LUA_TNIL) {
      parse_condition(r, (td_scenario_key)k, &s->expects[at++]);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  r->field[0] = '\0';
}

/* ---- commands ------------------------------------------------------------- */

static int mode_of(const char *name) {
  for (int i = 0; i < TD_TARGET_MODE_COUNT; i++)
    if (!strcmp(mode_names[i], name)) return i;
  return -1;
}

/* A rally point's coordinate (map units): a finite number. */
static double get_coord(reader *r, const char *name) {
  lua_State *L = r->L;
  int t = get(r, -1, name);
  if (t == LUA_TNIL) fail(r, "field '%s' is missing (rally = ID needs x and y, map units)", name);
  if (!lua_isnumber(L, -1)) fail(r, "%s: expected a number, got %s", name, luaL_typename(L, -1));
  double v = lua_tonumber(L, -1);
  lua_pop(L, 1);
  if (!isfinite(v) || fabs(v) > 1e7) fail(r, "%s: %g is not a point on a map", name, v);
  return v;
}

/* towers[i] (on top of the stack) into a. */
static void read_tower_action(reader *r, td_scenario_action *a) {
  lua_State *L = r->L;
  if (!lua_istable(L, -1)) fail(r, "expected a table, got %s", luaL_typename(L, -1));
  check_fields(r, -1, ACTION_FIELDS);
  static const char *const verbs[] = {"tower", "sell", "upgrade", "target", "rally", "repair"};
  int verb = -1;
  for (int i = 0; i < 6; i++) {
    int t = get(r, -1, verbs[i]);
    lua_pop(L, 1);
    if (t == LUA_TNIL) continue;
    if (verb >= 0) fail(r, "'%s' and '%s' in one entry: give one command each", verbs[verb], verbs[i]);
    verb = i;
  }
  if (verb < 0)
    fail(r, "no command: give one of tower = \"TYPE\" (with base = ID), sell = ID, "
            "upgrade = ID, target = ID (with mode), rally = ID (with x, y), repair = ID");
  uint64_t v = 0;
  a->tick = get_uint(r, -1, "tick", 0, TD_SCENARIO_MAX_TICKS, &v) ? v : 0;
  bool has_base = get(r, -1, "base") != LUA_TNIL;
  lua_pop(L, 1);
  bool has_to = get(r, -1, "to") != LUA_TNIL;
  lua_pop(L, 1);
  bool has_mode = get(r, -1, "mode") != LUA_TNIL;
  lua_pop(L, 1);
  bool has_xy = get(r, -1, "x") != LUA_TNIL;
  lua_pop(L, 1);
  has_xy |= get(r, -1, "y") != LUA_TNIL;
  lua_pop(L, 1);
  if (has_xy && verb != 4) fail(r, "'x' and 'y' go with rally = ID");
  if (has_base && verb != 0) fail(r, "'base' goes with tower = \"TYPE\"; %s takes the base id itself", verbs[verb]);
  if (has_to && verb != 2) fail(r, "'to' goes with upgrade = ID");
  if (has_mode && verb != 3) fail(r, "'mode' goes with target = ID");
  switch (verb) {
  case 0:
    a->kind = TD_SCENARIO_PLACE;
    get_string(r, -1, "tower", a->name, sizeof a->name, true);
    if (!get_uint(r, -1, "base", 0, INT32_MAX, &v)) fail(r, "field 'base' is missing (a tower base's object id)");
    a->base_id = (int64_t)v;
    break;
  case 1:
    a->kind = TD_SCENARIO_SELL;
    get_uint(r, -1, "sell", 0, INT32_MAX, &v);
    a->base_id = (int64_t)v;
    break;
  case 2:
    a->kind = TD_SCENARIO_UPGRADE;
    get_uint(r, -1, "upgrade", 0, INT32_MAX, &v);
    a->base_id = (int64_t)v;
    get_string(r, -1, "to", a->name, sizeof a->name, false);
    break;
  case 4:
    a->kind = TD_SCENARIO_RALLY;
    get_uint(r, -1, "rally", 0, INT32_MAX, &v);
    a->base_id = (int64_t)v;
    a->x = (float)get_coord(r, "x");
    a->y = (float)get_coord(r, "y");
    break;
  case 5:
    a->kind = TD_SCENARIO_REPAIR;
    get_uint(r, -1, "repair", 0, INT32_MAX, &v);
    a->base_id = (int64_t)v;
    break;
  default: {
    a->kind = TD_SCENARIO_TARGET;
    get_uint(r, -1, "target", 0, INT32_MAX, &v);
    a->base_id = (int64_t)v;
    get_string(r, -1, "mode", a->name, sizeof a->name, true);
    if (mode_of(a->name) < 0) {
      char hint[96];
      if (!suggest(a->name, "first|last|strongest|closest|script", hint, sizeof hint)[0])
        snprintf(hint, sizeof hint, " (first, last, strongest, closest or script)");
      fail(r, "mode: unknown targeting mode '%s'%s", a->name, hint);
    }
    break;
  }
  }
}

static void read_actions(reader *r, int idx) {
  lua_State *L = r->L;
  td_scenario *s = r->s;
  size_t nt = 0, nw = 0;
  int tt = get(r, idx, "towers");
  snprintf(r->field, sizeof r->field, "towers");
  if (tt == LUA_TTABLE) nt = list_length(r, -1);
  else if (tt != LUA_TNIL) fail(r, "expected a list of tables, got %s", lua_typename(L, tt));
  int wt = get(r, idx, "call_wave");
  snprintf(r->field, sizeof r->field, "call_wave");
  if (wt == LUA_TTABLE) nw = list_length(r, -1);
  else if (wt == LUA_TNUMBER) nw = 1;
  else if (wt != LUA_TNIL) fail(r, "expected a tick or a list of ticks, got %s", lua_typename(L, wt));
  if (nt + nw > 0) {
    s->actions = td_mem_calloc(nt + nw, sizeof *s->actions);
    if (!s->actions) fail(r, "out of memory");
    s->action_count = nt + nw;
  }
  for (size_t i = 0; i < nw; i++) {
    td_scenario_action *a = &s->actions[nt + i];
    a->kind = TD_SCENARIO_CALL_WAVE;
    snprintf(a->field, sizeof a->field, "call_wave[%zu]", i + 1);
    snprintf(r->field, sizeof r->field, "%s", a->field);
    if (wt == LUA_TTABLE) lua_rawgeti(L, -1, (lua_Integer)i + 1);
    else lua_pushvalue(L, -1);
    a->tick = to_uint(r, -1, "tick", 0, TD_SCENARIO_MAX_TICKS);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  for (size_t i = 0; i < nt; i++) {
    td_scenario_action *a = &s->actions[i];
    snprintf(a->field, sizeof a->field, "towers[%zu]", i + 1);
    snprintf(r->field, sizeof r->field, "%s", a->field);
    lua_rawgeti(L, -1, (lua_Integer)i + 1);
    read_tower_action(r, a);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  r->field[0] = '\0';
  /* by tick, stable (an insertion sort: qsort is not stable) */
  for (size_t i = 1; i < s->action_count; i++) {
    td_scenario_action x = s->actions[i];
    size_t j = i;
    for (; j > 0 && s->actions[j - 1].tick > x.tick; j--) s->actions[j] = s->actions[j - 1];
    s->actions[j] = x;
  }
}

/* ---- scenario { ... } ------------------------------------------------------ */

static int l_scenario(lua_State *L) {
  loader *ld = lua_touserdata(L, lua_upvalueindex(1));
  reader r = {.L = L, .ld = ld};
  if (lua_gettop(L) != 1 || !lua_istable(L, 1))
    fail(&r, "expected one table: scenario { name = ..., map = ..., ... }");
  td_scenario_file *f = ld->f;
  td_scenario *grown = td_mem_grow(f->items, &ld->cap, f->count + 1, sizeof *f->items);
  if (!grown) fail(&r, "out of memory");
  f->items = grown;
  td_scenario *s = &f->items[f->count++];
  memset(s, 0, sizeof *s);
  lua_Debug ar;
  if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "l", &ar)) s->line = ar.currentline;
  r.s = s;
  /* the name first, when there is one, so that messages can name it */
  if (get(&r, 1, "name") == LUA_TSTRING && lua_rawlen(L, -1) < sizeof s->name)
    snprintf(s->name, sizeof s->name, "%s", lua_tostring(L, -1));
  lua_pop(L, 1);
  check_fields(&r, 1, SCENARIO_FIELDS);
  get_string(&r, 1, "name", s->name, sizeof s->name, true);
  for (size_t i = 0; i + 1 < f->count; i++)
    if (!strcmp(f->items[i].name, s->name))
      fail(&r, "a second scenario of that name (the first is at line %d)", f->items[i].line);
  get_path(&r, 1, "map", s->map);
  get_mods(&r, s);
  s->seed = 1;
  get_uint(&r, 1, "seed", 0, (uint64_t)INT64_MAX, &s->seed);
  s->ticks = TD_SCENARIO_DEFAULT_TICKS;
  get_uint(&r, 1, "ticks", 1, TD_SCENARIO_MAX_TICKS, &s->ticks);
  char stop[16] = "end";
  get_string(&r, 1, "stop", stop, sizeof stop, false);
  if (strcmp(stop, "end") != 0 && strcmp(stop, "ticks") != 0) {
    char hint[96];
    fail(&r, "stop: '%s' is neither \"end\" (won or lost) nor \"ticks\" (every tick)%s", stop,
         suggest(stop, "end|ticks", hint, sizeof hint));
  }
  s->until_end = !strcmp(stop, "end");
  int et = get(&r, 1, "endless");
  if (et != LUA_TNIL && et != LUA_TBOOLEAN) fail(&r, "endless: expected a boolean, got %s", lua_typename(L, et));
  s->endless = lua_toboolean(L, -1);
  lua_pop(L, 1);
  read_actions(&r, 1);
  read_expect(&r, 1);
  return 0;
}

/* [ud] -> [chunk] with _ENV = { scenario = l_scenario }. */
typedef struct chunk_args {
  loader *ld;
  const char *src;
  size_t len;
} chunk_args;

static int load_chunk(lua_State *L) {
  chunk_args *a = lua_touserdata(L, 1);
  lua_pushfstring(L, "=%s", a->ld->f->path);
  if (luaL_loadbufferx(L, a->src, a->len, lua_tostring(L, -1), "t") != LUA_OK) return lua_error(L);
  lua_newtable(L);
  lua_pushlightuserdata(L, a->ld);
  lua_pushcclosure(L, l_scenario, 1);
  lua_setfield(L, -2, "scenario");
  lua_setupvalue(L, -2, 1);
  return 1;
}

/* "file:line: message" from a report: Lua's own position (truncated chunk
** names) gives way to the report's, which has the full name. */
static void report_error(const char *path, const td_lsandbox_report *rep, td_err *err) {
  const char *msg = rep->message;
  size_t n = strlen(path), k = n < LUA_IDSIZE - 1 ? n : LUA_IDSIZE - 1;
  if (strncmp(msg, path, k) == 0 && msg[k] == ':') {
    const char *p = msg + k + 1;
    size_t digits = strspn(p, "0123456789");
    if (digits > 0 && p[digits] == ':') {
      msg = p + digits + 1;
      while (*msg == ' ') msg++;
    }
  }
  if (rep->where[0]) td_err_set(err, "%s: %s", rep->where, msg);
  else td_err_set(err, "%s: %s", path, msg);
}

void td_scenario_file_free(td_scenario_file *f) {
  if (!f) return;
  for (size_t i = 0; i < f->count; i++) {
    td_mem_free(f->items[i].actions, f->items[i].action_count * sizeof *f->items[i].actions);
    td_mem_free(f->items[i].expects, f->items[i].expect_count * sizeof *f->items[i].expects);
  }
  td_mem_free(f->items, f->cap * sizeof *f->items);
  memset(f, 0, sizeof *f);
}

int td_scenario_load(const char *path, td_scenario_file *f, td_err *err) {
  memset(f, 0, sizeof *f);
  if (strlen(path) >= sizeof f->path) return td_err_set(err, "%s: the path is too long", path);
  snprintf(f->path, sizeof f->path, "%s", path);
  char *src = NULL;
  size_t len = 0, cap = 0;
  if (td_mem_read_file(path, TD_SCENARIO_FILE_MAX, &src, &len, &cap, err) != 0) {
    memset(f, 0, sizeof *f);
    return -1;
  }
  td_lsandbox_limits lim = {.memory = TD_SCENARIO_MEMORY,
                            .instructions = TD_SCENARIO_INSTRUCTIONS,
                            .sticky_memory = 1};
  td_err serr;
  td_lsandbox *sb = td_lsandbox_create(&lim, &serr);
  if (!sb) {
    td_mem_free(src, cap);
    memset(f, 0, sizeof *f);
    return td_err_set(err, "%s: %s", path, serr.msg);
  }
  loader ld = {.f = f};
  chunk_args a = {.ld = &ld, .src = src, .len = len};
  int rc = td_lsandbox_call(sb, path, load_chunk, &a, 0, 1, err);
  if (rc == 0) {
    td_lsandbox_report rep;
    rc = td_lsandbox_pcall(sb, 0, 0, &rep);
    if (rc != 0) report_error(path, &rep, err);
  }
  td_lsandbox_destroy(sb);
  td_mem_free(src, cap);
  f->cap = ld.cap;
  if (rc == 0 && f->count == 0)
    rc = td_err_set(err, "%s: no scenario (write scenario { name = ..., ... })", path);
  if (rc != 0) {
    td_scenario_file_free(f);
    return -1;
  }
  return 0;
}

/* ---- names against the game ------------------------------------------------ */

typedef struct resolved {
  int32_t base;          /* index into the map's bases, -1: none */
  int32_t type;          /* tower type (PLACE) or mode (TARGET) */
} resolved;

static int resolve_fail(const td_scenario_file *f, const td_scenario *s,
                        const td_scenario_action *a, td_err *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static int resolve_fail(const td_scenario_file *f, const td_scenario *s,
                        const td_scenario_action *a, td_err *err, const char *fmt, ...) {
  char msg[360];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return td_err_set(err, "%s:%d: scenario '%s': %s: %s", f->path, s->line, s->name, a->field, msg);
}

/* "9, 10, 11" (the first few), for a message. */
static void list_bases(const td_map *map, char *buf, size_t cap) {
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < map->base_count && used + 16 < cap; i++) {
    if (i == 12) {
      snprintf(buf + used, cap - used, ", ...");
      return;
    }
    used += (size_t)snprintf(buf + used, cap - used, "%s%d", i ? ", " : "",
                             map->bases[i].object_id);
  }
}

static int resolve(const td_scenario_file *f, const td_scenario *s, const td_game *g,
                   resolved *out, td_err *err) {
  const td_map *map = td_game_map(g);
  const td_rules *rules = td_game_rules(g);
  for (size_t i = 0; i < s->action_count; i++) {
    const td_scenario_action *a = &s->actions[i];
    out[i] = (resolved){.base = -1, .type = -1};
    if (a->kind == TD_SCENARIO_CALL_WAVE) continue;
    const td_tower_base *b = td_map_find_base(map, a->base_id);
    if (!b) {
      char ids[128];
      list_bases(map, ids, sizeof ids);
      return resolve_fail(f, s, a, err, "no tower base with object id %lld on %s (its bases: %s)",
                          (long long)a->base_id, s->map, map->base_count ? ids : "none");
    }
    out[i].base = (int32_t)(b - map->bases);
    char names[TD_RULES_NAME_MAX * 64] = "", hint[96];
    if (a->kind == TD_SCENARIO_PLACE) {
      for (size_t t = 0; t < rules->tower_count; t++) {
        if (!strcmp(rules->towers[t].name, a->name)) out[i].type = (int32_t)t;
        if (strlen(names) + TD_RULES_NAME_MAX + 2 < sizeof names)
          snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", t ? "|" : "",
                   rules->towers[t].name);
      }
      if (out[i].type < 0)
        return resolve_fail(f, s, a, err, "unknown tower '%s'%s", a->name,
                            suggest(a->name, names, hint, sizeof hint));
    } else if (a->kind == TD_SCENARIO_UPGRADE && a->name[0]) {
      bool found = false;
      for (size_t l = 0; l < rules->level_count; l++) {
        found = found || !strcmp(rules->levels[l].name, a->name);
        if (strlen(names) + TD_RULES_NAME_MAX + 2 < sizeof names)
          snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", l ? "|" : "",
                   rules->levels[l].name);
      }
      if (!found)
        return resolve_fail(f, s, a, err, "to: unknown tower level '%s'%s", a->name,
                            suggest(a->name, names, hint, sizeof hint));
    } else if (a->kind == TD_SCENARIO_TARGET) {
      out[i].type = mode_of(a->name);
    }
  }
  return 0;
}

/* The game and the resolved names (out: action_count entries, or NULL). */
static td_game *start(const td_scenario_file *f, const td_scenario *s, resolved **out,
                      td_err *err) {
  const char *mods[TD_MOD_MAX_MODS];
  for (size_t i = 0; i < s->nmods; i++) mods[i] = s->mods[i];
  td_game_options o = {.map_path = s->map, .mod_dir = s->mod, .mod_dirs = mods,
                       .mod_count = s->nmods, .seed = s->seed, .endless = s->endless};
  td_err gerr;
  td_game *g = td_game_create(&o, &gerr);
  if (!g) {
    td_err_set(err, "%s:%d: scenario '%s': %s", f->path, s->line, s->name, gerr.msg);
    return NULL;
  }
  resolved *r = NULL;
  if (s->action_count) {
    r = td_mem_calloc(s->action_count, sizeof *r);
    if (!r) {
      td_err_set(err, "%s: out of memory", f->path);
      td_game_destroy(g);
      return NULL;
    }
  }
  if (resolve(f, s, g, r, err) != 0) {
    td_mem_free(r, s->action_count * sizeof *r);
    td_game_destroy(g);
    return NULL;
  }
  *out = r;
  return g;
}

int td_scenario_check(const td_scenario_file *f, const td_scenario *s, td_err *err) {
  resolved *r = NULL;
  td_game *g = start(f, s, &r, err);
  if (!g) return -1;
  td_mem_free(r, s->action_count * sizeof *r);
  td_game_destroy(g);
  return 0;
}

/* ---- the run --------------------------------------------------------------- */

/* The child of the tower's level on base named `name` ("": the first), or
** -1 (the world then refuses the upgrade). */
static int32_t upgrade_child(const td_world *w, int32_t base, const char *name) {
  td_tower_view tv;
  if (!td_world_tower(w, (size_t)base, &tv)) return -1;
  const td_rules *rules = td_world_rules(w);
  const td_tower_level *lv = &rules->levels[tv.level];
  for (int32_t c = 0; c < TD_RULES_MAX_CHILDREN && lv->children[c] >= 0; c++)
    if (!name[0] || !strcmp(rules->levels[lv->children[c]].name, name)) return c;
  return -1;
}

static int issue(td_game *g, const td_scenario_action *a, const resolved *r, uint64_t tick,
                 td_err *err) {
  td_command c = {.tick = tick, .base = r->base, .tower_type = -1};
  switch (a->kind) {
  case TD_SCENARIO_PLACE: c.kind = TD_COMMAND_PLACE; c.tower_type = r->type; break;
  case TD_SCENARIO_UPGRADE:
    c.kind = TD_COMMAND_UPGRADE;
    c.upgrade = upgrade_child(td_game_world(g), r->base, a->name);
    break;
  case TD_SCENARIO_SELL: c.kind = TD_COMMAND_SELL; break;
  case TD_SCENARIO_TARGET: c.kind = TD_COMMAND_TARGET; c.mode = (td_target_mode)r->type; break;
  case TD_SCENARIO_CALL_WAVE: c.kind = TD_COMMAND_CALL_WAVE; break;
  case TD_SCENARIO_RALLY:
    c.kind = TD_COMMAND_RALLY;
    c.x = a->x;
    c.y = a->y;
    break;
  case TD_SCENARIO_REPAIR: c.kind = TD_COMMAND_REPAIR; break;
  }
  return td_game_command(g, &c, err);
}

static void count_events(const td_world *w, const td_map *map, td_scenario_measure *m) {
  size_t n;
  const td_event *ev = td_world_events(w, &n);
  for (size_t i = 0; i < n; i++) {
    switch (ev[i].kind) {
    case TD_EVENT_SPAWNED: m->spawned++; break;
    case TD_EVENT_KILLED: m->kills++; break;
    case TD_EVENT_LEAKED:
      if (m->leaks++ == 0) m->first_leak = (double)ev[i].tick / TD_WORLD_TICK_HZ;
      break;
    case TD_EVENT_ENGAGED: m->engaged++; break;
    case TD_EVENT_SOLDIER_DIED: m->soldier_deaths++; break;
    case TD_EVENT_TOWER_DESTROYED: m->towers_destroyed++; break;
    case TD_EVENT_REFUSED:
      if (m->refused++ == 0) {
        char why[160];
        td_world_refusal_message(w, &ev[i], why, sizeof why);
        if (ev[i].base >= 0 && (size_t)ev[i].base < map->base_count)
          snprintf(m->first_refusal, sizeof m->first_refusal, "tick %llu: base %d: %s",
                   (unsigned long long)ev[i].tick, map->bases[ev[i].base].object_id, why);
        else
          snprintf(m->first_refusal, sizeof m->first_refusal, "tick %llu: %s",
                   (unsigned long long)ev[i].tick, why);
      }
      break;
    default: break;
    }
  }
  size_t cap = td_world_enemy_capacity(w);
  for (size_t i = 0; i < cap; i++) {
    td_enemy_view v;
    if (td_world_enemy(w, i, &v) && v.holder) m->held_ticks++;
  }
}

/* Route updates kept that changed the graph (a refused placement's trial,
** a pad's empty batch and a fallback's second count are not updates). */
static uint64_t route_updates(const td_world *w) {
  return td_route_get_stats(td_world_route(w))->applied_count;
}

int td_scenario_run(const td_scenario_file *f, const td_scenario *s, td_scenario_measure *m,
                    FILE *mod_out, td_err *err) {
  memset(m, 0, sizeof *m);
  m->first_leak = INFINITY;
  resolved *r = NULL;
  td_game *g = start(f, s, &r, err);
  if (!g) return -1;
  td_world *w = td_game_world(g);
  uint64_t updates0 = route_updates(w);
  /* The world keeps its crowd's metrics off (they cost a neighbour pass a
  ** tick) and hands the crowd out read-only; turning them on changes no
  ** movement, only what is measured. */
  td_crowd_enable_metrics((td_crowd *)td_world_crowd(w), true);
  int rc = 0;
  size_t next = 0;
  td_err gerr;
  td_modout mo = {0};
  char prefix[sizeof s->name + 16];
  snprintf(prefix, sizeof prefix, "scenario '%s': ", s->name);
  while (td_world_tick(w) < s->ticks) {
    if (s->until_end && td_world_state(w) != TD_GAME_PLAYING) break;
    uint64_t t = td_world_tick(w);
    for (; r && next < s->action_count && s->actions[next].tick <= t && rc == 0; next++)
      rc = issue(g, &s->actions[next], &r[next], t, &gerr);
    if (rc == 0) rc = td_game_step(g, &gerr);
    if (rc != 0) {
      td_err_set(err, "%s:%d: scenario '%s': tick %llu: %s", f->path, s->line, s->name,
                 (unsigned long long)t, gerr.msg);
      break;
    }
    count_events(w, td_game_map(g), m);
    if (mod_out) td_modout_flush(&mo, td_game_mod(g), mod_out, prefix);
  }
  if (mod_out) td_modout_flush(&mo, td_game_mod(g), mod_out, prefix);
  m->result = td_world_state(w);
  m->lives = td_world_lives(w);
  m->gold = td_world_gold(w);
  m->wave = td_world_wave(w);
  m->ticks = td_world_tick(w);
  m->script_errors = (int64_t)(td_mod_error_count(td_game_mod(g)) +
                               td_mod_errors_dropped(td_game_mod(g)));
  m->crowd = *td_crowd_get_metrics(td_world_crowd(w));
  m->route_updates = (int64_t)(route_updates(w) - updates0);
  td_mem_free(r, s->action_count * sizeof *r);
  td_game_destroy(g);
  return rc;
}

/* ---- judging ---------------------------------------------------------------- */

double td_scenario_value(const td_scenario_measure *m, td_scenario_key key) {
  switch (key) {
  case TD_SCENARIO_RESULT: return (double)m->result;
  case TD_SCENARIO_LIVES: return m->lives;
  case TD_SCENARIO_GOLD: return m->gold;
  case TD_SCENARIO_WAVE: return m->wave;
  case TD_SCENARIO_TICKS: return (double)m->ticks;
  case TD_SCENARIO_SPAWNED: return (double)m->spawned;
  case TD_SCENARIO_KILLS: return (double)m->kills;
  case TD_SCENARIO_LEAKS: return (double)m->leaks;
  case TD_SCENARIO_REFUSED: return (double)m->refused;
  case TD_SCENARIO_SCRIPT_ERRORS: return (double)m->script_errors;
  case TD_SCENARIO_MIN_GAP: return m->crowd.min_gap;
  case TD_SCENARIO_LANE_ERROR: return m->crowd.lane_error;
  case TD_SCENARIO_LANE_SWAPS: return (double)m->crowd.lane_swaps;
  case TD_SCENARIO_GROUP_SPREAD: return m->crowd.group_spread;
  case TD_SCENARIO_JITTER: return (double)m->crowd.jitter;
  case TD_SCENARIO_ORBITS: return (double)m->crowd.orbits;
  case TD_SCENARIO_OFF_ROAD: return (double)m->crowd.off_road;
  case TD_SCENARIO_OFF_ROAD_DEPTH: return m->crowd.off_road_depth;
  case TD_SCENARIO_FIRST_LEAK: return m->first_leak;
  case TD_SCENARIO_HELD: return (double)m->held_ticks / TD_WORLD_TICK_HZ;
  case TD_SCENARIO_ENGAGED: return (double)m->engaged;
  case TD_SCENARIO_SOLDIER_DEATHS: return (double)m->soldier_deaths;
  case TD_SCENARIO_TOWERS_DESTROYED: return (double)m->towers_destroyed;
  case TD_SCENARIO_ROUTE_UPDATES: return (double)m->route_updates;
  case TD_SCENARIO_KEY_COUNT: break;
  }
  return NAN;
}

bool td_scenario_holds(const td_scenario_expect *e, const td_scenario_measure *m) {
  double v = td_scenario_value(m, e->key), x = e->value;
  switch (e->op) {
  case TD_SCENARIO_LT: return v < x;
  case TD_SCENARIO_LE: return v <= x;
  case TD_SCENARIO_GT: return v > x;
  case TD_SCENARIO_GE: return v >= x;
  case TD_SCENARIO_EQ: return v == x;
  case TD_SCENARIO_NE: return !(v == x);
  }
  return false;
}

void td_scenario_format(const td_scenario_measure *m, td_scenario_key key, char *buf,
                        size_t cap) {
  double v = td_scenario_value(m, key);
  if (key == TD_SCENARIO_RESULT) snprintf(buf, cap, "%s", state_names[m->result]);
  else if (isinf(v) && key == TD_SCENARIO_FIRST_LEAK) snprintf(buf, cap, "inf (none leaked)");
  else if (isinf(v)) snprintf(buf, cap, "%s", v > 0 ? "inf (no two enemies met)" : "-inf");
  else snprintf(buf, cap, "%.6g", v);
}
