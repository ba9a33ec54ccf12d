/*
** support.h: helpers shared by the cmocka tests (paths, a seeded RNG, a
** checking td_mem allocation hook, grid graphs).
** cmocka needs <stdarg.h> <stddef.h> <setjmp.h> <stdint.h> before it;
** include this header first.
*/
#ifndef TD_TEST_SUPPORT_H
#define TD_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "app/graphgen.h"

/* Absolute path of a file in the source tree ("tests/data/x.map"); the
** returned buffer is static and overwritten by the next call. */
const char *td_test_path(const char *relative);

/* Test data generator: graphgen's xorshift64* stream, deterministic per
** seed (td_test_rng rng = {seed}). */
typedef td_graphgen_rng td_test_rng;

uint64_t td_test_rand(td_test_rng *r);
uint32_t td_test_below(td_test_rng *r, uint32_t n); /* uniform in [0, n) */
double td_test_unit(td_test_rng *r);                /* uniform in [0, 1) */

/* A td_mem hook for tests. Every block carries its size in a header, so the
** counts do not trust the sizes callers pass: a free or realloc whose old
** size differs from the size handed out counts in bad_sizes. Allocations
** (new blocks and growths/reallocs, nsize > 0) are counted in calls; the
** fail_at-th (from 1) returns NULL, and with fail_rest every later one too.
** Reset calls to 0 to restart the numbering. */
typedef struct td_test_alloc {
  long fail_at;   /* in: fail this allocation (from 1); 0 never */
  bool fail_rest; /* in: and every later one */
  long calls;       /* out: allocation attempts, failed ones included */
  long failures;    /* out: allocations refused */
  long live_blocks; /* out: blocks handed out and not freed */
  long bad_sizes;   /* out: frees/reallocs given a wrong old size */
  long long live_bytes; /* out: bytes in live blocks */
} td_test_alloc;

void td_test_alloc_install(td_test_alloc *a); /* td_mem_set_allocator(hook, a) */
void td_test_alloc_remove(void);              /* back to malloc */
/* Fails the test unless no block is live and no size was wrong. */
void td_test_alloc_assert_clean(const td_test_alloc *a);

/* td_grid_build_graph, failing the test with its message on error. */
td_graph *td_test_build_graph(td_grid *grid);

#endif
