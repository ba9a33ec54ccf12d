/*
** soldier_ground.c: where soldiers stand (soldier_int.h): the towers'
** footprints, a grid's open cells, a waypoint map's road; posts round a
** rally point, a barracks' door, the rally checks.
**
** A soldier's centre stands on a grid map in an open cell (walkable, its
** node not blocked), on a waypoint map anywhere out of the towers'
** footprints (the open ground); its disc is out of every footprint. A post
** (and a rally point) needs more on a waypoint map: the road (map.h). The
** door of a barracks is the point next to its footprint (a radius and a
** hair off it) nearest the middle of its posts, settled on the ground.
** Searches go in fixed orders (rings of cells, then rows; edges by id).
*/
#include "sim/soldier_int.h"

#include "nav/fan.h"

/* ---- the ground ---------------------------------------------------------- */

void soldier_rects_update(td_world *w) {
  size_t n = 0;
  for (size_t b = 0; b < w->map->base_count; b++) {
    if (!w->towers[b].used) continue;
    const td_tower_base *tb = &w->map->bases[b];
    float *r = w->s_rects + 4 * n++;
    r[0] = (float)tb->x;
    r[1] = (float)tb->y;
    r[2] = (float)tb->w;
    r[3] = (float)tb->h;
  }
  w->s_nrects = n;
}

obst obst_of(const td_world *w, int32_t own_base) {
  obst o = {.rects = w->s_rects, .n = w->s_nrects};
  if (own_base >= 0) {
    const td_tower_base *tb = &w->map->bases[own_base];
    o.own[0] = (float)tb->x;
    o.own[1] = (float)tb->y;
    o.own[2] = (float)tb->w;
    o.own[3] = (float)tb->h;
    o.has_own = true;
  }
  return o;
}

bool obst_inside(const obst *o, float x, float y, float r) {
  return td_fan_inside(o->rects, o->n, x, y, r) ||
         (o->has_own && td_fan_inside(o->own, 1, x, y, r));
}

void obst_push(const obst *o, float r, float *x, float *y) {
  for (int k = 0; k < 2; k++) {
    bool a = td_fan_push_out(o->rects, o->n, r, x, y);
    bool b = o->has_own && td_fan_push_out(o->own, 1, r, x, y);
    if (!a && !b) break;
  }
}

bool ground_cell(const td_grid *g, float x, float y, int32_t *cx, int32_t *cy) {
  double fx = floor(((double)x - g->origin_x) / g->cell);
  double fy = floor(((double)y - g->origin_y) / g->cell);
  bool in = fx >= 0.0 && fy >= 0.0 && fx < (double)g->width && fy < (double)g->height;
  *cx = fx < 0.0 ? 0 : fx >= (double)g->width ? g->width - 1 : (int32_t)fx;
  *cy = fy < 0.0 ? 0 : fy >= (double)g->height ? g->height - 1 : (int32_t)fy;
  return in;
}

bool ground_open(const td_world *w, int32_t cx, int32_t cy) {
  int32_t n = td_grid_node_at(w->map->grid, cx, cy);
  return n != TD_NONE && !w->graph->node_blocked[n];
}

/* Whether (x, y) is in an open cell of the grid. */
bool ground_point_open(const td_world *w, float x, float y) {
  int32_t cx, cy;
  return ground_cell(w->map->grid, x, y, &cx, &cy) && ground_open(w, cx, cy);
}

/* Whether a tick that began in cell (sx, sy) may end in (cx, cy). */
bool ground_cell_ok(const td_world *w, int32_t sx, int32_t sy, int32_t cx, int32_t cy) {
  if (!ground_open(w, cx, cy)) return false;
  return (cx == sx && cy == sy) || td_grid_line_of_sight(w->map->grid, w->graph, sx, sy, cx, cy);
}

/* Grid: the point nearest (x, y) in an open cell, kept min(r, 0.45 cell)
** inside it, whose disc is out of the footprints, and (anchor >= 0) whose
** cell is in line of sight of cell `anchor`. Rings of cells around (x,
** y)'s cell, until no nearer point can come; ties: the first in ring, then
** row order. false when no cell will do. */
static bool grid_nearest(const td_world *w, const obst *o, float r, float x, float y,
                         int32_t anchor, float *ox, float *oy) {
  const td_grid *g = w->map->grid;
  int32_t cx, cy;
  ground_cell(g, x, y, &cx, &cy);
  float cell = (float)g->cell, m = fminf(r, 0.45f * cell), best = INFINITY, bx = x, by = y;
  int32_t kmax = g->width > g->height ? g->width : g->height;
  for (int32_t k = 0; k <= kmax; k++) {
    if (best < INFINITY && (float)(k - 1) * cell > sqrtf(best)) break;
    for (int32_t qy = cy - k; qy <= cy + k; qy++)
      for (int32_t qx = cx - k; qx <= cx + k; qx++) {
        if (qy != cy - k && qy != cy + k && qx != cx - k && qx != cx + k) continue;
        if (!ground_open(w, qx, qy)) continue;
        if (anchor >= 0 && !td_grid_line_of_sight(g, w->graph, qx, qy, anchor % g->width,
                                                  anchor / g->width))
          continue;
        float x0 = (float)(g->origin_x + (double)qx * g->cell);
        float y0 = (float)(g->origin_y + (double)qy * g->cell);
        float px = fminf(fmaxf(x, x0 + m), x0 + cell - m);
        float py = fminf(fmaxf(y, y0 + m), y0 + cell - m);
        if (obst_inside(o, px, py, r)) {
          obst_push(o, r, &px, &py);
          int32_t ux, uy;
          if (obst_inside(o, px, py, r) || !ground_cell(g, px, py, &ux, &uy) || ux != qx ||
              uy != qy)
            continue;
        }
        float d2 = (px - x) * (px - x) + (py - y) * (py - y);
        if (d2 < best) {
          best = d2;
          bx = px;
          by = py;
        }
      }
  }
  *ox = bx;
  *oy = by;
  return best < INFINITY;
}

/* Waypoint maps: the nearest point of edge e's road rectangle (map.h) to
** (x, y), its half width less `shrink`; the squared distance. */
static float road_point(const td_world *w, int32_t e, float shrink, float x, float y, float *px,
                        float *py) {
  const td_graph *g = w->graph;
  const td_edge *ed = &g->edges[e];
  float ax = (float)g->x[ed->a], ay = (float)g->y[ed->a];
  float vx = (float)g->x[ed->b] - ax, vy = (float)g->y[ed->b] - ay, l = sqrtf(vx * vx + vy * vy);
  float dx = l > 0.0f ? vx / l : 1.0f, dy = l > 0.0f ? vy / l : 0.0f;
  float h = 0.5f * w->map->road_width[e] - shrink;
  if (h < 0.0f) h = 0.0f;
  float rx = x - ax, ry = y - ay, u = rx * dx + ry * dy, v = -rx * dy + ry * dx;
  float cu = fminf(fmaxf(u, -h), l + h), cv = fminf(fmaxf(v, -h), h);
  *px = ax + dx * cu - dy * cv;
  *py = ay + dy * cu + dx * cv;
  return (u - cu) * (u - cu) + (v - cv) * (v - cv);
}

/* Whether (x, y) is on the road: td_walk_depth with radius 0 on the edge
** whose rectangle is nearest. */
static bool on_road(const td_world *w, float x, float y) {
  if (!w->walk || !w->map->road_width) return true; /* open ground */
  const td_graph *g = w->graph;
  int32_t best = TD_NONE;
  float bd = INFINITY;
  for (int32_t e = 0; e < g->edge_count; e++) {
    float px, py, d2 = road_point(w, e, 0.0f, x, y, &px, &py);
    if (d2 < bd) {
      bd = d2;
      best = e;
    }
  }
  return best != TD_NONE &&
         td_walk_depth(w->walk, g->edges[best].a, g->edges[best].b, x, y, 0.0f) <= 0.0f;
}

/* Where a post made at (x, y) goes: the nearest point where a soldier of
** radius r may stand (grid: an open cell in line of sight of cell anchor
** when >= 0; waypoint: the road, kept r inside its edge when it is wide
** enough; open ground: anywhere), its disc out of the footprints. false:
** nowhere (then (x, y) as it is). */
static bool settle_post(const td_world *w, const obst *o, float r, float x, float y,
                        int32_t anchor, float *ox, float *oy) {
  *ox = x;
  *oy = y;
  if (w->map->grid) return grid_nearest(w, o, r, x, y, anchor, ox, oy);
  if (!w->walk || !w->map->road_width) {
    obst_push(o, r, ox, oy);
    return !obst_inside(o, *ox, *oy, r);
  }
  const td_graph *g = w->graph;
  float best = INFINITY;
  for (int32_t e = 0; e < g->edge_count; e++) {
    float hw = 0.5f * w->map->road_width[e];
    float px, py, d2 = road_point(w, e, fminf(r, hw), x, y, &px, &py);
    if (!(d2 < best)) continue;
    if (obst_inside(o, px, py, r)) { /* off the footprint, still on this edge's road */
      obst_push(o, r, &px, &py);
      float qx, qy;
      if (obst_inside(o, px, py, r) || road_point(w, e, 0.0f, px, py, &qx, &qy) > 1e-6f) continue;
      d2 = (px - x) * (px - x) + (py - y) * (py - y);
      if (!(d2 < best)) continue;
    }
    best = d2;
    *ox = px;
    *oy = py;
  }
  return best < INFINITY;
}

/* The ground a walking soldier may stand on, nearest (x, y): an open cell
** (grid), or out of the footprints. */
void ground_settle(const td_world *w, const obst *o, float r, float x, float y, float *ox,
                   float *oy) {
  *ox = x;
  *oy = y;
  if (w->map->grid) {
    if (!grid_nearest(w, o, r, x, y, -1, ox, oy)) {
      *ox = x;
      *oy = y;
    }
    return;
  }
  obst_push(o, r, ox, oy);
}

/* ---- posts and doors ----------------------------------------------------- */

/* The posts of a barracks of level `level` on base with its rally point at
** (rx, ry): n points (the level's soldiers) in xy. A ring round the rally
** point (one soldier: on it), each point settled on the ground; on a grid
** in line of sight of the rally point's own settled cell (the anchor), so
** that no post lies across a wall from the others. */
size_t posts_make(const td_world *w, int32_t base, int32_t level, float rx, float ry,
                  float *xy) {
  const td_tower_level *l = &w->rules->levels[level];
  if (l->soldiers <= 0) return 0;
  int n = l->soldiers;
  float r = w->rules->soldier_types[l->soldier].radius * w->tile;
  float ring = n == 1 ? 0.0f : fmaxf(1.2f * r / sinf(PI_F / (float)n), RING_MIN * w->tile);
  obst o = obst_of(w, base);
  float ax = rx, ay = ry;
  int32_t anchor = -1;
  if (w->map->grid && grid_nearest(w, &o, r, rx, ry, -1, &ax, &ay)) {
    int32_t cx, cy;
    ground_cell(w->map->grid, ax, ay, &cx, &cy);
    anchor = cy * w->map->grid->width + cx;
  }
  for (size_t k = 0; k < (size_t)n; k++) {
    float a = -0.5f * PI_F + 2.0f * PI_F * (float)k / (float)n;
    float x = rx + ring * cosf(a), y = ry + ring * sinf(a);
    if (!settle_post(w, &o, r, x, y, anchor, &xy[2 * k], &xy[2 * k + 1]) &&
        !settle_post(w, &o, r, rx, ry, -1, &xy[2 * k], &xy[2 * k + 1]))
      ground_settle(w, &o, r, x, y, &xy[2 * k], &xy[2 * k + 1]);
  }
  return (size_t)n;
}

/* The door of the barracks on base for a soldier of radius r: next to its
** footprint, nearest (tx, ty) (the middle of its posts), on the ground. */
void door_of(const td_world *w, int32_t base, float r, float tx, float ty, float *dx,
             float *dy) {
  const td_tower_base *tb = &w->map->bases[base];
  float g = r + DOOR_GAP * w->tile;
  float x0 = (float)tb->x - g, y0 = (float)tb->y - g;
  float x1 = (float)(tb->x + tb->w) + g, y1 = (float)(tb->y + tb->h) + g;
  float x = tx, y = ty;
  if (x > x0 && x < x1 && y > y0 && y < y1) { /* inside: out by the nearest side */
    float l = x - x0, rr = x1 - x, t = y - y0, bo = y1 - y, m = l;
    float nx = x0, ny = y;
    if (rr < m) { m = rr; nx = x1; ny = y; }
    if (t < m) { m = t; nx = x; ny = y0; }
    if (bo < m) { nx = x; ny = y1; }
    x = nx;
    y = ny;
  } else {
    x = fminf(fmaxf(x, x0), x1);
    y = fminf(fmaxf(y, y0), y1);
  }
  obst o = obst_of(w, base);
  ground_settle(w, &o, r, x, y, dx, dy);
}

void door_for(const td_world *w, const soldier_rec *s, float *dx, float *dy) {
  float cx = 0.0f, cy = 0.0f;
  int n = 0;
  for (size_t j = 0; j < w->soldier_used; j++) {
    const soldier_rec *o = &w->soldiers[j];
    if (o->state == TD_SOLDIER_FREE || o->base != s->base) continue;
    cx += o->post_x;
    cy += o->post_y;
    n++;
  }
  if (n == 0) {
    cx = s->post_x;
    cy = s->post_y;
  } else {
    cx /= (float)n;
    cy /= (float)n;
  }
  door_of(w, s->base, soldier_radius(w, s), cx, cy, dx, dy);
}

/* The barracks on base: its soldiers' posts from its rally point. */
void posts_update(td_world *w, int32_t base) {
  const tower_rec *t = &w->towers[base];
  if (!t->used) return;
  float xy[2 * TD_RULES_MAX_SOLDIERS];
  size_t n = posts_make(w, base, t->level, t->rally_x, t->rally_y, xy);
  for (size_t j = 0; j < w->soldier_used; j++) {
    soldier_rec *s = &w->soldiers[j];
    if (s->state == TD_SOLDIER_FREE || s->base != base || s->index >= n) continue;
    s->post_x = xy[2 * (size_t)s->index];
    s->post_y = xy[2 * (size_t)s->index + 1];
  }
}

/* A rally point's refusal for a barracks of `level` on base, or NONE. */
td_refusal rally_check(const td_world *w, int32_t base, int32_t level, float x, float y) {
  const td_tower_level *l = &w->rules->levels[level];
  if (l->soldiers <= 0) return TD_REFUSAL_NO_SOLDIERS;
  if (!isfinite(x) || !isfinite(y)) return TD_REFUSAL_RALLY_GROUND;
  const tower_rec *t = &w->towers[base];
  float dx = x - t->x, dy = y - t->y, range = l->range * w->tile;
  if (dx * dx + dy * dy > range * range) return TD_REFUSAL_RALLY_RANGE;
  obst o = obst_of(w, base);
  if (obst_inside(&o, x, y, 0.0f)) return TD_REFUSAL_RALLY_GROUND;
  if (w->map->grid ? !ground_point_open(w, x, y) : !on_road(w, x, y))
    return TD_REFUSAL_RALLY_GROUND;
  return TD_REFUSAL_NONE;
}

size_t td_world_rally_posts(const td_world *w, int32_t base, int32_t tower_type, float x,
                            float y, float *xy, size_t cap, td_refusal *why) {
  td_refusal dummy;
  if (!why) why = &dummy;
  if (base < 0 || (size_t)base >= w->map->base_count) {
    *why = TD_REFUSAL_NO_BASE;
    return 0;
  }
  if (tower_type < 0 || (size_t)tower_type >= w->rules->tower_count) {
    *why = TD_REFUSAL_NO_SOLDIERS;
    return 0;
  }
  const tower_rec *t = &w->towers[base];
  int32_t level = t->used && w->rules->levels[t->level].tower == tower_type
                      ? t->level
                      : w->rules->towers[tower_type].root;
  *why = rally_check(w, base, level, x, y);
  if (*why != TD_REFUSAL_NONE) return 0;
  float p[2 * TD_RULES_MAX_SOLDIERS];
  size_t n = posts_make(w, base, level, x, y, p);
  for (size_t k = 0; k < n && k < cap; k++) {
    xy[2 * k] = p[2 * k];
    xy[2 * k + 1] = p[2 * k + 1];
  }
  return n;
}

