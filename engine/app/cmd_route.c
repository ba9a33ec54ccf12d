/*
** cmd_route.c: `td route --map FILE [--json] [--block-edge I,J]... [--tower ID]...`
**
** Loads a map, computes the reverse Dijkstra from its goals, applies the
** requested blocks, and prints every node's position, dist and next, then
** the route from each spawn. --tower places a tower on a tower base (by its
** Tiled object id) through the legality check: a tower that would cut a
** spawn off is refused, and td exits 1 naming the spawn.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cmds.h"
#include "nav/route.h"
#include "script/mapfile.h"

static const char usage[] =
  "usage: td route --map FILE [--json] [--block-edge I,J]... [--tower ID]...\n"
  "\n"
  "Prints every node's position, its distance to the nearest goal (dist) and\n"
  "the neighbour to walk to (next), then the route from each spawn.\n"
  "\n"
  "options:\n"
  "  --map FILE        a Tiled map: .tmx, .tmj or a Lua export (see docs/maps.md)\n"
  "  --json            {\"nodes\":[{\"id\",\"x\",\"y\",\"dist\",\"next\"}],\"spawns\",\"goals\",\n"
  "                    \"routes\"}; dist and next are null when unreachable\n"
  "  --block-edge I,J  block the edge joining nodes I and J (repeatable)\n"
  "  --tower ID        place a tower on the tower base with Tiled object id ID;\n"
  "                    refused (exit 1) when it would cut a spawn off\n"
  "\n"
  "exit status: 0 ok, 1 a tower was refused, 2 bad usage or bad input\n";

typedef struct route_opts {
  const char *map;
  bool json;
  char **blocks;
  size_t block_count;
  long *towers;
  size_t tower_count;
} route_opts;

static int parse_pair(const char *s, int32_t *a, int32_t *b) {
  char *end;
  long x = strtol(s, &end, 10);
  if (end == s || *end != ',') return -1;
  const char *t = end + 1;
  long y = strtol(t, &end, 10);
  if (end == t || *end != '\0') return -1;
  if (x < 0 || y < 0 || x > INT32_MAX || y > INT32_MAX) return -1;
  *a = (int32_t)x;
  *b = (int32_t)y;
  return 0;
}

static void print_cost(td_cost c, bool json) {
  if (c == TD_COST_INF) fputs(json ? "null" : "-", stdout);
  else printf(json ? "%.9g" : "%.4f", td_graph_cost_to_units(c));
}

/* Follows next from a spawn; writes the node sequence (at most n). */
static size_t walk(const td_route *r, int32_t from, int32_t *out, size_t cap) {
  const td_cost *dist = td_route_dist(r);
  const int32_t *next = td_route_next(r);
  if (dist[from] == TD_COST_INF) return 0;
  size_t k = 0;
  for (int32_t v = from; v != TD_NONE && k < cap; v = next[v]) out[k++] = v;
  return k;
}

static void print_text(const td_map *map, const td_route *r, int32_t *path) {
  const td_graph *g = map->graph;
  const td_cost *dist = td_route_dist(r);
  const int32_t *next = td_route_next(r);
  char name[1024];
  printf("map %s: %d nodes, %d edges, %zu spawns, %zu goals, %zu tower bases%s\n",
         td_app_escape(map->source, name, sizeof name), g->node_count, g->edge_count, map->spawn_count, map->goal_count,
         map->base_count, map->grid ? " (grid)" : "");
  printf("%6s %10s %10s %12s %6s\n", "node", "x", "y", "dist", "next");
  for (int32_t v = 0; v < g->node_count; v++) {
    printf("%6d %10.2f %10.2f ", v, g->x[v], g->y[v]);
    if (dist[v] == TD_COST_INF) printf("%12s", "-");
    else printf("%12.4f", td_graph_cost_to_units(dist[v]));
    if (next[v] == TD_NONE) printf(" %6s", td_route_is_goal(r, v) && dist[v] == 0 ? "goal" : "-");
    else printf(" %6d", next[v]);
    if (g->node_blocked[v]) fputs("  blocked", stdout);
    putchar('\n');
  }
  for (size_t i = 0; i < map->spawn_count; i++) {
    int32_t s = map->spawns[i].node;
    printf("route from spawn %zu (object %d, node %d): ", i, map->spawns[i].object_id, s);
    size_t k = walk(r, s, path, (size_t)g->node_count);
    if (k == 0) {
      puts("unreachable");
      continue;
    }
    for (size_t j = 0; j < k; j++) printf(j ? " -> %d" : "%d", path[j]);
    printf("  (length %.4f)\n", td_graph_cost_to_units(dist[s]));
  }
}

static void print_json(const td_map *map, const td_route *r, int32_t *path) {
  const td_graph *g = map->graph;
  const td_cost *dist = td_route_dist(r);
  const int32_t *next = td_route_next(r);
  fputs("{\"nodes\":[", stdout);
  for (int32_t v = 0; v < g->node_count; v++) {
    printf("%s{\"id\":%d,\"x\":%.9g,\"y\":%.9g,\"dist\":", v ? "," : "", v, g->x[v], g->y[v]);
    print_cost(dist[v], true);
    if (next[v] == TD_NONE) fputs(",\"next\":null}", stdout);
    else printf(",\"next\":%d}", next[v]);
  }
  fputs("],\"spawns\":[", stdout);
  for (size_t i = 0; i < map->spawn_count; i++) printf("%s%d", i ? "," : "", map->spawns[i].node);
  fputs("],\"goals\":[", stdout);
  for (size_t i = 0; i < map->goal_count; i++) printf("%s%d", i ? "," : "", map->goals[i].node);
  fputs("],\"routes\":[", stdout);
  for (size_t i = 0; i < map->spawn_count; i++) {
    int32_t s = map->spawns[i].node;
    size_t k = walk(r, s, path, (size_t)g->node_count);
    printf("%s{\"spawn\":%d,\"path\":[", i ? "," : "", s);
    for (size_t j = 0; j < k; j++) printf("%s%d", j ? "," : "", path[j]);
    fputs("],\"length\":", stdout);
    print_cost(dist[s], true);
    putchar('}');
  }
  puts("]}");
}

static int run(const route_opts *o) {
  td_map map;
  td_err err;
  if (td_mapfile_load(o->map, &map, &err) != 0) return td_app_fail("%s", err.msg);
  int status = 0;
  int32_t *goals = NULL, *spawns = NULL, *path = NULL;
  td_route *r = NULL;
  size_t ng = map.goal_count ? map.goal_count : 1, ns = map.spawn_count ? map.spawn_count : 1;
  goals = malloc(ng * sizeof *goals);
  spawns = malloc(ns * sizeof *spawns);
  path = malloc((size_t)(map.graph->node_count + 1) * sizeof *path);
  if (!goals || !spawns || !path) {
    status = td_app_fail("route: out of memory");
    goto done;
  }
  td_map_goal_nodes(&map, goals);
  td_map_spawn_nodes(&map, spawns);
  r = td_route_create(map.graph, goals, map.goal_count, &err);
  if (!r) {
    status = td_app_fail("%s: %s", o->map, err.msg);
    goto done;
  }
  for (size_t i = 0; i < o->block_count; i++) {
    int32_t a, b;
    if (parse_pair(o->blocks[i], &a, &b) != 0) {
      status = td_app_fail("--block-edge %s: expected two node ids, I,J", o->blocks[i]);
      goto done;
    }
    if (a >= map.graph->node_count || b >= map.graph->node_count) {
      status = td_app_fail("--block-edge %s: unknown node %d (the map has %d nodes)",
                           o->blocks[i], a >= map.graph->node_count ? a : b,
                           map.graph->node_count);
      goto done;
    }
    int32_t e = td_graph_find_edge(map.graph, a, b);
    if (e == TD_NONE) {
      status = td_app_fail("--block-edge %s: no edge joins nodes %d and %d", o->blocks[i], a, b);
      goto done;
    }
    td_graph_change c = {.kind = TD_CHANGE_BLOCK_EDGE, .id = e};
    if (td_route_apply(r, &c, 1, &err) != 0) {
      status = td_app_fail("--block-edge %s: %s", o->blocks[i], err.msg);
      goto done;
    }
  }
  for (size_t i = 0; i < o->tower_count; i++) {
    const td_tower_base *base = td_map_find_base(&map, o->towers[i]);
    if (!base) {
      status = td_app_fail("--tower %ld: %s has no tower_base with that object id", o->towers[i],
                           o->map);
      goto done;
    }
    td_route_verdict v;
    if (td_route_try_apply(r, base->block, base->block_count, spawns, map.spawn_count, &v,
                           &err) != 0) {
      status = td_app_fail("--tower %ld: %s", o->towers[i], err.msg);
      goto done;
    }
    if (!v.ok) {
      const td_map_point *sp = &map.spawns[v.cut_index];
      td_app_say("%s: object %d (tower_base): refused: it would cut spawn object %d (node %d) "
                 "off from every goal",
                 o->map, base->object_id, sp->object_id, sp->node);
      status = 1;
      goto done;
    }
  }
  if (o->json) print_json(&map, r, path);
  else print_text(&map, r, path);
done:
  td_route_destroy(r);
  free(goals);
  free(spawns);
  free(path);
  td_map_free(&map);
  return status;
}

int td_cmd_route(int argc, char **argv) {
  route_opts o = {0};
  char map_buf[1024]; /* --map as given, else under the data directory */
  int status = 2;
  o.blocks = calloc((size_t)argc, sizeof *o.blocks);
  o.towers = calloc((size_t)argc, sizeof *o.towers);
  if (!o.blocks || !o.towers) {
    status = td_app_fail("route: out of memory");
    goto out;
  }
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(usage, stdout);
      status = 0;
      goto out;
    } else if (!strcmp(a, "--json")) {
      o.json = true;
    } else if (!strcmp(a, "--map") || !strcmp(a, "--block-edge") || !strcmp(a, "--tower")) {
      if (i + 1 >= argc) {
        status = td_app_fail("route: %s needs a value (see td route --help)", a);
        goto out;
      }
      const char *val = argv[++i];
      if (!strcmp(a, "--map")) {
        o.map = td_app_path(val, map_buf, sizeof map_buf);
      } else if (!strcmp(a, "--block-edge")) {
        o.blocks[o.block_count++] = argv[i];
      } else {
        char *end;
        long id = strtol(val, &end, 10);
        if (end == val || *end != '\0') {
          status = td_app_fail("--tower %s: expected a tower_base object id", val);
          goto out;
        }
        o.towers[o.tower_count++] = id;
      }
    } else {
      status = td_app_fail("route: unknown argument '%s' (see td route --help)", a);
      goto out;
    }
  }
  if (!o.map) {
    status = td_app_fail("route: --map FILE is required (see td route --help)");
    goto out;
  }
  status = run(&o);
out:
  free(o.blocks);
  free(o.towers);
  return status;
}
