/*
** maplist.c: the menu's maps, their words and order, and their thumbnails
** (see maplist.h).
*/
#define _POSIX_C_SOURCE 200809L /* opendir */
#include "render/maplist.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "nav/route.h"
#include "script/mapfile.h"

enum { CELL_GROUND, CELL_ROAD, CELL_WALL }; /* kinds of e->cells */
#define ROUTE_MAX 8192                      /* route points kept per map */

static void entry_free(td_maplist_entry *e) {
  free(e->cells);
  free(e->roads);
  free(e->bases);
  free(e->route);
  free(e->spots);
  e->cells = NULL;
  e->roads = e->bases = e->route = e->spots = NULL;
}

void td_maplist_free(td_maplist *l) {
  for (size_t i = 0; i < l->count; i++) entry_free(&l->e[i]);
  free(l->e);
  l->e = NULL;
  l->count = 0;
}

/* The ground: a grid map's cells sampled down to at most
** TD_MAPLIST_THUMB_CELLS a side (floor or wall), a waypoint map's roads as
** thick lines over grass. */
static bool cache_ground(td_maplist_entry *e, const td_map *m) {
  if (m->grid) {
    const td_grid *g = m->grid;
    int32_t side = g->width > g->height ? g->width : g->height;
    int32_t step = (side + TD_MAPLIST_THUMB_CELLS - 1) / TD_MAPLIST_THUMB_CELLS;
    e->cw = (g->width + step - 1) / step;
    e->ch = (g->height + step - 1) / step;
    e->cells = malloc((size_t)e->cw * (size_t)e->ch);
    if (!e->cells) return false;
    for (int32_t y = 0; y < e->ch; y++)
      for (int32_t x = 0; x < e->cw; x++) {
        /* a block is wall when a line of it is (step cells): a wall one
        ** cell thick stays, a lone rock does not speckle the picture */
        int32_t walls = 0;
        for (int32_t dy = 0; dy < step; dy++)
          for (int32_t dx = 0; dx < step; dx++)
            walls += !td_grid_walkable(g, x * step + dx, y * step + dy) &&
                     x * step + dx < g->width && y * step + dy < g->height;
        bool open = walls < step;
        e->cells[(size_t)y * (size_t)e->cw + (size_t)x] = open ? CELL_ROAD : CELL_WALL;
      }
    return true;
  }
  const td_graph *g = m->graph;
  e->roads = malloc((size_t)(g->edge_count ? g->edge_count : 1) * 5 * sizeof *e->roads);
  if (!e->roads) return false;
  for (int32_t k = 0; k < g->edge_count; k++) {
    const td_edge *ed = &g->edges[k];
    float *r = &e->roads[5 * e->road_count++];
    r[0] = (float)g->x[ed->a];
    r[1] = (float)g->y[ed->a];
    r[2] = (float)g->x[ed->b];
    r[3] = (float)g->y[ed->b];
    r[4] = m->road_width ? m->road_width[k] : (float)m->tile_w;
  }
  return true;
}

/* Each spawn's way to its goal on the untouched map (route.h). */
static bool cache_route(td_maplist_entry *e, td_map *m) {
  int32_t goals[TD_MAPFILE_MAX_GOALS];
  size_t ng = m->goal_count < TD_MAPFILE_MAX_GOALS ? m->goal_count : TD_MAPFILE_MAX_GOALS;
  for (size_t i = 0; i < ng; i++) goals[i] = m->goals[i].node;
  td_err err;
  td_route *r = td_route_create(m->graph, goals, ng, &err);
  if (!r) return false;
  const int32_t *next = td_route_next(r);
  e->route = malloc((size_t)ROUTE_MAX * 2 * sizeof *e->route);
  if (!e->route) {
    td_route_destroy(r);
    return false;
  }
  for (size_t s = 0; s < m->spawn_count && e->route_count + 2 < ROUTE_MAX; s++) {
    if (s > 0) {
      e->route[2 * e->route_count] = NAN;
      e->route[2 * e->route_count + 1] = 0;
      e->route_count++;
    }
    int32_t n = m->spawns[s].node;
    for (int32_t k = 0; n != TD_NONE && k < m->graph->node_count && e->route_count < ROUTE_MAX; k++) {
      e->route[2 * e->route_count] = (float)m->graph->x[n];
      e->route[2 * e->route_count + 1] = (float)m->graph->y[n];
      e->route_count++;
      if (td_route_is_goal(r, n)) break;
      n = next[n];
    }
  }
  td_route_destroy(r);
  return true;
}

static bool cache_things(td_maplist_entry *e, const td_map *m) {
  e->bases = malloc((m->base_count ? m->base_count : 1) * 4 * sizeof *e->bases);
  size_t ns = m->spawn_count + m->goal_count;
  e->spots = malloc((ns ? ns : 1) * 3 * sizeof *e->spots);
  if (!e->bases || !e->spots) return false;
  for (size_t i = 0; i < m->base_count; i++) {
    const td_tower_base *b = &m->bases[i];
    float *q = &e->bases[4 * e->base_count++];
    q[0] = (float)b->x, q[1] = (float)b->y, q[2] = (float)b->w, q[3] = (float)b->h;
  }
  for (size_t i = 0; i < ns; i++) {
    bool spawn = i < m->spawn_count;
    int32_t n = spawn ? m->spawns[i].node : m->goals[i - m->spawn_count].node;
    float *q = &e->spots[3 * e->spot_count++];
    q[0] = (float)m->graph->x[n], q[1] = (float)m->graph->y[n], q[2] = spawn ? 0.0f : 1.0f;
  }
  return true;
}

static void load_entry(td_maplist_entry *e) {
  td_map m;
  td_err err;
  td_game_map_name_of(e->path, e->name, sizeof e->name);
  snprintf(e->title, sizeof e->title, "%s", e->name);
  if (td_mapfile_load(e->path, &m, &err) != 0) {
    snprintf(e->error, sizeof e->error, "%.255s", err.msg);
    return;
  }
  if (m.title[0]) snprintf(e->title, sizeof e->title, "%s", m.title);
  snprintf(e->description, sizeof e->description, "%s", m.description);
  e->order = m.order;
  e->map_w = (float)(m.width * m.tile_w);
  e->map_h = (float)(m.height * m.tile_h);
  if (!cache_ground(e, &m) || !cache_things(e, &m) || !cache_route(e, &m)) {
    entry_free(e);
    e->road_count = e->base_count = e->route_count = e->spot_count = 0;
    e->cw = e->ch = 0;
  }
  td_map_free(&m);
}

static int cmp_entry(const void *pa, const void *pb) {
  const td_maplist_entry *a = pa, *b = pb;
  /* maps with an order first, by it; then by file name */
  if ((a->order != 0) != (b->order != 0)) return a->order != 0 ? -1 : 1;
  if (a->order != b->order) return a->order < b->order ? -1 : 1;
  return strcmp(a->path, b->path);
}

void td_maplist_load(td_maplist *l, const char *dir) {
  td_maplist_free(l);
  td_maplist_add(l, dir, false);
}

/* A map td reads (mapfile.h): Tiled's .tmx and .tmj, or its Lua export. */
static bool is_map_file(const char *name) {
  static const char *const ext[] = {".tmx", ".tmj", ".lua"};
  size_t n = strlen(name);
  for (size_t i = 0; i < sizeof ext / sizeof *ext; i++)
    if (n > 4 && strcmp(name + n - 4, ext[i]) == 0) return true;
  return false;
}

void td_maplist_add(td_maplist *l, const char *dir, bool user) {
  DIR *d = dir && *dir ? opendir(dir) : NULL;
  if (!d) return;
  if (!l->e) l->e = calloc(TD_MAPLIST_MAX, sizeof *l->e);
  if (!l->e) {
    closedir(d);
    return;
  }
  size_t first = l->count;
  struct dirent *de;
  while ((de = readdir(d)) && l->count < TD_MAPLIST_MAX) {
    if (!is_map_file(de->d_name)) continue;
    snprintf(l->e[l->count++].path, sizeof l->e[0].path, "%s/%s", dir, de->d_name);
  }
  closedir(d);
  for (size_t i = first; i < l->count; i++) {
    load_entry(&l->e[i]);
    l->e[i].user = user;
  }
  qsort(l->e + first, l->count - first, sizeof *l->e, cmp_entry);
}

static const char *file_part(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

int td_maplist_find(const td_maplist *l, const char *path) {
  for (size_t i = 0; i < l->count; i++)
    if (!strcmp(file_part(l->e[i].path), file_part(path))) return (int)i;
  return -1;
}

void td_maplist_draw_thumb(td_batch *b, const td_maplist_entry *e, float x, float y, float w, float h) {
  if (e->map_w <= 0 || e->map_h <= 0) {
    td_batch_rect(b, x, y, w, h, td_color(30, 30, 38, 255));
    return;
  }
  float k = fminf(w / e->map_w, h / e->map_h);
  float ox = x + (w - e->map_w * k) / 2, oy = y + (h - e->map_h * k) / 2;
  SDL_Color grass = td_color(62, 96, 54, 255), road = td_color(164, 142, 102, 255);
  SDL_Color wall = td_color(44, 46, 56, 255), floor = td_color(128, 124, 112, 255);
  td_batch_rect(b, ox, oy, e->map_w * k, e->map_h * k, e->cells ? wall : grass);
  if (e->cells) { /* runs of floor along each row */
    float cw = e->map_w * k / (float)e->cw, chh = e->map_h * k / (float)e->ch;
    for (int32_t cy = 0; cy < e->ch; cy++)
      for (int32_t cx = 0; cx < e->cw;) {
        int32_t end = cx;
        while (end < e->cw && e->cells[(size_t)cy * (size_t)e->cw + (size_t)end] == CELL_ROAD) end++;
        if (end > cx) td_batch_rect(b, ox + (float)cx * cw, oy + (float)cy * chh, (float)(end - cx) * cw, chh, floor);
        cx = end > cx ? end : cx + 1;
      }
  }
  for (size_t i = 0; i < e->road_count; i++) {
    const float *r = &e->roads[5 * i];
    float wd = fmaxf(r[4] * k, 1.5f);
    td_batch_line(b, ox + r[0] * k, oy + r[1] * k, ox + r[2] * k, oy + r[3] * k, wd, road);
    td_batch_disc(b, ox + r[0] * k, oy + r[1] * k, wd / 2, road);
    td_batch_disc(b, ox + r[2] * k, oy + r[3] * k, wd / 2, road);
  }
  for (size_t i = 0; i < e->base_count; i++) {
    const float *q = &e->bases[4 * i];
    float bw = fmaxf(q[2] * k - 1, 1), bh = fmaxf(q[3] * k - 1, 1);
    td_batch_rect(b, ox + q[0] * k + 0.5f, oy + q[1] * k + 0.5f, bw, bh, td_color(86, 100, 138, 255));
  }
  for (size_t i = 1; i < e->route_count; i++) {
    const float *p = &e->route[2 * (i - 1)], *q = &e->route[2 * i];
    if (isnan(p[0]) || isnan(q[0])) continue;
    td_batch_line(b, ox + p[0] * k, oy + p[1] * k, ox + q[0] * k, oy + q[1] * k, 2, td_color(255, 214, 90, 230));
  }
  float rr = fmaxf(3, fminf(w, h) / 30);
  for (size_t i = 0; i < e->spot_count; i++) {
    const float *q = &e->spots[3 * i];
    td_batch_disc(b, ox + q[0] * k, oy + q[1] * k, rr,
                  q[2] == 0 ? td_color(235, 80, 70, 255) : td_color(90, 170, 255, 255));
  }
  td_batch_rect_outline(b, ox, oy, e->map_w * k, e->map_h * k, 1, td_color(10, 10, 14, 255));
}
