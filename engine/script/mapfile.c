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

/* ---- entry points ----------------------------------------------------- */

int td_mapfile_load_buffer(const char *name, const char *data, size_t len,
                           td_map *out, td_err *err) {
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
  int rc = td_lsandbox_run(sb, name, data, len, 0, err);
  if (rc == 0) rc = td_lsandbox_call(sb, name, mapfile_extract, &x, 1, 0, err);
  td_lsandbox_destroy(sb);
  if (rc == 0) {
    snprintf(out->source, sizeof out->source, "%s", name);
    rc = mapfile_build(name, &x, out, err);
  }
  mapfile_extract_free(&x);
  if (rc != 0) td_map_free(out);
  return rc;
}

int td_mapfile_load(const char *path, td_map *out, td_err *err) {
  memset(out, 0, sizeof *out);
  size_t cap, len;
  char *buf;
  int rc = td_mem_read_file(path, TD_MAPFILE_MAX_BYTES, &buf, &len, &cap, err);
  if (rc == 0) rc = td_mapfile_load_buffer(path, buf, len, out, err);
  td_mem_free(buf, cap);
  return rc;
}

