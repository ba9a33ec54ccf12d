/*
** sweep_report.c: `td sweep report DIR` (docs/sweep.md): every *.jsonl
** line in DIR (parsed with cJSON; a line cut short is skipped), one row a
** game keyed by its tag (the first line of a tag wins), into DIR/sweep.csv
** sorted by the games' inputs (so the file is the same however the games
** were run), and DIR/report.md with the charts of sweep_chart.c. Without
** gnuplot the CSV and the Markdown are still written and the report says
** the charts were skipped.
*/
#define _GNU_SOURCE /* realpath */
#include <dirent.h>
#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "app/cmds.h"
#include "app/sweep_report.h"

static int diff_rank(const char *d) { /* easy, normal, hard */
  return !strcmp(d, "easy") ? 0 : !strcmp(d, "normal") ? 1 : 2;
}
const char *const sweep_diff_names[3] = {"easy", "normal", "hard"};

static long long num(const cJSON *j, const char *k) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, k);
  return cJSON_IsNumber(v) ? (long long)v->valuedouble : 0;
}

static const char *str(const cJSON *j, const char *k, const char *dflt) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, k);
  return cJSON_IsString(v) ? v->valuestring : dflt;
}

/* An int list ("1 2 3") or a name:count object ("arrow:3 cannon:1", names
** sorted) as text; NULL when the field is absent. */
static char *field_text(const cJSON *v) {
  if (!v) return NULL;
  char *out = malloc(SWEEP_CURVE_MAX);
  if (!out) return NULL;
  size_t used = 0;
  out[0] = '\0';
  if (cJSON_IsArray(v)) {
    const cJSON *e;
    cJSON_ArrayForEach(e, v) {
      if (used + 24 >= SWEEP_CURVE_MAX) break;
      used += (size_t)snprintf(out + used, SWEEP_CURVE_MAX - used, "%s%lld", used ? " " : "",
                               (long long)e->valuedouble);
    }
  } else if (cJSON_IsObject(v)) {
    const char *names[256];
    long long counts[256];
    size_t n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, v) if (n < 256 && e->string) {
      size_t k = n++;
      while (k > 0 && strcmp(names[k - 1], e->string) > 0) { /* insertion sort by name */
        names[k] = names[k - 1], counts[k] = counts[k - 1];
        k--;
      }
      names[k] = e->string, counts[k] = (long long)e->valuedouble;
    }
    for (size_t k = 0; k < n && used + 80 < SWEEP_CURVE_MAX; k++)
      used += (size_t)snprintf(out + used, SWEEP_CURVE_MAX - used, "%s%.40s:%lld", k ? " " : "",
                               names[k], counts[k]);
  }
  return out;
}

static const char *const opt_keys[6] = {"gold_curve", "lives_curve", "kills_by_tower",
                                        "leaks_by_enemy", NULL, NULL};

static int param_index(table *t, const char *param, bool scale) {
  char name[TD_OVERRIDE_PARAM_MAX + 2];
  snprintf(name, sizeof name, "%s%s", param, scale ? "*" : "=");
  for (size_t i = 0; i < t->nparams; i++)
    if (!strcmp(t->params[i], name)) return (int)i;
  if (t->nparams == SWEEP_MAX_PARAMS) return -1;
  snprintf(t->params[t->nparams], sizeof t->params[0], "%s", name);
  return (int)t->nparams++;
}

static int add_line(table *t, const char *line) {
  cJSON *j = cJSON_Parse(line);
  const char *tag = str(j, "tag", NULL);
  if (!j || !tag) {
    cJSON_Delete(j);
    return 0; /* not a sweep's line (or cut short) */
  }
  if (t->n == t->cap) {
    size_t nc = t->cap ? t->cap * 2 : 256;
    row *nr = realloc(t->rows, nc * sizeof *nr);
    if (!nr) {
      cJSON_Delete(j);
      return -1;
    }
    t->rows = nr, t->cap = nc;
  }
  row *r = &t->rows[t->n];
  memset(r, 0, sizeof *r);
  snprintf(r->tag, sizeof r->tag, "%s", tag);
  td_game_map_name_of(str(j, "map", "?"), r->map, sizeof r->map);
  snprintf(r->player, sizeof r->player, "%s", str(j, "player", "?"));
  bool idle = strcmp(r->player, "auto") != 0;
  snprintf(r->strategy, sizeof r->strategy, "%s", idle ? "-" : str(j, "strategy", "default"));
  snprintf(r->result, sizeof r->result, "%s", str(j, "result", "?"));
  r->difficulty = diff_rank(str(j, "difficulty", "normal"));
  r->seed = (unsigned long long)num(j, "seed");
  for (size_t i = 0; i < SWEEP_MAX_PARAMS; i++) r->ov[i] = NAN;
  const cJSON *ov = cJSON_GetObjectItemCaseSensitive(j, "overrides"), *e;
  cJSON_ArrayForEach(e, ov) {
    int k = param_index(t, str(e, "param", "?"), !strcmp(str(e, "op", "set"), "scale"));
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, "value");
    if (k >= 0 && cJSON_IsNumber(v)) r->ov[k] = v->valuedouble;
  }
  r->wave = num(j, "wave"), r->waves = num(j, "waves"), r->lives = num(j, "lives");
  r->start_lives = num(j, "start_lives"), r->gold = num(j, "gold"), r->kills = num(j, "kills");
  r->leaks = num(j, "leaks"), r->ticks = num(j, "ticks"), r->towers = num(j, "towers");
  r->built = num(j, "built"), r->upgrades = num(j, "upgrades");
  for (int k = 0; k < 4; k++) {
    r->opt[k] = field_text(cJSON_GetObjectItemCaseSensitive(j, opt_keys[k]));
    if (r->opt[k]) t->present |= 1u << k;
  }
  const cJSON *ws = cJSON_GetObjectItemCaseSensitive(j, "wave_starts");
  cJSON_ArrayForEach(e, ws) {
    if (r->nw == SWEEP_MAX_WAVES) break;
    r->wave_gold[r->nw] = (int)num(e, "gold");
    r->wave_lives[r->nw++] = (int)num(e, "lives");
  }
  if (cJSON_IsArray(ws)) t->present |= SWEEP_REC_WAVE_GOLD | SWEEP_REC_WAVE_LIVES;
  cJSON_Delete(j);
  t->n++;
  return 0;
}

static int read_file(table *t, const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return td_app_fail("%s: %s", path, strerror(errno));
  size_t cap = 1 << 16;
  char *line = malloc(cap);
  int rc = line ? 0 : -1;
  while (rc == 0) {
    size_t n = 0;
    int c;
    while ((c = fgetc(f)) != EOF && c != '\n') {
      if (n + 1 == cap) {
        char *nl = realloc(line, cap * 2);
        if (!nl) {
          rc = -1;
          break;
        }
        line = nl, cap *= 2;
      }
      line[n++] = (char)c;
    }
    if (c == EOF) break; /* a last line without its newline is cut short: skipped */
    line[n] = '\0';
    if (rc == 0) rc = add_line(t, line);
  }
  free(line);
  fclose(f);
  return rc == 0 ? 0 : td_app_fail("%s: out of memory", path);
}

int sweep_cmp_double(double a, double b) {
  if (isnan(a) || isnan(b)) return isnan(a) - isnan(b);
  return (a > b) - (a < b);
}

static int cmp_row(const void *pa, const void *pb) {
  const row *a = pa, *b = pb;
  int c = strcmp(a->map, b->map);
  if (!c) c = a->difficulty - b->difficulty;
  if (!c) c = strcmp(a->player, b->player);
  if (!c) c = strcmp(a->strategy, b->strategy);
  for (size_t i = 0; !c && i < SWEEP_MAX_PARAMS; i++) c = sweep_cmp_double(a->ov[i], b->ov[i]);
  if (!c) c = (a->seed > b->seed) - (a->seed < b->seed);
  if (!c) c = strcmp(a->tag, b->tag);
  return c;
}

/* Sorts the params by name (rows' values follow), the rows by inputs, and
** drops a tag's later lines. */
static void order(table *t) {
  size_t perm[SWEEP_MAX_PARAMS];
  for (size_t i = 0; i < t->nparams; i++) perm[i] = i;
  for (size_t i = 1; i < t->nparams; i++)
    for (size_t k = i; k > 0 && strcmp(t->params[perm[k - 1]], t->params[perm[k]]) > 0; k--) {
      size_t x = perm[k];
      perm[k] = perm[k - 1], perm[k - 1] = x;
    }
  char names[SWEEP_MAX_PARAMS][TD_OVERRIDE_PARAM_MAX + 2];
  for (size_t i = 0; i < t->nparams; i++) memcpy(names[i], t->params[perm[i]], sizeof names[i]);
  memcpy(t->params, names, sizeof names[0] * t->nparams);
  for (size_t r = 0; r < t->n; r++) {
    double v[SWEEP_MAX_PARAMS];
    for (size_t i = 0; i < t->nparams; i++) v[i] = t->rows[r].ov[perm[i]];
    for (size_t i = 0; i < t->nparams; i++) t->rows[r].ov[i] = v[i];
  }
  /* the first line of each tag: a stable pass over the file order first */
  size_t keep = 0;
  for (size_t i = 0; i < t->n; i++) {
    bool dup = false;
    for (size_t k = 0; k < keep && !dup; k++) dup = !strcmp(t->rows[k].tag, t->rows[i].tag);
    if (dup) {
      for (int k = 0; k < 6; k++) free(t->rows[i].opt[k]);
      continue;
    }
    t->rows[keep++] = t->rows[i];
  }
  t->n = keep;
  if (t->n) qsort(t->rows, t->n, sizeof *t->rows, cmp_row);
}

static void csv_word(FILE *f, const char *s) {
  bool q = strpbrk(s, ",\"\n") != NULL;
  if (!q) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static void ints_text(const int *v, int n, FILE *f) {
  for (int i = 0; i < n; i++) fprintf(f, "%s%d", i ? " " : "", v[i]);
}

static int write_csv(const table *t, unsigned record, const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) return td_app_fail("%s: %s", path, strerror(errno));
  unsigned cols = t->present & record;
  fputs("map,difficulty,player,strategy", f);
  for (size_t i = 0; i < t->nparams; i++) {
    fputc(',', f);
    csv_word(f, t->params[i]);
  }
  fputs(",seed,result,wave,waves,lives,start_lives,gold,kills,leaks,ticks,towers,built,upgrades", f);
  for (unsigned k = 0; k < 6; k++)
    if (cols & (1u << k)) fprintf(f, ",%s", sweep_record_name(1u << k));
  fputc('\n', f);
  for (size_t i = 0; i < t->n; i++) {
    const row *r = &t->rows[i];
    csv_word(f, r->map);
    fprintf(f, ",%s,%s,", sweep_diff_names[r->difficulty], r->player);
    csv_word(f, r->strategy);
    for (size_t p = 0; p < t->nparams; p++) {
      char v[32] = "";
      if (!isnan(r->ov[p])) td_override_number(r->ov[p], v, sizeof v);
      fprintf(f, ",%s", v);
    }
    fprintf(f, ",%llu,%s,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld", r->seed,
            r->result, r->wave, r->waves, r->lives, r->start_lives, r->gold, r->kills, r->leaks,
            r->ticks, r->towers, r->built, r->upgrades);
    for (unsigned k = 0; k < 4; k++)
      if (cols & (1u << k)) {
        fputc(',', f);
        csv_word(f, r->opt[k] ? r->opt[k] : "");
      }
    if (cols & SWEEP_REC_WAVE_GOLD) fputc(',', f), ints_text(r->wave_gold, r->nw, f);
    if (cols & SWEEP_REC_WAVE_LIVES) fputc(',', f), ints_text(r->wave_lives, r->nw, f);
    fputc('\n', f);
  }
  if (fclose(f) != 0) return td_app_fail("%s: write failed", path);
  return 0;
}

/* ---- the report ------------------------------------------------------------ */

/* DIR as seen from the directory of the Markdown file md: "sub/dir/" when
** DIR is below it, "" when it is that directory, else DIR's absolute path. */
static void link_prefix(const char *dir, const char *md, char *out, size_t cap) {
  char d[PATH_MAX], m[PATH_MAX], mdir[SWEEP_PATH_MAX];
  snprintf(mdir, sizeof mdir, "%s", md);
  char *slash = strrchr(mdir, '/');
  if (slash) *slash = '\0';
  else snprintf(mdir, sizeof mdir, ".");
  if (!realpath(dir, d) || !realpath(mdir, m)) {
    snprintf(out, cap, "%s/", dir);
    return;
  }
  size_t n = strlen(m);
  if (!strcmp(d, m)) out[0] = '\0';
  else if (!strncmp(d, m, n) && d[n] == '/') snprintf(out, cap, "%s/", d + n + 1);
  else snprintf(out, cap, "%.*s/", (int)(cap > 2 ? cap - 2 : 0), d);
}

/* Who played a row: "auto STRATEGY", or the player ("idle"). */
static void player_label(const row *r, char *out, size_t cap) {
  bool is_auto = !strcmp(r->player, "auto");
  snprintf(out, cap, "%s%s%s", r->player, is_auto ? " " : "", is_auto ? r->strategy : "");
}

static void md_summary(FILE *md, const table *t, char maps[][64], size_t nmaps) {
  /* players: auto x strategies present, then idle */
  char who[16][40];
  size_t nwho = 0;
  for (size_t i = 0; i < t->n; i++) {
    char w[40];
    player_label(&t->rows[i], w, sizeof w);
    bool seen = false;
    for (size_t k = 0; k < nwho && !seen; k++) seen = !strcmp(who[k], w);
    if (!seen && nwho < 16) snprintf(who[nwho++], sizeof who[0], "%s", w);
  }
  fprintf(md, "| map | difficulty |");
  for (size_t k = 0; k < nwho; k++) fprintf(md, " %s: won | lives left | wave reached |", who[k]);
  fprintf(md, "\n|---|---|");
  for (size_t k = 0; k < nwho; k++) fprintf(md, "---|---|---|");
  fputc('\n', md);
  for (size_t m = 0; m < nmaps; m++)
    for (int d = 0; d < 3; d++) {
      bool any = false;
      for (size_t i = 0; i < t->n && !any; i++)
        any = !strcmp(t->rows[i].map, maps[m]) && t->rows[i].difficulty == d;
      if (!any) continue;
      fprintf(md, "| %s | %s |", maps[m], sweep_diff_names[d]);
      for (size_t k = 0; k < nwho; k++) {
        size_t n = 0, won = 0, playing = 0;
        long long lives = 0, start = 0, wave = 0, waves = 0;
        for (size_t i = 0; i < t->n; i++) {
          const row *r = &t->rows[i];
          char w[40];
          player_label(r, w, sizeof w);
          if (strcmp(r->map, maps[m]) != 0 || r->difficulty != d || strcmp(w, who[k]) != 0)
            continue;
          n++, won += !strcmp(r->result, "won"), playing += !strcmp(r->result, "playing");
          lives += r->lives, start += r->start_lives, wave += r->wave, waves += r->waves;
        }
        if (!n) fprintf(md, " | | |");
        else if (playing)
          fprintf(md, " %zu of %zu (%zu out of ticks) | %.0f%% | %.1f of %.0f |", won, n, playing,
                  start ? 100.0 * (double)lives / (double)start : 0.0, (double)wave / (double)n,
                  (double)waves / (double)n);
        else
          fprintf(md, " %zu of %zu | %.0f%% | %.1f of %.0f |", won, n,
                  start ? 100.0 * (double)lives / (double)start : 0.0, (double)wave / (double)n,
                  (double)waves / (double)n);
      }
      fputc('\n', md);
    }
  fputc('\n', md);
}

/* Whether rows a and b are the same game but for the seed. */
static bool same_but_seed(const table *t, const row *a, const row *b) {
  if (strcmp(a->map, b->map) != 0 || a->difficulty != b->difficulty ||
      strcmp(a->player, b->player) != 0 || strcmp(a->strategy, b->strategy) != 0)
    return false;
  for (size_t p = 0; p < t->nparams; p++)
    if (sweep_cmp_double(a->ov[p], b->ov[p]) != 0) return false;
  return true;
}

/* The least and the most of a column over some rows, printed as "lo" or
** "lo-hi". */
typedef struct range {
  long long lo, hi;
  bool any;
} range;

static void range_add(range *r, long long v) {
  if (!r->any || v < r->lo) r->lo = v;
  if (!r->any || v > r->hi) r->hi = v;
  r->any = true;
}

static void range_print(FILE *md, const range *r) {
  if (r->lo == r->hi) fprintf(md, "%lld", r->lo);
  else fprintf(md, "%lld-%lld", r->lo, r->hi);
}

/* The games whose tick limit ran out with the game still on (a stalemate:
** enemies that neither reach a goal nor die, or a game longer than the
** limit), one line per inputs but the seed: nothing when there is none. */
static void md_unended(FILE *md, const table *t) {
  size_t total = 0;
  for (size_t i = 0; i < t->n; i++) total += !strcmp(t->rows[i].result, "playing");
  if (!total) return;
  fprintf(md, "## Games still on at their tick limit\n\n%zu game%s had not ended when the "
              "tick limit ran out: enemies that neither reach a goal nor die (a stalemate), or "
              "a game longer than the limit. Each is the line of its tag in `td sweep plan`; "
              "that `td sim` command with `--save-at TICK --save FILE` keeps the game where it "
              "stands, to look at.\n\n", total, total == 1 ? "" : "s");
  fprintf(md, "| map | difficulty | player |%s seeds | wave reached | lives left | ticks |\n"
              "|---|---|---|%s---|---|---|---|\n", t->nparams ? " overrides |" : "",
          t->nparams ? "---|" : "");
  for (size_t a = 0, b; a < t->n; a = b) {
    size_t n = 0;
    for (b = a; b < t->n && same_but_seed(t, &t->rows[a], &t->rows[b]); b++)
      n += !strcmp(t->rows[b].result, "playing");
    if (!n) continue;
    const row *r = &t->rows[a];
    char who[40];
    player_label(r, who, sizeof who);
    fprintf(md, "| %s | %s | %s |", r->map, sweep_diff_names[r->difficulty], who);
    if (t->nparams) {
      bool first = true;
      for (size_t p = 0; p < t->nparams; p++) {
        if (isnan(r->ov[p])) continue;
        char v[32];
        td_override_number(r->ov[p], v, sizeof v);
        fprintf(md, "%s `%s%s`", first ? "" : ",", t->params[p], v);
        first = false;
      }
      fprintf(md, " |");
    }
    /* the seeds, as runs (rows are sorted by seed within the inputs) */
    range wave = {0}, lives = {0}, ticks = {0};
    size_t printed = 0;
    for (size_t i = a; i < b; i++) {
      if (strcmp(t->rows[i].result, "playing") != 0) continue;
      size_t k = i;
      while (k + 1 < b && !strcmp(t->rows[k + 1].result, "playing") &&
             t->rows[k + 1].seed == t->rows[k].seed + 1)
        k++;
      fprintf(md, "%s%llu", printed++ ? ", " : " ", t->rows[i].seed);
      if (k > i) fprintf(md, "-%llu", t->rows[k].seed);
      for (size_t q = i; q <= k; q++) {
        range_add(&wave, t->rows[q].wave);
        range_add(&lives, t->rows[q].lives);
        range_add(&ticks, t->rows[q].ticks);
      }
      i = k;
    }
    fprintf(md, " (%zu of %zu) | ", n, b - a);
    range_print(md, &wave);
    fprintf(md, " of %lld | ", r->waves);
    range_print(md, &lives);
    fprintf(md, " of %lld | ", r->start_lives);
    range_print(md, &ticks);
    fprintf(md, " |\n");
  }
  fputc('\n', md);
}

static int check_balance(const table *t) {
  int bad = 0;
  for (size_t i = 0; i < t->n; i++) {
    const row *r = &t->rows[i];
    if (r->difficulty != 1) continue;
    bool is_auto = !strcmp(r->player, "auto") && !strcmp(r->strategy, "default");
    bool is_idle = !strcmp(r->player, "idle");
    if (is_auto && strcmp(r->result, "won") != 0) {
      td_app_say("sweep: %s: --auto %s at wave %lld of %lld (%s)", r->map, r->result, r->wave,
                 r->waves, r->tag);
      bad = 1;
    }
    if (is_idle && strcmp(r->result, "lost") != 0) {
      td_app_say("sweep: %s: --idle %s (doing nothing must lose) (%s)", r->map, r->result, r->tag);
      bad = 1;
    }
  }
  return bad;
}

int sweep_report(int argc, char **argv) {
  const char *dir = NULL, *spec_path = NULL, *md_path = NULL;
  bool check = false;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--check")) check = true;
    else if (!strcmp(argv[i], "--md") && i + 1 < argc) md_path = argv[++i];
    else if (!strcmp(argv[i], "--spec") && i + 1 < argc) spec_path = argv[++i];
    else if (argv[i][0] == '-') return td_app_fail("sweep: report: unknown argument '%s'", argv[i]);
    else if (dir) return td_app_fail("sweep: report: one DIR (got '%s' too)", argv[i]);
    else dir = argv[i];
  }
  if (!dir) return td_app_fail("sweep: report: DIR is required (see td sweep --help)");
  unsigned record = SWEEP_REC_ALL;
  if (spec_path) {
    td_err err;
    sweep_spec *s = sweep_spec_load(spec_path, &err);
    if (!s) return td_app_fail("%s", err.msg);
    record = s->record;
    sweep_spec_free(s);
  }
  table t = {0};
  DIR *d = opendir(dir);
  if (!d) return td_app_fail("%s: %s", dir, strerror(errno));
  char names[256][256];
  size_t nfiles = 0;
  struct dirent *e;
  while ((e = readdir(d)) && nfiles < 256) {
    size_t n = strlen(e->d_name);
    if (n > 6 && n < sizeof names[0] && !strcmp(e->d_name + n - 6, ".jsonl"))
      snprintf(names[nfiles++], sizeof names[0], "%s", e->d_name);
  }
  closedir(d);
  qsort(names, nfiles, sizeof names[0], (int (*)(const void *, const void *))strcmp);
  int status = 0;
  for (size_t i = 0; i < nfiles && status == 0; i++) {
    char path[SWEEP_PATH_MAX + 300];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    status = read_file(&t, path);
  }
  if (status == 0 && t.n == 0) status = td_app_fail("%s: no game results (*.jsonl lines)", dir);
  if (status != 0) goto out;
  order(&t);
  char path[SWEEP_PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/sweep.csv", dir);
  if ((status = write_csv(&t, record, path)) != 0) goto out;
  char maps[SWEEP_MAX_MAPS][64];
  size_t nmaps = 0;
  for (size_t i = 0; i < t.n; i++)
    if (!nmaps || strcmp(maps[nmaps - 1], t.rows[i].map) != 0)
      if (nmaps < SWEEP_MAX_MAPS) snprintf(maps[nmaps++], sizeof maps[0], "%s", t.rows[i].map);
  char prefix[SWEEP_PATH_MAX] = "";
  if (md_path) link_prefix(dir, md_path, prefix, sizeof prefix);
  if (md_path) snprintf(path, sizeof path, "%s", md_path);
  else snprintf(path, sizeof path, "%s/report.md", dir);
  FILE *md = fopen(path, "w");
  if (!md) {
    status = td_app_fail("%s: %s", path, strerror(errno));
    goto out;
  }
  const char *gp = getenv("TD_GNUPLOT");
  charts c = {.dir = dir, .gnuplot = gp && *gp ? gp : "gnuplot", .md = md, .prefix = prefix};
  c.term = sweep_chart_term(c.gnuplot);
  c.ext = c.term && !strcmp(c.term, "svg") ? "svg" : "png";
  snprintf(path, sizeof path, "%s/charts", dir);
  if (c.term && mkdir(path, 0777) != 0 && errno != EEXIST) c.term = NULL;
  size_t seeds = 0;
  unsigned long long seed_seen[4096];
  for (size_t i = 0; i < t.n; i++) {
    bool seen = false;
    for (size_t k = 0; k < seeds && !seen; k++) seen = seed_seen[k] == t.rows[i].seed;
    if (!seen && seeds < 4096) seed_seen[seeds++] = t.rows[i].seed;
  }
  fprintf(md, "<!-- Generated by `td sweep report` (docs/sweep.md): do not edit. -->\n\n"
              "# Sweep report\n\n%zu games on %zu map%s, %zu seed%s; one row a game in "
              "[sweep.csv](%ssweep.csv).\n\n", t.n, nmaps, nmaps == 1 ? "" : "s",
          seeds, seeds == 1 ? "" : "s", prefix);
  if (t.nparams) {
    fprintf(md, "Rule overrides swept:");
    for (size_t p = 0; p < t.nparams; p++) fprintf(md, "%s `%s`", p ? "," : "", t.params[p]);
    fprintf(md, " (`*`: scaled by, `=`: set to).\n\n");
  }
  fprintf(md, "## Results by map and difficulty\n\nGames won (and how many were still "
              "on when their tick limit ran out), lives left (share of the lives at the "
              "start, over all games) and the mean wave reached.\n\n");
  md_summary(md, &t, maps, nmaps);
  md_unended(md, &t);
  if (!c.term) {
    fprintf(md, "Charts skipped: gnuplot (`%s`) did not run.\n", c.gnuplot);
  } else {
    fprintf(md, "## Win rate\n\n");
    sweep_chart_heatmap(&c, &t, maps, nmaps);
    if (t.nparams) fprintf(md, "## By rule value\n\n");
    for (size_t p = 0; p < t.nparams; p++) sweep_chart_param(&c, &t, p, maps, nmaps);
    fprintf(md, "## Lives and gold through the game\n\n");
    for (size_t m = 0; m < nmaps; m++)
      for (int dd = 0; dd < 3; dd++) sweep_chart_curves(&c, &t, maps[m], dd);
    if (c.failed) fprintf(md, "(%d chart%s failed to draw.)\n", c.failed, c.failed == 1 ? "" : "s");
  }
  if (fclose(md) != 0) status = td_app_fail("%s/report.md: write failed", dir);
  if (status == 0 && check) status = check_balance(&t);
out:
  for (size_t i = 0; i < t.n; i++)
    for (int k = 0; k < 6; k++) free(t.rows[i].opt[k]);
  free(t.rows);
  return status;
}
