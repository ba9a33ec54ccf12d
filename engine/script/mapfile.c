/*
** mapfile.c: Tiled maps -> td_map, the entry points. See mapfile.h and
** docs/maps.md; mapfile_int.h lists the parts.
**
** Two phases. (1) Extraction (mapfile_lua.c), inside the sandbox's protected
** call: the table the file returns -> `extract`. (2) Build (mapfile_build.c),
** in plain C once the state is closed.
*/
#include "script/mapfile_int.h"

#include <stdio.h>
#include <string.h>

#include "script/lsandbox.h"
#include "sim/map.h"

/* ---- entry points ----------------------------------------------------- */

/* Runs the file in the sandbox (a Lua export) or converts it there (Tiled
** XML, JSON): the map table pushed. 0, or -1 with err set. */
static int map_table(td_lsandbox *sb, const char *name, const char *data, size_t len,
                     mapfile_tiled *t, td_err *err) {
  char msg[200];
  mapfile_kind kind;
  if (mapfile_sniff(name, data, len, NULL, NULL, &kind, msg, sizeof msg) != 0)
    return td_err_set(err, "%s: %s", name, msg);
  if (kind == MAPFILE_LUA) return td_lsandbox_run(sb, name, data, len, 0, err);
  t->kind = kind;
  if (kind == MAPFILE_XML) {
    if (mapfile_xml_parse(&t->xml, data, len, msg, sizeof msg) != 0)
      return td_err_set(err, "%s:%s", name, msg);
  } else {
    t->json = mapfile_json_parse(data, len, msg, sizeof msg);
    if (!t->json) return td_err_set(err, "%s:%s", name, msg);
  }
  return td_lsandbox_call(sb, name, mapfile_tiled_table, t, 0, 1, err);
}

int td_mapfile_load_buffer_opts(const char *name, const char *data, size_t len,
                                const td_mapfile_options *opts, td_map *out, td_err *err) {
  memset(out, 0, sizeof *out);
  if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) { /* UTF-8 BOM */
    data += 3;
    len -= 3;
  }
  td_lsandbox_limits lim = {.memory = TD_MAPFILE_MEMORY,
                            .instructions = TD_MAPFILE_INSTRUCTIONS};
  td_err serr;
  td_lsandbox *sb = td_lsandbox_create(&lim, &serr);
  if (!sb) return td_err_set(err, "%s: %s", name, serr.msg); /* "lua sandbox: out of memory" */
  extract x;
  memset(&x, 0, sizeof x);
  mapfile_tiled t;
  memset(&t, 0, sizeof t);
  t.name = name;
  t.opts = opts;
  int rc = map_table(sb, name, data, len, &t, err);
  if (rc == 0) rc = td_lsandbox_call(sb, name, mapfile_extract, &x, 1, 0, err);
  td_lsandbox_destroy(sb);
  uint64_t deps = t.deps_hash;
  mapfile_tiled_free(&t);
  if (rc == 0) {
    snprintf(out->source, sizeof out->source, "%s", name);
    rc = mapfile_build(name, &x, out, err);
    out->deps_hash = deps;
  }
  mapfile_extract_free(&x);
  if (rc != 0) td_map_free(out);
  return rc;
}

int td_mapfile_load_buffer(const char *name, const char *data, size_t len, td_map *out,
                           td_err *err) {
  return td_mapfile_load_buffer_opts(name, data, len, NULL, out, err);
}

int td_mapfile_load_opts(const char *path, const td_mapfile_options *opts, td_map *out,
                         td_err *err) {
  memset(out, 0, sizeof *out);
  size_t cap, len;
  char *buf;
  int rc = td_mem_read_file(path, TD_MAPFILE_MAX_BYTES, &buf, &len, &cap, err);
  if (rc == 0) rc = td_mapfile_load_buffer_opts(path, buf, len, opts, out, err);
  td_mem_free(buf, cap);
  return rc;
}

int td_mapfile_load(const char *path, td_map *out, td_err *err) {
  return td_mapfile_load_opts(path, NULL, out, err);
}
