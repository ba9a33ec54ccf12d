/*
** support.h: helpers shared by the cmocka tests (paths, a seeded RNG).
** cmocka needs <stdarg.h> <stddef.h> <setjmp.h> <stdint.h> before it;
** include this header first.
*/
#ifndef TD_TEST_SUPPORT_H
#define TD_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

/* Absolute path of a file in the source tree ("tests/data/x.map"); the
** returned buffer is static and overwritten by the next call. */
const char *td_test_path(const char *relative);

/* xorshift64* generator for test data: deterministic per seed. */
typedef struct td_test_rng {
  uint64_t s;
} td_test_rng;

uint64_t td_test_rand(td_test_rng *r);
uint32_t td_test_below(td_test_rng *r, uint32_t n); /* uniform in [0, n) */
double td_test_unit(td_test_rng *r);                /* uniform in [0, 1) */

#endif
