/*
** mod_hint.c: "did you mean" for names that are nil at run time: a hint
** for Lua's "attempt to call a nil value (global 'x')" and for a name td
** lacks, from td's functions and the failing handler's mod's globals.
*/
#include <stdio.h>
#include <string.h>

#include "script/mod_int.h"

typedef struct suggestion {
  const char *got;
  int best;              /* distance of pick; 3: none yet */
  char pick[80];
} suggestion;

/* Takes prefix..name as the pick if it is closer to got (as suggest_in of
** mod_data.c: fewer than 3 edits, and fewer than the longer name's length),
** ties broken by byte order so that the table order never matters. */
static void consider(suggestion *s, const char *prefix, const char *name) {
  int d = mod_distance(s->got, name);
  size_t gl = strlen(s->got), nl = strlen(name);
  if (d >= 3 || (size_t)d >= (gl > nl ? gl : nl)) return;
  char full[sizeof s->pick];
  snprintf(full, sizeof full, "%s%s", prefix, name);
  if (d < s->best || (d == s->best && strcmp(full, s->pick) < 0)) {
    s->best = d;
    memcpy(s->pick, full, sizeof full);
  }
}

static void consider_td(suggestion *s, const mod_version *v) {
  consider(s, "td.", "state");
  consider(s, "td.", "api_version");
  for (size_t i = 0; i < mod_builtin_td_count; i++) consider(s, "td.", mod_builtin_td[i].name);
  const td_mod_options *o = &v->mod->opt;
  for (size_t t = 0; t < o->api_count; t++)
    for (size_t i = 0; i < o->api[t].count; i++) consider(s, "td.", o->api[t].fns[i].name);
}

/* The name in "... a nil value (KIND 'name')" of a Lua error, or false. */
static bool nil_name(const char *msg, const char *kind, char *name, size_t size) {
  char pat[32];
  snprintf(pat, sizeof pat, "a nil value (%s '", kind);
  const char *p = strstr(msg, pat);
  if (!p) return false;
  p += strlen(pat);
  size_t n = strcspn(p, "'");
  if (p[n] != '\'' || n == 0 || n >= size) return false;
  memcpy(name, p, n);
  name[n] = '\0';
  return true;
}

/* A hint for Lua's "attempt to call (or index...) a nil value (global 'x')"
** and "(field 'x')" when td lacked x at that line: the closest name among
** td's functions and the mod's globals, or what the sandbox leaves out.
** Reads the environment without allocating (lua_next, string keys only),
** so it may run outside a protected call. */
void mod_hint_names(const mod_version *v, const td_lsandbox_report *rep, char *hint,
                    size_t size) {
  static const char *const absent[] = {"io", "os", "debug", "package", "require", "dofile",
                                       "loadfile", "coroutine", "warn", NULL};
  hint[0] = '\0';
  char name[64];
  suggestion s = {.got = name, .best = 3};
  if (nil_name(rep->message, "global", name, sizeof name)) {
    for (const char *const *a = absent; *a; a++)
      if (strcmp(*a, name) == 0) {
        snprintf(hint, size, " (%s is not available to mods)", name);
        return;
      }
    consider_td(&s, v);
    lua_State *L = td_lsandbox_state(v->sb);
    if (lua_checkstack(L, 4)) {
      /* the globals of the failing handler's own mod */
      int top = lua_gettop(L);
      if (mod_push_env(L, v->at) == LUA_TTABLE) {
        lua_pushnil(L);
        while (lua_next(L, -2)) {
          if (lua_type(L, -2) == LUA_TSTRING) consider(&s, "", lua_tostring(L, -2));
          lua_pop(L, 1);
        }
      }
      lua_settop(L, top);
    }
  } else if (nil_name(rep->message, "field", name, sizeof name) && strcmp(name, v->miss) == 0 &&
             strcmp(rep->where, v->miss_where) == 0) {
    consider_td(&s, v);
    if (!s.pick[0]) snprintf(hint, size, " (td has no '%s')", name);
  }
  if (s.pick[0]) snprintf(hint, size, " (did you mean '%s'?)", s.pick);
}
