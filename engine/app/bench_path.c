/*
** bench_path.c: `td bench path` (issue 23): single path queries on grid
** maps, Jump Point Search (nav/jps.h) against the project's A*
** (nav/astar.h) in the same run.
**
** The maps. Generated here from the seed, MovingAI-style (512x512 cells;
** 128x128 with --quick): open (empty), random obstacles (20% and 30% of the
** cells walls), rooms (square rooms of 8, 16 and 32 cells, one-cell walls,
** one door of 1 to room/4 cells in each wall between two rooms, at a random
** place), and mazes of corridors 1, 2, 4, 8, 16 and 32 cells wide (one-cell
** walls, a depth-first maze over the corridor lattice). Then the project's
** own: the MovingAI maps of tests/data and the bundled grid maps (maps/NN-name.tmx
** with a walkable layer), read from the source tree ($TD_SOURCE_DIR, or the
** current directory; a case whose file is missing is skipped with a note).
**
** The queries: a fixed, seeded set of random pairs of open cells in the same
** connected part of the map (so every query has a path), the same for both
** searches. Each search runs the whole set, A* first, then JPS, timed with
** the monotonic clock, in up to three rounds (one with --quick; no more
** after a round of 3 s: A* on the mazes) of which the fastest counts for
** each; per query: expansions (A*: nodes, JPS: jump
** points taken off the heap) and milliseconds. Every query's status and cost must
** be the same in both, or the bench exits 1 naming the query.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/bench.h"
#include "app/cmds.h"
#include "nav/astar.h"
#include "nav/grid.h"
#include "nav/jps.h"
#include "nav/movingai.h"
#include "script/mapfile.h"

#define FULL_SIZE 512
#define QUICK_SIZE 128
#define FULL_QUERIES 300
#define QUICK_QUERIES 20
#define ROUNDS 3           /* timed rounds (full runs): the fastest counts */
#define ROUND_CAP_MS 3000.0 /* no further round after one this long */

static uint64_t rng_next(uint64_t *s) { /* splitmix64 */
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static uint32_t below(uint64_t *s, uint32_t n) { return (uint32_t)(rng_next(s) % n); }

/* ---- generated maps ------------------------------------------------------ */

typedef enum kind { K_OPEN, K_RANDOM, K_ROOMS, K_MAZE, K_MOVINGAI, K_MAPFILE } kind;

typedef struct bench_case {
  const char *name;
  kind k;
  int param;            /* percent of walls, room size, corridor width */
  const char *file;     /* K_MOVINGAI, K_MAPFILE: path in the source tree */
  bool quick;           /* also in --quick */
} bench_case;

static const bench_case cases[] = {
    {"open", K_OPEN, 0, NULL, true},
    {"random-20", K_RANDOM, 20, NULL, true},
    {"random-30", K_RANDOM, 30, NULL, false},
    {"rooms-8", K_ROOMS, 8, NULL, false},
    {"rooms-16", K_ROOMS, 16, NULL, true},
    {"rooms-32", K_ROOMS, 32, NULL, false},
    {"maze-1", K_MAZE, 1, NULL, false},
    {"maze-2", K_MAZE, 2, NULL, false},
    {"maze-4", K_MAZE, 4, NULL, true},
    {"maze-8", K_MAZE, 8, NULL, false},
    {"maze-16", K_MAZE, 16, NULL, false},
    {"maze-32", K_MAZE, 32, NULL, true},
    {"path8", K_MOVINGAI, 0, "tests/data/path8.map", true},
    {"path32", K_MOVINGAI, 0, "tests/data/path32.map", true},
    {"02-grid", K_MAPFILE, 0, "maps/02-grid.tmx", true},
    {"04-foundry", K_MAPFILE, 0, "maps/04-foundry.tmx", true},
    {"06-expanse", K_MAPFILE, 0, "maps/06-expanse.tmx", false},
};

static void fill(td_grid *grid, bool walkable) {
  memset(grid->walkable, walkable ? 1 : 0, (size_t)grid->width * (size_t)grid->height);
}

static void gen_random(td_grid *grid, int percent, uint64_t *rng) {
  fill(grid, true);
  for (int32_t y = 0; y < grid->height; y++)
    for (int32_t x = 0; x < grid->width; x++)
      if (below(rng, 100) < (uint32_t)percent) td_grid_set_walkable(grid, x, y, false);
}

/* Walls on every line k * (room + 1); a door in each wall between rooms. */
static void gen_rooms(td_grid *grid, int room, uint64_t *rng) {
  fill(grid, true);
  int32_t pitch = room + 1, w = grid->width, h = grid->height;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++)
      if (x % pitch == 0 || y % pitch == 0) td_grid_set_walkable(grid, x, y, false);
  uint32_t most = room / 4 > 1 ? (uint32_t)(room / 4) : 1;
  for (int32_t ry = 0; ry * pitch < h; ry++)
    for (int32_t rx = 0; rx * pitch < w; rx++) {
      int32_t x0 = rx * pitch, y0 = ry * pitch;
      int32_t door = 1 + (int32_t)below(rng, most);
      /* east wall (x = x0 + pitch), rows y0 + 1 .. y0 + room */
      int32_t at = y0 + 1 + (int32_t)below(rng, (uint32_t)(room - door + 1));
      for (int32_t k = 0; k < door; k++)
        if (x0 + pitch < w - 1) td_grid_set_walkable(grid, x0 + pitch, at + k, true);
      door = 1 + (int32_t)below(rng, most);
      at = x0 + 1 + (int32_t)below(rng, (uint32_t)(room - door + 1));
      for (int32_t k = 0; k < door; k++)
        if (y0 + pitch < h - 1) td_grid_set_walkable(grid, at + k, y0 + pitch, true);
    }
}

/* A depth-first maze over a lattice of corridor x corridor squares with
** one-cell walls between them. */
static int gen_maze(td_grid *grid, int corridor, uint64_t *rng) {
  fill(grid, false);
  int32_t pitch = corridor + 1;
  int32_t nx = (grid->width - 1) / pitch, ny = (grid->height - 1) / pitch;
  size_t n = (size_t)nx * (size_t)ny;
  uint8_t *seen = calloc(n, 1);
  int32_t *stack = malloc(n * sizeof *stack);
  if (!seen || !stack) {
    free(seen);
    free(stack);
    return -1;
  }
  for (int32_t j = 0; j < ny; j++)
    for (int32_t i = 0; i < nx; i++)
      for (int32_t y = 0; y < corridor; y++)
        for (int32_t x = 0; x < corridor; x++)
          td_grid_set_walkable(grid, 1 + i * pitch + x, 1 + j * pitch + y, true);
  size_t top = 0;
  stack[top++] = 0;
  seen[0] = 1;
  static const int dxy[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  while (top > 0) {
    int32_t c = stack[top - 1], ci = c % nx, cj = c / nx;
    int choices[4], k = 0;
    for (int d = 0; d < 4; d++) {
      int32_t ni = ci + dxy[d][0], nj = cj + dxy[d][1];
      if (ni >= 0 && nj >= 0 && ni < nx && nj < ny && !seen[nj * nx + ni]) choices[k++] = d;
    }
    if (k == 0) {
      top--;
      continue;
    }
    int d = choices[below(rng, (uint32_t)k)];
    int32_t ni = ci + dxy[d][0], nj = cj + dxy[d][1];
    /* open the wall between the two squares */
    for (int32_t t = 0; t < corridor; t++) {
      if (dxy[d][0] != 0) {
        int32_t wx = dxy[d][0] > 0 ? (ci + 1) * pitch : ci * pitch;
        td_grid_set_walkable(grid, wx, 1 + cj * pitch + t, true);
      } else {
        int32_t wy = dxy[d][1] > 0 ? (cj + 1) * pitch : cj * pitch;
        td_grid_set_walkable(grid, 1 + ci * pitch + t, wy, true);
      }
    }
    seen[nj * nx + ni] = 1;
    stack[top++] = nj * nx + ni;
  }
  free(seen);
  free(stack);
  return 0;
}

static const char *source_path(const char *rel, char *buf, size_t cap) {
  const char *dir = getenv("TD_SOURCE_DIR");
  snprintf(buf, cap, "%s/%s", dir && *dir ? dir : ".", rel);
  return buf;
}

/* The case's grid, or NULL: *skip set when its file is missing, else an
** error was reported. */
static td_grid *make_grid(const bench_case *c, const bench_opts *o, uint64_t *rng,
                          bool *skip) {
  td_err err;
  *skip = false;
  char path[1024];
  if (c->k == K_MOVINGAI || c->k == K_MAPFILE) {
    source_path(c->file, path, sizeof path);
    FILE *f = fopen(path, "rb");
    if (!f) {
      *skip = true;
      return NULL;
    }
    fclose(f);
  }
  if (c->k == K_MOVINGAI) {
    td_grid *grid = td_movingai_load_map(path, &err);
    if (!grid) td_app_fail("bench path: %s", err.msg);
    return grid;
  }
  if (c->k == K_MAPFILE) {
    td_map map;
    memset(&map, 0, sizeof map);
    if (td_mapfile_load(path, &map, &err) != 0) {
      td_app_fail("bench path: %s", err.msg);
      return NULL;
    }
    td_grid *grid = NULL;
    if (map.grid) {
      grid = td_grid_create(map.grid->width, map.grid->height, map.grid->cell, &err);
      if (grid)
        memcpy(grid->walkable, map.grid->walkable,
               (size_t)grid->width * (size_t)grid->height);
      else td_app_fail("bench path: %s", err.msg);
    } else {
      td_app_fail("bench path: %s is not a grid map", path);
    }
    td_map_free(&map);
    return grid;
  }
  int32_t size = o->quick ? QUICK_SIZE : FULL_SIZE;
  td_grid *grid = td_grid_create(size, size, 1.0, &err);
  if (!grid) {
    td_app_fail("bench path: %s", err.msg);
    return NULL;
  }
  switch (c->k) {
  case K_OPEN: fill(grid, true); break;
  case K_RANDOM: gen_random(grid, c->param, rng); break;
  case K_ROOMS: gen_rooms(grid, c->param, rng); break;
  case K_MAZE:
    if (gen_maze(grid, c->param, rng) != 0) {
      td_grid_destroy(grid);
      td_app_fail("bench path: out of memory");
      return NULL;
    }
    break;
  default: break;
  }
  return grid;
}

/* ---- queries ------------------------------------------------------------- */

/* The connected part of every node (open edges), by breadth-first search. */
static int32_t *components(const td_graph *g) {
  size_t n = (size_t)g->node_count;
  int32_t *comp = malloc((n ? n : 1) * sizeof *comp);
  int32_t *queue = malloc((n ? n : 1) * sizeof *queue);
  if (!comp || !queue) {
    free(comp);
    free(queue);
    return NULL;
  }
  for (size_t i = 0; i < n; i++) comp[i] = TD_NONE;
  int32_t next = 0;
  for (int32_t s = 0; s < g->node_count; s++) {
    if (comp[s] != TD_NONE) continue;
    size_t head = 0, tail = 0;
    comp[s] = next;
    queue[tail++] = s;
    while (head < tail) {
      int32_t u = queue[head++];
      for (int32_t i = g->adj_start[u]; i < g->adj_start[u + 1]; i++) {
        int32_t v = g->adj_to[i];
        if (comp[v] == TD_NONE && td_graph_edge_open(g, g->adj_edge[i])) {
          comp[v] = next;
          queue[tail++] = v;
        }
      }
    }
    next++;
  }
  free(queue);
  return comp;
}

typedef struct tally {
  double ms;
  uint64_t expanded;
} tally;

/* Runs every query with A* then with JPS; 0, 1 (a mismatch), 2 (error). */
static int run_case(const bench_case *c, const bench_opts *o, bool *ran) {
  uint64_t rng = o->seed * 0x9e3779b97f4a7c15ull + (uint64_t)(c - cases) + 1;
  bool skip;
  *ran = false;
  td_grid *grid = make_grid(c, o, &rng, &skip);
  if (!grid) {
    if (!skip) return 2;
    if (!o->json) printf("%-12s skipped: %s not found\n", c->name, c->file);
    return 0;
  }
  td_err err;
  int status = 2;
  td_graph *g = td_grid_build_graph(grid, &err);
  td_astar *as = g ? td_astar_create(&err) : NULL;
  td_jps *js = as ? td_jps_create(&err) : NULL;
  int32_t *comp = NULL, *qs = NULL;
  td_cost *costs = NULL;
  if (!js || td_jps_bind(js, grid, g, &err) != 0) {
    td_app_fail("bench path: %s: %s", c->name, err.msg);
    goto done;
  }
  size_t nq = o->quick ? QUICK_QUERIES : FULL_QUERIES;
  comp = components(g);
  qs = malloc(2 * nq * sizeof *qs);
  costs = malloc(nq * sizeof *costs);
  if (!comp || !qs || !costs || g->node_count < 2) {
    td_app_fail("bench path: %s: %s", c->name,
                g->node_count < 2 ? "no open cells" : "out of memory");
    goto done;
  }
  for (size_t i = 0; i < nq; i++) {
    int32_t a, b;
    do {
      a = (int32_t)below(&rng, (uint32_t)g->node_count);
      b = (int32_t)below(&rng, (uint32_t)g->node_count);
    } while (a == b || comp[a] != comp[b]);
    qs[2 * i] = a;
    qs[2 * i + 1] = b;
  }
  /* rounds: each times the whole set with A*, then with JPS; the fastest
  ** round of each counts (the machine is shared: the others were
  ** interrupted more); the first also pages both searches' arrays in */
  tally ta = {1e300, 0}, tj = {1e300, 0};
  size_t mismatch = nq;
  int rounds = o->quick ? 1 : ROUNDS;
  for (int r = 0; r < rounds; r++) {
    uint64_t ea = 0, ej = 0;
    double t0 = bench_now_ms();
    for (size_t i = 0; i < nq; i++) {
      if (td_astar_find(as, g, qs[2 * i], qs[2 * i + 1], &err) != TD_ASTAR_FOUND) {
        td_app_fail("bench path: %s: query %zu: A* found no path", c->name, i);
        status = 1;
        goto done;
      }
      td_astar_path(as, NULL, 0, &costs[i]);
      ea += td_astar_expanded(as);
    }
    double t1 = bench_now_ms();
    for (size_t i = 0; i < nq; i++) {
      td_cost cj = TD_COST_INF;
      if (td_jps_find(js, qs[2 * i], qs[2 * i + 1], &err) == TD_ASTAR_FOUND)
        td_jps_path(js, NULL, 0, &cj);
      if (cj != costs[i] && mismatch == nq) mismatch = i;
      ej += td_jps_expanded(js);
    }
    double t2 = bench_now_ms();
    if (t1 - t0 < ta.ms) ta.ms = t1 - t0;
    if (t2 - t1 < tj.ms) tj.ms = t2 - t1;
    ta.expanded = ea;
    tj.expanded = ej;
    if (t2 - t0 > ROUND_CAP_MS) break; /* long enough not to need the minimum */
  }
  if (mismatch < nq) {
    int32_t a = grid->node_cell[qs[2 * mismatch]], b = grid->node_cell[qs[2 * mismatch + 1]];
    td_app_fail("bench path: %s: query %zu, (%d,%d) -> (%d,%d): JPS and A* disagree on the "
                "length", c->name, mismatch, a % grid->width, a / grid->width,
                b % grid->width, b / grid->width);
    status = 1;
    goto done;
  }
  double ma = ta.ms / (double)nq, mj = tj.ms / (double)nq;
  double speed = mj > 0.0 ? ma / mj : 0.0;
  if (o->json) {
    bench_emit("path", c->name, "queries", (double)nq);
    bench_emit("path", c->name, "astar_expansions", (double)ta.expanded / (double)nq);
    bench_emit("path", c->name, "jps_expansions", (double)tj.expanded / (double)nq);
    bench_emit("path", c->name, "astar_ms", ma);
    bench_emit("path", c->name, "jps_ms", mj);
    bench_emit("path", c->name, "speedup", speed);
  } else {
    printf("%-12s %4dx%-4d %7zu %10.0f %9.1f %10.4f %9.4f %8.1fx\n", c->name, grid->width,
           grid->height, nq, (double)ta.expanded / (double)nq,
           (double)tj.expanded / (double)nq, ma, mj, speed);
  }
  fflush(stdout);
  *ran = true;
  status = 0;
done:
  free(comp);
  free(qs);
  free(costs);
  td_jps_destroy(js);
  td_astar_destroy(as);
  td_graph_destroy(g);
  td_grid_destroy(grid);
  return status;
}

int td_bench_path(const bench_opts *o) {
  size_t ncases = sizeof cases / sizeof cases[0], known = 0;
  for (size_t i = 0; o->only && i < ncases; i++) known += !strcmp(o->only, cases[i].name);
  if (o->only && !known)
    return td_app_fail("bench path: no case '%.40s' (see td bench --help; cases: open, "
                       "random-20, rooms-8, maze-32, path8, 02-grid, ...)", o->only);
  if (!o->json) {
    printf("td bench path: %s, seed %llu; the same random reachable queries for both;\n"
           "lengths asserted equal (A* = nav/astar.h, JPS = nav/jps.h)\n\n",
           o->quick ? "quick (128x128 maps, 20 queries)" : "512x512 maps, 300 queries",
           (unsigned long long)o->seed);
    printf("%-12s %9s %7s %10s %9s %10s %9s %9s\n", "case", "size", "queries", "A* exp/q",
           "JPS exp/q", "A* ms/q", "JPS ms/q", "speedup");
  }
  size_t ran = 0;
  for (size_t i = 0; i < ncases; i++) {
    const bench_case *c = &cases[i];
    if (o->only ? strcmp(o->only, c->name) != 0 : (o->quick && !c->quick)) continue;
    bool did;
    int rc = run_case(c, o, &did);
    if (rc != 0) return rc;
    ran += did;
  }
  if (o->only && ran == 0)
    return td_app_fail("bench path: case '%.40s': its file is missing", o->only);
  if (!o->json)
    printf("\npublished (other machines, other A*s; see docs/routing.md): Harabor and Grastien\n"
           "report JPS speeding A* up by an order of magnitude and more on game maps (2011), and\n"
           "their 2014 improvements (block-based scans, JPS+) a further several times to over\n"
           "ten times.\n");
  return 0;
}
