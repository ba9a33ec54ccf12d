/*
** soldier_walk.c: a soldier's way to its target (soldier_int.h): plans,
** the path queue's answers, and the moves of a tick.
**
** On a grid every walk starts with a request to the path queue from the
** soldier's cell to the target's cell; the answer, simplified by line of
** sight, is a list of corners (cell centres), then the target itself. A
** tick moves straight toward the next corner in sub-steps of under half a
** cell (grid_move) and never ends in a closed cell or in a cell out of
** sight of the one the tick began in; a closed cell in the way (the
** soldier stood off its cell's centre line) sends it to its cell's centre
** first. On a waypoint map a target within STRAIGHT tiles whose straight
** way no footprint shuts is walked to straight; a farther one along the
** graph (the queue again, A* over open edges, no simplification), from the
** node nearest the soldier to the node nearest the target, then straight;
** straight legs steer round footprints with the fan of rays (nav/fan.h).
** After every move the disc is pushed out of the footprints (on a grid the
** push is undone if it would leave the open cells). A soldier that gets no
** nearer its next corner for STALL_TICKS asks for its way again.
*/
#include "sim/soldier_int.h"

#include <string.h>

#include "nav/fan.h"

/* ---- plans --------------------------------------------------------------- */

void way_stall_reset(soldier_rec *s) {
  s->stall = 0;
  s->best = FAR_BEST;
}

/* Forgets the way (cancelling its request): the next walk plans again. */
void way_reset(td_world *w, soldier_rec *s) {
  if (s->request) td_pathq_cancel(w->pathq, s->request);
  s->request = 0;
  s->planned = s->partial = s->recenter = 0;
  s->npath = s->at = 0;
  way_stall_reset(s);
}

void way_stand(soldier_rec *s) { s->vx = s->vy = 0.0f; }

/* Waypoint maps: the open node nearest (x, y) (ties: the lower id). */
static int32_t nearest_node(const td_world *w, float x, float y) {
  const td_graph *g = w->graph;
  int32_t best = TD_NONE;
  double bd = INFINITY;
  for (int32_t n = 0; n < g->node_count; n++) {
    if (g->node_blocked[n]) continue;
    double dx = g->x[n] - (double)x, dy = g->y[n] - (double)y, d = dx * dx + dy * dy;
    if (d < bd) {
      bd = d;
      best = n;
    }
  }
  return best;
}

static void no_way(td_world *w, size_t i);

static void ask(td_world *w, size_t i, int32_t from, int32_t to) {
  soldier_rec *s = &w->soldiers[i];
  td_err err;
  s->request = td_pathq_request(w->pathq, from, to, soldiers_path_done, w, &err);
  if (!s->request) world_fail(w, "soldier paths");
}

/* Plans soldier i's way to (tx, ty): a request, or (waypoint maps, near
** and open) straight. */
static void plan(td_world *w, size_t i, float tx, float ty) {
  soldier_rec *s = &w->soldiers[i];
  way_stall_reset(s);
  if (w->map->grid) {
    const td_grid *g = w->map->grid;
    int32_t ax, ay, bx, by;
    ground_cell(g, s->x, s->y, &ax, &ay);
    bool in = ground_cell(g, tx, ty, &bx, &by);
    int32_t a = td_grid_node_at(g, ax, ay), b = in ? td_grid_node_at(g, bx, by) : TD_NONE;
    if (a == TD_NONE || b == TD_NONE) {
      no_way(w, i);
      return;
    }
    ask(w, i, a, b);
    return;
  }
  float d = dist(s->x, s->y, tx, ty), r = soldier_radius(w, s);
  bool near = d <= STRAIGHT * w->tile;
  if (near && d > 0.0f) {
    float hit = td_fan_ray_hit(w->s_rects, w->s_nrects, s->x, s->y, (tx - s->x) / d,
                               (ty - s->y) / d, r);
    near = !(hit < d);
  }
  int32_t a = near ? TD_NONE : nearest_node(w, s->x, s->y);
  int32_t b = near ? TD_NONE : nearest_node(w, tx, ty);
  if (a == TD_NONE || b == TD_NONE) { /* straight across the open ground */
    s->planned = 1;
    s->npath = s->at = 0;
    return;
  }
  ask(w, i, a, b);
}

/* No way to the target. Waypoint maps: straight across the open ground.
** Grids: an enemy is let go (and not engaged again while it lives); a
** post is asked for again after RETRY_TICKS. */
static void no_way(td_world *w, size_t i) {
  soldier_rec *s = &w->soldiers[i];
  if (!w->map->grid) {
    s->planned = 1;
    s->npath = s->at = 0;
    s->partial = 0;
    return;
  }
  if (s->state == TD_SOLDIER_ENGAGE) {
    s->shun = s->enemy;
    soldier_go_post(w, i);
    return;
  }
  s->planned = 0;
  s->timer = RETRY_TICKS;
}

void soldiers_path_done(void *user, uint32_t id, td_astar_status st, const int32_t *path,
                        size_t len, td_cost cost) {
  td_world *w = user;
  size_t i = 0;
  while (i < w->soldier_used &&
         (w->soldiers[i].state == TD_SOLDIER_FREE || w->soldiers[i].request != id))
    i++;
  if (i == w->soldier_used) return; /* (cancelled requests are never answered) */
  soldier_rec *s = &w->soldiers[i];
  s->request = 0;
  if (st == TD_ASTAR_ERROR) {
    world_fail(w, "soldier paths");
    return;
  }
  if (st != TD_ASTAR_FOUND) {
    no_way(w, i);
    return;
  }
  if (w->map->grid && s->state == TD_SOLDIER_ENGAGE) { /* out of its reach: too long a way */
    int64_t e = enemy_slot(w, s->enemy);
    float limit = e < 0 ? 0.0f
                        : 2.0f * soldier_type_of(w, s)->sight * w->tile +
                              dist(s->x, s->y, w->enemies[e].x, w->enemies[e].y);
    if (td_graph_cost_to_units(cost) > (double)limit) {
      no_way(w, i);
      return;
    }
  }
  /* grids: the first node is the soldier's own cell; waypoint maps: the
  ** node nearest it, walked to first */
  size_t from = w->map->grid ? 1 : 0, n = len > from ? len - from : 0;
  s->partial = n > SOLDIER_PATH_MAX;
  if (s->partial) n = SOLDIER_PATH_MAX;
  memcpy(s->path, path + from, n * sizeof *s->path);
  s->npath = (uint16_t)n;
  s->at = 0;
  s->planned = 1;
  s->recenter = 0;
  way_stall_reset(s);
}

/* ---- moving -------------------------------------------------------------- */

/* Grid: moves (x, y) straight toward (ax, ay) by at most step (see the
** design note); *blocked when a closed cell stopped it. The distance
** moved. */
static float grid_move(const td_world *w, int32_t sx, int32_t sy, float *x, float *y, float ax,
                       float ay, float step, bool *blocked) {
  const td_grid *g = w->map->grid;
  float cell = (float)g->cell, moved = 0.0f;
  *blocked = false;
  while (moved < step) {
    float dx = ax - *x, dy = ay - *y, d = sqrtf(dx * dx + dy * dy);
    if (d <= 0.0f) break;
    float sub = fminf(fminf(step - moved, 0.45f * cell), d);
    float qx = sub >= d ? ax : *x + dx / d * sub, qy = sub >= d ? ay : *y + dy / d * sub;
    int32_t c0x, c0y, c1x, c1y;
    ground_cell(g, *x, *y, &c0x, &c0y);
    bool in = ground_cell(g, qx, qy, &c1x, &c1y);
    if (in && ground_cell_ok(w, sx, sy, c1x, c1y)) {
      *x = qx;
      *y = qy;
      moved += sub;
      continue;
    }
    /* the boundaries it crosses: t along (x, y) -> (q) */
    float tx = 2.0f, ty = 2.0f;
    if (c1x != c0x) {
      float bx = (float)(g->origin_x + (double)(c1x > c0x ? c0x + 1 : c0x) * g->cell);
      tx = (bx - *x) / (qx - *x);
    }
    if (c1y != c0y) {
      float by = (float)(g->origin_y + (double)(c1y > c0y ? c0y + 1 : c0y) * g->cell);
      ty = (by - *y) / (qy - *y);
    }
    float t1 = fminf(tx, ty), t2 = fmaxf(tx, ty);
    if (t2 > 1.0f) t2 = 1.0f;
    int32_t nx = tx < ty ? c1x : c0x, ny = tx < ty ? c0y : c1y;
    if (tx != ty && t1 >= 0.0f && t1 < t2 && ground_cell_ok(w, sx, sy, nx, ny)) {
      float t = 0.5f * (t1 + t2), px = *x + (qx - *x) * t, py = *y + (qy - *y) * t;
      int32_t ux, uy;
      if (ground_cell(g, px, py, &ux, &uy) && ux == nx && uy == ny) {
        *x = px;
        *y = py;
        moved += sub * t;
        break; /* on into that cell next tick */
      }
    }
    /* stopped: just short of the boundary */
    float t = t1 > 0.02f && t1 <= 1.0f ? t1 * 0.98f : 0.0f;
    float px = *x + (qx - *x) * t, py = *y + (qy - *y) * t;
    int32_t ux, uy;
    if (ground_cell(g, px, py, &ux, &uy) && ux == c0x && uy == c0y) {
      *x = px;
      *y = py;
      moved += sub * t;
    }
    *blocked = true;
    break;
  }
  return moved;
}

/* One tick's move of soldier i toward (ax, ay): straight (grids, in cell
** sight) or steered by the fan (waypoint maps), then out of the
** footprints. true when it stands on (ax, ay). *blocked: see grid_move. */
bool way_move(td_world *w, size_t i, float ax, float ay, bool *blocked) {
  soldier_rec *s = &w->soldiers[i];
  const td_soldier_type *st = soldier_type_of(w, s);
  float r = st->radius * w->tile, speed = st->speed * w->tile, step = speed * DT;
  float ox = s->x, oy = s->y, d = dist(ox, oy, ax, ay);
  bool arrived = false;
  *blocked = false;
  int32_t sx = 0, sy = 0;
  if (w->map->grid) {
    ground_cell(w->map->grid, ox, oy, &sx, &sy);
    grid_move(w, sx, sy, &s->x, &s->y, ax, ay, step, blocked);
    arrived = s->x == ax && s->y == ay;
  } else if (d <= step) {
    s->x = ax;
    s->y = ay;
    arrived = true;
  } else {
    float tx = (ax - ox) / d, ty = (ay - oy) / d, hx = tx, hy = ty;
    float vl = sqrtf(s->vx * s->vx + s->vy * s->vy);
    if (vl >= 1e-3f) {
      hx = s->vx / vl;
      hy = s->vy / vl;
    }
    float wx, wy;
    td_fan_steer(&w->s_fan, w->s_rects, w->s_nrects, ox, oy, r, speed, hx, hy, ax, ay, tx, ty,
                 d, &wx, &wy);
    s->x = ox + wx * DT;
    s->y = oy + wy * DT;
  }
  /* out of the footprints: always; on a grid only into cells it may reach */
  float px = s->x, py = s->y;
  obst o = obst_of(w, -1);
  obst_push(&o, r, &s->x, &s->y);
  if (s->x != px || s->y != py) {
    arrived = false;
    if (w->map->grid) {
      int32_t cx, cy;
      if (!ground_cell(w->map->grid, s->x, s->y, &cx, &cy) || !ground_cell_ok(w, sx, sy, cx, cy)) {
        s->x = px;
        s->y = py;
        arrived = s->x == ax && s->y == ay;
      }
    }
  }
  s->vx = (s->x - ox) / DT;
  s->vy = (s->y - oy) / DT;
  if (s->vx != 0.0f || s->vy != 0.0f) s->facing = atan2f(s->vy, s->vx);
  return arrived;
}

/* One tick of walking to (tx, ty) along the plan (planning first when
** there is none). true when it stands there. */
bool way_walk(td_world *w, size_t i, float tx, float ty) {
  soldier_rec *s = &w->soldiers[i];
  float eps = ARRIVE * w->tile;
  if (s->request) {
    way_stand(s);
    return false;
  }
  if (!s->planned) {
    if (dist(s->x, s->y, tx, ty) <= eps) {
      way_stand(s);
      return true;
    }
    if (s->timer > 0) { /* no way last time: wait */
      s->timer--;
      way_stand(s);
      return false;
    }
    plan(w, i, tx, ty);
    s = &w->soldiers[i];
    if (!s->planned) {
      way_stand(s);
      return false;
    }
  }
  /* the next aim: its cell's centre, a corner, or the target */
  const td_grid *g = w->map->grid;
  float ax = tx, ay = ty;
  int kind = 2;
  if (g && s->recenter) {
    int32_t cx, cy;
    ground_cell(g, s->x, s->y, &cx, &cy);
    double x, y;
    td_grid_cell_center(g, cx, cy, &x, &y);
    ax = (float)x;
    ay = (float)y;
    kind = 0;
  } else if (s->at < s->npath) {
    ax = (float)w->graph->x[s->path[s->at]];
    ay = (float)w->graph->y[s->path[s->at]];
    kind = 1;
  } else {
    int32_t cx, cy, ux, uy;
    bool ok = !s->partial;
    if (ok && g) { /* the last leg stays in sight (its target may have moved) */
      ground_cell(g, s->x, s->y, &cx, &cy);
      ok = ground_cell(g, tx, ty, &ux, &uy) &&
           ((cx == ux && cy == uy) || td_grid_line_of_sight(g, w->graph, cx, cy, ux, uy));
    }
    if (!ok) {
      way_reset(w, s);
      way_stand(s);
      return false;
    }
  }
  bool blocked, there = way_move(w, i, ax, ay, &blocked);
  s = &w->soldiers[i];
  float left = dist(s->x, s->y, ax, ay);
  /* a waypoint is a guide: near it will do (a footprint's push may keep a
  ** body off the very node) */
  float near = kind == 1 && !g ? 0.5f * w->tile : eps;
  if (kind == 2 && (there || left <= eps)) return true;
  if (blocked && kind != 0) {
    s->recenter = 1;
    way_stall_reset(s);
    return false;
  }
  if (there || left <= near) {
    if (kind == 0) s->recenter = 0;
    else s->at++;
    way_stall_reset(s);
    return false;
  }
  if (left + 1e-3f * w->tile < s->best) {
    s->best = left;
    s->stall = 0;
  } else if (++s->stall >= STALL_TICKS) {
    way_reset(w, s); /* no nearer for a second: ask again from here */
  }
  return false;
}

/* On a grid, a path whose corners no longer see each other (a tower came
** between) is asked for again. */
bool way_open(const td_world *w, const soldier_rec *s) {
  const td_grid *g = w->map->grid;
  int32_t px, py;
  ground_cell(g, s->x, s->y, &px, &py);
  for (size_t k = s->at; k < s->npath; k++) {
    int32_t c = g->node_cell[s->path[k]], cx = c % g->width, cy = c / g->width;
    if (!td_grid_line_of_sight(g, w->graph, px, py, cx, cy)) return false;
    px = cx;
    py = cy;
  }
  return true;
}

