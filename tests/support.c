/*
** support.c: see support.h.
*/
#include "support.h"

#include <stdio.h>
#include <stdlib.h>

#include "nav/mem.h"

const char *td_test_path(const char *relative) {
  static char buf[4096];
  const char *root = getenv("TD_SOURCE_DIR");
  snprintf(buf, sizeof buf, "%s/%s", root ? root : ".", relative);
  return buf;
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

td_graph *td_test_build_graph(td_grid *grid) {
  td_err err;
  td_graph *g = td_grid_build_graph(grid, &err);
  if (!g) fail_msg("%s", err.msg);
  return g;
}
