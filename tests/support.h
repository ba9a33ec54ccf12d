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
#include "nav/mem.h"

/* Absolute path of a file in the source tree ("tests/data/x.map"); the
** returned buffer is static and overwritten by the next call. */
const char *td_test_path(const char *relative);

/* A scratch directory for a group of tests: td_test_dir_setup (a cmocka
** group setup) makes a fresh /tmp/td_test_XXXXXX, td_test_dir_teardown
** removes it and everything in it. td_test_tmp(name) is the path of name
** inside it (one of 4 static buffers, reused in turn); td_test_tmp_dir() is
** the directory. td_test_tmp_count(suffix) counts its entries whose names
** end in suffix (".tmp": temporary files left behind). */
int td_test_dir_setup(void **state);
int td_test_dir_teardown(void **state);
const char *td_test_tmp(const char *name);
const char *td_test_tmp_dir(void);
int td_test_tmp_count(const char *suffix);

/* A full disk, for this process: td_test_disk_full(bytes) limits the size
** of any file it writes to bytes (RLIMIT_FSIZE; a write past it fails with
** EFBIG, "File too large", SIGXFSZ ignored); td_test_disk_full(-1) lifts
** the limit again. */
void td_test_disk_full(long bytes);

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

/* cmocka fixtures for tests that run under the hook: setup installs a
** zeroed counter (td_test_alloc_fixture()) and makes it *state; teardown
** removes the hook and fails (print_error, -1) if a block is still live or
** a size was wrong. */
int td_test_alloc_setup(void **state);
int td_test_alloc_teardown(void **state);
td_test_alloc *td_test_alloc_fixture(void);

/* Allocation-failure sweeps. An operation runs with the hook installed and
** returns 0 when it succeeded, or -1 with err set when it failed; either
** way it frees everything it allocated. */
typedef int (*td_test_alloc_op)(void *ud, td_err *err);

typedef struct td_test_sweep {
  const char *what;   /* in: named in messages */
  long first;         /* in: first allocation to fail (0: 1) */
  long stride;        /* in: step between two (0: 1); out: the one used */
  long max_runs;      /* in: > 0: the stride grows so that at most this many
                         runs are made (TD_TEST_SWEEP_FULL=1 in the
                         environment turns this off: every k) */
  bool fail_rest;     /* in: every allocation from that one on fails too */
  const char *expect; /* in: a refusal's message contains this */
  long total;         /* out: allocations of a run without failure */
  long runs;          /* out: runs with a failure */
  long survived;      /* out: of those, runs that still succeeded */
  long refused;       /* out: runs that failed with a clean message */
} td_test_sweep;

/* Runs op once without failure (it must succeed) to count its allocations,
** then once for each k = first, first + stride, ... <= total with the k-th
** allocation failing (and with fail_rest every later one). Fails the test
** at the first run that leaks a block, frees with a wrong size, or fails
** with a message that is empty, more than one line, or lacks s->expect. */
void td_test_alloc_sweep(td_test_alloc *a, td_test_alloc_op op, void *ud, td_test_sweep *s);

/* td_grid_build_graph, failing the test with its message on error. */
td_graph *td_test_build_graph(td_grid *grid);

#endif
