/*
** fuzz.c: see fuzz.h.
*/
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "fuzz.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nav/blob.h"

#ifndef TD_FUZZ_SOURCE_DIR
#define TD_FUZZ_SOURCE_DIR "."
#endif

void td_fuzz_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("fuzz: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  abort();
}

const char *td_fuzz_path(const char *relative) {
  static char buf[4096];
  const char *root = getenv("TD_SOURCE_DIR");
  if (!root || !root[0]) root = TD_FUZZ_SOURCE_DIR;
  if ((size_t)snprintf(buf, sizeof buf, "%s/%s", root, relative) >= sizeof buf)
    td_fuzz_fail("path too long: %s/%s", root, relative);
  return buf;
}

/* ---- the temporary directory -------------------------------------------- */

#define MAX_TMP_FILES 16

static char tmp_dir[512];
static char tmp_names[MAX_TMP_FILES][64];
static int tmp_count;

#define TMP_PATH_MAX (sizeof tmp_dir + sizeof tmp_names[0] + 8)

static void tmp_cleanup(void) {
  char path[TMP_PATH_MAX];
  for (int i = 0; i < tmp_count; i++) {
    const char *name = tmp_names[i];
    if (snprintf(path, sizeof path, "%s/%s", tmp_dir, name) < (int)sizeof path) remove(path);
  }
  rmdir(tmp_dir);
}

const char *td_fuzz_tmp_dir(void) {
  if (!tmp_dir[0]) {
    const char *base = getenv("TMPDIR");
    snprintf(tmp_dir, sizeof tmp_dir, "%s/td_fuzz_XXXXXX", base && base[0] ? base : "/tmp");
    if (!mkdtemp(tmp_dir)) td_fuzz_fail("cannot create a temporary directory in %s", tmp_dir);
    atexit(tmp_cleanup);
  }
  return tmp_dir;
}

const char *td_fuzz_tmp(const char *name) {
  static char buf[4][TMP_PATH_MAX];
  static int k;
  td_fuzz_tmp_dir();
  if (strlen(name) >= sizeof tmp_names[0]) td_fuzz_fail("temporary name too long: %s", name);
  int i = 0;
  while (i < tmp_count && strcmp(tmp_names[i], name) != 0) i++;
  if (i == tmp_count) {
    if (tmp_count == MAX_TMP_FILES) td_fuzz_fail("too many temporary names");
    snprintf(tmp_names[tmp_count++], sizeof tmp_names[0], "%s", name);
  }
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "%s/%s", tmp_dir, name);
  return buf[k];
}

void td_fuzz_write(const char *path, const void *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f) td_fuzz_fail("cannot create %s", path);
  bool ok = fwrite(data, 1, size, f) == size;
  ok = fclose(f) == 0 && ok;
  if (!ok) td_fuzz_fail("cannot write %s", path);
}

void td_fuzz_check_error(const char *msg, const char *name) {
  static int verbose = -1;
  if (verbose < 0) verbose = getenv("TD_FUZZ_VERBOSE") != NULL;
  if (verbose) fprintf(stderr, "refused: %s\n", msg);
  if (!msg[0]) td_fuzz_fail("refused without a message (expected one naming %s)", name);
  for (const char *p = msg; *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f)
      td_fuzz_fail("message with a control character (0x%02x): \"%s\"", (unsigned char)*p, msg);
  if (!strstr(msg, name)) td_fuzz_fail("message does not name %s: \"%s\"", name, msg);
}

void td_fuzz_check_world_save(const td_world *w) {
  td_blob b = {0};
  td_world_save(w, &b);
  if (b.failed) td_fuzz_fail("a world that stepped cleanly cannot be saved");
  td_blob_reader rd = td_blob_read(b.data, b.len);
  td_err err;
  td_world *back = td_world_load(td_world_map(w), td_world_rules(w), &rd, &err);
  if (!back) td_fuzz_fail("the world's own save is refused: %s", err.msg);
  if (td_world_checksum(back) != td_world_checksum(w))
    td_fuzz_fail("a loaded save has another checksum than the world saved");
  td_world_destroy(back);
  td_blob_free(&b);
}
