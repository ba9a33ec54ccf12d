/*
** graphgen.c: see graphgen.h.
*/
#include "app/graphgen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint64_t td_graphgen_next(td_graphgen_rng *rng) {
  uint64_t x = rng->s ? rng->s : 0x9E3779B97F4A7C15ull;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  rng->s = x;
  return x * 0x2545F4914F6CDD1Dull;
}

uint32_t td_graphgen_below(td_graphgen_rng *rng, uint32_t n) {
  return n ? (uint32_t)(((td_graphgen_next(rng) >> 32) * (uint64_t)n) >> 32) : 0;
}

double td_graphgen_unit(td_graphgen_rng *rng) {
  return (double)(td_graphgen_next(rng) >> 11) * (1.0 / 9007199254740992.0);
}

td_grid *td_graphgen_open_grid(int32_t w, int32_t h) {
  td_grid *grid = td_grid_create(w, h, 1.0, NULL);
  if (!grid) return NULL;
  memset(grid->walkable, 1, (size_t)w * (size_t)h);
  return grid;
}

td_grid *td_graphgen_maze(int32_t w, int32_t h, int loops, td_graphgen_rng *rng) {
  td_grid *grid = td_grid_create(w, h, 1.0, NULL);
  if (!grid) return NULL;
  int32_t rw = (w - 1) / 2, rh = (h - 1) / 2;
  if (rw < 1 || rh < 1) return grid;
  size_t rooms = (size_t)rw * (size_t)rh;
  int32_t *stack = td_mem_alloc(rooms * sizeof *stack);
  uint8_t *seen = td_mem_calloc(rooms, 1);
  if (!stack || !seen) {
    td_mem_free(stack, rooms * sizeof *stack);
    td_mem_free(seen, rooms);
    td_grid_destroy(grid);
    return NULL;
  }
  /* iterative depth-first carving from room 0 */
  size_t sp = 0;
  stack[sp++] = 0;
  seen[0] = 1;
  td_grid_set_walkable(grid, 1, 1, true);
  static const int dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  while (sp > 0) {
    int32_t c = stack[sp - 1], cx = c % rw, cy = c / rw;
    int opts[4], k = 0;
    for (int d = 0; d < 4; d++) {
      int32_t nx = cx + dirs[d][0], ny = cy + dirs[d][1];
      if (nx >= 0 && nx < rw && ny >= 0 && ny < rh && !seen[ny * rw + nx]) opts[k++] = d;
    }
    if (k == 0) {
      sp--;
      continue;
    }
    int d = opts[td_graphgen_below(rng, (uint32_t)k)];
    int32_t nx = cx + dirs[d][0], ny = cy + dirs[d][1];
    seen[ny * rw + nx] = 1;
    td_grid_set_walkable(grid, 2 * cx + 1 + dirs[d][0], 2 * cy + 1 + dirs[d][1], true);
    td_grid_set_walkable(grid, 2 * nx + 1, 2 * ny + 1, true);
    stack[sp++] = ny * rw + nx;
  }
  /* braid: knock out random walls between two rooms */
  size_t extra = rooms * (size_t)loops / 100;
  for (size_t i = 0; i < extra; i++) {
    int32_t x = 1 + (int32_t)td_graphgen_below(rng, (uint32_t)(2 * rw - 1));
    int32_t y = 1 + (int32_t)td_graphgen_below(rng, (uint32_t)(2 * rh - 1));
    if ((x % 2) != (y % 2)) td_grid_set_walkable(grid, x, y, true); /* a wall between rooms */
  }
  td_mem_free(stack, rooms * sizeof *stack);
  td_mem_free(seen, rooms);
  return grid;
}

td_graph *td_graphgen_geometric(int32_t n, double mean_degree, td_graphgen_rng *rng) {
  double side = sqrt((double)n); /* unit density */
  double radius = sqrt(mean_degree / 3.14159265358979323846);
  int32_t cells = (int32_t)(side / radius);
  if (cells < 1) cells = 1;
  double cell = side / cells;
  td_graph *g = td_graph_create(n, (int32_t)(n * mean_degree / 2 * 1.1) + 16);
  size_t nc = (size_t)cells * (size_t)cells;
  int32_t *head = td_mem_alloc(nc * sizeof *head);
  int32_t *link = td_mem_alloc((size_t)(n ? n : 1) * sizeof *link);
  if (!g || !head || !link) goto fail;
  memset(head, 0xff, nc * sizeof *head);
  for (int32_t i = 0; i < n; i++) {
    double x = td_graphgen_unit(rng) * side, y = td_graphgen_unit(rng) * side;
    if (td_graph_add_node(g, x, y, NULL) < 0) goto fail;
    int32_t cx = (int32_t)(x / cell), cy = (int32_t)(y / cell);
    if (cx >= cells) cx = cells - 1;
    if (cy >= cells) cy = cells - 1;
    link[i] = head[cy * cells + cx];
    head[cy * cells + cx] = i;
  }
  /* join each pair once: from every node to later nodes in its 3x3 cells */
  for (int32_t i = 0; i < n; i++) {
    int32_t cx = (int32_t)(g->x[i] / cell), cy = (int32_t)(g->y[i] / cell);
    if (cx >= cells) cx = cells - 1;
    if (cy >= cells) cy = cells - 1;
    for (int32_t dy = -1; dy <= 1; dy++)
      for (int32_t dx = -1; dx <= 1; dx++) {
        int32_t x = cx + dx, y = cy + dy;
        if (x < 0 || y < 0 || x >= cells || y >= cells) continue;
        for (int32_t j = head[y * cells + x]; j >= 0; j = link[j])
          if (j > i && hypot(g->x[i] - g->x[j], g->y[i] - g->y[j]) < radius)
            if (td_graph_add_edge(g, i, j, 1.0, NULL) < 0) goto fail;
      }
  }
  td_mem_free(head, nc * sizeof *head);
  td_mem_free(link, (size_t)(n ? n : 1) * sizeof *link);
  if (td_graph_finalize(g, NULL) != 0) {
    td_graph_destroy(g);
    return NULL;
  }
  return g;
fail:
  td_mem_free(head, nc * sizeof *head);
  td_mem_free(link, (size_t)(n ? n : 1) * sizeof *link);
  td_graph_destroy(g);
  return NULL;
}

td_graph *td_graphgen_tree(int32_t n, td_graphgen_rng *rng) {
  td_graph *g = td_graph_create(n, n);
  if (!g) return NULL;
  double side = sqrt((double)n);
  for (int32_t i = 0; i < n; i++)
    if (td_graph_add_node(g, td_graphgen_unit(rng) * side, td_graphgen_unit(rng) * side, NULL) < 0)
      goto fail;
  for (int32_t i = 1; i < n; i++)
    if (td_graph_add_edge(g, i, (int32_t)td_graphgen_below(rng, (uint32_t)i), 1.0, NULL) < 0)
      goto fail;
  if (td_graph_finalize(g, NULL) != 0) goto fail;
  return g;
fail:
  td_graph_destroy(g);
  return NULL;
}
