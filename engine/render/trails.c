/*
** trails.c: the picture of a crowd run (see trails.h).
**
** Layout: a title strip, the view (map units scaled uniformly and offset by
** a margin), and a legend strip whose height depends on how many rows its
** items need at the picture's width. The legend is laid out twice with the
** same code: once to measure, once to draw.
*/
#include "render/trails.h"

#include <SDL.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/png.h"

#define MARGIN 20
#define TITLE_H 30
#define TEXT_SCALE 2
#define LEGEND_ROW 24
#define SWATCH_W 34

static const td_rgba c_outside = {21, 24, 29, 255};
static const td_rgba c_map = {36, 40, 47, 255};
static const td_rgba c_tile_line = {44, 49, 57, 255};
static const td_rgba c_wall = {24, 27, 32, 255};
static const td_rgba c_walk = {48, 54, 63, 255};
static const td_rgba c_road = {78, 86, 99, 255};
static const td_rgba c_blocked = {226, 68, 58, 255};
static const td_rgba c_route = {235, 238, 245, 34};
static const td_rgba c_arrow = {215, 220, 230, 110};
static const td_rgba c_node_id = {150, 158, 172, 200};
static const td_rgba c_base = {196, 160, 96, 255};
static const td_rgba c_tower = {196, 160, 96, 210};
static const td_rgba c_spawn = {60, 207, 110, 255};
static const td_rgba c_goal = {255, 92, 72, 255};
static const td_rgba c_dark = {14, 16, 20, 255};
static const td_rgba c_white = {240, 242, 246, 255};
static const td_rgba c_text = {200, 205, 214, 255};

typedef struct view {
  double x0, y0;      /* map point drawn at (MARGIN, TITLE_H + MARGIN) */
  double s;           /* pixels per map unit */
  int w, h;           /* picture size */
  int view_h;         /* height of the map view in pixels */
  float tile;         /* a tile in pixels */
} view;

static inline float px(const view *v, double x) { return (float)(MARGIN + (x - v->x0) * v->s); }
static inline float py(const view *v, double y) {
  return (float)(TITLE_H + MARGIN + (y - v->y0) * v->s);
}

td_rgba td_render_lane_color(float t) {
  t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
  /* blue (220 degrees) through green, yellow and orange to pink (-30) */
  return td_rgba_hsv(220.0f - 250.0f * t, 0.78f, 1.0f, 255);
}

static bool any_flyer(const td_trails_scene *s) {
  for (size_t i = 0; i < s->trail_count; i++)
    if (s->trails[i].flying) return true;
  return false;
}

static bool any_out(const td_trails_scene *s) {
  for (size_t i = 0; i < s->trail_count; i++)
    if (!s->trails[i].arrived && s->trails[i].n > 0) return true;
  return false;
}

/* Blocked edges drawn red: on grid maps, not those a blocked cell (a tower,
** drawn as such) already implies. */
static bool drawn_blocked(const td_map *m, int32_t e) {
  const td_edge *ed = &m->graph->edges[e];
  if (!ed->blocked) return false;
  if (!m->grid) return true;
  return !m->graph->node_blocked[ed->a] && !m->graph->node_blocked[ed->b];
}

static bool any_blocked(const td_map *m) {
  for (int32_t e = 0; e < m->graph->edge_count; e++)
    if (drawn_blocked(m, e)) return true;
  return false;
}

/* ---- the legend: items in rows, wrapped at the picture's width ----------- */

typedef enum item_kind {
  IT_LANES, IT_PATH, IT_ROUTE, IT_BLOCKED, IT_SPAWN, IT_GOAL, IT_BASE, IT_TOWER,
  IT_FLYER, IT_ARRIVED, IT_OUT
} item_kind;

static const char *const item_text[] = {
  "lanes: left to right of travel", "path", "route", "blocked", "spawn", "goal",
  "tower base", "tower", "flyer", "arrived", "still out"};

static void swatch(td_canvas *c, item_kind k, float x, float y) {
  float cy = y + 7.0f;
  switch (k) {
  case IT_LANES:
    for (int i = 0; i < SWATCH_W; i++)
      td_canvas_rect(c, x + (float)i, y, 1.0f, 14.0f,
                     td_render_lane_color((float)i / (float)(SWATCH_W - 1)));
    break;
  case IT_PATH:
    td_canvas_line(c, x + 2, cy, x + SWATCH_W - 2, cy, 5.0f, c_road);
    break;
  case IT_ROUTE:
    td_canvas_line(c, x + 2, cy, x + SWATCH_W - 2, cy, 12.0f, c_route);
    break;
  case IT_BLOCKED:
    td_canvas_line(c, x + 2, cy, x + SWATCH_W - 2, cy, 4.0f, c_blocked);
    break;
  case IT_SPAWN:
    td_canvas_disc(c, x + SWATCH_W / 2.0f, cy, 6.0f, c_spawn);
    break;
  case IT_GOAL:
    td_canvas_disc(c, x + SWATCH_W / 2.0f, cy, 6.0f, c_goal);
    td_canvas_ring(c, x + SWATCH_W / 2.0f, cy, 6.5f, 1.5f, c_white);
    break;
  case IT_BASE:
    td_canvas_rect_outline(c, x + 8, y, 18, 14, 2.0f, c_base);
    break;
  case IT_TOWER:
    td_canvas_rect(c, x + 8, y, 18, 14, c_tower);
    break;
  case IT_FLYER:
    for (int i = 0; i < 3; i++)
      td_canvas_line(c, x + 2 + 12.0f * (float)i, cy, x + 9 + 12.0f * (float)i, cy, 2.5f,
                     td_render_lane_color(0.5f));
    break;
  case IT_ARRIVED:
    td_canvas_ring(c, x + SWATCH_W / 2.0f, cy, 5.5f, 1.5f, td_render_lane_color(0.5f));
    break;
  case IT_OUT:
    td_canvas_disc(c, x + SWATCH_W / 2.0f, cy, 6.0f, td_render_lane_color(0.5f));
    td_canvas_ring(c, x + SWATCH_W / 2.0f, cy, 6.0f, 1.2f, c_dark);
    break;
  }
}

/* Lays the legend out from y0 at width w; draws when c is not NULL.
** Returns its height. */
static int legend(const td_trails_scene *s, td_canvas *c, int w, int y0) {
  item_kind items[16];
  int n = 0;
  items[n++] = IT_LANES;
  if (!s->map->grid) items[n++] = IT_PATH;
  if (s->route) items[n++] = IT_ROUTE;
  if (any_blocked(s->map)) items[n++] = IT_BLOCKED;
  items[n++] = IT_SPAWN;
  items[n++] = IT_GOAL;
  if (s->map->base_count) items[n++] = IT_BASE;
  bool towers = false;
  for (size_t i = 0; s->tower && i < s->map->base_count; i++) towers |= s->tower[i] != 0;
  if (towers) items[n++] = IT_TOWER;
  if (any_flyer(s)) items[n++] = IT_FLYER;
  items[n++] = IT_ARRIVED;
  if (any_out(s)) items[n++] = IT_OUT;
  int x = MARGIN, y = y0, char_w = 6 * TEXT_SCALE;
  for (int i = 0; i < n; i++) {
    int iw = SWATCH_W + 8 + (int)strlen(item_text[items[i]]) * char_w;
    if (x > MARGIN && x + iw > w - MARGIN) {
      x = MARGIN;
      y += LEGEND_ROW;
    }
    if (c) {
      swatch(c, items[i], (float)x, (float)y);
      td_canvas_text(c, x + SWATCH_W + 8, y, TEXT_SCALE, item_text[items[i]], c_text);
    }
    x += iw + 3 * char_w;
  }
  return y + LEGEND_ROW - y0;
}

/* ---- the view ------------------------------------------------------------ */

static void make_view(const td_trails_scene *s, int long_side, view *v) {
  const td_map *m = s->map;
  const td_graph *g = m->graph;
  double x0 = 0, y0 = 0, x1 = (double)m->width * m->tile_w, y1 = (double)m->height * m->tile_h;
  for (int32_t n = 0; n < g->node_count; n++) {
    x0 = fmin(x0, g->x[n]), y0 = fmin(y0, g->y[n]);
    x1 = fmax(x1, g->x[n]), y1 = fmax(y1, g->y[n]);
  }
  for (size_t i = 0; i < s->trail_count; i++) {
    const td_trail *t = &s->trails[i];
    double r = (double)t->radius;
    for (size_t k = 0; k < t->n; k++) {
      x0 = fmin(x0, (double)t->xy[2 * k] - r), y0 = fmin(y0, (double)t->xy[2 * k + 1] - r);
      x1 = fmax(x1, (double)t->xy[2 * k] + r), y1 = fmax(y1, (double)t->xy[2 * k + 1] + r);
    }
  }
  double tile = m->tile_w > 0 ? (double)m->tile_w : 1.0;
  x0 -= 0.25 * tile, y0 -= 0.25 * tile, x1 += 0.25 * tile, y1 += 0.25 * tile;
  if (long_side < 200) long_side = 200;
  if (long_side > 8000) long_side = 8000;
  double span = fmax(x1 - x0, y1 - y0);
  v->s = (double)(long_side - 2 * MARGIN) / (span > 0 ? span : 1.0);
  v->x0 = x0;
  v->y0 = y0;
  v->w = (int)ceil((x1 - x0) * v->s) + 2 * MARGIN;
  v->view_h = (int)ceil((y1 - y0) * v->s);
  v->tile = (float)(tile * v->s);
  if (v->w < 640) v->w = 640; /* room for the title and legend */
  v->h = TITLE_H + MARGIN + v->view_h + MARGIN + legend(s, NULL, v->w, 0) + MARGIN / 2;
}

void td_render_trails_size(const td_trails_scene *s, int long_side, int *w, int *h) {
  view v;
  make_view(s, long_side, &v);
  *w = v.w;
  *h = v.h;
}

/* ---- layers of the picture ---------------------------------------------- */

static void draw_ground(const td_trails_scene *s, const view *v, td_canvas *c) {
  const td_map *m = s->map;
  float mx0 = px(v, 0), my0 = py(v, 0);
  float mw = (float)((double)m->width * m->tile_w * v->s);
  float mh = (float)((double)m->height * m->tile_h * v->s);
  td_canvas_rect(c, mx0, my0, mw, mh, c_map);
  if (m->grid) {
    const td_grid *gr = m->grid;
    float cs = (float)(gr->cell * v->s);
    for (int32_t cy = 0; cy < gr->height; cy++)
      for (int32_t cx = 0; cx < gr->width; cx++) {
        float x = px(v, gr->origin_x + gr->cell * cx), y = py(v, gr->origin_y + gr->cell * cy);
        bool walk = td_grid_walkable(gr, cx, cy);
        td_canvas_rect(c, x, y, cs, cs, walk ? c_walk : c_wall);
        int32_t node = td_grid_node_at(gr, cx, cy);
        if (node != TD_NONE && m->graph->node_blocked[node])
          td_canvas_rect(c, x + 1, y + 1, cs - 2, cs - 2, (td_rgba){226, 68, 58, 110});
      }
  }
  if (v->tile >= 6.0f) {
    for (int32_t i = 0; i <= m->width; i++) {
      float x = px(v, (double)i * m->tile_w);
      td_canvas_line(c, x, my0, x, my0 + mh, 1.0f, c_tile_line);
    }
    for (int32_t j = 0; j <= m->height; j++) {
      float y = py(v, (double)j * m->tile_h);
      td_canvas_line(c, mx0, y, mx0 + mw, y, 1.0f, c_tile_line);
    }
  }
}

static void draw_graph(const td_trails_scene *s, const view *v, td_canvas *c) {
  const td_graph *g = s->map->graph;
  if (s->map->grid) return; /* the cells say it all; 8-connected edges would hide them */
  float road = fmaxf(3.0f, 0.22f * v->tile);
  for (int32_t e = 0; e < g->edge_count; e++) {
    const td_edge *ed = &g->edges[e];
    td_canvas_line(c, px(v, g->x[ed->a]), py(v, g->y[ed->a]), px(v, g->x[ed->b]),
                   py(v, g->y[ed->b]), road, c_road);
  }
  for (int32_t n = 0; n < g->node_count; n++)
    td_canvas_disc(c, px(v, g->x[n]), py(v, g->y[n]), 0.6f * road, c_road);
}

static void draw_blocked(const td_trails_scene *s, const view *v, td_canvas *c) {
  const td_graph *g = s->map->graph;
  for (int32_t e = 0; e < g->edge_count; e++) {
    const td_edge *ed = &g->edges[e];
    if (!drawn_blocked(s->map, e)) continue;
    float ax = px(v, g->x[ed->a]), ay = py(v, g->y[ed->a]);
    float bx = px(v, g->x[ed->b]), by = py(v, g->y[ed->b]);
    td_canvas_line(c, ax, ay, bx, by, 3.0f, c_blocked);
    float mx = 0.5f * (ax + bx), my = 0.5f * (ay + by), k = 7.0f;
    td_canvas_line(c, mx - k, my - k, mx + k, my + k, 3.5f, c_blocked);
    td_canvas_line(c, mx - k, my + k, mx + k, my - k, 3.5f, c_blocked);
  }
}

static int draw_route(const td_trails_scene *s, const view *v, td_canvas *c, float *buf,
                      td_err *err) {
  const td_graph *g = s->map->graph;
  const int32_t *next = td_route_next(s->route);
  const td_cost *dist = td_route_dist(s->route);
  /* the way from every spawn, as a pale band */
  for (size_t i = 0; i < s->map->spawn_count; i++) {
    int32_t n = s->map->spawns[i].node;
    if (dist[n] == TD_COST_INF) continue;
    size_t k = 0;
    for (; n != TD_NONE && k < (size_t)g->node_count; n = next[n], k++) {
      buf[2 * k] = px(v, g->x[n]);
      buf[2 * k + 1] = py(v, g->y[n]);
    }
    if (td_canvas_polyline(c, buf, k, 0.8f * v->tile, c_route, err) != 0) return -1;
  }
  /* a faint arrow on every edge a next[] takes */
  float a = s->map->grid ? fminf(3.0f, 0.15f * v->tile) : fmaxf(4.0f, 0.12f * v->tile);
  for (int32_t n = 0; n < g->node_count; n++) {
    int32_t m = next[n];
    if (m == TD_NONE) continue;
    float ax = px(v, g->x[n]), ay = py(v, g->y[n]), bx = px(v, g->x[m]), by = py(v, g->y[m]);
    float dx = bx - ax, dy = by - ay, l = sqrtf(dx * dx + dy * dy);
    if (l < 3.0f * a) continue;
    dx /= l, dy /= l;
    float mx = 0.5f * (ax + bx), my = 0.5f * (ay + by);
    float tri[6] = {mx + dx * a,          my + dy * a,          mx - dx * a - dy * a,
                    my - dy * a + dx * a, mx - dx * a + dy * a, my - dy * a - dx * a};
    td_canvas_triangle(c, tri, c_arrow);
  }
  return 0;
}

static void draw_node_ids(const td_trails_scene *s, const view *v, td_canvas *c) {
  const td_graph *g = s->map->graph;
  if (s->map->grid || g->node_count > 400) return;
  for (int32_t n = 0; n < g->node_count; n++) {
    char id[16];
    snprintf(id, sizeof id, "%d", n);
    td_canvas_text(c, (int)px(v, g->x[n]) + 5, (int)py(v, g->y[n]) + 5, 1, id, c_node_id);
  }
}

static void draw_bases(const td_trails_scene *s, const view *v, td_canvas *c) {
  for (size_t i = 0; i < s->map->base_count; i++) {
    const td_tower_base *b = &s->map->bases[i];
    float x = px(v, b->x), y = py(v, b->y), w = (float)(b->w * v->s), h = (float)(b->h * v->s);
    if (s->tower && s->tower[i]) {
      td_canvas_rect(c, x, y, w, h, c_tower);
      td_canvas_rect(c, x + 0.3f * w, y + 0.3f * h, 0.4f * w, 0.4f * h, (td_rgba){90, 70, 40, 255});
    } else {
      td_canvas_rect_outline(c, x, y, w, h, 2.0f, c_base);
    }
  }
}

static void draw_points(const td_trails_scene *s, const view *v, td_canvas *c) {
  const td_graph *g = s->map->graph;
  float r = fmaxf(5.0f, 0.28f * v->tile);
  for (size_t i = 0; i < s->map->spawn_count; i++) {
    int32_t n = s->map->spawns[i].node;
    td_canvas_disc(c, px(v, g->x[n]), py(v, g->y[n]), r + 1.5f, c_dark);
    td_canvas_disc(c, px(v, g->x[n]), py(v, g->y[n]), r, c_spawn);
  }
  for (size_t i = 0; i < s->map->goal_count; i++) {
    int32_t n = s->map->goals[i].node;
    td_canvas_disc(c, px(v, g->x[n]), py(v, g->y[n]), r + 1.5f, c_dark);
    td_canvas_disc(c, px(v, g->x[n]), py(v, g->y[n]), r, c_goal);
    td_canvas_ring(c, px(v, g->x[n]), py(v, g->y[n]), r + 3.0f, 2.0f, c_white);
  }
}

/* Draws the "on" stretches of a dashed polyline (dash and gap in pixels).
** run has room for n + 2 points: one dash holds at most its start, a point
** per vertex it passes, and its end. */
static int dashed(td_canvas *c, const float *p, size_t n, float width, td_rgba col, float *run,
                  td_err *err) {
  const float dash = 9.0f, gap = 6.0f;
  float phase = 0.0f; /* distance into the current dash + gap period */
  size_t k = 0;       /* floats in run */
  if (n == 0) return 0;
  run[k++] = p[0], run[k++] = p[1];
  for (size_t i = 0; i + 1 < n; i++) {
    float x0 = p[2 * i], y0 = p[2 * i + 1], x1 = p[2 * i + 2], y1 = p[2 * i + 3];
    float l = sqrtf((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0)), t = 0.0f;
    while (t < l) {
      bool on = phase < dash;
      float room = (on ? dash : dash + gap) - phase, rest = l - t;
      if (rest <= room) {
        phase += rest;
        t = l;
      } else {
        phase += room;
        t += room;
      }
      float x = x0 + (x1 - x0) * (t / l), y = y0 + (y1 - y0) * (t / l);
      if (on) {
        run[k++] = x, run[k++] = y;
        if (phase >= dash) { /* the dash ends here */
          if (td_canvas_polyline(c, run, k / 2, width, col, err) != 0) return -1;
          k = 0;
        }
      } else if (phase >= dash + gap) { /* the next dash starts here */
        phase = 0.0f;
        k = 0;
        run[k++] = x, run[k++] = y;
      }
    }
  }
  if (k >= 4) return td_canvas_polyline(c, run, k / 2, width, col, err);
  return 0;
}

static int draw_trails(const td_trails_scene *s, const view *v, td_canvas *c, float *buf,
                       float *run, td_err *err) {
  float w = fmaxf(2.0f, 0.07f * v->tile);
  for (size_t i = 0; i < s->trail_count; i++) {
    const td_trail *t = &s->trails[i];
    for (size_t k = 0; k < t->n; k++) {
      buf[2 * k] = px(v, (double)t->xy[2 * k]);
      buf[2 * k + 1] = py(v, (double)t->xy[2 * k + 1]);
    }
    td_rgba col = td_render_lane_color(t->lane_t);
    int rc = t->flying ? dashed(c, buf, t->n, w, td_rgba_mix(col, c_white, 0.25f), run, err)
                       : td_canvas_polyline(c, buf, t->n, w, col, err);
    if (rc != 0) return -1;
  }
  /* final positions on top of every trail */
  for (size_t i = 0; i < s->trail_count; i++) {
    const td_trail *t = &s->trails[i];
    if (t->n == 0) continue;
    float x = px(v, (double)t->xy[2 * (t->n - 1)]), y = py(v, (double)t->xy[2 * t->n - 1]);
    float r = fmaxf(2.0f, (float)((double)t->radius * v->s));
    td_rgba col = td_render_lane_color(t->lane_t);
    if (t->arrived) {
      td_canvas_ring(c, x, y, r, 1.5f, col);
    } else {
      td_canvas_disc(c, x, y, r, col);
      td_canvas_ring(c, x, y, r, 1.2f, c_dark);
    }
  }
  return 0;
}

int td_render_trails_draw(const td_trails_scene *s, int long_side, td_canvas *c, td_err *err) {
  view v;
  make_view(s, long_side, &v);
  if (c->w != v.w || c->h != v.h)
    return td_err_set(err, "render: canvas is %dx%d, the picture %dx%d", c->w, c->h, v.w, v.h);
  size_t cap = (size_t)s->map->graph->node_count + 2;
  for (size_t i = 0; i < s->trail_count; i++)
    if (s->trails[i].n + 2 > cap) cap = s->trails[i].n + 2;
  float *buf = td_mem_alloc(2 * cap * sizeof *buf), *run = td_mem_alloc(4 * cap * sizeof *run);
  int rc = -1;
  if (!buf || !run) {
    td_err_set(err, "render: out of memory");
    goto out;
  }
  td_canvas_clear(c, c_outside);
  draw_ground(s, &v, c);
  draw_graph(s, &v, c);
  if (s->route && draw_route(s, &v, c, buf, err) != 0) goto out;
  draw_blocked(s, &v, c);
  draw_node_ids(s, &v, c);
  draw_bases(s, &v, c);
  draw_points(s, &v, c);
  if (draw_trails(s, &v, c, buf, run, err) != 0) goto out;
  if (s->title) td_canvas_text(c, MARGIN, (TITLE_H - 7 * TEXT_SCALE) / 2 + 4, TEXT_SCALE, s->title, c_text);
  legend(s, c, v.w, TITLE_H + MARGIN + v.view_h + MARGIN / 2);
  rc = 0;
out:
  td_mem_free(buf, 2 * cap * sizeof *buf);
  td_mem_free(run, 4 * cap * sizeof *run);
  return rc;
}

int td_render_trails_png(const td_trails_scene *s, int long_side, const char *path,
                         td_err *err) {
  int w, h;
  td_render_trails_size(s, long_side, &w, &h);
  SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
  if (!surf) return td_err_set(err, "%s: cannot create a %dx%d surface: %s", path, w, h, SDL_GetError());
  int rc = -1;
  if (SDL_MUSTLOCK(surf) && SDL_LockSurface(surf) != 0) {
    td_err_set(err, "%s: cannot lock the surface: %s", path, SDL_GetError());
    goto out;
  }
  td_canvas c = {(uint32_t *)surf->pixels, w, h, surf->pitch / 4};
  rc = td_render_trails_draw(s, long_side, &c, err);
  if (SDL_MUSTLOCK(surf)) SDL_UnlockSurface(surf);
  if (rc == 0) rc = td_png_save(surf, path, err);
out:
  SDL_FreeSurface(surf);
  return rc;
}
