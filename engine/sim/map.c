/*
** map.c: releasing a map and reading its points.
*/
#include "sim/map.h"

#include <string.h>

void td_map_free(td_map *map) {
  if (!map) return;
  if (map->road_width) /* sized by the graph it describes: free it first */
    td_mem_free(map->road_width, (size_t)map->graph->edge_count * sizeof *map->road_width);
  td_graph_destroy(map->graph);
  td_grid_destroy(map->grid);
  td_mem_free(map->spawns, map->spawn_count * sizeof *map->spawns);
  td_mem_free(map->goals, map->goal_count * sizeof *map->goals);
  for (size_t i = 0; i < map->base_count; i++)
    td_mem_free(map->bases[i].block,
                map->bases[i].block_count * sizeof *map->bases[i].block);
  td_mem_free(map->bases, map->base_count * sizeof *map->bases);
  for (size_t i = 0; i < map->path_count; i++)
    td_mem_free(map->paths[i].edges, map->paths[i].edge_count * sizeof *map->paths[i].edges);
  td_mem_free(map->paths, map->path_count * sizeof *map->paths);
  for (size_t i = 0; i < map->layer_count; i++)
    if (!map->layers[i].shared)
      td_mem_free(map->layers[i].gids, (size_t)map->layers[i].width *
                                           (size_t)map->layers[i].height * sizeof(uint32_t));
  td_mem_free(map->layers, map->layer_count * sizeof *map->layers);
  memset(map, 0, sizeof *map);
}

const td_tower_base *td_map_find_base(const td_map *map, int64_t object_id) {
  for (size_t i = 0; i < map->base_count; i++)
    if (map->bases[i].object_id == object_id) return &map->bases[i];
  return NULL;
}

const td_map_path *td_map_find_path(const td_map *map, int64_t object_id) {
  for (size_t i = 0; i < map->path_count; i++)
    if (map->paths[i].object_id == object_id) return &map->paths[i];
  return NULL;
}

void td_map_goal_nodes(const td_map *map, int32_t *out) {
  for (size_t i = 0; i < map->goal_count; i++) out[i] = map->goals[i].node;
}

void td_map_spawn_nodes(const td_map *map, int32_t *out) {
  for (size_t i = 0; i < map->spawn_count; i++) out[i] = map->spawns[i].node;
}

int td_map_walk(const td_map *map, const td_graph *g, td_walk **out, td_err *err) {
  *out = map->grid ? td_walk_create_grid(map->grid, g, err)
         : map->road_width ? td_walk_create_road(g, map->road_width, err)
                           : NULL;
  return (map->grid || map->road_width) && !*out ? -1 : 0;
}
