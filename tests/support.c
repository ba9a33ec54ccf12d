/*
** support.c: see support.h.
*/
#define _XOPEN_SOURCE 700 /* mkdtemp, opendir */
#include "support.h"

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "nav/mem.h"

const char *td_test_path(const char *relative) {
  static char buf[4096];
  const char *root = getenv("TD_SOURCE_DIR");
  snprintf(buf, sizeof buf, "%s/%s", root ? root : ".", relative);
  return buf;
}

static char scratch[256];

int td_test_dir_setup(void **state) {
  (void)state;
  snprintf(scratch, sizeof scratch, "/tmp/td_test_XXXXXX");
  return mkdtemp(scratch) ? 0 : -1;
}

int td_test_dir_teardown(void **state) {
  (void)state;
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
  return system(cmd) == 0 ? 0 : -1;
}

const char *td_test_tmp_dir(void) { return scratch; }

const char *td_test_tmp(const char *name) {
  static char buf[4][400];
  static int k;
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "%s/%s", scratch, name);
  return buf[k];
}

int td_test_tmp_count(const char *suffix) {
  DIR *d = opendir(scratch);
  assert_non_null(d);
  int n = 0;
  size_t ls = strlen(suffix);
  for (struct dirent *e; (e = readdir(d));) {
    size_t len = strlen(e->d_name);
    n += len > ls && !strcmp(e->d_name + len - ls, suffix);
  }
  closedir(d);
  return n;
}

void td_test_disk_full(long bytes) {
  static struct rlimit saved;
  static void (*saved_xfsz)(int);
  if (bytes >= 0) {
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &saved), 0);
    struct rlimit small = saved;
    small.rlim_cur = (rlim_t)bytes;
    saved_xfsz = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
  } else {
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &saved), 0);
    signal(SIGXFSZ, saved_xfsz);
  }
}

uint64_t td_test_rand(td_test_rng *r) { return td_graphgen_next(r); }

uint32_t td_test_below(td_test_rng *r, uint32_t n) { return td_graphgen_below(r, n); }

double td_test_unit(td_test_rng *r) { return td_graphgen_unit(r); }

/* ---- the allocation hook ------------------------------------------------- */

typedef union header {
  size_t size;
  max_align_t align;
} header;

static void *test_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  td_test_alloc *a = ud;
  header *h = ptr ? (header *)ptr - 1 : NULL;
  /* for a new block osize is not a size (lua_Alloc passes a type tag) */
  if (h && h->size != osize) a->bad_sizes++;
  if (nsize == 0) {
    if (h) {
      a->live_blocks--;
      a->live_bytes -= (long long)h->size;
      free(h);
    }
    return NULL;
  }
  a->calls++;
  if (a->fail_at > 0 && (a->calls == a->fail_at || (a->fail_rest && a->calls > a->fail_at))) {
    a->failures++;
    return NULL;
  }
  size_t old = h ? h->size : 0;
  if (nsize > SIZE_MAX - sizeof *h) return NULL;
  header *n = realloc(h, sizeof *n + nsize);
  if (!n) return NULL;
  if (!h) a->live_blocks++;
  a->live_bytes += (long long)nsize - (long long)old;
  n->size = nsize;
  return n + 1;
}

void td_test_alloc_install(td_test_alloc *a) { td_mem_set_allocator(test_alloc, a); }

void td_test_alloc_remove(void) { td_mem_set_allocator(NULL, NULL); }

void td_test_alloc_assert_clean(const td_test_alloc *a) {
  if (a->live_blocks != 0 || a->live_bytes != 0 || a->bad_sizes != 0)
    fail_msg("%ld blocks (%lld bytes) still live, %ld frees/reallocs with a wrong size",
             a->live_blocks, a->live_bytes, a->bad_sizes);
}

static td_test_alloc fixture;

td_test_alloc *td_test_alloc_fixture(void) { return &fixture; }

int td_test_alloc_setup(void **state) {
  memset(&fixture, 0, sizeof fixture);
  td_test_alloc_install(&fixture);
  *state = &fixture;
  return 0;
}

int td_test_alloc_teardown(void **state) {
  (void)state;
  td_test_alloc_remove();
  if (fixture.live_blocks != 0 || fixture.live_bytes != 0 || fixture.bad_sizes != 0) {
    print_error("leak: %ld blocks, %lld bytes live; %ld bad sizes\n", fixture.live_blocks,
                fixture.live_bytes, fixture.bad_sizes);
    return -1;
  }
  return 0;
}

void td_test_alloc_sweep(td_test_alloc *a, td_test_alloc_op op, void *ud, td_test_sweep *s) {
  long first = s->first > 0 ? s->first : 1, stride = s->stride > 0 ? s->stride : 1;
  long live = a->live_blocks, bad = a->bad_sizes;
  td_err err = {{0}};
  a->fail_at = 0;
  a->calls = 0;
  if (op(ud, &err) != 0) fail_msg("%s: fails without a failed allocation: %s", s->what, err.msg);
  s->total = a->calls;
  if (a->live_blocks != live) fail_msg("%s: %ld blocks leaked", s->what, a->live_blocks - live);
  s->runs = s->survived = s->refused = 0;
  const char *full = getenv("TD_TEST_SWEEP_FULL");
  if (s->max_runs > 0 && !(full && strcmp(full, "1") == 0) && s->total >= first) {
    long span = s->total - first + 1, need = (span + s->max_runs - 1) / s->max_runs;
    if (need > stride) stride = need;
  }
  s->stride = stride;
  for (long k = first; k <= s->total; k += stride) {
    a->calls = 0;
    a->fail_at = k;
    a->fail_rest = s->fail_rest;
    err.msg[0] = '\0';
    int rc = op(ud, &err);
    a->fail_at = 0;
    a->fail_rest = false;
    s->runs++;
    if (rc == 0) {
      s->survived++;
    } else if (!err.msg[0] || strchr(err.msg, '\n') || (s->expect && !strstr(err.msg, s->expect))) {
      fail_msg("%s: allocation %ld of %ld failed: unexpected message \"%s\"", s->what, k,
               s->total, err.msg);
    } else {
      s->refused++;
    }
    if (a->live_blocks != live || a->bad_sizes != bad)
      fail_msg("%s: allocation %ld of %ld failed (%s): %ld blocks leaked, %ld wrong sizes",
               s->what, k, s->total, rc == 0 ? "survived" : err.msg, a->live_blocks - live,
               a->bad_sizes - bad);
  }
}

td_graph *td_test_build_graph(td_grid *grid) {
  td_err err;
  td_graph *g = td_grid_build_graph(grid, &err);
  if (!g) fail_msg("%s", err.msg);
  return g;
}
