/*
** mapfile_tiled.c: Tiled's own files (.tmx, .tmj) -> the table Tiled's Lua
** export returns, in the sandbox (mapfile_int.h): the protected entry, its
** messages, the external files a map names, and the helpers the two
** converters share.
**
** External files. A tileset's `source` and an object's `template` name a
** file relative to the file that names it. Its real path (realpath: `..`
** and symbolic links resolved) must lie in the map's folder tree, or in one
** of the roots the caller allows (td_mapfile_options); anything else is
** refused, naming the path as written. Each file is read and parsed once
** (at most TD_MAPFILE_MAX_FILES files, TD_MAPFILE_MAX_BYTES bytes in all),
** and stored in t->ext before any Lua call that could raise, so an error
** leaks nothing (mapfile_tiled_free frees it all). Its converted table is
** cached by its index. Templates may name templates (Tiled does not write
** that), TD_MAPFILE_MAX_INCLUDE deep at most; a loop is refused.
** deps_hash: FNV-1a over each file's path (relative to the map's folder, as
** shown in messages) and bytes, in the order first read; 0 when none.
*/
#define _GNU_SOURCE /* realpath */
#include "script/mapfile_int.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "nav/blob.h"

void mapfile_tiled_fail(mapfile_tiled *t, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  for (char *p = msg; *p; p++)
    if ((unsigned char)*p < 0x20) *p = ' ';
  if (t->where[0]) lua_pushfstring(t->L, "%s: %s", t->where, msg);
  else lua_pushstring(t->L, msg);
  lua_error(t->L);
  abort(); /* not reached */
}

void mapfile_tiled_where(mapfile_tiled *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(t->where, sizeof t->where, fmt, ap);
  va_end(ap);
  for (char *p = t->where; *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f) *p = '?';
}

void mapfile_tiled_stack(mapfile_tiled *t, int n) {
  if (!lua_checkstack(t->L, n)) mapfile_tiled_fail(t, "out of memory (Lua stack)");
}

static char *mem_strdup(const char *s, size_t *size) {
  *size = strlen(s) + 1;
  char *p = td_mem_alloc(*size);
  if (p) memcpy(p, s, *size);
  return p;
}

void mapfile_tiled_free(mapfile_tiled *t) {
  mapfile_xml_free(&t->xml);
  cJSON_Delete(t->json);
  for (size_t i = 0; i < t->ext_count; i++) {
    mapfile_ext *e = &t->ext[i];
    td_mem_free(e->path, e->path_size);
    td_mem_free(e->shown, e->shown_size);
    mapfile_xml_free(&e->xml);
    cJSON_Delete(e->json);
  }
  td_mem_free(t->ext, t->ext_cap * sizeof *t->ext);
  td_mem_free(t->root, t->root_size);
  t->ext = NULL;
  t->ext_count = t->ext_cap = 0;
  t->root = NULL;
  t->json = NULL;
}

/* The folder part of path ("." when none) into out. */
static void dir_of(const char *path, char *out, size_t size) {
  const char *slash = strrchr(path, '/');
  if (!slash) snprintf(out, size, ".");
  else if (slash == path) snprintf(out, size, "/");
  else snprintf(out, size, "%.*s", (int)(slash - path), path);
}

/* Is real path p within the tree of real folder root? */
static bool under(const char *p, const char *root) {
  size_t n = strlen(root);
  if (n == 1 && root[0] == '/') return true;
  return strncmp(p, root, n) == 0 && (p[n] == '/' || p[n] == '\0');
}

static bool allowed(mapfile_tiled *t, const char *real) {
  if (under(real, t->root)) return true;
  for (size_t i = 0; t->opts && i < t->opts->root_count; i++) {
    char r[PATH_MAX];
    if (realpath(t->opts->roots[i], r) && under(real, r)) return true;
  }
  return false;
}

size_t mapfile_tiled_open(mapfile_tiled *t, int from, const char *ref, bool tileset) {
  const char *what = tileset ? "tileset" : "template";
  if (!ref[0]) mapfile_tiled_fail(t, "%s source is empty", what);
  char dir[PATH_MAX], joined[PATH_MAX], real[PATH_MAX], shown[PATH_MAX];
  if (!t->root) { /* the map's folder, once */
    dir_of(t->name, dir, sizeof dir);
    if (!realpath(dir, real))
      mapfile_tiled_fail(t, "%s '%s': cannot find the map's folder '%s': %s", what, ref, dir,
                         strerror(errno));
    t->root = mem_strdup(real, &t->root_size);
    if (!t->root) mapfile_tiled_fail(t, "out of memory");
  }
  dir_of(from < 0 ? t->name : t->ext[from].path, dir, sizeof dir);
  int n = ref[0] == '/' ? snprintf(joined, sizeof joined, "%s", ref)
                        : snprintf(joined, sizeof joined, "%s/%s", dir, ref);
  if (n < 0 || (size_t)n >= sizeof joined) mapfile_tiled_fail(t, "%s '%s': path too long", what, ref);
  if (from < 0 || !strchr(t->ext[from].shown, '/') || ref[0] == '/') {
    snprintf(shown, sizeof shown, "%s", ref);
  } else {
    dir_of(t->ext[from].shown, dir, sizeof dir);
    snprintf(shown, sizeof shown, "%.*s/%s", (int)(sizeof shown / 2), dir, ref);
  }
  /* a path that climbs out is refused whether or not its file exists */
  bool climbs = ref[0] == '/' || strcmp(ref, "..") == 0 || strncmp(ref, "../", 3) == 0 ||
                strstr(ref, "/../") || (strlen(ref) >= 3 && !strcmp(ref + strlen(ref) - 3, "/.."));
  bool found = realpath(joined, real) != NULL;
  int open_errno = errno;
  if ((found && !allowed(t, real)) || (!found && climbs && !t->opts))
    mapfile_tiled_fail(t, "%s '%s' is outside the map's folder (td reads a map's tilesets and "
                       "templates only from its folder and the folders under it)", what, shown);
  if (!found) mapfile_tiled_fail(t, "%s '%s': cannot open: %s", what, shown, strerror(open_errno));
  for (size_t i = 0; i < t->ext_count; i++)
    if (strcmp(t->ext[i].path, real) == 0) {
      if (t->ext[i].tileset != tileset)
        mapfile_tiled_fail(t, "%s '%s' is read as a %s elsewhere in the map", what, shown,
                           t->ext[i].tileset ? "tileset" : "template");
      return i;
    }
  if (t->ext_count == TD_MAPFILE_MAX_FILES)
    mapfile_tiled_fail(t, "%s '%s': the map names more than %d external files (the loader's "
                       "limit)", what, shown, TD_MAPFILE_MAX_FILES);
  mapfile_ext *ext = td_mem_grow(t->ext, &t->ext_cap, t->ext_count + 1, sizeof *t->ext);
  if (!ext) mapfile_tiled_fail(t, "out of memory");
  t->ext = ext;
  mapfile_ext *e = &t->ext[t->ext_count];
  memset(e, 0, sizeof *e);
  e->tileset = tileset;
  e->path = mem_strdup(real, &e->path_size);
  e->shown = e->path ? mem_strdup(shown, &e->shown_size) : NULL;
  if (e->path) t->ext_count++; /* from here on mapfile_tiled_free frees it */
  if (!e->path || !e->shown) mapfile_tiled_fail(t, "out of memory");
  char *buf = NULL;
  size_t len = 0, cap = 0;
  td_err rerr;
  if (td_mem_read_file(real, TD_MAPFILE_MAX_BYTES - t->ext_bytes, &buf, &len, &cap, &rerr) != 0) {
    const char *why = strstr(rerr.msg, ": ");
    mapfile_tiled_fail(t, "%s '%s'%s", what, shown, why ? why : ": cannot read");
  }
  t->ext_bytes += len;
  const char *data = buf;
  size_t dlen = len;
  if (dlen >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) {
    data += 3;
    dlen -= 3;
  }
  /* the hash: the name as shown and the bytes */
  uint64_t h = t->deps_hash ? t->deps_hash : TD_BLOB_FNV_SEED;
  h = td_blob_fnv(h, shown, strlen(shown) + 1);
  h = td_blob_fnv(h, buf, len);
  t->deps_hash = h ? h : 1;
  char msg[200];
  int rc = mapfile_sniff(shown, data, dlen, tileset ? ".tsx" : ".tx", tileset ? ".tsj" : ".tj",
                         &e->kind, msg, sizeof msg);
  if (rc == 0 && e->kind == MAPFILE_XML) {
    rc = mapfile_xml_parse(&e->xml, data, dlen, msg, sizeof msg);
  } else if (rc == 0) {
    e->json = mapfile_json_parse(data, dlen, msg, sizeof msg);
    rc = e->json ? 0 : -1;
  }
  td_mem_free(buf, cap);
  if (rc != 0) { /* "x.tsx:3: not well-formed", or "x.tsx: looks like ..." */
    t->where[0] = '\0';
    mapfile_tiled_fail(t, "%s%s%s", shown, msg[0] >= '0' && msg[0] <= '9' ? ":" : ": ", msg);
  }
  return t->ext_count - 1;
}

void mapfile_tiled_push_typed(mapfile_tiled *t, const char *s, const char *type) {
  lua_State *L = t->L;
  char *end;
  if (type && strcmp(type, "bool") == 0 && (!strcmp(s, "true") || !strcmp(s, "false"))) {
    lua_pushboolean(L, s[0] == 't');
    return;
  }
  if (type && (!strcmp(type, "int") || !strcmp(type, "object") || !strcmp(type, "float"))) {
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (s[0] && !*end && errno == 0) {
      lua_pushinteger(L, (lua_Integer)v);
      return;
    }
    double d = strtod(s, &end);
    if (s[0] && !*end) {
      lua_pushnumber(L, (lua_Number)d);
      return;
    }
  }
  lua_pushstring(L, s);
}

void mapfile_tiled_copy(mapfile_tiled *t, int i) {
  lua_State *L = t->L;
  mapfile_tiled_stack(t, 4);
  i = lua_absindex(L, i);
  lua_newtable(L);
  lua_pushnil(L);
  while (lua_next(L, i)) {
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, -4);
  }
}

void mapfile_tiled_merge(mapfile_tiled *t, int dst, int src) {
  lua_State *L = t->L;
  mapfile_tiled_stack(t, 6);
  dst = lua_absindex(L, dst);
  src = lua_absindex(L, src);
  lua_pushnil(L);
  while (lua_next(L, src)) { /* key, value */
    if (lua_type(L, -2) == LUA_TSTRING && strcmp(lua_tostring(L, -2), "properties") == 0 &&
        lua_type(L, -1) == LUA_TTABLE) {
      lua_pushstring(L, "properties");
      if (lua_rawget(L, dst) == LUA_TTABLE) { /* key, value, old */
        mapfile_tiled_copy(t, -1);             /* key, value, old, new */
        lua_remove(L, -2);                     /* key, value, new */
        mapfile_tiled_merge(t, -1, -2);
        lua_remove(L, -2);                     /* key, new */
      } else {
        lua_pop(L, 1);
      }
    }
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, dst);
  }
}

/* The converted table of ext e, from the cache or made now. [-0, +1] */
static void converted(mapfile_tiled *t, size_t e, bool tileset) {
  lua_State *L = t->L;
  mapfile_tiled_stack(t, 8);
  if (lua_rawgeti(L, t->cache, (lua_Integer)e + 1) == LUA_TTABLE) return;
  lua_pop(L, 1);
  if (t->ext[e].busy)
    mapfile_tiled_fail(t, "template '%s' uses itself (a loop of templates)", t->ext[e].shown);
  char where[sizeof t->where];
  memcpy(where, t->where, sizeof where);
  t->ext[e].busy = 1;
  if (tileset) {
    if (t->ext[e].kind == MAPFILE_XML) mapfile_tmx_tileset(t, e);
    else mapfile_tmj_tileset(t, e);
  } else {
    if (t->ext[e].kind == MAPFILE_XML) mapfile_tmx_template(t, e);
    else mapfile_tmj_template(t, e);
  }
  t->ext[e].busy = 0;
  memcpy(t->where, where, sizeof where);
  lua_pushvalue(L, -1);
  lua_rawseti(L, t->cache, (lua_Integer)e + 1);
}

void mapfile_tiled_tileset(mapfile_tiled *t, int from, const char *ref) {
  size_t e = mapfile_tiled_open(t, from, ref, true);
  converted(t, e, true);
}

void mapfile_tiled_template(mapfile_tiled *t, int from, const char *ref) {
  size_t e = mapfile_tiled_open(t, from, ref, false);
  if (t->depth >= TD_MAPFILE_MAX_INCLUDE)
    mapfile_tiled_fail(t, "template '%s': templates nested deeper than %d",
                       t->ext[e].shown, TD_MAPFILE_MAX_INCLUDE);
  t->depth++;
  converted(t, e, false);
  t->depth--;
  mapfile_tiled_copy(t, -1);
  lua_remove(t->L, -2);
}

int mapfile_tiled_table(lua_State *L) {
  mapfile_tiled *t = lua_touserdata(L, 1);
  t->L = L;
  t->where[0] = '\0';
  mapfile_tiled_stack(t, 16);
  lua_newtable(L);
  t->cache = lua_gettop(L);
  if (t->kind == MAPFILE_XML) mapfile_tmx_map(t);
  else mapfile_tmj_map(t);
  return 1;
}
