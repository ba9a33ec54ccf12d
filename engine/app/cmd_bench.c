/*
** cmd_bench.c: `td bench <area> [--json] [--quick] [--case NAME] [--seed N]
** [--placements N]`.
*/
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/bench.h"
#include "app/cmds.h"
#include "app/play.h"

static const char usage[] =
  "usage: td bench <area> [options]\n"
  "\n"
  "areas:\n"
  "  route   full and incremental route updates on grids, mazes and random\n"
  "          geometric graphs, against a plain binary-heap Dijkstra\n"
  "  path    single path queries on grid maps (open, random obstacles, rooms, mazes,\n"
  "          the project's own): Jump Point Search against A*, lengths asserted equal\n"
  "  crowd   1k to 1M agents in lanes on a winding route, separation on and off,\n"
  "          against the floor (every agent just seeks its next waypoint)\n"
  "  render  the game's renderer: 5k enemies, 200 towers and their shots, offscreen\n"
  "          (drawn in software, one core), against clear + one SDL blit per sprite\n"
  "  sim     full game ticks: 200 towers firing at 10k enemies, Lua handlers on\n"
  "          every hit and kill; the Lua share, against the same world without towers;\n"
  "          200 soldiers among 2k enemies, half of them fighting, against the same\n"
  "          world without soldiers\n"
  "\n"
  "options:\n"
  "  --json            one JSON object per line: {\"bench\",\"case\",\"metric\",\"value\"}\n"
  "  --quick           only the small cases (a smoke run)\n"
  "  --case NAME       only this case (e.g. grid8-1000, 100k-sep, maze-32)\n"
  "  --seed N          route: graph and placement seed; path: maps and queries;\n"
  "                    crowd: wave speeds (default 1)\n"
  "  --placements N    route: random tower placements per case (default 1000)\n";

static bool takes_value(const char *a) {
  return !strcmp(a, "--case") || !strcmp(a, "--seed") || !strcmp(a, "--placements");
}

int td_cmd_bench(int argc, char **argv) {
  bench_opts o = {.seed = 1, .placements = 1000};
  const char *area = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(usage, stdout);
      return 0;
    } else if (!strcmp(a, "--json")) {
      o.json = true;
    } else if (!strcmp(a, "--quick")) {
      o.quick = true;
    } else if (takes_value(a) && i + 1 >= argc) {
      return td_app_fail("bench: %s needs a value (see td bench --help)", a);
    } else if (!strcmp(a, "--case")) {
      o.only = argv[++i];
    } else if (!strcmp(a, "--seed")) {
      if (td_app_parse_option("bench: --seed", argv[++i], 0, UINT64_MAX, &o.seed)) return 2;
    } else if (!strcmp(a, "--placements")) {
      uint64_t p;
      if (td_app_parse_option("bench: --placements", argv[++i], 0, 10000000, &p)) return 2;
      o.placements = (size_t)p;
    } else if (a[0] == '-') {
      return td_app_fail("bench: unknown option '%s' (see td bench --help)", a);
    } else if (!area) {
      area = a;
    } else {
      return td_app_fail("bench: unexpected argument '%s' (see td bench --help)", a);
    }
  }
  if (!area) return td_app_fail("bench: no area given: route, path, crowd, render or sim (see td bench --help)");
  if (!strcmp(area, "route")) return td_bench_route(&o);
  if (!strcmp(area, "path")) return td_bench_path(&o);
  if (!strcmp(area, "crowd")) return td_bench_crowd(&o);
  if (!strcmp(area, "render")) return td_bench_render(&o);
  if (!strcmp(area, "sim")) return td_bench_sim(&o);
  return td_app_fail("bench: unknown area '%s': route, path, crowd, render or sim (see td bench --help)", area);
}
