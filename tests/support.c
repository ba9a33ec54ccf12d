/*
** support.c: see support.h.
*/
#include "support.h"

#include <stdio.h>
#include <stdlib.h>

const char *td_test_path(const char *relative) {
  static char buf[4096];
  const char *root = getenv("TD_SOURCE_DIR");
  snprintf(buf, sizeof buf, "%s/%s", root ? root : ".", relative);
  return buf;
}

uint64_t td_test_rand(td_test_rng *r) {
  uint64_t x = r->s ? r->s : 0x9E3779B97F4A7C15ull;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  r->s = x;
  return x * 0x2545F4914F6CDD1Dull;
}

uint32_t td_test_below(td_test_rng *r, uint32_t n) {
  return n ? (uint32_t)((td_test_rand(r) >> 32) % n) : 0;
}

double td_test_unit(td_test_rng *r) {
  return (double)(td_test_rand(r) >> 11) * (1.0 / 9007199254740992.0);
}
