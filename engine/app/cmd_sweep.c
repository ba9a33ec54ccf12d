/*
** cmd_sweep.c: `td sweep plan|run|report` (docs/sweep.md). plan prints the
** jobs' command lines; run plays them here, N children at a time (fork and
** exec of this td: no threads), appending each child's one JSON line to
** DIR/results.jsonl, and resumes an interrupted run by the lines' tags.
** The progress line and the games/s figure read the clock: they are
** reporting only, nothing in the results depends on them.
*/
#define _GNU_SOURCE /* truncate, strdup, clock_gettime, fork */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "app/cmds.h"
#include "app/sweep.h"

static const char usage[] =
  "usage: td sweep plan SPEC [--shard I/N]\n"
  "       td sweep run SPEC --out DIR [--jobs N] [--shard I/N]\n"
  "       td sweep report DIR [--spec SPEC] [--md FILE] [--check]\n"
  "\n"
  "A balance sweep (docs/sweep.md): every combination of the spec's maps,\n"
  "difficulties, players, strategies, rule overrides and seeds, one\n"
  "`td sim ... --json` game each.\n"
  "\n"
  "  plan    prints one job a line, each a complete td sim command that prints\n"
  "          one JSON line: `td sweep plan s.lua | parallel -j8 > results.jsonl`\n"
  "  run     plays them here, N at a time (--jobs, default 2), appending each\n"
  "          game's line to DIR/results.jsonl; a rerun skips the games it has\n"
  "          (an interrupted run resumes); progress on stderr\n"
  "  report  DIR/results.jsonl (or any *.jsonl there) into DIR/sweep.csv and\n"
  "          DIR/report.md (or --md FILE) with gnuplot charts in DIR/charts;\n"
  "          --spec keeps only the spec's record columns; --check exits 1 unless every\n"
  "          game of the default auto player on normal is won and every idle\n"
  "          game is lost\n"
  "\n"
  "--shard I/N: the jobs I, I+N, I+2N, ... (1-based; interleaved), for a\n"
  "cluster's job array.\n"
  "\n"
  "exit status: 0 ok, 1 a game failed (run) or the check failed (report),\n"
  "2 bad usage or a bad spec\n";

#define MAX_ARGS 96
#define ARG_BUF 16384

static int parse_shard(const char *v, size_t *index, size_t *count) {
  unsigned long long i, n;
  char tail;
  if (sscanf(v, "%llu/%llu%c", &i, &n, &tail) != 2 || n < 1 || i < 1 || i > n || n > 1000000)
    return td_app_fail("sweep: --shard: expected I/N with 1 <= I <= N, got '%s'", v);
  *index = (size_t)i - 1;
  *count = (size_t)n;
  return 0;
}

typedef struct sweep_opts {
  const char *spec, *out;
  size_t shard, shards;
  unsigned jobs;
} sweep_opts;

static int parse_opts(int argc, char **argv, bool run, sweep_opts *o) {
  *o = (sweep_opts){.shards = 1, .jobs = 2};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-' || a[1] != '-') {
      if (o->spec) return td_app_fail("sweep: one SPEC (got '%s' too; see td sweep --help)", a);
      o->spec = a;
      continue;
    }
    if (i + 1 >= argc) return td_app_fail("sweep: %s needs a value (see td sweep --help)", a);
    const char *v = argv[++i];
    if (!strcmp(a, "--shard")) {
      if (parse_shard(v, &o->shard, &o->shards) != 0) return 2;
    } else if (run && !strcmp(a, "--out")) {
      o->out = v;
    } else if (run && !strcmp(a, "--jobs")) {
      uint64_t n;
      if (td_app_parse_option("sweep: --jobs", v, 1, 256, &n) != 0) return 2;
      o->jobs = (unsigned)n;
    } else {
      return td_app_fail("sweep: unknown argument '%s' (see td sweep --help)", a);
    }
  }
  if (!o->spec) return td_app_fail("sweep: SPEC is required (see td sweep --help)");
  if (run && !o->out) return td_app_fail("sweep: run: --out DIR is required");
  return 0;
}

static int plan(int argc, char **argv) {
  sweep_opts o;
  if (parse_opts(argc, argv, false, &o) != 0) return 2;
  td_err err;
  sweep_spec *s = sweep_spec_load(o.spec, &err);
  if (!s) return td_app_fail("%s", err.msg);
  char *args[MAX_ARGS], *buf = malloc(ARG_BUF), key[SWEEP_KEY_MAX];
  int status = 0;
  if (!buf) status = td_app_fail("sweep: out of memory");
  for (size_t i = o.shard, n = sweep_job_count(s); buf && i < n; i += o.shards) {
    if (sweep_job_argv(s, i, args, MAX_ARGS, buf, ARG_BUF, key) < 0) {
      status = td_app_fail("%s: job %zu: its command is too long", o.spec, i + 1);
      break;
    }
    sweep_print_command(stdout, args);
  }
  free(buf);
  sweep_spec_free(s);
  return status;
}

/* ---- run ---------------------------------------------------------------- */

typedef struct slot {
  pid_t pid;
  size_t job;
  char out[SWEEP_PATH_MAX], err[SWEEP_PATH_MAX];
} slot;

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Reads a whole file into a new string (NULL on failure). */
static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  char *b = malloc(cap + 1);
  while (b) {
    size_t got = fread(b + n, 1, cap - n, f);
    n += got;
    if (n < cap) break;
    char *nb = realloc(b, cap * 2 + 1);
    if (!nb) {
      free(b);
      b = NULL;
      break;
    }
    b = nb;
    cap *= 2;
  }
  fclose(f);
  if (b) b[n] = '\0';
  if (len) *len = n;
  return b;
}

typedef struct tagset {
  char **tags;
  size_t n, cap;
} tagset;

static int tag_cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool tag_has(const tagset *t, const char *tag) {
  return t->n && bsearch(&tag, t->tags, t->n, sizeof *t->tags, tag_cmp) != NULL;
}

/* The tags of DIR/results.jsonl's complete lines; a last line without its
** newline (a run killed while writing) is cut off the file. */
static int read_done(const char *path, tagset *t) {
  size_t len;
  char *b = slurp(path, &len);
  if (!b) return errno == ENOENT ? 0 : td_app_fail("%s: %s", path, strerror(errno));
  size_t whole = len;
  while (whole > 0 && b[whole - 1] != '\n') whole--;
  if (whole < len && truncate(path, (off_t)whole) != 0) {
    free(b);
    return td_app_fail("%s: cannot cut its half-written last line: %s", path, strerror(errno));
  }
  b[whole] = '\0';
  for (char *line = b, *nl; (nl = strchr(line, '\n')); line = nl + 1) {
    *nl = '\0';
    cJSON *j = cJSON_Parse(line);
    const cJSON *tag = cJSON_GetObjectItemCaseSensitive(j, "tag");
    if (cJSON_IsString(tag)) {
      if (t->n == t->cap) {
        size_t nc = t->cap ? t->cap * 2 : 64;
        char **nt = realloc(t->tags, nc * sizeof *nt);
        if (!nt) {
          cJSON_Delete(j);
          free(b);
          return td_app_fail("sweep: out of memory");
        }
        t->tags = nt, t->cap = nc;
      }
      t->tags[t->n] = strdup(tag->valuestring);
      if (t->tags[t->n]) t->n++;
    }
    cJSON_Delete(j);
  }
  free(b);
  if (t->n) qsort(t->tags, t->n, sizeof *t->tags, tag_cmp);
  return 0;
}

static void progress(bool tty, size_t done, size_t total, size_t skipped, double t0) {
  double el = now_s() - t0, rate = el > 0 ? (double)(done - skipped) / el : 0;
  double eta = rate > 0 ? (double)(total - done) / rate : 0;
  unsigned e = (unsigned)(eta + 0.5);
  if (tty) {
    int width = 30, fill = total ? (int)((double)width * (double)done / (double)total) : width;
    fprintf(stderr, "\r[%.*s%.*s] %zu/%zu games, %.2f games/s, ETA %u:%02u:%02u ", fill,
            "##############################", width - fill, "..............................",
            done, total, rate, e / 3600, e / 60 % 60, e % 60);
  } else {
    fprintf(stderr, "sweep: %zu/%zu games, %.2f games/s, ETA %u:%02u:%02u\n", done, total, rate,
            e / 3600, e / 60 % 60, e % 60);
  }
  fflush(stderr);
}

/* A finished child: its one JSON line appended to results, or a failure
** told (command, status, stderr). 0 or 1. */
static int collect(const sweep_spec *s, slot *sl, int wstatus, int results_fd, char *buf) {
  char *args[MAX_ARGS], key[SWEEP_KEY_MAX];
  size_t len = 0;
  char *out = slurp(sl->out, &len), *err = slurp(sl->err, NULL);
  int rc = 0;
  bool ok_exit = WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0;
  char *nl = out ? strchr(out, '\n') : NULL;
  bool one_line = nl && (size_t)(nl - out) + 1 == len;
  cJSON *j = one_line ? cJSON_ParseWithLength(out, len) : NULL;
  if (!ok_exit || !j) {
    sweep_job_argv(s, sl->job, args, MAX_ARGS, buf, ARG_BUF, key);
    char what[64];
    if (WIFEXITED(wstatus)) snprintf(what, sizeof what, "exit %d", WEXITSTATUS(wstatus));
    else snprintf(what, sizeof what, "signal %d", WTERMSIG(wstatus));
    fprintf(stderr, "%std: sweep: job %zu failed (%s%s): ", isatty(2) ? "\n" : "", sl->job + 1,
            what, ok_exit ? ", not one JSON line" : "");
    sweep_print_command(stderr, args);
    if (err && *err) fprintf(stderr, "%s%s", err, err[strlen(err) - 1] == '\n' ? "" : "\n");
    rc = 1;
  } else if (write(results_fd, out, len) != (ssize_t)len) {
    td_app_fail("sweep: results.jsonl: write failed: %s", strerror(errno));
    rc = 1;
  }
  cJSON_Delete(j);
  free(out);
  free(err);
  unlink(sl->out);
  unlink(sl->err);
  sl->pid = 0;
  return rc;
}

static int run(int argc, char **argv) {
  sweep_opts o;
  if (parse_opts(argc, argv, true, &o) != 0 || !o.out) return 2;
  td_err err;
  sweep_spec *s = sweep_spec_load(o.spec, &err);
  if (!s) return td_app_fail("%s", err.msg);
  int status = 2, fd = -1;
  tagset done = {0};
  slot *slots = calloc(o.jobs, sizeof *slots);
  char *buf = malloc(ARG_BUF), results[SWEEP_PATH_MAX + 32], key[SWEEP_KEY_MAX];
  char *args[MAX_ARGS];
  if (!slots || !buf) {
    td_app_fail("sweep: out of memory");
    goto out;
  }
  if (mkdir(o.out, 0777) != 0 && errno != EEXIST) {
    td_app_fail("%s: %s", o.out, strerror(errno));
    goto out;
  }
  snprintf(results, sizeof results, "%s/results.jsonl", o.out);
  if (read_done(results, &done) != 0) goto out;
  fd = open(results, O_WRONLY | O_CREAT | O_APPEND, 0666);
  if (fd < 0) {
    td_app_fail("%s: %s", results, strerror(errno));
    goto out;
  }
  size_t total = 0, skipped = 0, n = sweep_job_count(s);
  for (size_t i = o.shard; i < n; i += o.shards) {
    total++;
    if (sweep_job_argv(s, i, args, MAX_ARGS, buf, ARG_BUF, key) < 0) {
      td_app_fail("%s: job %zu: its command is too long", o.spec, i + 1);
      goto out;
    }
    skipped += tag_has(&done, key);
  }
  bool tty = isatty(2);
  double t0 = now_s();
  size_t finished = skipped, running = 0, next = o.shard;
  int failed = 0;
  if (skipped)
    fprintf(stderr, "sweep: %zu of %zu games already in %s\n", skipped, total, results);
  for (;;) {
    while (running < o.jobs && next < n) { /* start the next job not done */
      size_t i = next;
      next += o.shards;
      sweep_job_argv(s, i, args, MAX_ARGS, buf, ARG_BUF, key);
      if (tag_has(&done, key)) continue;
      slot *sl = slots;
      while (sl->pid) sl++;
      sl->job = i;
      snprintf(sl->out, sizeof sl->out, "%s/.job%zu.out", o.out, i);
      snprintf(sl->err, sizeof sl->err, "%s/.job%zu.err", o.out, i);
      fflush(NULL);
      pid_t pid = fork();
      if (pid < 0) {
        td_app_fail("sweep: fork: %s", strerror(errno));
        failed = 1;
        next = n;
        break;
      }
      if (pid == 0) {
        int fo = open(sl->out, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        int fe = open(sl->err, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (fo < 0 || fe < 0 || dup2(fo, 1) < 0 || dup2(fe, 2) < 0) _exit(127);
        close(fo);
        close(fe);
        execv(args[0], args);
        fprintf(stderr, "td: sweep: %s: %s\n", args[0], strerror(errno));
        _exit(127);
      }
      sl->pid = pid;
      running++;
    }
    if (!running) break;
    int ws;
    pid_t pid = wait(&ws);
    if (pid < 0) {
      if (errno == EINTR) continue;
      td_app_fail("sweep: wait: %s", strerror(errno));
      failed = 1;
      break;
    }
    for (unsigned k = 0; k < o.jobs; k++)
      if (slots[k].pid == pid) {
        failed |= collect(s, &slots[k], ws, fd, buf);
        running--;
        finished++;
        progress(tty, finished, total, skipped, t0);
      }
  }
  if (tty) fputc('\n', stderr);
  double el = now_s() - t0;
  fprintf(stderr, "sweep: %zu games played in %.1f s (%.2f games/s with %u jobs)%s\n",
          finished - skipped, el, el > 0 ? (double)(finished - skipped) / el : 0.0, o.jobs,
          failed ? "; some failed (above)" : "");
  status = failed ? 1 : 0;
out:
  if (fd >= 0) close(fd);
  for (size_t i = 0; i < done.n; i++) free(done.tags[i]);
  free(done.tags);
  free(slots);
  free(buf);
  sweep_spec_free(s);
  return status;
}

int td_cmd_sweep(int argc, char **argv) {
  if (argc < 2) return td_app_fail("sweep: plan, run or report? (see td sweep --help)");
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      fputs(usage, stdout);
      return 0;
    }
  if (!strcmp(argv[1], "plan")) return plan(argc - 1, argv + 1);
  if (!strcmp(argv[1], "run")) return run(argc - 1, argv + 1);
  if (!strcmp(argv[1], "report")) return sweep_report(argc - 1, argv + 1);
  return td_app_fail("sweep: unknown subcommand '%s' (plan, run, report)", argv[1]);
}
