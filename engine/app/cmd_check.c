/*
** cmd_check.c: `td check FILE.lua...`, behaviour scenarios (docs/check.md).
**
** Every file is read and every scenario's names are resolved against its
** map and mod before anything runs, so a broken file costs no run and
** gives exit status 2 alone. Then the scenarios run in file order, one
** line per expectation, and a closing "N passed, N failed".
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cmds.h"
#include "game/scenario.h"

static const char usage[] =
  "usage: td check [--verbose] [--strict] FILE.lua...\n"
  "\n"
  "Runs the behaviour scenarios of each file headless (a map, a mod, a seed,\n"
  "tower commands at ticks) and checks their expectations on what the game\n"
  "measured: the crowd metrics (min_gap, lane_error, lane_swaps, group_spread,\n"
  "jitter, orbits, off_road, off_road_depth), leaks, kills, spawned, lives,\n"
  "gold, wave, result, refused, script_errors, ticks. Prints one line per\n"
  "expectation, PASS or FAIL with the measured value, then `N passed, N\n"
  "failed`. The format: docs/check.md.\n"
  "\n"
  "options:\n"
  "  --verbose   before a scenario's lines, one line with everything it measured\n"
  "  --strict    a handler error of the mod fails the scenario (a FAIL line)\n"
  "\n"
  "The mod's print lines and handler errors go to stderr as they happen, each\n"
  "after \"scenario 'NAME': \".\n"
  "\n"
  "exit status: 0 every expectation held, 1 one failed, 2 bad usage or a broken\n"
  "scenario file (file:line and what is wrong)\n";

static void print_measure(const td_scenario_file *f, const td_scenario *s,
                          const td_scenario_measure *m) {
  char name[1024];
  printf("# %s (%s:%d):", s->name, td_app_escape(f->path, name, sizeof name), s->line);
  for (int k = 0; k < TD_SCENARIO_KEY_COUNT; k++) {
    char v[64];
    td_scenario_format(m, (td_scenario_key)k, v, sizeof v);
    if (k == TD_SCENARIO_MIN_GAP && strchr(v, ' ')) *strchr(v, ' ') = '\0';
    printf(" %s %s", td_scenario_key_name((td_scenario_key)k), v);
  }
  putchar('\n');
  if (m->first_refusal[0]) printf("#   first refusal: %s\n", m->first_refusal);
}

/* Runs one scenario, printing its lines. -1 when it could not run. */
static int run_one(const td_scenario_file *f, const td_scenario *s, bool verbose, bool strict,
                   size_t *passed, size_t *failed) {
  td_scenario_measure m;
  td_err err;
  fflush(stdout); /* the mod's stderr lines after the lines before */
  if (td_scenario_run(f, s, &m, stderr, &err) != 0) {
    fflush(stdout);
    td_app_fail("%s", err.msg);
    return -1;
  }
  if (verbose) print_measure(f, s, &m);
  for (size_t i = 0; i < s->expect_count; i++) {
    const td_scenario_expect *e = &s->expects[i];
    char got[64];
    td_scenario_format(&m, e->key, got, sizeof got);
    bool ok = td_scenario_holds(e, &m);
    printf("%s  %s: %s (got %s)", ok ? "PASS" : "FAIL", s->name, e->text, got);
    if (!ok) {
      char name[1024];
      printf("  at %s:%d", td_app_escape(f->path, name, sizeof name), s->line);
      if (e->key == TD_SCENARIO_REFUSED && m.first_refusal[0])
        printf("; first refusal %s", m.first_refusal);
    }
    putchar('\n');
    if (ok) (*passed)++;
    else (*failed)++;
  }
  if (strict && m.script_errors > 0) {
    printf("FAIL  %s: no script errors (--strict) (got %lld, on stderr)  at %s:%d\n", s->name,
           (long long)m.script_errors, f->path, s->line);
    (*failed)++;
  }
  return 0;
}

int td_cmd_check(int argc, char **argv) {
  bool verbose = false, strict = false;
  int first = 1;
  for (; first < argc && argv[first][0] == '-' && argv[first][1]; first++) {
    if (!strcmp(argv[first], "--help") || !strcmp(argv[first], "-h")) {
      fputs(usage, stdout);
      return 0;
    }
    if (!strcmp(argv[first], "--")) {
      first++;
      break;
    }
    if (!strcmp(argv[first], "--strict")) {
      strict = true;
      continue;
    }
    if (strcmp(argv[first], "--verbose") != 0 && strcmp(argv[first], "-v") != 0)
      return td_app_fail("check: unknown option '%s' (see td check --help)", argv[first]);
    verbose = true;
  }
  if (first >= argc) return td_app_fail("check: no scenario file given (see td check --help)");
  size_t nf = (size_t)(argc - first);
  td_scenario_file *files = calloc(nf, sizeof *files);
  if (!files) return td_app_fail("check: out of memory");
  int status = 0;
  td_err err;
  for (size_t i = 0; i < nf && status == 0; i++) {
    if (td_scenario_load(argv[first + (int)i], &files[i], &err) != 0) status = td_app_fail("%s", err.msg);
    for (size_t j = 0; status == 0 && j < files[i].count; j++)
      if (td_scenario_check(&files[i], &files[i].items[j], &err) != 0)
        status = td_app_fail("%s", err.msg);
  }
  size_t passed = 0, failed = 0;
  for (size_t i = 0; i < nf && status == 0; i++)
    for (size_t j = 0; j < files[i].count && status == 0; j++)
      if (run_one(&files[i], &files[i].items[j], verbose, strict, &passed, &failed) != 0) status = 2;
  if (status == 0) {
    printf("%zu passed, %zu failed\n", passed, failed);
    status = failed ? 1 : 0;
  }
  for (size_t i = 0; i < nf; i++) td_scenario_file_free(&files[i]);
  free(files);
  return status;
}
