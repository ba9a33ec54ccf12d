/*
** bench_util.c: timing and statistics shared by the `td bench` areas. The
** benchmarks are the only code in td that reads a clock.
*/
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <time.h>

#include "app/bench.h"

double bench_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

int bench_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double bench_quantile(const double *sorted, size_t n, double q) {
  if (n == 0) return 0.0;
  size_t i = (size_t)ceil(q * (double)n);
  if (i > 0) i--;
  if (i >= n) i = n - 1;
  return sorted[i];
}

void bench_emit(const char *area, const char *name, const char *metric, double value) {
  if (!isfinite(value)) value = 0.0; /* JSON has no inf or nan */
  printf("{\"bench\":\"%s\",\"case\":\"%s\",\"metric\":\"%s\",\"value\":%.6g}\n", area,
         name, metric, value);
}
