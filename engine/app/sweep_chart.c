/*
** sweep_chart.c: the charts of `td sweep report` (docs/sweep.md), drawn by
** gnuplot: for each, a data file and a script in DIR/charts, then gnuplot
** run on the script (from DIR, its stdout to /dev/null). Nothing here reads
** a clock; gnuplot's png and svg terminals write no date.
*/
#define _GNU_SOURCE /* fork, execlp */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/sweep_report.h"


/* Runs gnuplot on DIR/charts/NAME.gp; 0 when it drew DIR/charts/NAME.EXT. */
static int draw(charts *c, const char *name) {
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    char script[SWEEP_PATH_MAX];
    snprintf(script, sizeof script, "charts/%s.gp", name);
    if (chdir(c->dir) != 0) _exit(127);
    int nul = open("/dev/null", O_WRONLY);
    if (nul >= 0) dup2(nul, 1);
    execlp(c->gnuplot, c->gnuplot, script, (char *)NULL);
    _exit(127);
  }
  int ws;
  if (waitpid(pid, &ws, 0) < 0 || !WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
    c->failed++;
    return -1;
  }
  c->drawn++;
  return 0;
}

static FILE *open_in(const charts *c, const char *name, const char *ext) {
  char path[SWEEP_PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/charts/%s.%s", c->dir, name, ext);
  return fopen(path, "w");
}

static void term_line(const charts *c, FILE *gp, const char *name, int w, int h) {
  if (!strcmp(c->term, "svg"))
    fprintf(gp, "set terminal svg size %d,%d font 'sans,11' background '#ffffff'\n", w, h);
  else
    fprintf(gp, "set terminal %s size %d,%d font 'sans,10' background '#ffffff'\n", c->term, w, h);
  fprintf(gp, "set output 'charts/%s.%s'\n", name, c->ext);
}

static void image(charts *c, const char *name, const char *alt) {
  if (c->term && draw(c, name) == 0)
    fprintf(c->md, "![%s](%scharts/%s.%s)\n\n", alt, c->prefix, name, c->ext);
}

/* Win rate of the auto player per map x difficulty, a column per
** difficulty and strategy (strategies in name order). */
void sweep_chart_heatmap(charts *c, const table *t, char maps[][64], size_t nmaps) {
  char strat[8][32];
  size_t ns = 0;
  for (size_t i = 0; i < t->n; i++) {
    if (strcmp(t->rows[i].player, "auto") != 0) continue;
    bool seen = false;
    for (size_t k = 0; k < ns && !seen; k++) seen = !strcmp(strat[k], t->rows[i].strategy);
    if (!seen && ns < 8) snprintf(strat[ns++], sizeof strat[0], "%s", t->rows[i].strategy);
  }
  if (!ns) return;
  FILE *dat = open_in(c, "winrate", "dat"), *gp = open_in(c, "winrate", "gp");
  if (!dat || !gp) {
    if (dat) fclose(dat);
    if (gp) fclose(gp);
    return;
  }
  for (size_t m = 0; m < nmaps; m++) {
    for (int d = 0; d < 3; d++)
      for (size_t k = 0; k < ns; k++) {
        size_t n = 0, won = 0;
        for (size_t i = 0; i < t->n; i++) {
          const row *r = &t->rows[i];
          if (!strcmp(r->map, maps[m]) && r->difficulty == d && !strcmp(r->player, "auto") &&
              !strcmp(r->strategy, strat[k]))
            n++, won += !strcmp(r->result, "won");
        }
        size_t x = (size_t)d * ns + k;
        if (n) fprintf(dat, "%zu %zu %.4f %.0f%%\n", x, m, (double)won / (double)n,
                       100.0 * (double)won / (double)n);
        else fprintf(dat, "%zu %zu NaN -\n", x, m);
      }
    fputc('\n', dat);
  }
  fclose(dat);
  term_line(c, gp, "winrate", ns > 1 ? 260 + 110 * 3 * (int)ns : 640,
            (ns > 1 ? 170 : 140) + 48 * (int)nmaps);
  if (ns > 1) fprintf(gp, "set bmargin 4\n");
  fprintf(gp, "set title 'Win rate of the built-in player (td sim --auto)'\n"
              "set cbrange [0:1]\nset palette defined (0 '#b2182b', 0.5 '#f7f7f7', 1 '#2166ac')\n"
              "set xtics (");
  for (int d = 0; d < 3; d++)
    for (size_t k = 0; k < ns; k++)
      if (ns > 1) fprintf(gp, "%s\"%s\\n%s\" %zu", d || k ? ", " : "", sweep_diff_names[d], strat[k],
                          (size_t)d * ns + k);
      else fprintf(gp, "%s'%s' %d", d ? ", " : "", sweep_diff_names[d], d);
  fprintf(gp, ")\nset ytics (");
  for (size_t m = 0; m < nmaps; m++) fprintf(gp, "%s'%s' %zu", m ? ", " : "", maps[m], m);
  fprintf(gp, ")\nset xrange [-0.5:%zu.5]\nset yrange [%zu.5:-0.5]\nunset key\n"
              "plot 'charts/winrate.dat' using 1:2:3 with image, "
              "'' using 1:2:4 with labels\n", 3 * ns - 1, nmaps - 1);
  fclose(gp);
  image(c, "winrate", "win rate per map and difficulty");
}

static int cmp_dbl(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Wave reached and lives left by the value of override parameter p, one
** line per map (auto games, all difficulties and strategies pooled). */
void sweep_chart_param(charts *c, const table *t, size_t p, char maps[][64], size_t nmaps) {
  char name[32];
  snprintf(name, sizeof name, "param%zu", p + 1);
  double vals[SWEEP_MAX_VALUES * 4];
  size_t nv = 0;
  for (size_t i = 0; i < t->n; i++) {
    double v = t->rows[i].ov[p];
    bool seen = isnan(v);
    for (size_t k = 0; k < nv && !seen; k++) seen = vals[k] == v;
    if (!seen && nv < sizeof vals / sizeof vals[0]) vals[nv++] = v;
  }
  if (!nv) return;
  qsort(vals, nv, sizeof *vals, cmp_dbl);
  FILE *dat = open_in(c, name, "dat"), *gp = open_in(c, name, "gp");
  if (!dat || !gp) {
    if (dat) fclose(dat);
    if (gp) fclose(gp);
    return;
  }
  for (size_t m = 0; m < nmaps; m++) {
    fprintf(dat, "# %s\n", maps[m]);
    for (size_t k = 0; k < nv; k++) {
      double wave = 0, lives = 0;
      size_t n = 0;
      for (size_t i = 0; i < t->n; i++) {
        const row *r = &t->rows[i];
        if (strcmp(r->map, maps[m]) != 0 || strcmp(r->player, "auto") != 0 || r->ov[p] != vals[k])
          continue;
        wave += r->waves ? (double)r->wave / (double)r->waves : 0;
        lives += r->start_lives ? (double)r->lives / (double)r->start_lives : 0;
        n++;
      }
      if (n) fprintf(dat, "%.9g %.4f %.4f\n", vals[k], wave / (double)n, lives / (double)n);
    }
    fprintf(dat, "\n\n");
  }
  fclose(dat);
  term_line(c, gp, name, 900, 380);
  fprintf(gp, "set multiplot layout 1,2 title '%s (auto player; mean over seeds, difficulties, "
              "strategies)'\nset key outside bottom center horizontal\nset grid\n"
              "set xlabel '%s'\nset yrange [0:1.05]\n", t->params[p], t->params[p]);
  for (int panel = 0; panel < 2; panel++) {
    fprintf(gp, "set title '%s'\nplot ", panel ? "lives left (share of start)"
                                               : "wave reached (share of the waves)");
    for (size_t m = 0; m < nmaps; m++)
      fprintf(gp, "%s'charts/%s.dat' index %zu using 1:%d with linespoints title '%s'",
              m ? ", " : "", name, m, panel + 2, maps[m]);
    fputc('\n', gp);
  }
  fprintf(gp, "unset multiplot\n");
  fclose(gp);
  char alt[128];
  snprintf(alt, sizeof alt, "wave and lives by %s", t->params[p]);
  image(c, name, alt);
}

/* Lives and gold at each wave's start on map m: median and min..max over
** the seeds, for the default auto player on difficulty d, no override or
** all at their first value. */
void sweep_chart_curves(charts *c, const table *t, const char *map, int d) {
  char name[96];
  snprintf(name, sizeof name, "curves-%s-%s", map, sweep_diff_names[d]);
  int *lives[SWEEP_MAX_WAVES] = {0}, *gold[SWEEP_MAX_WAVES] = {0};
  size_t cnt[SWEEP_MAX_WAVES] = {0}, nrows = 0;
  int maxw = 0;
  double first[SWEEP_MAX_PARAMS];
  bool have_first = false;
  for (size_t i = 0; i < t->n; i++) {
    const row *r = &t->rows[i];
    if (strcmp(r->map, map) != 0 || r->difficulty != d || strcmp(r->player, "auto") != 0 ||
        strcmp(r->strategy, "default") != 0)
      continue;
    if (!have_first) memcpy(first, r->ov, sizeof first), have_first = true;
    bool same = true;
    for (size_t p = 0; p < t->nparams && same; p++)
      same = sweep_cmp_double(r->ov[p], first[p]) == 0;
    if (!same) continue;
    nrows++;
    for (int w = 0; w < r->nw; w++) {
      if (!lives[w]) {
        lives[w] = calloc(t->n, sizeof *lives[w]);
        gold[w] = calloc(t->n, sizeof *gold[w]);
        if (!lives[w] || !gold[w]) goto done;
      }
      lives[w][cnt[w]] = r->wave_lives[w];
      gold[w][cnt[w]++] = r->wave_gold[w];
      if (w + 1 > maxw) maxw = w + 1;
    }
  }
  if (!nrows || !maxw) goto done;
  FILE *dat = open_in(c, name, "dat"), *gp = open_in(c, name, "gp");
  if (!dat || !gp) {
    if (dat) fclose(dat);
    if (gp) fclose(gp);
    goto done;
  }
  for (int w = 0; w < maxw; w++) {
    size_t n = cnt[w];
    double l[3], g[3];
    int *arrs[2] = {lives[w], gold[w]};
    double *outs[2] = {l, g};
    for (int k = 0; k < 2; k++) {
      int *a = arrs[k];
      for (size_t x = 1; x < n; x++) /* insertion sort: n is the seeds */
        for (size_t y = x; y > 0 && a[y - 1] > a[y]; y--) {
          int tmp = a[y];
          a[y] = a[y - 1], a[y - 1] = tmp;
        }
      outs[k][0] = a[0], outs[k][2] = a[n - 1];
      size_t h = n / 2;
      outs[k][1] = n % 2 ? a[h] : ((double)a[h - 1] + (double)a[h]) / 2.0;
    }
    fprintf(dat, "%d %zu %.1f %.1f %.1f %.1f %.1f %.1f\n", w + 1, n, l[0], l[1], l[2], g[0], g[1],
            g[2]);
  }
  fclose(dat);
  term_line(c, gp, name, 900, 340);
  fprintf(gp, "set multiplot layout 1,2 title '%s, %s: the default auto player at the start of "
              "each wave (median, min..max over %zu seed%s)'\nset grid\nset xlabel 'wave'\n"
              "unset key\nset style fill transparent solid 0.25 noborder\n", map, sweep_diff_names[d],
          nrows, nrows == 1 ? "" : "s");
  fprintf(gp, "set title 'lives'\nset yrange [0:*]\nplot 'charts/%s.dat' using 1:3:5 with "
              "filledcurves lc rgb '#2166ac', '' using 1:4 with lines lw 2 lc rgb '#2166ac'\n",
          name);
  fprintf(gp, "set title 'gold'\nplot 'charts/%s.dat' using 1:6:8 with filledcurves lc rgb "
              "'#b8860b', '' using 1:7 with lines lw 2 lc rgb '#b8860b'\nunset multiplot\n", name);
  fclose(gp);
  char alt[160];
  snprintf(alt, sizeof alt, "lives and gold of %s on %s", map, sweep_diff_names[d]);
  image(c, name, alt);
done:
  for (int w = 0; w < SWEEP_MAX_WAVES; w++) free(lives[w]), free(gold[w]);
}

/* Which terminal this gnuplot has: pngcairo, else png (libgd), else svg;
** NULL when gnuplot does not run. */
const char *sweep_chart_term(const char *gnuplot) {
  static const char *const terms[] = {"pngcairo", "png", "svg"};
  for (size_t k = 0; k < 3; k++) {
    pid_t pid = fork();
    if (pid < 0) return NULL;
    if (pid == 0) {
      int nul = open("/dev/null", O_WRONLY);
      if (nul >= 0) dup2(nul, 1), dup2(nul, 2);
      char cmd[64];
      snprintf(cmd, sizeof cmd, "set terminal %s", terms[k]);
      execlp(gnuplot, gnuplot, "-e", cmd, (char *)NULL);
      _exit(127);
    }
    int ws;
    if (waitpid(pid, &ws, 0) < 0 || !WIFEXITED(ws)) return NULL;
    if (WEXITSTATUS(ws) == 127) return NULL; /* no gnuplot */
    if (WEXITSTATUS(ws) == 0) return terms[k];
  }
  return NULL;
}
