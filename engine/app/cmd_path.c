/*
** cmd_path.c: td path, Jump Point Search (or A*) on MovingAI benchmark
** scenarios.
**
** Solves every query of a scenario file on its map and compares the length
** of the path found with the optimal length the file gives. The length is
** measured in double precision along the path (the sum of the Euclidean
** lengths of its steps), not read back from the fixed-point cost, so the
** comparison checks the search and not just its own arithmetic.
*/
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "app/cmds.h"
#include "nav/astar.h"
#include "nav/grid.h"
#include "nav/jps.h"
#include "nav/movingai.h"

#define TOLERANCE 1e-4

static void usage(FILE *out) {
  fputs("usage: td path --movingai MAP --scen SCEN [--algo jps|astar] [--json]\n"
        "\n"
        "Solves every query of a MovingAI scenario file on its octile map\n"
        "(8-connected, no corner cutting) and prints the optimal length from the\n"
        "file next to the length of the path found, then\n"
        "'scenarios: N, mismatches: M'. A mismatch is a length off by more than\n"
        "1e-4 or a query without a path.\n"
        "\n"
        "options:\n"
        "  --movingai MAP  the map (.map: type octile, height, width, map, rows)\n"
        "  --scen SCEN     the scenarios (.scen: version 1, then one query a line)\n"
        "  --algo ALGO     jps: Jump Point Search (the default); astar: plain A*\n"
        "                  (the same lengths; the expansions differ)\n"
        "  --json          one JSON object per query, then one with the totals\n"
        "  --help          this text\n"
        "\n"
        "exit status: 0 every length matches, 1 a mismatch, 2 bad usage or input\n",
        out);
}

/* Length of a node path in map units, step by step. */
static double path_length(const td_graph *g, const int32_t *path, size_t n) {
  double len = 0.0;
  for (size_t i = 0; i + 1 < n; i++)
    len += hypot(g->x[path[i + 1]] - g->x[path[i]], g->y[path[i + 1]] - g->y[path[i]]);
  return len;
}

typedef struct options {
  const char *map, *scen;
  bool json;
  bool astar;  /* --algo astar */
} options;

/* -1: exit with *status. */
static int parse_args(int argc, char **argv, options *o, int *status) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      *status = 0;
      return -1;
    }
    if (!strcmp(a, "--json")) {
      o->json = true;
    } else if (!strcmp(a, "--algo")) {
      if (i + 1 >= argc) {
        *status = td_app_fail("path: --algo needs jps or astar (see td path --help)");
        return -1;
      }
      const char *v = argv[++i];
      if (strcmp(v, "jps") != 0 && strcmp(v, "astar") != 0) {
        *status = td_app_fail("path: --algo '%.40s': jps or astar (see td path --help)", v);
        return -1;
      }
      o->astar = !strcmp(v, "astar");
    } else if (!strcmp(a, "--movingai") || !strcmp(a, "--scen")) {
      if (i + 1 >= argc) {
        *status = td_app_fail("path: %s needs a file name (see td path --help)", a);
        return -1;
      }
      if (a[2] == 'm') o->map = argv[++i];
      else o->scen = argv[++i];
    } else {
      *status = td_app_fail("path: unknown option '%s' (see td path --help)", a);
      return -1;
    }
  }
  if (!o->map || !o->scen) {
    *status = td_app_fail("path: --movingai MAP and --scen SCEN are both required "
                          "(see td path --help)");
    return -1;
  }
  return 0;
}

/* Every query must be for this map's size. */
static int check_sizes(const options *o, const td_grid *grid, const td_movingai_scen *sc) {
  for (size_t i = 0; i < sc->count; i++) {
    const td_movingai_query *q = &sc->queries[i];
    if (q->width != grid->width || q->height != grid->height)
      return td_app_fail("%s:%d: query is for a %dx%d map, but %s is %dx%d", o->scen,
                         q->line, q->width, q->height, o->map, grid->width, grid->height);
  }
  return 0;
}

typedef struct result {
  bool found;
  double length;
  uint64_t expanded;
} result;

/* Solves one query with A* (s) or JPS (j, when not NULL). 0 ok, 2 after
** reporting an error. */
static int solve(td_astar *s, td_jps *j, const td_grid *grid, const td_graph *g,
                 const td_movingai_query *q, int32_t **buf, size_t *cap, result *r) {
  td_err err = {{0}};
  r->found = false;
  r->length = 0.0;
  r->expanded = 0;
  int32_t a = td_grid_node_at(grid, q->start_x, q->start_y);
  int32_t b = td_grid_node_at(grid, q->goal_x, q->goal_y);
  if (a == TD_NONE || b == TD_NONE) return 0; /* an end on a wall: no path */
  td_astar_status st = j ? td_jps_find(j, a, b, &err) : td_astar_find(s, g, a, b, &err);
  if (st == TD_ASTAR_ERROR) return td_app_fail("path: %s", err.msg);
  r->expanded = j ? td_jps_expanded(j) : td_astar_expanded(s);
  if (st != TD_ASTAR_FOUND) return 0;
  size_t n = j ? td_jps_path(j, NULL, 0, NULL) : td_astar_path(s, NULL, 0, NULL);
  int32_t *p = td_mem_grow(*buf, cap, n, sizeof *p);
  if (!p) return td_app_fail("path: out of memory");
  *buf = p;
  if (j) td_jps_path(j, p, n, NULL);
  else td_astar_path(s, p, n, NULL);
  r->found = true;
  r->length = path_length(g, p, n);
  return 0;
}

static void print_result(const options *o, const td_movingai_query *q, const result *r,
                         bool mismatch) {
  if (o->json) {
    printf("{\"line\":%d,\"bucket\":%d,\"start\":[%d,%d],\"goal\":[%d,%d],"
           "\"expected\":%.10g,",
           q->line, q->bucket, q->start_x, q->start_y, q->goal_x, q->goal_y, q->optimal);
    if (r->found) printf("\"computed\":%.10g,", r->length);
    else fputs("\"computed\":null,", stdout);
    printf("\"expansions\":%llu,\"mismatch\":%s}\n", (unsigned long long)r->expanded,
           mismatch ? "true" : "false");
    return;
  }
  if (r->found) printf("%14.8f %14.8f", q->optimal, r->length);
  else printf("%14.8f %14s", q->optimal, "none");
  if (mismatch) printf("  mismatch (%s:%d)", o->scen, q->line);
  putchar('\n');
}

int td_cmd_path(int argc, char **argv) {
  options o = {0};
  int status = 2;
  if (parse_args(argc, argv, &o, &status)) return status;

  td_err err = {{0}};
  td_grid *grid = NULL;
  td_graph *g = NULL;
  td_astar *s = NULL;
  td_jps *j = NULL;
  td_movingai_scen sc = {0};
  int32_t *buf = NULL;
  size_t cap = 0, mismatches = 0;
  status = 2;

  grid = td_movingai_load_map(o.map, &err);
  if (!grid) {
    td_app_fail("%s", err.msg);
    goto done;
  }
  if (td_movingai_load_scen(o.scen, &sc, &err)) {
    td_app_fail("%s", err.msg);
    goto done;
  }
  if (check_sizes(&o, grid, &sc)) goto done;
  g = td_grid_build_graph(grid, &err);
  s = g ? td_astar_create(&err) : NULL;
  if (s && !o.astar) {
    j = td_jps_create(&err);
    if (j && td_jps_bind(j, grid, g, &err) != 0) {
      td_jps_destroy(j);
      j = NULL;
    }
  }
  if (!s || (!o.astar && !j)) {
    td_app_fail("%s: %s", o.map, err.msg);
    goto done;
  }
  for (size_t i = 0; i < sc.count; i++) {
    const td_movingai_query *q = &sc.queries[i];
    result r;
    if (solve(s, j, grid, g, q, &buf, &cap, &r)) goto done;
    bool mismatch = !r.found || !(fabs(r.length - q->optimal) <= TOLERANCE);
    mismatches += mismatch;
    print_result(&o, q, &r, mismatch);
  }
  if (o.json) printf("{\"scenarios\":%zu,\"mismatches\":%zu}\n", sc.count, mismatches);
  else printf("scenarios: %zu, mismatches: %zu\n", sc.count, mismatches);
  status = mismatches > 0 ? 1 : 0;
done:
  td_mem_free(buf, cap * sizeof *buf);
  td_jps_destroy(j);
  td_astar_destroy(s);
  td_graph_destroy(g);
  td_movingai_scen_free(&sc);
  td_grid_destroy(grid);
  return status;
}
