/*
** mod.c: Lua mods: versions, the sandboxed environment, loading and
** include, handlers and their dispatch, error records and the print log,
** hot reload. See mod.h for the contract; mod_data.c does the data stage.
**
** Design notes.
** - One lua_State per version (lsandbox.h). Everything that may allocate in
**   it runs under td_lsandbox_pcall: the data stage is one call (load_main),
**   every handler is one call through a C trampoline that builds its
**   arguments. Outside those calls the C side only does what cannot
**   allocate (rawgetp/rawgeti, pushing light C functions and userdata).
** - The environment is built from the libraries' own open functions, then
**   copied entry by entry into a fresh table through a whitelist; the
**   registry's global table is replaced by that environment, so nothing
**   (load, a chunk's default _ENV) can reach the unfiltered one, which the
**   collector then frees. The shared string metatable is replaced by one
**   whose __index is the filtered string table and whose __metatable is
**   false, so getmetatable("") returns false and nothing can change it.
** - td is an empty proxy whose metatable (protected) reads from the real
**   table and refuses writes; rawset refuses the proxies (a registry set).
** - Handlers live in a registry array in registration order; the C side
**   keeps a record per handler (kind, disabled flag, definition site, mod).
** - Several mods: the environment built once is a template (env_key) no
**   script sees; each mod gets a copy (envs_key[i + 1]) whose library
**   tables are copies too, so one mod's globals and library changes stay
**   its own, while td (and td.state) is shared. The registry's global table
**   is the environment of the mod that runs (set before each mod's load
**   and each handler call), so load and included chunks get that mod's.
**   Each mod loads in a call of its own (its own instruction budget).
*/
#define _POSIX_C_SOURCE 200809L /* struct stat's st_mtim */

#include "script/mod.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <lauxlib.h>
#include <lualib.h>

#include "script/mod_int.h"
#include "nav/blob.h"

/* Registry keys (their addresses). */
static const char env_key = 'e', handlers_key = 'h', ro_key = 'r', inc_key = 'i', ids_key = 'n',
                  envs_key = 'm';

/* ---- shared helpers --------------------------------------------------------- */

void mod_fmt(char *dst, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(dst, size, fmt, ap);
  va_end(ap);
}

mod_version *mod_version_of(lua_State *L) { return lua_touserdata(L, lua_upvalueindex(1)); }

void *td_mod_host(lua_State *L) { return lua_touserdata(L, lua_upvalueindex(1)); }

static const char *source_name(const char *src) {
  return (*src == '=' || *src == '@') ? src + 1 : src;
}

void mod_where(lua_State *L, char *out, size_t size) {
  lua_Debug ar;
  for (int level = 1; lua_getstack(L, level, &ar); level++) {
    if (!lua_getinfo(L, "Sl", &ar) || ar.currentline <= 0) continue;
    snprintf(out, size, "%s:%d", source_name(ar.source), ar.currentline);
    return;
  }
  snprintf(out, size, "?");
}

void mod_raise(lua_State *L, const char *fmt, ...) {
  char where[MOD_WHERE], msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  mod_where(L, where, sizeof where);
  lua_pushfstring(L, "%s: %s", where, msg);
  lua_error(L);
  abort(); /* not reached */
}

int mod_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 40 || lb > 40) return 9;
  int row[41];
  for (size_t j = 0; j <= lb; j++) row[j] = (int)j;
  for (size_t i = 1; i <= la; i++) {
    int diag = row[0];
    row[0] = (int)i;
    for (size_t j = 1; j <= lb; j++) {
      int up = row[j];
      int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      int best = diag + cost;
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[lb] > 9 ? 9 : row[lb];
}

static const char *event_name_of(mod_handler_kind kind, td_event_kind ev) {
  if (kind == H_TICK) return "tick";
  const mod_event *e = mod_event_by_kind(ev);
  return e ? e->name : "?";
}

mod_handler *mod_add_handler(lua_State *L, mod_version *v, int fidx, mod_handler_kind kind) {
  fidx = lua_absindex(L, fidx);
  mod_handler *h = td_mem_grow(v->h, &v->hcap, v->hn + 1, sizeof *v->h);
  if (!h) {
    luaL_error(L, "out of memory");
    abort(); /* not reached: luaL_error raises */
  }
  v->h = h;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &handlers_key);
  lua_pushvalue(L, fidx);
  lua_rawseti(L, -2, (lua_Integer)v->hn + 1);
  lua_pop(L, 1);
  h = &v->h[v->hn];
  memset(h, 0, sizeof *h);
  h->kind = kind;
  h->tower = -1;
  h->mod = v->at;
  lua_Debug ar;
  lua_pushvalue(L, fidx);
  if (lua_getinfo(L, ">S", &ar))
    snprintf(h->where, sizeof h->where, "%s:%d", source_name(ar.source), ar.linedefined);
  v->hn++;
  return h;
}

/* The ordinal of the last handler among its mod's of its kind (and event). */
static void number_handler(mod_version *v) {
  mod_handler *h = &v->h[v->hn - 1];
  int ord = 0;
  for (size_t i = 0; i < v->hn; i++)
    if (v->h[i].kind == h->kind && v->h[i].mod == h->mod &&
        (h->kind != H_EVENT || v->h[i].event == h->event))
      ord++;
  h->ord = ord;
}

/* ---- the print log and the error records ------------------------------------ */

static void log_line(td_mod *m, const char *s, size_t len) {
  if (!m->log) return;
  m->log_total++;
  size_t slot;
  if (m->log_count < TD_MOD_LOG_LINES) slot = (m->log_first + m->log_count++) % TD_MOD_LOG_LINES;
  else slot = m->log_first, m->log_first = (m->log_first + 1) % TD_MOD_LOG_LINES;
  if (len > TD_MOD_LOG_LINE_MAX - 1) len = TD_MOD_LOG_LINE_MAX - 1;
  memcpy(m->log[slot], s, len);
  m->log[slot][len] = '\0';
}

static void record_error(td_mod *m, const td_mod_error *e) {
  if (m->nerrors >= TD_MOD_MAX_ERRORS) {
    m->errors_dropped++;
    return;
  }
  td_mod_error *p = td_mem_grow(m->errors, &m->error_cap, m->nerrors + 1, sizeof *p);
  if (!p) {
    m->errors_dropped++;
    return;
  }
  m->errors = p;
  m->errors[m->nerrors++] = *e;
}

/* Lua shortens chunk names past LUA_IDSIZE - 1 characters (keeping the
** start) in messages and tracebacks: put the version's full file names
** back where a shortened one begins a position ("name:line"). */
static void expand_names(const mod_version *v, const char *in, char *out, size_t size) {
  size_t o = 0;
  for (size_t i = 0; in[i] && o + 1 < size;) {
    bool boundary = i == 0 || in[i - 1] == '\n' || in[i - 1] == '\t' || in[i - 1] == '<' ||
                    in[i - 1] == ' ';
    const char *full = NULL;
    size_t k = 0;
    for (size_t f = 0; boundary && f < v->nfiles && !full; f++) {
      size_t n = strlen(v->files[f].path);
      if (n <= LUA_IDSIZE - 1) continue;
      k = LUA_IDSIZE - 1;
      if (strncmp(in + i, v->files[f].path, k) == 0 && in[i + k] == ':') full = v->files[f].path;
    }
    if (full) {
      o += (size_t)snprintf(out + o, size - o, "%s", full);
      if (o >= size) o = size - 1;
      i += k;
    } else {
      out[o++] = in[i++];
    }
  }
  out[o] = '\0';
}

static bool starts_with_file(const mod_version *v, const char *msg) {
  for (size_t f = 0; f < v->nfiles; f++) {
    size_t n = strlen(v->files[f].path);
    if (strncmp(msg, v->files[f].path, n) == 0 && msg[n] == ':') return true;
  }
  return false;
}

/* One line "file:line: message" from a report; fallback names the place
** when Lua gave none. */
static void format_report(const mod_version *v, const td_lsandbox_report *rep,
                          const char *fallback, char *out, size_t size) {
  char msg[sizeof rep->message], hint[128] = "";
  expand_names(v, rep->message, msg, sizeof msg);
  if (rep->status == TD_LSANDBOX_ERROR) mod_hint_names(v, rep, hint, sizeof hint);
  const char *where = rep->where[0] ? rep->where : fallback;
  if (rep->status == TD_LSANDBOX_ERROR && starts_with_file(v, msg))
    mod_fmt(out, size, "%s%s", msg, hint);
  else
    mod_fmt(out, size, "%s: %s%s", where, msg, hint);
  for (char *p = out; *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f) *p = ' ';
}

/* ---- globals of the sandbox ------------------------------------------------- */

/* A value as tostring shows it, without addresses: a table, function,
** coroutine or userdata with no __tostring or __name is "table #12", its
** number given the first time it is shown (a weak table in the registry),
** so the text depends only on what the scripts did, never on where the
** allocator put things (which differs run to run). Pushes the string. */
static const char *mod_tolstring(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  int t = lua_type(L, idx);
  bool object = t == LUA_TTABLE || t == LUA_TFUNCTION || t == LUA_TTHREAD ||
                t == LUA_TUSERDATA || t == LUA_TLIGHTUSERDATA;
  if (object && luaL_getmetafield(L, idx, "__tostring") != LUA_TNIL) {
    lua_pop(L, 1);
    object = false;
  }
  if (object && luaL_getmetafield(L, idx, "__name") != LUA_TNIL) {
    lua_pop(L, 1);
    object = false;
  }
  if (!object) return luaL_tolstring(L, idx, NULL); /* __tostring under the call's limits */
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &ids_key) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L); /* ids: object -> number, weak keys; [ids] = the last number */
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &ids_key);
  }
  int ids = lua_gettop(L);
  lua_pushvalue(L, idx);
  lua_Integer id;
  if (lua_rawget(L, ids) == LUA_TNUMBER) {
    id = lua_tointeger(L, -1);
  } else {
    lua_rawgetp(L, ids, &ids_key);
    id = lua_tointeger(L, -1) + 1; /* nil: 0 */
    lua_pop(L, 1);
    lua_pushinteger(L, id);
    lua_rawsetp(L, ids, &ids_key);
    lua_pushvalue(L, idx);
    lua_pushinteger(L, id);
    lua_rawset(L, ids);
  }
  lua_pop(L, 2);
  return lua_pushfstring(L, "%s #%I", luaL_typename(L, idx), id);
}

static int l_tostring(lua_State *L) {
  luaL_checkany(L, 1);
  mod_tolstring(L, 1);
  return 1;
}

/* string.format without addresses: %p is refused, and a %s of a table (or
** function...) shows it as tostring does. */
static int l_format(lua_State *L) {
  size_t len;
  const char *f = luaL_checklstring(L, 1, &len);
  int n = lua_gettop(L), arg = 1;
  for (size_t i = 0; i < len; i++) {
    if (f[i] != '%') continue;
    if (++i < len && f[i] == '%') continue;
    while (i < len && strchr("-+ #0123456789.", f[i])) i++; /* flags, width, precision */
    if (i >= len) break; /* string.format says what is wrong */
    if (f[i] == 'p') return luaL_error(L, "string.format: %%p is not available (an address "
                                          "differs from run to run)");
    if (++arg > n) break;
    if (f[i] == 's' && lua_type(L, arg) != LUA_TSTRING && lua_type(L, arg) != LUA_TNUMBER) {
      mod_tolstring(L, arg);
      lua_replace(L, arg);
    }
  }
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, n, 1);
  return 1;
}

static int l_print(lua_State *L) {
  mod_version *v = mod_version_of(L);
  if (v->replaying) return 0; /* a wave script replayed after a load printed this already */
  int n = lua_gettop(L);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (int i = 1; i <= n; i++) {
    if (i > 1) luaL_addchar(&b, '\t');
    mod_tolstring(L, i);
    luaL_addvalue(&b);
  }
  luaL_pushresult(&b);
  size_t len;
  const char *s = lua_tolstring(L, -1, &len);
  log_line(v->mod, s, len);
  return 0;
}

static int l_collectgarbage(lua_State *L) {
  const char *opt = luaL_optstring(L, 1, "collect");
  if (strcmp(opt, "count") != 0)
    mod_raise(L, "collectgarbage: only \"count\" is allowed, got \"%s\"", opt);
  lua_pushnumber(L, (lua_Number)lua_gc(L, LUA_GCCOUNT, 0) +
                        (lua_Number)lua_gc(L, LUA_GCCOUNTB, 0) / 1024);
  return 1;
}

static int l_rawset(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checkany(L, 2);
  luaL_checkany(L, 3);
  lua_settop(L, 3);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &ro_key);
  lua_pushvalue(L, 1);
  if (lua_rawget(L, -2) != LUA_TNIL) mod_raise(L, "td is read-only");
  lua_settop(L, 3);
  lua_rawset(L, 1);
  return 1;
}

/* setmetatable without finalizers: Lua runs __gc with hooks off (outside
** any instruction budget), so a looping finalizer would hang the game. Lua
** marks an object for finalization only if its metatable has __gc when it
** is set, so checking here is enough. */
static int l_setmetatable(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  int t = lua_type(L, 2);
  luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
  if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL)
    return luaL_error(L, "cannot change a protected metatable");
  if (t == LUA_TTABLE) {
    lua_pushliteral(L, "__gc");
    if (lua_rawget(L, 2) != LUA_TNIL)
      mod_raise(L, "setmetatable: __gc metamethods are not allowed in mods");
    lua_pop(L, 1);
  }
  lua_settop(L, 2);
  lua_setmetatable(L, 1);
  return 1;
}

/* xpcall as pcall followed by the handler: Lua calls a message handler
** with hooks off when the error comes from the instruction hook, so a
** looping handler would escape the budget. Without the debug library a
** handler cannot see the stack anyway, so running it after the unwinding
** changes nothing a mod can observe. */
static int l_xpcall(lua_State *L) {
  int n = lua_gettop(L);
  luaL_checkany(L, 1);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  luaL_checkstack(L, n + 2, "xpcall");
  lua_pushvalue(L, 1);
  for (int i = 3; i <= n; i++) lua_pushvalue(L, i);
  if (lua_pcall(L, n - 2, LUA_MULTRET, 0) == LUA_OK) {
    lua_pushboolean(L, 1);
    lua_rotate(L, n + 1, 1);
    return lua_gettop(L) - n;
  }
  lua_pushvalue(L, 2);
  lua_insert(L, n + 1);
  lua_pcall(L, 1, 1, 0); /* the handler's result, or its error */
  lua_pushboolean(L, 0);
  lua_insert(L, n + 1);
  return 2;
}

static int l_readonly(lua_State *L) {
  mod_raise(L, "td is read-only");
}

/* __index of td's real table: a name td lacks reads as nil (a mod may test
** for a function), and is remembered with its position, so that the error
** if the mod then calls or indexes it can say "did you mean" (hint_names). */
static int l_td_miss(lua_State *L) {
  mod_version *v = mod_version_of(L);
  size_t len;
  const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tolstring(L, 2, &len) : NULL;
  if (k && len < sizeof v->miss && strlen(k) == len) {
    memcpy(v->miss, k, len + 1);
    mod_where(L, v->miss_where, sizeof v->miss_where);
  }
  return 0;
}

/* load(chunk [, chunkname [, mode]]): text only, the mod's environment. */
static int l_load(lua_State *L) {
  size_t len;
  if (lua_type(L, 1) != LUA_TSTRING)
    mod_raise(L, "load: the chunk must be a string (got %s)", luaL_typename(L, 1));
  const char *s = lua_tolstring(L, 1, &len);
  const char *name = luaL_optstring(L, 2, NULL);
  const char *mode = luaL_optstring(L, 3, "t");
  if (strcmp(mode, "t") != 0) mod_raise(L, "load: only text chunks (mode \"t\")");
  if (!lua_isnoneornil(L, 4))
    mod_raise(L, "load: no env argument: chunks run in the mod's environment");
  const char *chunkname = name ? lua_pushfstring(L, "=(load %s)", name) : "=(load)";
  /* the registry's globals are the mod's environment: the chunk's _ENV */
  if (luaL_loadbufferx(L, s, len, chunkname, "t") == LUA_OK) return 1;
  lua_pushnil(L);
  lua_insert(L, -2);
  return 2;
}

/* Pattern matching runs in C, where the instruction hook never fires, and
** backtracking makes it polynomial in the subject's length with a degree
** of the number of variable-length quantifiers: "('a'):rep(1e5):find(
** '.-.-.-.-b')" would freeze the game. find, match, gmatch and gsub refuse
** a call whose worst case, len^(quantifiers + 1), passes MOD_PATTERN_COST. */
#define MOD_PATTERN_COST 1e8

static int quantifiers(const char *p, size_t len) {
  int q = 0;
  for (size_t i = 0; i < len; i++) {
    if (p[i] == '%') {
      i++; /* an escape or a class: %b and %f take two more */
      if (i < len && (p[i] == 'b')) i += 2;
    } else if (p[i] == '[') {
      for (i++; i < len && p[i] != ']'; i++)
        if (p[i] == '%') i++;
    } else if (p[i] == '*' || p[i] == '+' || p[i] == '-') {
      q++;
    }
  }
  return q;
}

static int l_pattern_guard(lua_State *L) {
  size_t slen, plen;
  luaL_checklstring(L, 1, &slen);
  const char *p = luaL_checklstring(L, 2, &plen);
  bool plain = lua_tointeger(L, lua_upvalueindex(2)) == 1 && lua_toboolean(L, 4);
  if (!plain) {
    int q = quantifiers(p, plen);
    double cost = pow((double)slen + 1, q + 1);
    if (cost > MOD_PATTERN_COST)
      mod_raise(L, "pattern with %d variable-length quantifier(s) on a subject of %zu bytes: "
                "too costly (C code, outside the instruction budget)", q, slen);
  }
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

/* ---- sorted_pairs ---------------------------------------------------------- */

/* Compares integer i with float d exactly (d is not NaN). */
static int cmp_int_float(lua_Integer i, lua_Number d) {
  if (d >= 9223372036854775808.0) return -1;
  if (d < -9223372036854775808.0) return 1;
  lua_Number fl = floor(d);
  lua_Integer fi = (lua_Integer)fl;
  if (i != fi) return i < fi ? -1 : 1;
  return fl < d ? -1 : 0;
}

int mod_cmp_key(const void *pa, const void *pb) {
  const mod_key *a = pa, *b = pb;
  if (a->type != b->type) return a->type == LUA_TNUMBER ? -1 : 1;
  if (a->type == LUA_TSTRING) {
    int c = memcmp(a->s, b->s, a->len < b->len ? a->len : b->len);
    return c ? c : (a->len > b->len) - (a->len < b->len);
  }
  if (a->isint && b->isint) return (a->i > b->i) - (a->i < b->i);
  if (!a->isint && !b->isint) return (a->d > b->d) - (a->d < b->d);
  return a->isint ? cmp_int_float(a->i, b->d) : -cmp_int_float(b->i, a->d);
}

void mod_key_read(lua_State *L, int idx, mod_key *e) {
  e->type = lua_type(L, idx);
  if (e->type == LUA_TSTRING) {
    e->s = lua_tolstring(L, idx, &e->len);
  } else if (lua_isinteger(L, idx)) {
    e->isint = 1;
    e->i = lua_tointeger(L, idx);
  } else {
    e->isint = 0;
    e->d = lua_tonumber(L, idx);
  }
}

void mod_key_push(lua_State *L, const mod_key *k) {
  if (k->type == LUA_TSTRING) lua_pushlstring(L, k->s, k->len);
  else if (k->isint) lua_pushinteger(L, k->i);
  else lua_pushnumber(L, k->d);
}

static int sorted_next(lua_State *L) {
  lua_Integer i = lua_tointeger(L, lua_upvalueindex(3)) + 1;
  if (lua_rawgeti(L, lua_upvalueindex(1), i) == LUA_TNIL) return 1;
  lua_pushinteger(L, i);
  lua_replace(L, lua_upvalueindex(3));
  lua_pushvalue(L, -1);
  lua_rawget(L, lua_upvalueindex(2));
  return 2;
}

static int l_sorted_pairs(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  size_t n = 0;
  lua_pushnil(L);
  while (lua_next(L, 1)) {
    lua_pop(L, 1);
    int t = lua_type(L, -1);
    if (t != LUA_TNUMBER && t != LUA_TSTRING)
      mod_raise(L, "sorted_pairs: keys must be numbers or strings, got a %s key",
                lua_typename(L, t));
    n++;
  }
  if (n > (size_t)INT32_MAX) mod_raise(L, "sorted_pairs: table too large");
  mod_key *k = lua_newuserdatauv(L, (n ? n : 1) * sizeof *k, 0); /* [2] scratch */
  size_t i = 0;
  lua_pushnil(L);
  while (lua_next(L, 1)) {
    lua_pop(L, 1);
    mod_key_read(L, -1, &k[i++]); /* t anchors its keys */
  }
  qsort(k, n, sizeof *k, mod_cmp_key);
  lua_createtable(L, (int)n, 0); /* [3] the keys in order */
  for (i = 0; i < n; i++) {
    mod_key_push(L, &k[i]);
    lua_rawseti(L, 3, (lua_Integer)i + 1);
  }
  lua_pushvalue(L, 1);
  lua_pushinteger(L, 0);
  lua_pushcclosure(L, sorted_next, 3);
  lua_pushvalue(L, 1);
  lua_pushnil(L);
  return 3;
}

/* ---- math.random ------------------------------------------------------------- */

static uint32_t draw32(td_mod *m) {
  if (m->opt.random) return m->opt.random(m->opt.random_ud);
  m->rng ^= m->rng >> 12; /* xorshift64* */
  m->rng ^= m->rng << 25;
  m->rng ^= m->rng >> 27;
  return (uint32_t)((m->rng * 0x2545F4914F6CDD1Dull) >> 32);
}

static uint64_t draw64(td_mod *m) {
  uint64_t hi = draw32(m);
  return hi << 32 | draw32(m);
}

/* Uniform in [0, lim], by rejection on the smallest covering mask. */
static uint64_t project(td_mod *m, uint64_t lim) {
  if (lim == 0) return 0;
  uint64_t mask = lim;
  mask |= mask >> 1;
  mask |= mask >> 2;
  mask |= mask >> 4;
  mask |= mask >> 8;
  mask |= mask >> 16;
  mask |= mask >> 32;
  uint64_t r;
  do r = (lim <= UINT32_MAX ? draw32(m) : draw64(m)) & mask;
  while (r > lim);
  return r;
}

static int draw_random(lua_State *L) {
  td_mod *m = mod_version_of(L)->mod;
  lua_Integer low, up;
  switch (lua_gettop(L)) {
  case 0:
    lua_pushnumber(L, (lua_Number)(draw64(m) >> 11) * 0x1.0p-53);
    return 1;
  case 1:
    low = 1;
    up = luaL_checkinteger(L, 1);
    if (up == 0) {
      lua_pushinteger(L, (lua_Integer)draw64(m));
      return 1;
    }
    break;
  case 2:
    low = luaL_checkinteger(L, 1);
    up = luaL_checkinteger(L, 2);
    break;
  default: return luaL_error(L, "wrong number of arguments");
  }
  luaL_argcheck(L, low <= up, lua_gettop(L), "interval is empty");
  uint64_t r = project(m, (uint64_t)up - (uint64_t)low);
  uint64_t x = r + (uint64_t)low; /* wraps into [low, up] */
  lua_pushinteger(L, (lua_Integer)x);
  return 1;
}

static int l_random(lua_State *L) {
  return mod_wave_taped(L, mod_version_of(L), "math.random", draw_random);
}

/* ---- include ----------------------------------------------------------------- */

static bool safe_name(const char *s, size_t len) {
  if (len == 0 || len > 200 || s[0] == '/') return false;
  if (len < 5 || strcmp(s + len - 4, ".lua") != 0) return false;
  for (size_t i = 0; i < len; i++) {
    char c = s[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '.' || c == '/';
    if (!ok) return false;
  }
  /* no empty, "." or ".." component */
  for (const char *p = s; *p;) {
    size_t n = strcspn(p, "/");
    if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.')) return false;
    p += n;
    if (*p == '/') p++;
  }
  return true;
}

static void stamp(mod_file *f) {
  struct stat st;
  f->stat_ok = stat(f->path, &st) == 0;
  if (!f->stat_ok) return;
  f->size = (long long)st.st_size;
  f->mtime_sec = (long long)st.st_mtim.tv_sec;
  f->mtime_nsec = (long long)st.st_mtim.tv_nsec;
}

/* Loads and runs dir/name once; later includes return the first result.
** [-0, +1] */
static int include_file(lua_State *L, mod_version *v, const char *name) {
  td_mod *m = v->mod;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &inc_key);
  int cache = lua_gettop(L);
  const char *key = lua_pushfstring(L, "%s/%s", m->dir, name); /* each mod's own files */
  int t = lua_getfield(L, cache, key);
  if (t == LUA_TLIGHTUSERDATA) mod_raise(L, "include \"%s\": it is being included (a cycle)", name);
  if (t != LUA_TNIL) {
    lua_replace(L, cache);
    lua_settop(L, cache);
    return 1;
  }
  lua_pop(L, 1);
  if (v->nfiles - v->first_file[v->at] >= TD_MOD_MAX_FILES)
    mod_raise(L, "include: more than %d files", TD_MOD_MAX_FILES);
  mod_file *files = td_mem_grow(v->files, &v->fcap, v->nfiles + 1, sizeof *files);
  if (!files) {
    luaL_error(L, "out of memory");
    abort(); /* not reached */
  }
  v->files = files;
  mod_file *f = &v->files[v->nfiles++];
  memset(f, 0, sizeof *f);
  mod_fmt(f->path, sizeof f->path, "%s/%s", m->dir, name);
  stamp(f);
  td_err err;
  char *buf;
  size_t len, cap;
  if (td_mem_read_file(f->path, TD_MOD_MAX_FILE_BYTES, &buf, &len, &cap, &err) != 0) {
    if (strstr(err.msg, "out of memory")) luaL_error(L, "out of memory");
    lua_pushstring(L, err.msg);
    lua_error(L);
  }
  v->pend = buf; /* freed by the version if the load below raises */
  v->pend_cap = cap;
  v->hash = td_blob_fnv(td_blob_fnv(v->hash, name, strlen(name) + 1), buf, len);
  v->hashes[v->at] =
      td_blob_fnv(td_blob_fnv(v->hashes[v->at], name, strlen(name) + 1), buf, len);
  const char *src = buf;
  if (len >= 3 && memcmp(src, "\xEF\xBB\xBF", 3) == 0) src += 3, len -= 3;
  lua_pushfstring(L, "=%s", f->path);
  int st = luaL_loadbufferx(L, src, len, lua_tostring(L, -1), "t");
  td_mem_free(buf, cap);
  v->pend = NULL;
  v->pend_cap = 0;
  if (st != LUA_OK) lua_error(L); /* "file:line: message" */
  lua_remove(L, -2); /* the chunk name */
  lua_pushlightuserdata(L, (void *)&inc_key); /* in progress */
  lua_setfield(L, cache, key);
  v->include_depth++;
  lua_call(L, 0, 1);
  v->include_depth--;
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    lua_pushboolean(L, 1);
  }
  lua_pushvalue(L, -1);
  lua_setfield(L, cache, key);
  lua_replace(L, cache);
  lua_settop(L, cache);
  return 1;
}

static int l_include(lua_State *L) {
  mod_version *v = mod_version_of(L);
  if (!v->loading) mod_raise(L, "include: only while the mod loads");
  size_t len;
  if (lua_type(L, 1) != LUA_TSTRING)
    mod_raise(L, "include expects a file name (a string), got %s", luaL_typename(L, 1));
  const char *name = lua_tolstring(L, 1, &len);
  if (strlen(name) != len || !safe_name(name, len))
    mod_raise(L, "include \"%s\": not a file of this mod (a relative name ending in .lua, "
              "letters, digits, _ - . /, no \"..\")", name);
  lua_settop(L, 1);
  return include_file(L, v, name);
}

/* ---- td.on, td.every, host functions ----------------------------------------- */

static int l_on(lua_State *L) {
  mod_version *v = mod_version_of(L);
  if (!v->loading) mod_raise(L, "td.on: handlers are registered while the mod loads");
  const char *name = lua_type(L, 1) == LUA_TSTRING ? lua_tostring(L, 1) : NULL;
  if (!name) mod_raise(L, "td.on expects an event name, got %s", luaL_typename(L, 1));
  if (lua_type(L, 2) != LUA_TFUNCTION)
    mod_raise(L, "td.on(\"%s\", f): f must be a function, got %s", name, luaL_typename(L, 2));
  const mod_event *ev = NULL;
  for (size_t i = 0; i < mod_event_count && !ev; i++)
    if (strcmp(mod_events[i].name, name) == 0) ev = &mod_events[i];
  if (!ev && strcmp(name, "tick") != 0) {
    const char *best = "tick";
    int d = mod_distance(name, "tick");
    for (size_t i = 0; i < mod_event_count; i++) {
      int di = mod_distance(name, mod_events[i].name);
      if (di < d) d = di, best = mod_events[i].name;
    }
    if (d <= 2) mod_raise(L, "td.on: unknown event \"%s\" (did you mean \"%s\"?)", name, best);
    mod_raise(L, "td.on: unknown event \"%s\"", name);
  }
  mod_handler *h = mod_add_handler(L, v, 2, ev ? H_EVENT : H_TICK);
  if (ev) h->event = ev->kind;
  number_handler(v);
  return 0;
}

static int l_every(lua_State *L) {
  mod_version *v = mod_version_of(L);
  if (!v->loading) mod_raise(L, "td.every: handlers are registered while the mod loads");
  int isint = 0;
  lua_Integer n = lua_tointegerx(L, 1, &isint);
  if (!isint || n < 1 || n > (lua_Integer)UINT32_MAX)
    mod_raise(L, "td.every(n, f): n must be an integer >= 1 (ticks)");
  if (lua_type(L, 2) != LUA_TFUNCTION)
    mod_raise(L, "td.every(n, f): f must be a function, got %s", luaL_typename(L, 2));
  mod_handler *h = mod_add_handler(L, v, 2, H_EVERY);
  h->every = (uint32_t)n;
  number_handler(v);
  return 0;
}

static int host_call(lua_State *L) {
  const td_mod_api *e = lua_touserdata(L, lua_upvalueindex(2));
  mod_version *v = lua_touserdata(L, lua_upvalueindex(3));
  unsigned stages = e->stages ? e->stages : TD_MOD_API_RUNTIME;
  if (v->loading && !(stages & TD_MOD_API_DATA))
    mod_raise(L, "td.%s: only in handlers, not while the mod loads", e->name);
  if (!v->loading && !(stages & TD_MOD_API_RUNTIME))
    mod_raise(L, "td.%s: only while the mod loads", e->name);
  /* its upvalue 1 is the host pointer (td_mod_host); a wave script's call is taped */
  return mod_wave_taped(L, v, e->name, e->fn);
}

/* ---- the registration tables of the built-ins ------------------------------------ */

const td_mod_api mod_builtin_td[] = {
  {"damage_type", mod_l_damage_type, "(name: string)",
   "Declares a damage type: a mod declares at least one and at most 8, and the first is the "
   "default (of a level's `damage_type`, of td.damage). Towers deal one; enemies resist them "
   "by name. Like every name: ASCII letters, digits, `_`, `-` and `.` only.",
   TD_MOD_API_DATA},
  {"enemy", mod_l_enemy, "(t: td.enemy_decl)",
   "Declares an enemy type; with `melee` it fights back against soldiers, with `siege` it "
   "attacks towers that have `health` (a sapper).", TD_MOD_API_DATA},
  {"soldier", mod_l_soldier, "(t: td.soldier_decl)",
   "Declares a soldier type, kept by barracks: tower levels with `soldier` and `soldiers`. "
   "Soldiers stand on posts round their barracks' rally point, engage the ground enemies "
   "that come within their `sight`, hold them and fight them; a fallen soldier walks out "
   "again `respawn` seconds later (engine/sim/unit.h has the state machines).",
   TD_MOD_API_DATA},
  {"tower", mod_l_tower, "(t: td.tower_decl)",
   "Declares a tower type with its upgrade tree (`levels`) and optional targeting function.",
   TD_MOD_API_DATA},
  {"wave", mod_l_wave, "(groups: td.group_decl[]|fun(wave: integer))",
   "Declares the next wave (1, 2, ...): its spawn groups, without first/last/every; or a "
   "wave script, a function run as a coroutine when the wave starts, driven by the game's "
   "ticks: `td.spawn` to spawn (its enemies belong to the wave), `td.wait(seconds)` to "
   "wait, any other `td.*` function to look at the game. The wave lasts while the script "
   "runs and its enemies live. A script is replayed after a load from what `td.*` and "
   "`math.random` returned to it, so it must depend only on those and on its own locals "
   "(docs/modding.md, \"Wave scripts\"). A later mod's waves follow the earlier mods'.",
   TD_MOD_API_DATA},
  {"group", mod_l_group, "(t: td.group_decl)",
   "Declares a spawn group spanning waves (Mindustry's SpawnGroup): it spawns in wave n when "
   "first <= n, (last == 0 or n <= last) and (n - first) % every == 0.",
   TD_MOD_API_DATA},
  {"rules", mod_l_rules, "(t: td.rules_decl)",
   "Sets the game's numbers (once per mod; every field has a default). A later mod's call "
   "changes only the fields it gives.", TD_MOD_API_DATA},
  {"on", l_on, "(event: td.event_name, f: fun(e: td.event))",
   "Registers a handler for an event (or \"tick\": f(tick)). Several handlers of one event run "
   "in registration order. A handler that raises, runs past its instruction budget or hits "
   "the memory cap is stopped, reported and disabled; the others go on.",
   TD_MOD_API_DATA},
  {"every", l_every, "(n: integer, f: fun(tick: integer))",
   "Calls f(tick) on every tick that is a positive multiple of n (the world's fixed steps), "
   "interleaved with the \"tick\" handlers in registration order.",
   TD_MOD_API_DATA},
  {"wait", mod_l_wait, "(seconds: number)",
   "In a wave script (`td.wave(function(wave) ... end)`): waits this many seconds of game time "
   "(at least one tick) before the script goes on. Elsewhere it raises.",
   TD_MOD_API_RUNTIME},
};
const size_t mod_builtin_td_count = sizeof mod_builtin_td / sizeof mod_builtin_td[0];

const td_mod_api mod_builtin_globals[] = {
  {"include", l_include, "(name: string) -> any",
   "Runs another file of the mod's directory (a relative name ending in .lua; no \"..\") in the "
   "same environment, once: later includes return its first result. While loading only.",
   TD_MOD_API_DATA},
  {"sorted_pairs", l_sorted_pairs, "(t: table) -> function, table, nil",
   "Like pairs, in a fixed order: number keys ascending, then string keys in byte order; other "
   "keys are refused. Use it wherever order matters (pairs order varies between runs).",
   TD_MOD_API_DATA | TD_MOD_API_RUNTIME},
  {"print", l_print, "(...: any)",
   "Writes its arguments, tab-separated, as one line of the mod's log (shown by the game; not "
   "stdout).", TD_MOD_API_DATA | TD_MOD_API_RUNTIME},
  {"load", l_load, "(chunk: string, chunkname?: string, mode?: \"t\") -> function?, string?",
   "Compiles a string in the mod's environment. Text only; no env argument; no reader "
   "functions.", TD_MOD_API_DATA | TD_MOD_API_RUNTIME},
  {"rawset", l_rawset, "(t: table, k: any, v: any) -> table",
   "As in Lua, but refuses td and its tables.", TD_MOD_API_DATA | TD_MOD_API_RUNTIME},
  {"collectgarbage", l_collectgarbage, "(opt: \"count\") -> number",
   "Only \"count\": the kilobytes the mod's state holds.", TD_MOD_API_DATA | TD_MOD_API_RUNTIME},
  {"setmetatable", l_setmetatable, "(t: table, mt: table?) -> table",
   "As in Lua, but a metatable with `__gc` is refused (finalizers would run outside the "
   "instruction budget).", TD_MOD_API_DATA | TD_MOD_API_RUNTIME},
  {"xpcall", l_xpcall, "(f: function, msgh: function, ...: any) -> boolean, any",
   "As in Lua, except that the handler runs after the error has unwound the stack (the "
   "same to a mod: there is no debug library to look at the stack).",
   TD_MOD_API_DATA | TD_MOD_API_RUNTIME},
};
const size_t mod_builtin_globals_count =
    sizeof mod_builtin_globals / sizeof mod_builtin_globals[0];

/* ---- the environment ------------------------------------------------------------ */

/* Copies the named fields of table `from` into table `to`. [-0, +0] */
static void copy_fields(lua_State *L, int from, int to, const char *const *names) {
  for (; *names; names++) {
    lua_getfield(L, from, *names);
    lua_setfield(L, to, *names);
  }
}

/* Calls a library's open function; pushes what it returns. [-0, +1] */
static void open_lib(lua_State *L, lua_CFunction open) {
  lua_pushcfunction(L, open);
  lua_call(L, 0, 1);
}

/* Makes the proxy of table `real` (at the top): reads go through, writes
** raise, the metatable is protected; registers it as read-only. Replaces
** the table with the proxy. [-1, +1] */
static void make_readonly(lua_State *L, mod_version *v) {
  int real = lua_gettop(L);
  lua_newtable(L); /* proxy */
  lua_createtable(L, 0, 3);
  lua_pushvalue(L, real);
  lua_setfield(L, -2, "__index");
  lua_pushlightuserdata(L, v);
  lua_pushcclosure(L, l_readonly, 1);
  lua_setfield(L, -2, "__newindex");
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  lua_setmetatable(L, -2);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &ro_key);
  lua_pushvalue(L, -2);
  lua_pushboolean(L, 1);
  lua_rawset(L, -3);
  lua_pop(L, 1);
  lua_replace(L, real);
}

static void push_builtins(lua_State *L, mod_version *v, int to, const td_mod_api *fns, size_t n) {
  for (size_t i = 0; i < n; i++) {
    lua_pushlightuserdata(L, v);
    lua_pushcclosure(L, fns[i].fn, 1);
    lua_setfield(L, to, fns[i].name);
  }
}

/* The base library's globals a mod keeps (tostring is then replaced by
** ours); the stubs declare these and mod_builtin_globals, nothing else. */
const char *const mod_base_globals[] = {"assert", "error", "ipairs", "next", "pairs", "pcall",
                                        "rawequal", "rawget", "rawlen", "select",
                                        "getmetatable", "tonumber", "tostring", "type",
                                        "_VERSION", NULL};

static void open_env(lua_State *L, mod_version *v) {
  const char *const *base = mod_base_globals;
  static const char *const strings[] = {"byte", "char", "find", "format", "gmatch", "gsub",
                                        "len", "lower", "match", "rep", "reverse", "sub",
                                        "upper", "pack", "packsize", "unpack", NULL};
  lua_newtable(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &ro_key);
  lua_newtable(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &handlers_key);
  lua_newtable(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &inc_key);

  /* luaopen_base fills the registry's global table: give it a scratch one */
  lua_newtable(L);
  int scratch = lua_gettop(L);
  lua_pushvalue(L, scratch);
  lua_rawseti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
  open_lib(L, luaopen_base);
  lua_pop(L, 1);

  lua_newtable(L);
  int env = lua_gettop(L);
  copy_fields(L, scratch, env, base);
  lua_pushcfunction(L, l_tostring); /* no addresses */
  lua_setfield(L, env, "tostring");
  push_builtins(L, v, env, mod_builtin_globals, mod_builtin_globals_count);
  lua_pushvalue(L, env);
  lua_setfield(L, env, "_G");

  /* string: a filtered copy (no dump), also behind every string's metatable */
  open_lib(L, luaopen_string);
  int lib = lua_gettop(L);
  lua_newtable(L);
  copy_fields(L, lib, lua_gettop(L), strings);
  lua_getfield(L, lib, "format");
  lua_pushcclosure(L, l_format, 1);
  lua_setfield(L, -2, "format");
  static const char *const matchers[] = {"find", "match", "gmatch", "gsub", NULL};
  for (int i = 0; matchers[i]; i++) {
    lua_getfield(L, lib, matchers[i]);
    lua_pushinteger(L, i == 0); /* find takes `plain` */
    lua_pushcclosure(L, l_pattern_guard, 2);
    lua_setfield(L, -2, matchers[i]);
  }
  lua_replace(L, lib);
  lua_pushliteral(L, "");
  lua_createtable(L, 0, 2);
  lua_pushvalue(L, lib);
  lua_setfield(L, -2, "__index");
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  lua_setmetatable(L, -2);
  lua_pop(L, 1);
  lua_setfield(L, env, "string");

  open_lib(L, luaopen_table);
  lua_setfield(L, env, "table");
  open_lib(L, luaopen_utf8);
  lua_setfield(L, env, "utf8");
  open_lib(L, luaopen_math);
  lua_pushnil(L);
  lua_setfield(L, -2, "randomseed");
  lua_pushlightuserdata(L, v);
  lua_pushcclosure(L, l_random, 1);
  lua_setfield(L, -2, "random");
  lua_setfield(L, env, "math");

  /* td */
  lua_newtable(L);
  int td = lua_gettop(L);
  push_builtins(L, v, td, mod_builtin_td, mod_builtin_td_count);
  const td_mod_options *o = &v->mod->opt;
  for (size_t t = 0; t < o->api_count; t++)
    for (size_t i = 0; i < o->api[t].count; i++) {
      lua_pushlightuserdata(L, o->api[t].host);
      lua_pushlightuserdata(L, (void *)&o->api[t].fns[i]);
      lua_pushlightuserdata(L, v);
      lua_pushcclosure(L, host_call, 3);
      lua_setfield(L, td, o->api[t].fns[i].name);
    }
  lua_pushinteger(L, TD_RULES_API_VERSION);
  lua_setfield(L, td, "api_version");
  mod_state_open(L, td);
  mod_wave_open(L);
  lua_createtable(L, 0, 1);
  lua_pushlightuserdata(L, v);
  lua_pushcclosure(L, l_td_miss, 1);
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, td);
  make_readonly(L, v);
  lua_setfield(L, env, "td");

  /* from now on the environment (and the mods' copies) are the only
  ** global tables */
  lua_pushvalue(L, env);
  lua_rawseti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
  lua_pushvalue(L, env);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &env_key);
  lua_createtable(L, (int)v->mod->nmods, 0);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &envs_key);
  lua_settop(L, scratch - 1);
}

/* Makes mod k's environment: a copy of the template whose tables (but td)
** are copies too; records it and makes it the registry's global table. */
static void open_mod_env(lua_State *L, int k) {
  int top = lua_gettop(L);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &env_key);
  int tmpl = lua_gettop(L);
  lua_newtable(L);
  int env = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, tmpl)) { /* the order does not matter: a copy */
    if (lua_type(L, -1) == LUA_TTABLE && lua_type(L, -2) == LUA_TSTRING &&
        strcmp(lua_tostring(L, -2), "td") != 0 && strcmp(lua_tostring(L, -2), "_G") != 0) {
      int lib = lua_gettop(L);
      lua_newtable(L);
      lua_pushnil(L);
      while (lua_next(L, lib)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, lib + 1);
      }
      lua_replace(L, lib);
    }
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, env);
  }
  lua_pushvalue(L, env);
  lua_setfield(L, env, "_G");
  lua_rawgetp(L, LUA_REGISTRYINDEX, &envs_key);
  lua_pushvalue(L, env);
  lua_rawseti(L, -2, k + 1);
  lua_pop(L, 1);
  lua_rawseti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
  lua_settop(L, top);
}

/* Makes mod k's environment the registry's global table (for load and
** for chunks): rawgeti and rawseti of existing keys, nothing allocated. */
static void use_mod_env(lua_State *L, int k) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &envs_key);
  lua_rawgeti(L, -1, k + 1);
  lua_rawseti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
  lua_pop(L, 1);
}

int mod_push_env(lua_State *L, int k) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &envs_key) != LUA_TTABLE) return LUA_TNIL;
  int t = lua_rawgeti(L, -1, k + 1);
  lua_remove(L, -2);
  return t;
}

void mod_use_env(lua_State *L, int k) { use_mod_env(L, k); }

const char *mod_name_at(const mod_version *v, int i) {
  return i >= 0 && (size_t)i < v->mod->nmods ? v->mod->mods[i].name : "?";
}

void mod_check_api_version(lua_State *L, mod_version *v) {
  const char *entry = v->mod->entry;
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS); /* the loading mod's environment */
  lua_pushliteral(L, "api_version");
  int t = lua_rawget(L, -2);
  int isint = 0;
  lua_Integer n = lua_tointegerx(L, -1, &isint);
  if (t == LUA_TNIL)
    lua_pushfstring(L, "%s: api_version is missing: set api_version = %d at the top of mod.lua",
                    entry, TD_RULES_API_VERSION);
  else if (t != LUA_TNUMBER || !isint)
    lua_pushfstring(L, "%s: api_version must be an integer, got %s", entry, luaL_typename(L, -1));
  else if (n != TD_RULES_API_VERSION)
    lua_pushfstring(L, "%s: api_version %I, this td speaks %d", entry, (LUAI_UACINT)n,
                    TD_RULES_API_VERSION);
  else {
    lua_pop(L, 2);
    return;
  }
  lua_error(L); /* no position: the message names mod.lua */
}

/* ---- versions ------------------------------------------------------------------- */

static void version_destroy(mod_version *v) {
  if (!v) return;
  for (size_t i = 0; i < v->nco; i++) td_blob_free(&v->co[i].tape);
  td_mem_free(v->co, v->co_cap * sizeof *v->co);
  td_lsandbox_destroy(v->sb); /* finalizers may still print: the mod is alive */
  td_rules_free(&v->rules);
  mod_build_free(v->b);
  td_mem_free(v->pend, v->pend_cap);
  td_mem_free(v->h, v->hcap * sizeof *v->h);
  td_mem_free(v->files, v->fcap * sizeof *v->files);
  td_mem_free(v, sizeof *v);
}

static int load_env(lua_State *L) {
  mod_version *v = lua_touserdata(L, 1);
  lua_settop(L, 0);
  open_env(L, v);
  return 0;
}

/* Checks the global `depends` of the loading mod (v->at): nil, or an array
** of names of mods earlier in the list. Raises naming both mods. */
static void check_depends(lua_State *L, mod_version *v) {
  const td_mod *m = v->mod;
  const char *me = m->mods[v->at].name, *entry = m->entry;
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
  int t = lua_getfield(L, -1, "depends");
  if (t == LUA_TNIL) {
    lua_pop(L, 2);
    return;
  }
  int d = lua_gettop(L);
  if (t != LUA_TTABLE)
    luaL_error(L, "%s: mod '%s': depends must be an array of mod names, got %s", entry, me,
               lua_typename(L, t));
  lua_Integer n = (lua_Integer)lua_rawlen(L, d);
  for (lua_Integer i = 1; i <= n; i++) {
    if (lua_rawgeti(L, d, i) != LUA_TSTRING)
      luaL_error(L, "%s: mod '%s': depends[%d] must be a mod name (a string), got %s", entry,
                 me, (int)i, luaL_typename(L, -1));
    const char *want = lua_tostring(L, -1);
    size_t k = 0;
    while (k < m->nmods && strcmp(m->mods[k].name, want) != 0) k++;
    if (k == m->nmods)
      luaL_error(L, "%s: mod '%s' depends on mod '%s', which is not loaded (list it before "
                 "'%s': --mod DIR/%s --mod %s)", entry, me, want, me, want, m->mods[v->at].dir);
    if (k > (size_t)v->at)
      luaL_error(L, "%s: mod '%s' depends on mod '%s', which comes after it in the list "
                 "(load '%s' first)", entry, me, want, want);
    if (k == (size_t)v->at)
      luaL_error(L, "%s: mod '%s' depends on itself", entry, me);
    lua_pop(L, 1);
  }
  lua_pop(L, 2);
}

/* Loads mod v->at: its environment, mod.lua and what it includes. */
static int load_one(lua_State *L) {
  mod_version *v = lua_touserdata(L, 1);
  lua_settop(L, 0);
  open_mod_env(L, v->at);
  include_file(L, v, "mod.lua");
  mod_check_api_version(L, v);
  check_depends(L, v);
  return 0;
}

/* After a failed load_one: the mod's `depends` (if its first lines set
** it) explains a failure better than what followed. */
static int load_depends(lua_State *L) {
  mod_version *v = lua_touserdata(L, 1);
  lua_settop(L, 0);
  use_mod_env(L, v->at);
  check_depends(L, v);
  return 0;
}

/* Selects mod k as the one loading (its dir and entry name messages). */
static void select_mod(td_mod *m, int k) {
  mod_fmt(m->dir, sizeof m->dir, "%s", m->mods[k].dir);
  mod_fmt(m->entry, sizeof m->entry, "%s", m->mods[k].entry);
}

/* Keeps the file list of this attempt for td_mod_changed. */
static void keep_stamps(td_mod *m, const mod_version *v) {
  if (v->nfiles == 0) return;
  mod_file *s = td_mem_alloc(v->nfiles * sizeof *s);
  if (!s) return;
  memcpy(s, v->files, v->nfiles * sizeof *s);
  td_mem_free(m->stamps, m->stamp_cap * sizeof *m->stamps);
  m->stamps = s;
  m->nstamps = m->stamp_cap = v->nfiles;
}

static mod_version *version_load(td_mod *m, td_err *err) {
  mod_version *v = td_mem_calloc(1, sizeof *v);
  if (!v) {
    td_err_set(err, "%s: out of memory", m->entry);
    return NULL;
  }
  v->mod = m;
  v->hash = TD_BLOB_FNV_SEED;
  td_lsandbox_limits lim = {.memory = m->opt.memory ? m->opt.memory : TD_MOD_DEFAULT_MEMORY,
                            .instructions = m->opt.load_instructions
                                                ? m->opt.load_instructions
                                                : TD_MOD_DEFAULT_LOAD_INSTRUCTIONS,
                            .sticky_memory = 1};
  td_err serr;
  v->sb = td_lsandbox_create(&lim, &serr);
  v->b = mod_build_new();
  if (!v->sb || !v->b) {
    td_err_set(err, "%s: %s", m->entry, v->sb ? "out of memory" : serr.msg);
    version_destroy(v);
    return NULL;
  }
  lua_State *L = td_lsandbox_state(v->sb);
  td_lsandbox_report rep;
  select_mod(m, 0);
  lua_pushcfunction(L, load_env);
  lua_pushlightuserdata(L, v);
  int rc = td_lsandbox_pcall(v->sb, 1, 0, &rep);
  for (size_t k = 0; rc == 0 && k < m->nmods; k++) {
    v->at = (int)k;
    v->first_file[k] = v->nfiles;
    v->hashes[k] = TD_BLOB_FNV_SEED;
    select_mod(m, v->at);
    lua_pushcfunction(L, load_one);
    lua_pushlightuserdata(L, v);
    v->loading = true;
    rc = td_lsandbox_pcall(v->sb, 1, 0, &rep);
    if (rc != 0 && rep.status == TD_LSANDBOX_ERROR) {
      td_lsandbox_report drep;
      lua_pushcfunction(L, load_depends);
      lua_pushlightuserdata(L, v);
      if (td_lsandbox_pcall(v->sb, 1, 0, &drep) != 0 && drep.status == TD_LSANDBOX_ERROR)
        rep = drep;
    }
    v->loading = false;
  }
  keep_stamps(m, v);
  if (rc != 0) {
    char line[sizeof err->msg];
    format_report(v, &rep, m->entry, line, sizeof line);
    if (m->nmods > 1 && strncmp(line, "mod '", 5) != 0 && !strstr(line, ": mod '"))
      td_err_set(err, "mod '%s': %s", m->mods[v->at].name, line);
    else
      td_err_set(err, "%s", line);
  } else {
    rc = mod_build_rules(v, err);
  }
  mod_build_free(v->b);
  v->b = NULL;
  if (rc != 0) {
    version_destroy(v);
    return NULL;
  }
  td_lsandbox_set_instructions(v->sb, m->opt.call_instructions ? m->opt.call_instructions
                                                               : TD_MOD_DEFAULT_CALL_INSTRUCTIONS);
  return v;
}

/* ---- the mod ---------------------------------------------------------------------- */

int td_mod_register(td_mod_options *o, const td_mod_api *fns, size_t count, void *host,
                    td_err *err) {
  if (o->api_count >= TD_MOD_MAX_API_TABLES)
    return td_err_set(err, "mod: more than %d host function tables", TD_MOD_MAX_API_TABLES);
  o->api[o->api_count].fns = fns;
  o->api[o->api_count].count = count;
  o->api[o->api_count].host = host;
  o->api_count++;
  return 0;
}

int td_mod_register_class(td_mod_options *o, const td_mod_class *c, td_err *err) {
  if (o->class_count >= TD_MOD_MAX_CLASSES)
    return td_err_set(err, "mod: more than %d classes", TD_MOD_MAX_CLASSES);
  o->classes[o->class_count++] = c;
  return 0;
}

static bool identifier(const char *s) {
  if (!s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_')) return false;
  for (s++; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
          *s == '_'))
      return false;
  return true;
}

static int check_host_names(const td_mod_options *o, td_err *err) {
  for (size_t t = 0; t < o->api_count; t++)
    for (size_t i = 0; i < o->api[t].count; i++) {
      const td_mod_api *e = &o->api[t].fns[i];
      if (!identifier(e->name) || !e->fn)
        return td_err_set(err, "mod: host function '%s': not an identifier or no function",
                          e->name ? e->name : "(null)");
      bool clash = strcmp(e->name, "api_version") == 0;
      for (size_t k = 0; k < mod_builtin_td_count; k++)
        clash |= strcmp(e->name, mod_builtin_td[k].name) == 0;
      for (size_t u = 0; u <= t; u++)
        for (size_t k = 0; k < (u == t ? i : o->api[u].count); k++)
          clash |= strcmp(e->name, o->api[u].fns[k].name) == 0;
      if (clash) return td_err_set(err, "mod: host function td.%s is declared twice", e->name);
    }
  return 0;
}

td_mod *td_mod_load(const char *dir, const td_mod_options *opt, td_err *err) {
  return td_mod_load_list(&dir, 1, opt, err);
}

/* Fills mods[k] from dir; -1 with err set. */
static int set_mod_dir(td_mod *m, size_t k, const char *dir, td_err *err) {
  mod_one *o = &m->mods[k];
  size_t n = strlen(dir);
  while (n > 1 && dir[n - 1] == '/') n--;
  if (n >= sizeof o->dir) return td_err_set(err, "%s: path too long", dir);
  memcpy(o->dir, dir, n);
  o->dir[n] = '\0';
  const char *slash = strrchr(o->dir, '/');
  mod_fmt(o->name, sizeof o->name, "%s", slash && slash[1] ? slash + 1 : o->dir);
  mod_fmt(o->entry, sizeof o->entry, "%s/mod.lua", o->dir);
  for (size_t i = 0; i < k; i++)
    if (strcmp(m->mods[i].name, o->name) == 0)
      return td_err_set(err, "%s: mod '%s' is in the list twice (also %s)", o->dir, o->name,
                        m->mods[i].dir);
  size_t used = strlen(m->name);
  mod_fmt(m->name + used, sizeof m->name - used, "%s%s", k ? "+" : "", o->name);
  return 0;
}

td_mod *td_mod_load_list(const char *const *dirs, size_t count, const td_mod_options *opt,
                         td_err *err) {
  if (count == 0 || count > TD_MOD_MAX_MODS) {
    td_err_set(err, "mod: %zu mods: a list has 1 to %d", count, TD_MOD_MAX_MODS);
    return NULL;
  }
  td_mod *m = td_mem_calloc(1, sizeof *m);
  if (!m) {
    td_err_set(err, "%s: out of memory", dirs[0]);
    return NULL;
  }
  for (size_t k = 0; k < count; k++)
    if (set_mod_dir(m, k, dirs[k], err) != 0) {
      td_mem_free(m, sizeof *m);
      return NULL;
    }
  m->nmods = count;
  select_mod(m, 0);
  if (opt) m->opt = *opt;
  m->rng = 0x9E3779B97F4A7C15ull;
  if (check_host_names(&m->opt, err) != 0) {
    td_mod_destroy(m);
    return NULL;
  }
  m->log = td_mem_alloc(TD_MOD_LOG_LINES * sizeof *m->log);
  if (!m->log) {
    td_err_set(err, "%s: out of memory", m->entry);
    td_mod_destroy(m);
    return NULL;
  }
  m->cur = version_load(m, err);
  if (!m->cur) {
    td_mod_destroy(m);
    return NULL;
  }
  return m;
}

void td_mod_destroy(td_mod *m) {
  if (!m) return;
  version_destroy(m->pending);
  version_destroy(m->cur);
  td_mem_free(m->stamps, m->stamp_cap * sizeof *m->stamps);
  td_mem_free(m->errors, m->error_cap * sizeof *m->errors);
  if (m->log) td_mem_free(m->log, TD_MOD_LOG_LINES * sizeof *m->log);
  td_mem_free(m, sizeof *m);
}

const char *td_mod_name(const td_mod *m) { return m->name; }
size_t td_mod_count(const td_mod *m) { return m->nmods; }
const char *td_mod_name_at(const td_mod *m, size_t i) {
  return i < m->nmods ? m->mods[i].name : NULL;
}
const char *td_mod_dir_at(const td_mod *m, size_t i) {
  return i < m->nmods ? m->mods[i].dir : NULL;
}
const td_rules *td_mod_rules(const td_mod *m) { return &m->cur->rules; }
uint64_t td_mod_hash(const td_mod *m) { return m->cur->hash; }
uint64_t td_mod_hash_at(const td_mod *m, size_t i) {
  return i < m->nmods ? m->cur->hashes[i] : 0;
}
lua_State *td_mod_state(td_mod *m) { return td_lsandbox_state(m->cur->sb); }

size_t td_mod_error_count(const td_mod *m) { return m->nerrors; }
const td_mod_error *td_mod_error_at(const td_mod *m, size_t i) {
  return i < m->nerrors ? &m->errors[i] : NULL;
}
size_t td_mod_errors_dropped(const td_mod *m) { return m->errors_dropped; }
void td_mod_clear_errors(td_mod *m) {
  m->nerrors = 0;
  m->errors_dropped = 0;
}
size_t td_mod_disabled_count(const td_mod *m) { return m->disabled; }

size_t td_mod_log_count(const td_mod *m) { return m->log_count; }
uint64_t td_mod_log_total(const td_mod *m) { return m->log_total; }
const char *td_mod_log_line(const td_mod *m, size_t i) {
  return i < m->log_count ? m->log[(m->log_first + i) % TD_MOD_LOG_LINES] : NULL;
}
void td_mod_clear_log(td_mod *m) { m->log_first = m->log_count = 0; }

/* ---- running handlers ------------------------------------------------------------ */

typedef struct call_args {
  mod_version *v;
  size_t h;
  const td_event *e;
  uint64_t tick;
  uint32_t tower;
  const uint32_t *enemies;
  size_t n;
  int32_t choice;
} call_args;

void mod_push_handler(lua_State *L, size_t h) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &handlers_key);
  lua_rawgeti(L, -1, (lua_Integer)h + 1);
  lua_remove(L, -2);
}

static void push_handler(lua_State *L, const call_args *a) {
  mod_push_handler(L, a->h);
}

static void set_int(lua_State *L, const char *k, lua_Integer v) {
  lua_pushinteger(L, v);
  lua_setfield(L, -2, k);
}

static void set_str(lua_State *L, const char *k, const char *s) {
  lua_pushstring(L, s);
  lua_setfield(L, -2, k);
}

/* The event's table: see the docs for the fields of each kind. [-0, +1] */
static void push_event(lua_State *L, const mod_version *v, const td_event *e) {
  const mod_event *me = mod_event_by_kind(e->kind);
  const td_rules *r = &v->rules;
  lua_createtable(L, 0, 8);
  set_str(L, "kind", me->name);
  set_int(L, "tick", (lua_Integer)e->tick);
  if (me->fields & EVF_ENEMY) set_int(L, "enemy", e->enemy);
  if (me->fields & EVF_TOWER) set_int(L, "tower", e->tower);
  if ((me->fields & EVF_ENEMY_TYPE) && e->type >= 0 && (size_t)e->type < r->enemy_count)
    set_str(L, "enemy_type", r->enemies[e->type].name);
  if ((me->fields & EVF_LEVEL) && e->type >= 0 && (size_t)e->type < r->level_count) {
    set_str(L, "level", r->levels[e->type].name);
    set_str(L, "tower_type", r->towers[r->levels[e->type].tower].name);
  }
  if ((me->fields & EVF_SOLDIER_TYPE) && e->type >= 0 && (size_t)e->type < r->soldier_type_count)
    set_str(L, "soldier_type", r->soldier_types[e->type].name);
  if (me->fields & EVF_SOLDIER) set_int(L, "soldier", e->soldier);
  if (me->fields & EVF_SOURCE) {
    set_str(L, "source", e->source == TD_HIT_SCRIPT    ? "script"
                         : e->source == TD_HIT_SOLDIER ? "soldier"
                                                       : "tower");
    if (e->source == TD_HIT_SOLDIER) set_int(L, "soldier", e->soldier);
    if (e->level >= 0 && (size_t)e->level < r->level_count) {
      set_str(L, "level", r->levels[e->level].name);
      set_str(L, "tower_type", r->towers[r->levels[e->level].tower].name);
    }
  }
  if ((me->fields & EVF_BASE) && e->base >= 0) set_int(L, "base", (lua_Integer)e->base + 1);
  if (me->fields & EVF_WAVE) set_int(L, "wave", e->wave);
  if (me->fields & EVF_REASON) set_str(L, "reason", mod_refusal_name(e->reason));
  if (me->fields & EVF_XY) {
    lua_pushnumber(L, (lua_Number)e->x);
    lua_setfield(L, -2, "x");
    lua_pushnumber(L, (lua_Number)e->y);
    lua_setfield(L, -2, "y");
  }
  if (me->amount) { /* gold and lives are whole: integers, as Lua would print them */
    double a = (double)e->amount;
    if (a == floor(a) && fabs(a) < 9e15) lua_pushinteger(L, (lua_Integer)a);
    else lua_pushnumber(L, (lua_Number)a);
    lua_setfield(L, -2, me->amount);
  }
}

static int tramp_event(lua_State *L) {
  call_args *a = lua_touserdata(L, 1);
  use_mod_env(L, a->v->at);
  push_handler(L, a);
  push_event(L, a->v, a->e);
  lua_call(L, 1, 0);
  return 0;
}

static int tramp_tick(lua_State *L) {
  call_args *a = lua_touserdata(L, 1);
  use_mod_env(L, a->v->at);
  push_handler(L, a);
  lua_pushinteger(L, (lua_Integer)a->tick);
  lua_call(L, 1, 0);
  return 0;
}

static int tramp_target(lua_State *L) {
  call_args *a = lua_touserdata(L, 1);
  use_mod_env(L, a->v->at);
  push_handler(L, a);
  lua_pushinteger(L, a->tower);
  lua_createtable(L, (int)a->n, 0);
  for (size_t i = 0; i < a->n; i++) {
    lua_pushinteger(L, a->enemies[i]);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  lua_call(L, 2, 1);
  int isint = 0;
  lua_Integer k = lua_tointegerx(L, -1, &isint);
  if (lua_isnil(L, -1)) a->choice = -1;
  else if (isint && k >= 1 && (size_t)k <= a->n) a->choice = (int32_t)(k - 1);
  else
    luaL_error(L, "the targeting function returned %s, expected a position 1 .. %d or nil",
               lua_isinteger(L, -1) ? lua_tostring(L, -1) : luaL_typename(L, -1), (int)a->n);
  return 0;
}

static void describe(const mod_version *v, const mod_handler *h, char *out, size_t size) {
  switch (h->kind) {
  case H_EVENT: case H_TICK:
    snprintf(out, size, "on %s #%d", event_name_of(h->kind, h->event), h->ord);
    break;
  case H_EVERY: snprintf(out, size, "every %u #%d", (unsigned)h->every, h->ord); break;
  case H_WAVE: snprintf(out, size, "script of wave %d", (int)h->wave); break;
  case H_TARGET:
    snprintf(out, size, "target of tower '%s'",
             h->tower >= 0 && (size_t)h->tower < v->rules.tower_count
                 ? v->rules.towers[h->tower].name : "?");
    break;
  }
}

/* A handler failed: record it and disable it. */
void mod_stop_handler(mod_version *v, size_t hi, const td_lsandbox_report *rep) {
  td_mod *m = v->mod;
  mod_handler *h = &v->h[hi];
  h->disabled = true;
  m->disabled++;
  td_mod_error e;
  memset(&e, 0, sizeof e);
  snprintf(e.mod, sizeof e.mod, "%s", mod_name_at(v, h->mod));
  describe(v, h, e.handler, sizeof e.handler);
  mod_fmt(e.where, sizeof e.where, "%s", rep->where[0] ? rep->where : h->where);
  format_report(v, rep, h->where, e.message, sizeof e.message);
  if (rep->traceback[0]) {
    expand_names(v, rep->traceback, e.traceback, sizeof e.traceback);
  } else {
    snprintf(e.traceback, sizeof e.traceback,
             "stack traceback:\n\t%s: in the %s handler (no trace: %s)", h->where, e.handler,
             rep->message);
  }
  e.tick = m->tick;
  record_error(m, &e);
  if (rep->status == TD_LSANDBOX_MEMORY || rep->status == TD_LSANDBOX_OOM)
    lua_gc(td_lsandbox_state(v->sb), LUA_GCCOLLECT, 0); /* give back what it can */
}

static bool run(mod_version *v, call_args *a, lua_CFunction tramp) {
  lua_State *L = td_lsandbox_state(v->sb);
  if (!lua_checkstack(L, 4)) return false;
  lua_pushcfunction(L, tramp);
  lua_pushlightuserdata(L, a);
  td_lsandbox_report rep;
  v->at = v->h[a->h].mod;
  v->in_call = true;
  v->miss[0] = '\0';
  int rc = td_lsandbox_pcall(v->sb, 1, 0, &rep);
  v->in_call = false;
  if (rc == 0) return true;
  mod_stop_handler(v, a->h, &rep);
  return false;
}

void td_mod_dispatch(td_mod *m, const td_event *e) {
  mod_version *v = m->cur;
  if (!mod_event_by_kind(e->kind)) return;
  m->tick = e->tick;
  call_args a = {.v = v, .e = e};
  for (size_t i = 0; i < v->hn; i++) {
    if (v->h[i].kind != H_EVENT || v->h[i].event != e->kind || v->h[i].disabled) continue;
    a.h = i;
    run(v, &a, tramp_event);
  }
  if (e->kind == TD_EVENT_WAVE_STARTED) mod_wave_start(v, e->wave);
}

void td_mod_tick(td_mod *m, uint64_t tick) {
  mod_version *v = m->cur;
  m->tick = tick;
  call_args a = {.v = v, .tick = tick};
  for (size_t i = 0; i < v->hn; i++) {
    const mod_handler *h = &v->h[i];
    if (h->disabled) continue;
    if (h->kind == H_TICK || (h->kind == H_EVERY && tick > 0 && tick % h->every == 0)) {
      a.h = i;
      run(v, &a, tramp_tick);
    }
  }
  mod_wave_tick(v, tick);
}

int32_t td_mod_target(td_mod *m, int32_t tower_type, uint32_t tower, const uint32_t *enemies,
                      size_t n) {
  mod_version *v = m->cur;
  for (size_t i = 0; i < v->hn; i++) {
    const mod_handler *h = &v->h[i];
    if (h->kind != H_TARGET || h->tower != tower_type) continue;
    if (h->disabled) return TD_MOD_TARGET_DEFAULT;
    if (n == 0) return -1;
    if (n > (size_t)INT32_MAX) return TD_MOD_TARGET_DEFAULT;
    call_args a = {.v = v, .h = i, .tower = tower, .enemies = enemies, .n = n, .choice = -1};
    return run(v, &a, tramp_target) ? a.choice : TD_MOD_TARGET_DEFAULT;
  }
  return TD_MOD_TARGET_DEFAULT;
}

/* ---- reload ----------------------------------------------------------------------- */

static void record_reload_error(td_mod *m, const char *msg) {
  td_mod_error e;
  memset(&e, 0, sizeof e);
  mod_fmt(e.mod, sizeof e.mod, "%s", m->name);
  snprintf(e.handler, sizeof e.handler, "reload");
  snprintf(e.message, sizeof e.message, "%s", msg);
  size_t k = strcspn(e.message, " ");
  snprintf(e.where, sizeof e.where, "%.*s", (int)(k && e.message[k - 1] == ':' ? k - 1 : 0),
           e.message);
  record_error(m, &e);
}

int td_mod_reload(td_mod *m, td_err *err) {
  td_err local;
  if (!err) err = &local;
  mod_version *v = version_load(m, err);
  if (!v) {
    record_reload_error(m, err->msg);
    return -1;
  }
  version_destroy(m->pending);
  m->pending = v;
  return 0;
}

const td_rules *td_mod_pending_rules(const td_mod *m) {
  return m->pending ? &m->pending->rules : NULL;
}

void td_mod_discard(td_mod *m, const char *why) {
  if (!m->pending) return;
  version_destroy(m->pending);
  m->pending = NULL;
  record_reload_error(m, why);
}

bool td_mod_swap(td_mod *m) {
  if (!m->pending) return false;
  mod_wave_drop_all(m->cur); /* the running scripts end: their waves are let go */
  version_destroy(m->cur);
  m->cur = m->pending;
  m->pending = NULL;
  return true;
}

bool td_mod_changed(const td_mod *m) {
  for (size_t i = 0; i < m->nstamps; i++) {
    mod_file now = m->stamps[i];
    stamp(&now);
    const mod_file *was = &m->stamps[i];
    if (now.stat_ok != was->stat_ok || now.size != was->size ||
        now.mtime_sec != was->mtime_sec || now.mtime_nsec != was->mtime_nsec)
      return true;
  }
  return false;
}
