/*
** bench.h: options shared by the `td bench` areas.
*/
#ifndef TD_APP_BENCH_H
#define TD_APP_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct bench_opts {
  bool json;          /* one JSON object per line */
  bool quick;         /* the small cases only (CI smoke run) */
  const char *only;   /* run just this case */
  uint64_t seed;      /* route: graph and placements; crowd: wave speeds */
  size_t placements;  /* route: incremental updates to time */
} bench_opts;

/* Monotonic milliseconds (benchmarks only: the simulation reads no clock). */
double bench_now_ms(void);
/* qsort comparator for doubles. */
int bench_cmp_double(const void *a, const void *b);
/* One --json line: {"bench":area,"case":name,"metric":metric,"value":value}. */
void bench_emit(const char *area, const char *name, const char *metric, double value);
/* Nearest-rank quantile q of a sorted sample (0 when empty). */
double bench_quantile(const double *sorted, size_t n, double q);

/* Each returns 0 ok, 1 a check inside the bench failed, 2 bad input. */
int td_bench_route(const bench_opts *o);
int td_bench_path(const bench_opts *o);
int td_bench_crowd(const bench_opts *o);
int td_bench_sim(const bench_opts *o);
/* td bench sim's soldier case (bench_soldiers.c), its own table. */
#define BENCH_SOLDIERS_CASE "soldiers-200"
int bench_sim_soldiers(const bench_opts *o);

#endif
