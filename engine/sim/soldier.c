/*
** soldier.c: barracks' soldiers (unit.h's soldier machine), their posts,
** their walking, and the path queue they ask their ways of.
**
** Design note.
** Soldiers live in a pool like the enemies (lowest free slot, handles with
** generations). A barracks' soldiers are numbered 0 .. n-1 (index): soldier
** k stands on post k. Posts are a function of the rally point, the
** barracks' level and the ground (towers, closed cells), made again when
** any of them changes (posts_update); they are kept in the records (and
** saved), so a change of rules cannot make a loaded world drift.
**
** Ground (see world.h's Soldiers paragraph and docs/world.md). A soldier's
** centre stands on a grid map in an open cell (walkable, its node not
** blocked), on a waypoint map anywhere out of the towers' footprints (the
** open ground); its disc is out of every tower's footprint. Posts (and
** rally points) need more on a waypoint map: the road (map.h). The door of
** a barracks is the point next to its footprint (a radius and a hair off
** it) nearest the middle of its posts, settled on the ground.
**
** Walking. On a grid every walk (to a post, to an enemy) starts with a
** request to the path queue from the soldier's cell to the target's cell;
** the answer, simplified by line of sight, is a list of corners (cell
** centres), then the target itself. A tick moves straight toward the next
** corner in sub-steps of under half a cell (grid_move) and never ends in a
** closed cell or in a cell out of sight of the one the tick began in; a
** closed cell in the way (the soldier stood off its cell's centre line)
** sends it to its cell's centre first. On a waypoint map a target within
** STRAIGHT tiles whose straight way no footprint shuts is walked to
** straight; a farther one along the graph (the queue again, A* over open
** edges, no simplification), from the node nearest the soldier to the node
** nearest the target, then straight; straight legs steer round footprints
** with the fan of rays (nav/fan.h). After every move the disc is pushed out
** of the footprints (on a grid the push is undone if it would leave the
** open cells). A soldier that gets no nearer its next corner for STALL
** ticks asks for its way again.
**
** Determinism: slot order everywhere; the enemy grid's visit order; the
** path queue answers on ticks that depend on the requests only.
*/
#include "sim/world_int.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "nav/fan.h"

#define PI_F 3.14159265358979f
#define ARRIVE 0.02f      /* tiles: at a post or a corner */
#define OFF_POST 0.1f     /* tiles: an IDLE soldier this far off its post walks back */
#define TOUCH 0.1f        /* tiles between two bodies that touch */
#define REACH 0.25f       /* tiles: a fighter farther than touching steps closer */
#define SIGHT_SLACK 0.5f  /* tiles past its sight that a held enemy may stand */
#define STRAIGHT 4.0f     /* tiles: waypoint maps walk this far straight */
#define DOOR_GAP 0.05f    /* tiles between a footprint and its door */
#define RING_MIN 0.35f    /* tiles: radius of the posts' ring, at least */
#define RETRY_TICKS 60    /* a soldier with no way waits this long to ask again */
#define STALL_TICKS 60
#define FAR_BEST 3.0e38f  /* best: no corner yet */

/* ---- the pool ------------------------------------------------------------ */

uint32_t soldier_handle(const td_world *w, size_t slot) {
  return make_handle(w->soldiers[slot].gen, slot);
}

int64_t soldier_slot(const td_world *w, uint32_t handle) {
  uint32_t s1 = handle & HANDLE_MASK;
  if (s1 == 0 || s1 > w->soldier_used) return -1;
  const soldier_rec *s = &w->soldiers[s1 - 1];
  if (s->state == TD_SOLDIER_FREE || make_handle(s->gen, s1 - 1) != handle) return -1;
  return (int64_t)s1 - 1;
}

/* Every change of a soldier's state goes through here (unit.h). */
static void soldier_go(td_world *w, size_t i, td_soldier_state to) {
  soldier_rec *s = &w->soldiers[i];
  w->arrows[TD_UNIT_SOLDIER][s->state][to]++;
  if (s->state == TD_SOLDIER_FREE) w->soldier_live++;
  s->state = (uint8_t)to;
  if (to == TD_SOLDIER_FREE) {
    s->gen++;
    w->soldier_live--;
  }
}

static const td_soldier_type *stype(const td_world *w, const soldier_rec *s) {
  return &w->rules->soldier_types[s->type];
}

static float radius_of(const td_world *w, const soldier_rec *s) {
  return stype(w, s)->radius * w->tile;
}

static int32_t ticks_of(float seconds) {
  float t = seconds * (float)TD_WORLD_TICK_HZ;
  return t <= 0.0f ? 0 : t >= 1e7f ? 10000000 : (int32_t)lroundf(t);
}

static inline float dist(float ax, float ay, float bx, float by) {
  float dx = bx - ax, dy = by - ay;
  return sqrtf(dx * dx + dy * dy);
}

/* ---- the ground ---------------------------------------------------------- */

/* The towers' footprints (derived), and a base's own when it has no tower
** yet (a preview): what a soldier's disc stays out of. */
typedef struct obst {
  const float *rects;
  size_t n;
  float own[4];
  bool has_own;
} obst;

static void rects_update(td_world *w) {
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

static obst obst_of(const td_world *w, int32_t own_base) {
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

static bool obst_inside(const obst *o, float x, float y, float r) {
  return td_fan_inside(o->rects, o->n, x, y, r) || (o->has_own && td_fan_inside(o->own, 1, x, y, r));
}

static void obst_push(const obst *o, float r, float *x, float *y) {
  for (int k = 0; k < 2; k++) {
    bool a = td_fan_push_out(o->rects, o->n, r, x, y);
    bool b = o->has_own && td_fan_push_out(o->own, 1, r, x, y);
    if (!a && !b) break;
  }
}

static bool cell_at(const td_grid *g, float x, float y, int32_t *cx, int32_t *cy) {
  double fx = floor(((double)x - g->origin_x) / g->cell);
  double fy = floor(((double)y - g->origin_y) / g->cell);
  bool in = fx >= 0.0 && fy >= 0.0 && fx < (double)g->width && fy < (double)g->height;
  *cx = fx < 0.0 ? 0 : fx >= (double)g->width ? g->width - 1 : (int32_t)fx;
  *cy = fy < 0.0 ? 0 : fy >= (double)g->height ? g->height - 1 : (int32_t)fy;
  return in;
}

static bool cell_open(const td_world *w, int32_t cx, int32_t cy) {
  int32_t n = td_grid_node_at(w->map->grid, cx, cy);
  return n != TD_NONE && !w->graph->node_blocked[n];
}

/* Whether (x, y) is in an open cell of the grid. */
static bool point_open(const td_world *w, float x, float y) {
  int32_t cx, cy;
  return cell_at(w->map->grid, x, y, &cx, &cy) && cell_open(w, cx, cy);
}

/* Whether a tick that began in cell (sx, sy) may end in (cx, cy). */
static bool cell_ok(const td_world *w, int32_t sx, int32_t sy, int32_t cx, int32_t cy) {
  if (!cell_open(w, cx, cy)) return false;
  return (cx == sx && cy == sy) || td_grid_line_of_sight(w->map->grid, w->graph, sx, sy, cx, cy);
}

/* Grid: the point nearest (x, y) in an open cell, kept min(r, 0.45 cell)
** inside it, whose disc is out of the footprints. Rings of cells around
** (x, y)'s cell, until no nearer point can come; ties: the first in ring,
** then row order. false when no cell will do. */
static bool grid_nearest(const td_world *w, const obst *o, float r, float x, float y, float *ox,
                         float *oy) {
  const td_grid *g = w->map->grid;
  int32_t cx, cy;
  cell_at(g, x, y, &cx, &cy);
  float cell = (float)g->cell, m = fminf(r, 0.45f * cell), best = INFINITY, bx = x, by = y;
  int32_t kmax = g->width > g->height ? g->width : g->height;
  for (int32_t k = 0; k <= kmax; k++) {
    if (best < INFINITY && (float)(k - 1) * cell > sqrtf(best)) break;
    for (int32_t qy = cy - k; qy <= cy + k; qy++)
      for (int32_t qx = cx - k; qx <= cx + k; qx++) {
        if (qy != cy - k && qy != cy + k && qx != cx - k && qx != cx + k) continue;
        if (!cell_open(w, qx, qy)) continue;
        float x0 = (float)(g->origin_x + (double)qx * g->cell);
        float y0 = (float)(g->origin_y + (double)qy * g->cell);
        float px = fminf(fmaxf(x, x0 + m), x0 + cell - m);
        float py = fminf(fmaxf(y, y0 + m), y0 + cell - m);
        if (obst_inside(o, px, py, r)) {
          obst_push(o, r, &px, &py);
          int32_t ux, uy;
          if (obst_inside(o, px, py, r) || !cell_at(g, px, py, &ux, &uy) || ux != qx || uy != qy)
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
** radius r may stand (grid: an open cell; waypoint: the road, kept r inside
** its edge when it is wide enough; open ground: anywhere), its disc out of
** the footprints. false: nowhere (then (x, y) as it is). */
static bool settle_post(const td_world *w, const obst *o, float r, float x, float y, float *ox,
                        float *oy) {
  *ox = x;
  *oy = y;
  if (w->map->grid) return grid_nearest(w, o, r, x, y, ox, oy);
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
static void settle_ground(const td_world *w, const obst *o, float r, float x, float y, float *ox,
                          float *oy) {
  *ox = x;
  *oy = y;
  if (w->map->grid) {
    if (!grid_nearest(w, o, r, x, y, ox, oy)) {
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
** point (one soldier: on it), each point settled on the ground. */
static size_t posts_make(const td_world *w, int32_t base, int32_t level, float rx, float ry,
                         float *xy) {
  const td_tower_level *l = &w->rules->levels[level];
  if (l->soldiers <= 0) return 0;
  int n = l->soldiers;
  float r = w->rules->soldier_types[l->soldier].radius * w->tile;
  float ring = n == 1 ? 0.0f : fmaxf(1.2f * r / sinf(PI_F / (float)n), RING_MIN * w->tile);
  obst o = obst_of(w, base);
  for (int k = 0; k < n; k++) {
    float a = -0.5f * PI_F + 2.0f * PI_F * (float)k / (float)n;
    float x = rx + ring * cosf(a), y = ry + ring * sinf(a);
    if (!settle_post(w, &o, r, x, y, &xy[2 * k], &xy[2 * k + 1]) &&
        !settle_post(w, &o, r, rx, ry, &xy[2 * k], &xy[2 * k + 1]))
      settle_ground(w, &o, r, x, y, &xy[2 * k], &xy[2 * k + 1]);
  }
  return (size_t)n;
}

/* The door of the barracks on base for a soldier of radius r: next to its
** footprint, nearest (tx, ty) (the middle of its posts), on the ground. */
static void door_of(const td_world *w, int32_t base, float r, float tx, float ty, float *dx,
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
  settle_ground(w, &o, r, x, y, dx, dy);
}

static void door_for(const td_world *w, const soldier_rec *s, float *dx, float *dy) {
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
  door_of(w, s->base, radius_of(w, s), cx, cy, dx, dy);
}

/* The barracks on base: its soldiers' posts from its rally point. */
static void posts_update(td_world *w, int32_t base) {
  const tower_rec *t = &w->towers[base];
  if (!t->used) return;
  float xy[2 * TD_RULES_MAX_SOLDIERS];
  size_t n = posts_make(w, base, t->level, t->rally_x, t->rally_y, xy);
  for (size_t j = 0; j < w->soldier_used; j++) {
    soldier_rec *s = &w->soldiers[j];
    if (s->state == TD_SOLDIER_FREE || s->base != base || s->index >= n) continue;
    s->post_x = xy[2 * s->index];
    s->post_y = xy[2 * s->index + 1];
  }
}

/* A rally point's refusal for a barracks of `level` on base, or NONE. */
static td_refusal rally_check(const td_world *w, int32_t base, int32_t level, float x, float y) {
  const td_tower_level *l = &w->rules->levels[level];
  if (l->soldiers <= 0) return TD_REFUSAL_NO_SOLDIERS;
  if (!isfinite(x) || !isfinite(y)) return TD_REFUSAL_RALLY_GROUND;
  const tower_rec *t = &w->towers[base];
  float dx = x - t->x, dy = y - t->y, range = l->range * w->tile;
  if (dx * dx + dy * dy > range * range) return TD_REFUSAL_RALLY_RANGE;
  obst o = obst_of(w, base);
  if (obst_inside(&o, x, y, 0.0f)) return TD_REFUSAL_RALLY_GROUND;
  if (w->map->grid ? !point_open(w, x, y) : !on_road(w, x, y)) return TD_REFUSAL_RALLY_GROUND;
  return TD_REFUSAL_NONE;
}

/* ---- plans --------------------------------------------------------------- */

static void stall_reset(soldier_rec *s) {
  s->stall = 0;
  s->best = FAR_BEST;
}

/* Forgets the way (cancelling its request): the next walk plans again. */
static void plan_reset(td_world *w, soldier_rec *s) {
  if (s->request) td_pathq_cancel(w->pathq, s->request);
  s->request = 0;
  s->planned = s->partial = s->recenter = 0;
  s->npath = s->at = 0;
  stall_reset(s);
}

static void stand(soldier_rec *s) { s->vx = s->vy = 0.0f; }

/* Lets go of its enemy (the enemy walks on, or fights on a stun's end). */
static void release(td_world *w, size_t i) {
  soldier_rec *s = &w->soldiers[i];
  if (!s->enemy) return;
  int64_t e = enemy_slot(w, s->enemy);
  s->enemy = 0;
  if (e < 0 || w->enemies[e].holder != soldier_handle(w, i)) return;
  w->enemies[e].holder = 0;
  w->enemies[e].at_hand = 0;
  enemy_settle(w, (size_t)e);
}

/* To MOVE (back to its post), its enemy let go, its way forgotten. */
static void go_post(td_world *w, size_t i) {
  release(w, i);
  soldier_rec *s = &w->soldiers[i];
  plan_reset(w, s);
  s->timer = 0;
  if (s->state != TD_SOLDIER_MOVE) soldier_go(w, i, TD_SOLDIER_MOVE);
}

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
  stall_reset(s);
  if (w->map->grid) {
    const td_grid *g = w->map->grid;
    int32_t ax, ay, bx, by;
    cell_at(g, s->x, s->y, &ax, &ay);
    bool in = cell_at(g, tx, ty, &bx, &by);
    int32_t a = td_grid_node_at(g, ax, ay), b = in ? td_grid_node_at(g, bx, by) : TD_NONE;
    if (a == TD_NONE || b == TD_NONE) {
      no_way(w, i);
      return;
    }
    ask(w, i, a, b);
    return;
  }
  float d = dist(s->x, s->y, tx, ty), r = radius_of(w, s);
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
    go_post(w, i);
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
                        : 2.0f * stype(w, s)->sight * w->tile +
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
  stall_reset(s);
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
    cell_at(g, *x, *y, &c0x, &c0y);
    bool in = cell_at(g, qx, qy, &c1x, &c1y);
    if (in && cell_ok(w, sx, sy, c1x, c1y)) {
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
    if (tx != ty && t1 >= 0.0f && t1 < t2 && cell_ok(w, sx, sy, nx, ny)) {
      float t = 0.5f * (t1 + t2), px = *x + (qx - *x) * t, py = *y + (qy - *y) * t;
      int32_t ux, uy;
      if (cell_at(g, px, py, &ux, &uy) && ux == nx && uy == ny) {
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
    if (cell_at(g, px, py, &ux, &uy) && ux == c0x && uy == c0y) {
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
static bool move_toward(td_world *w, size_t i, float ax, float ay, bool *blocked) {
  soldier_rec *s = &w->soldiers[i];
  const td_soldier_type *st = stype(w, s);
  float r = st->radius * w->tile, speed = st->speed * w->tile, step = speed * DT;
  float ox = s->x, oy = s->y, d = dist(ox, oy, ax, ay);
  bool arrived = false;
  *blocked = false;
  int32_t sx = 0, sy = 0;
  if (w->map->grid) {
    cell_at(w->map->grid, ox, oy, &sx, &sy);
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
      if (!cell_at(w->map->grid, s->x, s->y, &cx, &cy) || !cell_ok(w, sx, sy, cx, cy)) {
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
static bool walk(td_world *w, size_t i, float tx, float ty) {
  soldier_rec *s = &w->soldiers[i];
  float eps = ARRIVE * w->tile;
  if (s->request) {
    stand(s);
    return false;
  }
  if (!s->planned) {
    if (dist(s->x, s->y, tx, ty) <= eps) {
      stand(s);
      return true;
    }
    if (s->timer > 0) { /* no way last time: wait */
      s->timer--;
      stand(s);
      return false;
    }
    plan(w, i, tx, ty);
    s = &w->soldiers[i];
    if (!s->planned) {
      stand(s);
      return false;
    }
  }
  /* the next aim: its cell's centre, a corner, or the target */
  const td_grid *g = w->map->grid;
  float ax = tx, ay = ty;
  int kind = 2;
  if (g && s->recenter) {
    int32_t cx, cy;
    cell_at(g, s->x, s->y, &cx, &cy);
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
      cell_at(g, s->x, s->y, &cx, &cy);
      ok = cell_at(g, tx, ty, &ux, &uy) &&
           ((cx == ux && cy == uy) || td_grid_line_of_sight(g, w->graph, cx, cy, ux, uy));
    }
    if (!ok) {
      plan_reset(w, s);
      stand(s);
      return false;
    }
  }
  bool blocked, there = move_toward(w, i, ax, ay, &blocked);
  s = &w->soldiers[i];
  float left = dist(s->x, s->y, ax, ay);
  /* a waypoint is a guide: near it will do (a footprint's push may keep a
  ** body off the very node) */
  float near = kind == 1 && !g ? 0.5f * w->tile : eps;
  if (kind == 2 && (there || left <= eps)) return true;
  if (blocked && kind != 0) {
    s->recenter = 1;
    stall_reset(s);
    return false;
  }
  if (there || left <= near) {
    if (kind == 0) s->recenter = 0;
    else s->at++;
    stall_reset(s);
    return false;
  }
  if (left + 1e-3f * w->tile < s->best) {
    s->best = left;
    s->stall = 0;
  } else if (++s->stall >= STALL_TICKS) {
    plan_reset(w, s); /* no nearer for a second: ask again from here */
  }
  return false;
}

/* ---- fighting ------------------------------------------------------------ */

typedef struct engage_ctx {
  float x, y, r2;
  int32_t cx, cy;         /* grids: the post's cell */
  uint32_t shun;
  int64_t best;
  float bd;
} engage_ctx;

static void engage_one(void *ctx, td_world *w, size_t i) {
  engage_ctx *c = ctx;
  const enemy_rec *e = &w->enemies[i];
  if (e->holder || e->waiting || w->rules->enemies[e->type].flying) return;
  if (c->shun && enemy_handle(w, i) == c->shun) return;
  float dx = e->x - c->x, dy = e->y - c->y, d2 = dx * dx + dy * dy;
  if (d2 > c->r2) return;
  if (c->best >= 0 && (d2 > c->bd || (d2 == c->bd && (int64_t)i > c->best))) return;
  if (w->map->grid) { /* walls hide: in sight means in line of sight too */
    int32_t ex, ey;
    if (!cell_at(w->map->grid, e->x, e->y, &ex, &ey) ||
        !td_grid_line_of_sight(w->map->grid, w->graph, c->cx, c->cy, ex, ey))
      return;
  }
  c->best = (int64_t)i;
  c->bd = d2;
}

static bool touching(const td_world *w, const soldier_rec *s, const enemy_rec *e) {
  float reach = radius_of(w, s) + w->rules->enemies[e->type].radius * w->tile + TOUCH * w->tile;
  return dist(s->x, s->y, e->x, e->y) <= reach;
}

/* Its enemy at hand: both fight. */
static void at_hand(td_world *w, size_t i, size_t e) {
  w->enemies[e].at_hand = 1;
  enemy_settle(w, e);
  plan_reset(w, &w->soldiers[i]);
  stand(&w->soldiers[i]);
  soldier_go(w, i, TD_SOLDIER_ATTACK);
}

/* An IDLE or MOVE soldier looks for an enemy (see world.h); true when it
** engaged one. One walking back from afar engages once near its post:
** within its sight of it (on a grid, in line of sight too). */
static bool try_engage(td_world *w, size_t i) {
  soldier_rec *s = &w->soldiers[i];
  float sight = stype(w, s)->sight * w->tile;
  engage_ctx c = {.x = s->post_x, .y = s->post_y, .r2 = sight * sight, .shun = s->shun,
                  .best = -1};
  if (w->map->grid) cell_at(w->map->grid, s->post_x, s->post_y, &c.cx, &c.cy);
  if (s->state == TD_SOLDIER_MOVE) {
    if (dist(s->x, s->y, s->post_x, s->post_y) > sight) return false;
    int32_t sx, sy;
    if (w->map->grid && (!cell_at(w->map->grid, s->x, s->y, &sx, &sy) ||
                         !td_grid_line_of_sight(w->map->grid, w->graph, sx, sy, c.cx, c.cy)))
      return false;
  }
  grid_query(w, s->post_x, s->post_y, sight, engage_one, &c);
  if (c.best < 0) return false;
  size_t ei = (size_t)c.best;
  enemy_rec *e = &w->enemies[ei];
  e->holder = soldier_handle(w, i);
  e->at_hand = 0;
  e->siege = -1; /* a sapper at a tower turns to the soldier */
  enemy_settle(w, ei);
  plan_reset(w, s);
  s->timer = 0;
  s->enemy = enemy_handle(w, ei);
  soldier_go(w, i, TD_SOLDIER_ENGAGE);
  td_event ev = world_event(w, TD_EVENT_ENGAGED);
  ev.soldier = soldier_handle(w, i);
  ev.tower = tower_handle(w, (size_t)s->base);
  ev.enemy = s->enemy;
  ev.type = e->type;
  ev.x = e->x;
  ev.y = e->y;
  world_emit(w, &ev);
  if (touching(w, s, e)) at_hand(w, i, ei);
  return true;
}

static void die(td_world *w, size_t i, uint32_t killer) {
  release(w, i);
  soldier_rec *s = &w->soldiers[i];
  plan_reset(w, s);
  stand(s);
  s->health = 0.0f;
  s->timer = ticks_of(TD_SOLDIER_FALL_TIME);
  soldier_go(w, i, TD_SOLDIER_DIE);
  td_event ev = world_event(w, TD_EVENT_SOLDIER_DIED);
  ev.soldier = soldier_handle(w, i);
  ev.tower = w->towers[s->base].used ? tower_handle(w, (size_t)s->base) : 0;
  ev.enemy = killer;
  ev.type = s->type;
  ev.x = s->x;
  ev.y = s->y;
  world_emit(w, &ev);
}

static void step_closer(td_world *w, size_t i, float ex, float ey) {
  bool blocked;
  move_toward(w, i, ex, ey, &blocked);
}

/* ATTACK: it hits at its rate; its enemy (unless stunned) hits back. */
static void fight(td_world *w, size_t i) {
  soldier_rec *s = &w->soldiers[i];
  const td_soldier_type *st = stype(w, s);
  int64_t ei = enemy_slot(w, s->enemy);
  if (ei < 0) { /* (soldiers_enemy_gone sees to it; kept for safety) */
    go_post(w, i);
    return;
  }
  enemy_rec *e = &w->enemies[ei];
  float reach = radius_of(w, s) + w->rules->enemies[e->type].radius * w->tile +
                (TOUCH + REACH) * w->tile;
  if (dist(s->x, s->y, e->x, e->y) > reach) step_closer(w, i, e->x, e->y);
  else stand(s);
  s->cool -= DT;
  if (s->cool <= 0.0f) {
    s->cool += 1.0f / st->rate;
    uint32_t me = soldier_handle(w, i), enemy = s->enemy;
    enemy_hit_by_soldier(w, (size_t)ei, st->damage, st->damage_type, me,
                         tower_handle(w, (size_t)s->base));
    s = &w->soldiers[i];
    if (s->state != TD_SOLDIER_ATTACK || s->enemy != enemy) return; /* it fell */
  }
  e = &w->enemies[ei];
  const td_enemy_type *et = &w->rules->enemies[e->type];
  if (!e->at_hand || e->stun_ticks > 0 || et->melee_rate <= 0.0f || et->melee_damage <= 0.0f)
    return;
  e->attack_cool -= DT;
  if (e->attack_cool > 0.0f) return;
  e->attack_cool += 1.0f / et->melee_rate;
  s->health -= td_rules_soldier_damage(st, et->melee_damage);
  if (s->health <= 0.0f) die(w, i, s->enemy);
}

/* ---- one soldier's tick -------------------------------------------------- */

static void tick_one(td_world *w, size_t i) {
  soldier_rec *s = &w->soldiers[i];
  const td_soldier_type *st = stype(w, s);
  if (s->state != TD_SOLDIER_ATTACK && s->cool > 0.0f) {
    s->cool -= DT;
    if (s->cool < 0.0f) s->cool = 0.0f;
  }
  switch ((td_soldier_state)s->state) {
  case TD_SOLDIER_DIE:
    if (s->timer > 0) s->timer--;
    if (s->timer <= 0) {
      door_for(w, s, &s->x, &s->y); /* back in the barracks */
      s->timer = ticks_of(st->respawn);
      soldier_go(w, i, TD_SOLDIER_RESPAWN);
    }
    break;
  case TD_SOLDIER_RESPAWN:
    if (s->timer > 0) s->timer--;
    if (s->timer <= 0) {
      door_for(w, s, &s->x, &s->y);
      s->health = st->health;
      s->cool = 0.0f;
      s->shun = 0;
      go_post(w, i);
    }
    break;
  case TD_SOLDIER_IDLE:
    s->health = fminf(s->health + st->regen * DT, st->health);
    if (dist(s->x, s->y, s->post_x, s->post_y) > OFF_POST * w->tile) go_post(w, i);
    else try_engage(w, i);
    break;
  case TD_SOLDIER_MOVE:
    if (try_engage(w, i)) break;
    if (walk(w, i, w->soldiers[i].post_x, w->soldiers[i].post_y)) {
      s = &w->soldiers[i];
      s->x = s->post_x;
      s->y = s->post_y;
      plan_reset(w, s);
      stand(s);
      soldier_go(w, i, TD_SOLDIER_IDLE);
    }
    break;
  case TD_SOLDIER_ENGAGE: {
    int64_t ei = enemy_slot(w, s->enemy);
    float slack = (st->sight + SIGHT_SLACK) * w->tile;
    if (ei < 0 || dist(s->post_x, s->post_y, w->enemies[ei].x, w->enemies[ei].y) > slack) {
      go_post(w, i);
      break;
    }
    if (touching(w, s, &w->enemies[ei])) {
      at_hand(w, i, (size_t)ei);
      break;
    }
    walk(w, i, w->enemies[ei].x, w->enemies[ei].y);
    s = &w->soldiers[i];
    if (s->state == TD_SOLDIER_ENGAGE && touching(w, s, &w->enemies[ei])) at_hand(w, i, (size_t)ei);
    break;
  }
  case TD_SOLDIER_ATTACK: fight(w, i); break;
  case TD_SOLDIER_FREE:
  case TD_SOLDIER_STATE_COUNT: break;
  }
}

/* ---- the world's calls --------------------------------------------------- */

int soldiers_init(td_world *w) {
  td_fan_init(&w->s_fan);
  size_t nb = w->map->base_count;
  w->s_rects = td_mem_alloc((nb ? nb : 1) * 4 * sizeof *w->s_rects);
  w->pathq = td_pathq_create(w->graph, NULL);
  if (!w->s_rects || !w->pathq) return -1;
  if (w->map->grid) td_pathq_set_simplify(w->pathq, w->map->grid);
  return 0;
}

void soldiers_free(td_world *w) {
  td_pathq_destroy(w->pathq);
  td_mem_free(w->s_rects, (w->map->base_count ? w->map->base_count : 1) * 4 * sizeof *w->s_rects);
  td_mem_free(w->soldiers, w->soldier_cap * sizeof *w->soldiers);
}

void soldiers_rebuild(td_world *w) {
  w->soldier_live = 0;
  for (size_t i = 0; i < w->soldier_used; i++)
    w->soldier_live += w->soldiers[i].state != TD_SOLDIER_FREE;
  rects_update(w);
}

void soldiers_update(td_world *w) {
  rects_update(w);
  td_pathq_tick(w->pathq, TD_WORLD_PATH_BUDGET);
  for (size_t i = 0; i < w->soldier_used && !w->broken; i++)
    if (w->soldiers[i].state != TD_SOLDIER_FREE) tick_one(w, i);
}

/* A new soldier (FREE -> MOVE) at (x, y) for post k of base; its slot, or
** -1 (out of memory: the world is broken). */
static int64_t soldier_new(td_world *w, int32_t base, int k, int32_t type, float x, float y,
                           float px, float py) {
  size_t i = 0;
  while (i < w->soldier_used && w->soldiers[i].state != TD_SOLDIER_FREE) i++;
  if (i == w->soldier_used) {
    if (w->soldier_used == w->soldier_cap) {
      size_t old = w->soldier_cap;
      soldier_rec *p = td_mem_grow(w->soldiers, &w->soldier_cap, old + 1, sizeof *p);
      if (!p) {
        world_fail(w, "soldiers");
        return -1;
      }
      memset(p + old, 0, (w->soldier_cap - old) * sizeof *p);
      w->soldiers = p;
    }
    w->soldier_used++;
  }
  soldier_rec *s = &w->soldiers[i];
  uint32_t gen = s->gen;
  memset(s, 0, sizeof *s);
  s->gen = gen;
  s->index = (uint8_t)k;
  s->type = type;
  s->base = base;
  s->x = x;
  s->y = y;
  s->post_x = px;
  s->post_y = py;
  s->health = w->rules->soldier_types[type].health;
  s->facing = atan2f(py - y, px - x);
  stall_reset(s);
  soldier_go(w, i, TD_SOLDIER_MOVE);
  return (int64_t)i;
}

static void soldier_free(td_world *w, size_t i) {
  release(w, i);
  plan_reset(w, &w->soldiers[i]);
  soldier_go(w, i, TD_SOLDIER_FREE);
}

void soldiers_tower_changed(td_world *w, int32_t base) {
  rects_update(w);
  const tower_rec *t = &w->towers[base];
  int32_t n = 0, type = -1;
  if (t->used && w->rules->levels[t->level].soldiers > 0) {
    n = w->rules->levels[t->level].soldiers;
    type = w->rules->levels[t->level].soldier;
  }
  int64_t have[TD_RULES_MAX_SOLDIERS];
  for (int k = 0; k < TD_RULES_MAX_SOLDIERS; k++) have[k] = -1;
  for (size_t i = 0; i < w->soldier_used; i++) {
    soldier_rec *s = &w->soldiers[i];
    if (s->state == TD_SOLDIER_FREE || s->base != base) continue;
    if (s->index >= n) {
      soldier_free(w, i);
      continue;
    }
    have[s->index] = (int64_t)i;
    if (s->type == type) continue;
    /* retyped (an upgrade): the same share of its health */
    const td_soldier_type *nt = &w->rules->soldier_types[type];
    float old = (size_t)s->type < w->rules->soldier_type_count
                    ? w->rules->soldier_types[s->type].health : 0.0f;
    float share = old > 0.0f ? s->health / old : 1.0f;
    share = share < 0.0f ? 0.0f : share > 1.0f ? 1.0f : share;
    s->type = type;
    if (s->state != TD_SOLDIER_DIE && s->state != TD_SOLDIER_RESPAWN) {
      s->health = nt->health * share;
      if (!(s->health > 0.0f)) s->health = nt->health;
    }
  }
  if (n == 0) return;
  float xy[2 * TD_RULES_MAX_SOLDIERS];
  posts_make(w, base, t->level, t->rally_x, t->rally_y, xy);
  float cx = 0.0f, cy = 0.0f;
  for (int k = 0; k < n; k++) {
    cx += xy[2 * k];
    cy += xy[2 * k + 1];
  }
  float dx, dy;
  door_of(w, base, w->rules->soldier_types[type].radius * w->tile, cx / (float)n, cy / (float)n,
          &dx, &dy);
  for (int k = 0; k < n; k++) {
    if (have[k] >= 0) {
      w->soldiers[have[k]].post_x = xy[2 * k];
      w->soldiers[have[k]].post_y = xy[2 * k + 1];
    } else if (soldier_new(w, base, k, type, dx, dy, xy[2 * k], xy[2 * k + 1]) < 0) {
      return;
    }
  }
}

void soldiers_rules_changed(td_world *w) {
  for (size_t b = 0; b < w->map->base_count; b++) soldiers_tower_changed(w, (int32_t)b);
}

/* On a grid, a path whose corners no longer see each other (a tower came
** between) is asked for again. */
static bool path_open(const td_world *w, const soldier_rec *s) {
  const td_grid *g = w->map->grid;
  int32_t px, py;
  cell_at(g, s->x, s->y, &px, &py);
  for (size_t k = s->at; k < s->npath; k++) {
    int32_t c = g->node_cell[s->path[k]], cx = c % g->width, cy = c / g->width;
    if (!td_grid_line_of_sight(g, w->graph, px, py, cx, cy)) return false;
    px = cx;
    py = cy;
  }
  return true;
}

void soldiers_route_changed(td_world *w) {
  td_pathq_restart(w->pathq);
  rects_update(w);
  for (size_t b = 0; b < w->map->base_count; b++) posts_update(w, (int32_t)b);
  const td_grid *g = w->map->grid;
  for (size_t i = 0; i < w->soldier_used; i++) {
    soldier_rec *s = &w->soldiers[i];
    if (s->state == TD_SOLDIER_FREE) continue;
    float r = radius_of(w, s), x = s->x, y = s->y;
    obst o = obst_of(w, -1);
    if (g ? !point_open(w, x, y) || obst_inside(&o, x, y, r) : obst_inside(&o, x, y, r)) {
      /* a tower came where it stands: to the nearest ground (grids: the
      ** nearest open cell) */
      settle_ground(w, &o, r, x, y, &s->x, &s->y);
      if (s->request || s->planned) plan_reset(w, s);
    }
    if (s->state != TD_SOLDIER_MOVE && s->state != TD_SOLDIER_ENGAGE) continue;
    if (!g) {
      if (s->planned || s->request) plan_reset(w, s); /* straight or along the graph, again */
    } else if (s->planned && !path_open(w, s)) {
      plan_reset(w, s);
    }
  }
}

void soldiers_enemy_gone(td_world *w, size_t enemy_slot_) {
  const enemy_rec *e = &w->enemies[enemy_slot_];
  int64_t i = soldier_slot(w, e->holder);
  if (i < 0 || w->soldiers[i].enemy != enemy_handle(w, enemy_slot_)) return;
  soldier_rec *s = &w->soldiers[i];
  s->enemy = 0; /* the caller lets go of the enemy's side */
  if (s->state == TD_SOLDIER_ENGAGE || s->state == TD_SOLDIER_ATTACK) go_post(w, (size_t)i);
}

td_refusal soldiers_rally(td_world *w, int32_t base, float x, float y) {
  if (base < 0 || (size_t)base >= w->map->base_count) return TD_REFUSAL_NO_BASE;
  tower_rec *t = &w->towers[base];
  if (!t->used) return TD_REFUSAL_NO_TOWER;
  td_refusal why = rally_check(w, base, t->level, x, y);
  if (why != TD_REFUSAL_NONE) return why;
  t->rally_x = x;
  t->rally_y = y;
  posts_update(w, base);
  for (size_t i = 0; i < w->soldier_used; i++) {
    soldier_rec *s = &w->soldiers[i];
    if (s->state == TD_SOLDIER_FREE || s->base != base || s->state == TD_SOLDIER_DIE ||
        s->state == TD_SOLDIER_RESPAWN)
      continue;
    go_post(w, i);
  }
  td_event e = world_event(w, TD_EVENT_RALLIED);
  e.tower = tower_handle(w, (size_t)base);
  e.base = base;
  e.x = x;
  e.y = y;
  world_emit(w, &e);
  return TD_REFUSAL_NONE;
}

/* ---- read access --------------------------------------------------------- */

size_t td_world_soldier_capacity(const td_world *w) { return w->soldier_used; }
size_t td_world_soldier_count(const td_world *w) { return w->soldier_live; }

bool td_world_soldier(const td_world *w, size_t slot, td_soldier_view *out) {
  if (slot >= w->soldier_used || w->soldiers[slot].state == TD_SOLDIER_FREE) return false;
  const soldier_rec *s = &w->soldiers[slot];
  const td_soldier_type *st = stype(w, s);
  bool timed = s->state == TD_SOLDIER_DIE || s->state == TD_SOLDIER_RESPAWN;
  *out = (td_soldier_view){.handle = soldier_handle(w, slot),
                           .state = (td_soldier_state)s->state,
                           .type = s->type,
                           .base = s->base,
                           .tower = w->towers[s->base].used ? tower_handle(w, (size_t)s->base) : 0,
                           .enemy = s->enemy,
                           .x = s->x,
                           .y = s->y,
                           .radius = st->radius * w->tile,
                           .facing = s->facing,
                           .health = s->health,
                           .max_health = st->health,
                           .post_x = s->post_x,
                           .post_y = s->post_y,
                           .cooldown = s->cool > 0.0f ? s->cool : 0.0f,
                           .timer = timed ? (float)s->timer * DT : 0.0f,
                           .request = s->request};
  return true;
}

bool td_world_soldier_get(const td_world *w, uint32_t handle, td_soldier_view *out) {
  int64_t i = soldier_slot(w, handle);
  return i >= 0 && td_world_soldier(w, (size_t)i, out);
}

size_t td_world_soldier_path(const td_world *w, uint32_t handle, float *xy, size_t cap) {
  int64_t i = soldier_slot(w, handle);
  if (i < 0) return 0;
  const soldier_rec *s = &w->soldiers[i];
  size_t n = 0;
#define PUT(px, py)                                                                            \
  do {                                                                                         \
    if (n < cap) {                                                                             \
      xy[2 * n] = (px);                                                                        \
      xy[2 * n + 1] = (py);                                                                    \
    }                                                                                          \
    n++;                                                                                       \
  } while (0)
  PUT(s->x, s->y);
  bool walking = s->state == TD_SOLDIER_MOVE || s->state == TD_SOLDIER_ENGAGE;
  if (!walking || !s->planned) return n;
  if (s->recenter && w->map->grid) {
    int32_t cx, cy;
    cell_at(w->map->grid, s->x, s->y, &cx, &cy);
    double x, y;
    td_grid_cell_center(w->map->grid, cx, cy, &x, &y);
    PUT((float)x, (float)y);
  }
  for (size_t k = s->at; k < s->npath; k++)
    PUT((float)w->graph->x[s->path[k]], (float)w->graph->y[s->path[k]]);
  if (s->state == TD_SOLDIER_MOVE) {
    PUT(s->post_x, s->post_y);
  } else {
    int64_t e = enemy_slot(w, s->enemy);
    if (e >= 0) PUT(w->enemies[e].x, w->enemies[e].y);
  }
#undef PUT
  return n;
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

const td_pathq_stats *td_world_pathq_stats(const td_world *w) {
  return td_pathq_get_stats(w->pathq);
}

size_t td_world_pathq_pending(const td_world *w) { return td_pathq_pending(w->pathq); }
