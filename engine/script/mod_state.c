/*
** mod_state.c: td.state, the one table of a mod that saves carry.
**
** A mod keeps what must outlive a save (a per-kill bonus, a counter of
** waves survived) in td.state: plain data only, numbers, strings, booleans
** and tables of them, keyed by numbers or strings. Saving writes it in a
** canonical order (keys sorted as mod_cmp_key sorts them, integers and
** floats kept apart and exact), so the same content gives the same bytes
** whatever order Lua's hash gives pairs(). Loading fills the same table in
** place: a mod that kept `local S = td.state` sees the loaded values.
**
** The encoding, one value:
**   u8 tag: 0 false, 1 true, 2 integer (i64), 3 float (f64 bits),
**           4 string (u32 length, bytes), 5 table (u32 count, then count
**           pairs of key and value, keys in canonical order)
** A table is written once: one reached twice (a cycle or a shared table),
** one with a metatable, a function or another type is refused with its
** path ("td.state.towers[3].fn: a function cannot be saved"). Depth is
** bounded (MAX_DEPTH) both ways.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "nav/blob.h"
#include "script/mod_int.h"

#define MAX_DEPTH 64
#define PATH_MAX_LEN 200

enum { TAG_FALSE, TAG_TRUE, TAG_INT, TAG_FLOAT, TAG_STRING, TAG_TABLE };

static const char state_key = 's';

void mod_state_open(lua_State *L, int td) {
  lua_newtable(L);
  lua_pushvalue(L, -1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &state_key);
  lua_setfield(L, td, "state");
}

/* ---- writing ------------------------------------------------------------- */

typedef struct writer {
  td_blob *b;
  char path[PATH_MAX_LEN];
} writer;

/* Appends key k to the path ("td.state.a", "[3]", "[\"a b\"]"); returns the
** old length, to cut back to. */
static size_t path_push(writer *w, const mod_key *k) {
  size_t n = strlen(w->path), room = sizeof w->path - n;
  bool ident = k->type == LUA_TSTRING && k->len > 0 && k->len < 64 &&
               !(k->s[0] >= '0' && k->s[0] <= '9');
  for (size_t i = 0; ident && i < k->len; i++) {
    char c = k->s[i];
    ident = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }
  if (ident) snprintf(w->path + n, room, ".%.*s", (int)k->len, k->s);
  else if (k->type == LUA_TSTRING) snprintf(w->path + n, room, "[\"%.*s\"]", (int)(k->len > 40 ? 40 : k->len), k->s);
  else if (k->isint) snprintf(w->path + n, room, "[%lld]", (long long)k->i);
  else snprintf(w->path + n, room, "[%.17g]", (double)k->d);
  return n;
}

static void put_value(lua_State *L, writer *w, int idx, int seen, int depth);

/* Raises "PATH: what (td.state holds ...)". */
static void refuse(lua_State *L, writer *w, const char *what) {
  luaL_error(L, "%s: %s (td.state keeps numbers, strings, booleans and tables of them)", w->path,
             what);
}

static void put_table(lua_State *L, writer *w, int t, int seen, int depth) {
  luaL_checkstack(L, 8, "td.state");
  if (depth >= MAX_DEPTH) refuse(L, w, "nested deeper than 64 tables");
  if (lua_getmetatable(L, t)) refuse(L, w, "a table with a metatable cannot be saved");
  lua_pushvalue(L, t);
  if (lua_rawget(L, seen) != LUA_TNIL) refuse(L, w, "a table reached twice (a cycle or a shared table) cannot be saved");
  lua_pop(L, 1);
  lua_pushvalue(L, t);
  lua_pushboolean(L, 1);
  lua_rawset(L, seen);
  size_t n = 0;
  lua_pushnil(L);
  while (lua_next(L, t)) {
    lua_pop(L, 1);
    int kt = lua_type(L, -1);
    if (kt != LUA_TNUMBER && kt != LUA_TSTRING) {
      char what[80];
      snprintf(what, sizeof what, "a %s key cannot be saved (keys are numbers or strings)",
               lua_typename(L, kt));
      refuse(L, w, what);
    }
    n++;
  }
  if (n > UINT32_MAX) refuse(L, w, "too many keys");
  mod_key *k = lua_newuserdatauv(L, (n ? n : 1) * sizeof *k, 0); /* anchored on the stack */
  size_t i = 0;
  lua_pushnil(L);
  while (lua_next(L, t)) {
    lua_pop(L, 1);
    mod_key_read(L, -1, &k[i++]); /* t anchors its keys */
  }
  qsort(k, n, sizeof *k, mod_cmp_key);
  td_blob_u8(w->b, TAG_TABLE);
  td_blob_u32(w->b, (uint32_t)n);
  for (i = 0; i < n; i++) {
    size_t cut = path_push(w, &k[i]);
    mod_key_push(L, &k[i]);
    put_value(L, w, lua_gettop(L), seen, depth + 1);
    mod_key_push(L, &k[i]);
    lua_rawget(L, t);
    put_value(L, w, lua_gettop(L), seen, depth + 1);
    lua_pop(L, 2);
    w->path[cut] = '\0';
  }
  lua_pop(L, 1); /* the keys */
}

static void put_value(lua_State *L, writer *w, int idx, int seen, int depth) {
  switch (lua_type(L, idx)) {
  case LUA_TBOOLEAN: td_blob_u8(w->b, lua_toboolean(L, idx) ? TAG_TRUE : TAG_FALSE); break;
  case LUA_TNUMBER:
    if (lua_isinteger(L, idx)) {
      td_blob_u8(w->b, TAG_INT);
      td_blob_u64(w->b, (uint64_t)lua_tointeger(L, idx));
    } else {
      td_blob_u8(w->b, TAG_FLOAT);
      td_blob_f64(w->b, (double)lua_tonumber(L, idx));
    }
    break;
  case LUA_TSTRING: {
    size_t len;
    const char *s = lua_tolstring(L, idx, &len);
    if (len > UINT32_MAX) refuse(L, w, "a string too long");
    td_blob_u8(w->b, TAG_STRING);
    td_blob_u32(w->b, (uint32_t)len);
    td_blob_bytes(w->b, s, len);
    break;
  }
  case LUA_TTABLE: put_table(L, w, idx, seen, depth); break;
  default: {
    char what[64];
    snprintf(what, sizeof what, "a %s cannot be saved", lua_typename(L, lua_type(L, idx)));
    refuse(L, w, what);
  }
  }
}

static int save_call(lua_State *L) {
  writer *w = lua_touserdata(L, 1);
  lua_newtable(L); /* [2] tables seen */
  lua_rawgetp(L, LUA_REGISTRYINDEX, &state_key); /* [3] */
  snprintf(w->path, sizeof w->path, "td.state");
  put_table(L, w, 3, 2, 0);
  return 0;
}

int td_mod_state_save(td_mod *m, td_blob *b, td_err *err) {
  writer w = {.b = b};
  if (td_lsandbox_call(m->cur->sb, m->name, save_call, &w, 0, 0, err) != 0) return -1;
  if (b->failed) return td_err_set(err, "%s: td.state: out of memory", m->name);
  return 0;
}

/* ---- reading ------------------------------------------------------------- */

typedef struct reader {
  td_blob_reader r;
  const char *bad;       /* why the data is refused, NULL: fine */
} reader;

/* Pushes the next value [-0, +1]; on bad data pushes nil and sets rd->bad. */
static void get_value(lua_State *L, reader *rd, int depth) {
  luaL_checkstack(L, 8, "td.state");
  uint8_t tag = td_blob_get_u8(&rd->r);
  if (rd->r.failed) tag = 0xff;
  switch (tag) {
  case TAG_FALSE:
  case TAG_TRUE: lua_pushboolean(L, tag == TAG_TRUE); return;
  case TAG_INT: lua_pushinteger(L, (lua_Integer)td_blob_get_u64(&rd->r)); return;
  case TAG_FLOAT: lua_pushnumber(L, (lua_Number)td_blob_get_f64(&rd->r)); return;
  case TAG_STRING: {
    uint32_t len = td_blob_get_u32(&rd->r);
    if (rd->r.failed || len > rd->r.len - rd->r.pos) break;
    lua_pushlstring(L, (const char *)rd->r.data + rd->r.pos, len);
    rd->r.pos += len;
    return;
  }
  case TAG_TABLE: {
    uint32_t n = td_blob_get_u32(&rd->r);
    if (rd->r.failed || depth >= MAX_DEPTH || n > (rd->r.len - rd->r.pos) / 2) break;
    lua_createtable(L, 0, (int)(n > 1024 ? 1024 : n));
    for (uint32_t i = 0; i < n && !rd->bad; i++) {
      get_value(L, rd, depth + 1);
      int kt = lua_type(L, -1);
      get_value(L, rd, depth + 1);
      if (rd->bad) {
        lua_pop(L, 2);
        break;
      }
      if (kt != LUA_TNUMBER && kt != LUA_TSTRING) {
        lua_pop(L, 2);
        rd->bad = "a key that is not a number or a string";
        break;
      }
      if (kt == LUA_TNUMBER && lua_tonumber(L, -2) != lua_tonumber(L, -2)) {
        lua_pop(L, 2);
        rd->bad = "a NaN key";
        break;
      }
      lua_rawset(L, -3);
    }
    if (rd->bad) {
      lua_pop(L, 1);
      lua_pushnil(L);
    }
    return;
  }
  default: break;
  }
  if (!rd->bad) rd->bad = rd->r.failed ? "cut short" : "corrupt";
  lua_pushnil(L);
}

static int load_call(lua_State *L) {
  reader *rd = lua_touserdata(L, 1);
  get_value(L, rd, 0); /* [2] */
  if (!rd->bad && !lua_istable(L, 2)) rd->bad = "not a table";
  if (!rd->bad && rd->r.pos != rd->r.len) rd->bad = "bytes after the end";
  if (rd->bad) return 0;
  /* in place: empty td.state, then copy */
  lua_rawgetp(L, LUA_REGISTRYINDEX, &state_key); /* [3] */
  lua_newtable(L); /* [4] its keys, to clear after the walk */
  lua_Integer nk = 0;
  lua_pushnil(L);
  while (lua_next(L, 3)) {
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    lua_rawseti(L, 4, ++nk);
  }
  for (lua_Integer i = 1; i <= nk; i++) {
    lua_rawgeti(L, 4, i);
    lua_pushnil(L);
    lua_rawset(L, 3);
  }
  lua_pop(L, 1);
  lua_pushnil(L);
  while (lua_next(L, 2)) {
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, 3);
  }
  return 0;
}

int td_mod_state_load(td_mod *m, const void *data, size_t len, td_err *err) {
  if (len == 0) return 0; /* nothing was kept */
  reader rd = {.r = td_blob_read(data, len)};
  if (td_lsandbox_call(m->cur->sb, m->name, load_call, &rd, 0, 0, err) != 0) return -1;
  if (rd.bad) return td_err_set(err, "%s: td.state in the save: %s", m->name, rd.bad);
  return 0;
}
