/*
** sweep_report.h: what sweep_report.c (reading the games' JSON lines into a
** table, sweep.csv, report.md) and sweep_chart.c (the gnuplot charts of
** report.md) share. Internal to td sweep (sweep.h).
**
** Memory: a table owns its rows and their optional columns (malloc).
** Determinism: the rows are in input order (sweep_report.c sorts them);
** every chart's data file and script depend on the table only.
*/
#ifndef TD_APP_SWEEP_REPORT_H
#define TD_APP_SWEEP_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "app/sweep.h"

#define SWEEP_MAX_WAVES 256
#define SWEEP_CURVE_MAX 4096

/* One game. */
typedef struct row {
  char tag[SWEEP_KEY_MAX];
  char map[64], strategy[32], player[8], result[12];
  int difficulty;        /* td_difficulty order: easy, normal, hard for sorting */
  unsigned long long seed;
  double ov[SWEEP_MAX_PARAMS]; /* by the report's params; NAN: not set */
  long long wave, waves, lives, start_lives, gold, kills, leaks, ticks, towers, built, upgrades;
  char *opt[6];          /* optional columns, by SWEEP_REC_* bit; NULL: absent */
  int wave_lives[SWEEP_MAX_WAVES], wave_gold[SWEEP_MAX_WAVES], nw;
} row;

typedef struct table {
  row *rows;
  size_t n, cap;
  char params[SWEEP_MAX_PARAMS][TD_OVERRIDE_PARAM_MAX + 2]; /* "tower.cannon.cost*" */
  size_t nparams;
  unsigned present;      /* optional columns some row has */
} table;

extern const char *const sweep_diff_names[3]; /* by row.difficulty: easy, normal, hard */

/* NaN-aware order of two override values (NaN: not set, last). */
int sweep_cmp_double(double a, double b);

typedef struct charts {
  const char *dir;        /* DIR */
  const char *gnuplot;    /* the program */
  const char *term;       /* "pngcairo", "png" or "svg"; NULL: no charts */
  const char *ext;        /* "png" or "svg" */
  FILE *md;               /* where each chart drawn is linked */
  const char *prefix;     /* DIR as the Markdown file links to it: "" or "balance/" */
  int drawn, failed;
} charts;

/* Which terminal gnuplot has: pngcairo, else png (libgd), else svg; NULL
** when it does not run. */
const char *sweep_chart_term(const char *gnuplot);

/* Each writes DIR/charts/NAME.dat and .gp, runs gnuplot, and links the
** picture from c->md when it was drawn. maps: the maps in the table's
** order. */
void sweep_chart_heatmap(charts *c, const table *t, char maps[][64], size_t nmaps);
void sweep_chart_param(charts *c, const table *t, size_t p, char maps[][64], size_t nmaps);
void sweep_chart_curves(charts *c, const table *t, const char *map, int difficulty);

#endif
