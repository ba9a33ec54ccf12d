/*
** scene.c: the world as the player sees it (see scene.h).
*/
#include "render/scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nav/astar.h"
#include "render/trails.h"

#define PI_F 3.14159265f

typedef enum fx_kind {
  FX_SPARK,      /* a hit */
  FX_BURST,      /* a death */
  FX_TEXT,       /* floating "+5" */
  FX_TRACER,     /* an instant shot: a bolt that flies tower -> target */
  FX_ZAP,        /* a chain jump */
  FX_BOOM,       /* a splash landing */
  FX_RING        /* built, upgraded, sold, leaked */
} fx_kind;

typedef struct fx {
  fx_kind kind;
  float x, y, x1, y1;
  float age, life;       /* seconds of simulation */
  float size;
  SDL_Color col;
  char text[16];
} fx;

typedef struct prev_enemy {
  uint32_t handle;
  float x, y, facing;
} prev_enemy;

typedef struct prev_shot {
  bool used;
  td_shot_kind kind;
  uint32_t tower, target;
  int32_t level;
  float x, y, tx, ty;
} prev_shot;

/* The grid overlay's A* (see astar_refresh): for each spawn, A* from the
** spawn to its nearest goal and the route's way from it, as runs of nodes
** in td_scene.ov_nodes. */
typedef struct astar_way {
  int32_t spawn;         /* node */
  bool found;            /* A* reached a goal (else path_len is 0) */
  td_cost cost;          /* A*'s path cost */
  uint64_t expanded;     /* expansions of the search kept */
  size_t path_at, path_len;   /* A*'s path, spawn to goal */
  size_t route_at, route_len; /* the route's way (next from the spawn) */
  td_cost route_dist;    /* the route's dist at the spawn (TD_COST_INF: cut off) */
  size_t differ;         /* nodes of the route's way not on A*'s path */
} astar_way;

struct td_scene {
  const td_atlas *atlas;
  td_units *units;       /* soldiers, fights, rubble, flags (units.h) */
  const td_palette *pal; /* the colours that carry meaning (palette.h) */
  prev_enemy *pe;
  size_t pe_cap;
  prev_shot *ps;
  size_t ps_cap;
  float *pt;             /* turret facing per base */
  size_t pt_cap;
  fx *fx;
  size_t nfx, fx_cap;
  /* sprites per rules */
  const td_rules *rules;
  size_t n_enemy, n_tower, n_level;
  const td_sprite **enemy_spr, **base_spr, **turret_spr;
  SDL_Color *enemy_col, *tower_col;
  const td_sprite *shot_spr[5], *puff, *star, *ring, *arrow;
  uint32_t *route_mark;  /* draw_route on a large map: nodes drawn this frame */
  size_t mark_cap;
  uint32_t mark_gen;
  /* the grid overlay's A*, computed when the blocked flags change (never
  ** per frame): what it was computed from, and the result */
  td_astar *astar;
  bool ov_valid;
  const td_route *ov_route;
  const td_graph *ov_graph;
  uint64_t ov_full, ov_incr;  /* the route's update counters then */
  uint8_t *ov_flags;     /* node then edge blocked flags then */
  size_t ov_nflags, ov_flags_cap; /* ov_nflags 0: no snapshot (out of memory) */
  uint8_t *ov_closed;    /* per node: closed by a spawn's kept search */
  size_t ov_closed_cap;
  int32_t *ov_pos;       /* per node: 1 + index on the A* path being compared, 0 off it */
  size_t ov_pos_cap;
  int32_t *ov_nodes;     /* the ways' runs of nodes */
  uint8_t *ov_differs;   /* per entry of a route run: its step to the next is not A*'s */
  size_t ov_nnodes, ov_nodes_cap, ov_differs_cap;
  astar_way *ov_ways;
  size_t ov_nways, ov_ways_cap;
  /* the lanes overlay's road outline on a waypoint map, built once per map
  ** (road_refresh): what it was built from, and the segments (x0, y0, x1,
  ** y1 in map units, 4 floats each) */
  const td_map *road_map;
  const float *road_width;
  const td_graph *road_graph;
  int32_t road_edges;
  float *road_seg;
  size_t road_nseg, road_cap;
};

static const char *const overlay_names[TD_OVERLAY_COUNT] = {
  "graph", "lanes", "separation", "hash", "grid", "flyers", "ranges", "stats", "units"};

const char *td_overlay_name(td_overlay o) {
  return (unsigned)o < TD_OVERLAY_COUNT ? overlay_names[o] : NULL;
}

int td_overlay_find(const char *name) {
  for (int i = 0; i < TD_OVERLAY_COUNT; i++)
    if (!strcmp(name, overlay_names[i])) return i;
  return -1;
}

SDL_Color td_scene_name_color(const char *name) {
  uint32_t h = 2166136261u;
  for (const char *p = name; *p; p++) h = (h ^ (uint8_t)*p) * 16777619u;
  td_rgba c = td_rgba_hsv((float)(h % 360), 0.55f, 0.9f, 255);
  return td_color(c.r, c.g, c.b, 255);
}

void td_scene_set_palette(td_scene *s, td_palette_kind k) {
  s->pal = td_palette_get(k);
  td_units_set_palette(s->units, k);
}

td_scene *td_scene_create(const td_atlas *atlas) {
  td_scene *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->atlas = atlas;
  s->units = td_units_create(atlas);
  s->pal = td_palette_get(TD_PALETTE_STANDARD);
  if (!s->units) {
    free(s);
    return NULL;
  }
  static const char *shots[5] = {"shot_arrow", "shot_orb", "shot_ball", "shot_spark", "shot_bolt"};
  for (int i = 0; i < 5; i++) s->shot_spr[i] = td_atlas_find(atlas, shots[i]);
  s->puff = td_atlas_find(atlas, "fx_puff");
  s->star = td_atlas_find(atlas, "fx_star");
  s->ring = td_atlas_find(atlas, "fx_ring");
  s->arrow = td_atlas_find(atlas, "shot_arrow");
  return s;
}

static void free_sprites(td_scene *s) {
  free(s->enemy_spr);
  free(s->base_spr);
  free(s->turret_spr);
  free(s->enemy_col);
  free(s->tower_col);
  s->enemy_spr = s->base_spr = s->turret_spr = NULL;
  s->enemy_col = s->tower_col = NULL;
  s->rules = NULL;
}

void td_scene_destroy(td_scene *s) {
  if (!s) return;
  free_sprites(s);
  td_units_destroy(s->units);
  free(s->pe);
  free(s->ps);
  free(s->pt);
  free(s->fx);
  free(s->route_mark);
  td_astar_destroy(s->astar);
  free(s->ov_flags);
  free(s->ov_closed);
  free(s->ov_pos);
  free(s->ov_nodes);
  free(s->ov_differs);
  free(s->ov_ways);
  free(s->road_seg);
  free(s);
}

void td_scene_reset(td_scene *s) {
  s->nfx = 0;
  td_units_reset(s->units);
  s->ov_valid = false; /* another world: the A* cache's pointers mean nothing */
  s->ov_nways = 0;
  s->road_map = NULL; /* another map may sit at the same address */
  if (s->pe) memset(s->pe, 0, s->pe_cap * sizeof *s->pe);
  if (s->ps) memset(s->ps, 0, s->ps_cap * sizeof *s->ps);
  s->pt_cap = 0;
  free(s->pt);
  s->pt = NULL;
  free_sprites(s);
}

/* Sprites and colours per type, looked up again when the rules change (a
** hot reload swaps them). */
static void bind_rules(td_scene *s, const td_rules *r) {
  if (s->rules == r && s->n_enemy == r->enemy_count && s->n_tower == r->tower_count &&
      s->n_level == r->level_count)
    return;
  free_sprites(s);
  s->n_enemy = r->enemy_count;
  s->n_tower = r->tower_count;
  s->n_level = r->level_count;
  /* arrays of sprite pointers (one spare entry: calloc(0) may be NULL) */
  s->enemy_spr = calloc(r->enemy_count + 1, sizeof(const td_sprite *));
  s->enemy_col = calloc(r->enemy_count + 1, sizeof *s->enemy_col);
  s->base_spr = calloc(r->tower_count + 1, sizeof(const td_sprite *));
  s->tower_col = calloc(r->tower_count + 1, sizeof *s->tower_col);
  s->turret_spr = calloc(r->level_count + 1, sizeof(const td_sprite *));
  if (!s->enemy_spr || !s->enemy_col || !s->base_spr || !s->tower_col || !s->turret_spr) {
    free_sprites(s);
    return;
  }
  s->rules = r;
  for (size_t i = 0; i < r->enemy_count; i++) {
    s->enemy_spr[i] = td_atlas_findf(s->atlas, "enemy_", r->enemies[i].name);
    s->enemy_col[i] = td_scene_name_color(r->enemies[i].name);
  }
  for (size_t i = 0; i < r->tower_count; i++) {
    s->base_spr[i] = td_atlas_findf(s->atlas, "base_", r->towers[i].name);
    s->tower_col[i] = td_scene_name_color(r->towers[i].name);
  }
  for (size_t i = 0; i < r->level_count; i++) {
    const td_sprite *t = td_atlas_findf(s->atlas, "turret_", r->levels[i].name);
    int32_t ty = r->levels[i].tower;
    if (!t && ty >= 0 && (size_t)ty < r->tower_count)
      t = td_atlas_findf(s->atlas, "turret_", r->towers[ty].name);
    s->turret_spr[i] = t;
  }
}

static bool grow(void **p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return true;
  size_t c = *cap ? *cap : 64;
  while (c < need) c *= 2;
  void *q = realloc(*p, c * elem);
  if (!q) return false;
  memset((char *)q + *cap * elem, 0, (c - *cap) * elem);
  *p = q;
  *cap = c;
  return true;
}

void td_scene_before_step(td_scene *s, const td_world *w) {
  td_units_before_step(s->units, w);
  size_t ne = td_world_enemy_capacity(w);
  if (grow((void **)&s->pe, &s->pe_cap, ne, sizeof *s->pe)) {
    td_enemy_view v;
    for (size_t i = 0; i < ne; i++) {
      if (td_world_enemy(w, i, &v)) s->pe[i] = (prev_enemy){v.handle, v.x, v.y, v.facing};
      else s->pe[i].handle = 0;
    }
  }
  size_t ns = td_world_shot_capacity(w);
  if (grow((void **)&s->ps, &s->ps_cap, ns, sizeof *s->ps)) {
    td_shot_view v;
    for (size_t i = 0; i < ns; i++) {
      if (td_world_shot(w, i, &v))
        s->ps[i] = (prev_shot){true, v.kind, v.tower, v.target, v.level, v.x, v.y, v.tx, v.ty};
      else s->ps[i].used = false;
    }
    for (size_t i = ns; i < s->ps_cap; i++) s->ps[i].used = false;
  }
  size_t nb = td_world_map(w)->base_count;
  if (grow((void **)&s->pt, &s->pt_cap, nb, sizeof *s->pt)) {
    td_tower_view t;
    for (size_t i = 0; i < nb; i++)
      if (td_world_tower(w, i, &t)) s->pt[i] = t.facing;
  }
}

static fx *add_fx(td_scene *s, fx_kind k, float x, float y, float life, SDL_Color c) {
  if (s->nfx >= 20000) return NULL;
  if (!grow((void **)&s->fx, &s->fx_cap, s->nfx + 1, sizeof *s->fx)) return NULL;
  fx *f = &s->fx[s->nfx++];
  memset(f, 0, sizeof *f);
  f->kind = k;
  f->x = x;
  f->y = y;
  f->life = life;
  f->col = c;
  f->size = 1;
  return f;
}

static SDL_Color damage_color(const td_rules *r, int32_t level) {
  if (level < 0 || (size_t)level >= r->level_count) return td_color(255, 255, 200, 255);
  int32_t t = r->levels[level].damage_type;
  const char *n = t >= 0 && t < r->damage_type_count ? r->damage_types[t] : "";
  if (!strcmp(n, "fire")) return td_color(255, 150, 60, 255);
  if (!strcmp(n, "magic")) return td_color(150, 210, 255, 255);
  if (!strcmp(n, "physical")) return td_color(255, 245, 200, 255);
  return td_scene_name_color(n);
}

void td_scene_after_step(td_scene *s, const td_world *w) {
  td_units_after_step(s->units, w);
  const float dt = 1.0f / (float)TD_WORLD_TICK_HZ;
  size_t k = 0;
  for (size_t i = 0; i < s->nfx; i++) {
    s->fx[i].age += dt;
    if (s->fx[i].age < s->fx[i].life) s->fx[k++] = s->fx[i];
  }
  s->nfx = k;
  const td_rules *r = td_world_rules(w);
  const float tile = (float)td_world_map(w)->tile_w;
  size_t n;
  const td_event *ev = td_world_events(w, &n);
  uint32_t chain_tower = 0;
  float cx = 0, cy = 0;
  for (size_t i = 0; i < n; i++) {
    const td_event *e = &ev[i];
    td_tower_view tv;
    td_enemy_view enemy;
    fx *f;
    switch (e->kind) {
    case TD_EVENT_FIRED:
      if (e->type >= 0 && (size_t)e->type < r->level_count &&
          r->levels[e->type].shot == TD_SHOT_INSTANT && td_world_enemy_get(w, e->enemy, &enemy)) {
        f = add_fx(s, FX_TRACER, e->x, e->y, 0.12f, damage_color(r, e->type));
        if (f) {
          f->x1 = enemy.x;
          f->y1 = enemy.y;
        }
      }
      break;
    case TD_EVENT_HIT: {
      int32_t lvl = -1;
      if (td_world_tower_get(w, e->tower, &tv)) lvl = tv.level;
      f = add_fx(s, FX_SPARK, e->x, e->y, 0.22f, damage_color(r, lvl));
      if (f) f->size = 0.35f * tile;
      if (lvl >= 0 && r->levels[lvl].shot == TD_SHOT_CHAIN) {
        if (chain_tower == e->tower) {
          f = add_fx(s, FX_ZAP, cx, cy, 0.18f, td_color(250, 240, 140, 255));
          if (f) {
            f->x1 = e->x;
            f->y1 = e->y;
          }
        }
        chain_tower = e->tower;
        cx = e->x;
        cy = e->y;
      }
      break;
    }
    case TD_EVENT_KILLED: {
      SDL_Color c = e->type >= 0 && (size_t)e->type < r->enemy_count
                        ? td_scene_name_color(r->enemies[e->type].name)
                        : td_color(255, 255, 255, 255);
      f = add_fx(s, FX_BURST, e->x, e->y, 0.45f, c);
      if (f) f->size = 0.6f * tile;
      if (e->amount > 0) {
        f = add_fx(s, FX_TEXT, e->x, e->y - 0.3f * tile, 0.9f, td_color(255, 215, 70, 255));
        if (f) snprintf(f->text, sizeof f->text, "+%d", (int)e->amount);
      }
      break;
    }
    case TD_EVENT_LEAKED:
      f = add_fx(s, FX_RING, e->x, e->y, 0.6f, s->pal->leak);
      if (f) f->size = tile;
      if (td_world_enemy_get(w, e->enemy, &enemy)) {
        f = add_fx(s, FX_TEXT, enemy.x, enemy.y - 0.3f * tile, 1.0f, s->pal->leak);
        if (f) snprintf(f->text, sizeof f->text, "-%d", (int)e->amount);
      }
      break;
    case TD_EVENT_PLACED:
    case TD_EVENT_UPGRADED:
      if (td_world_tower_get(w, e->tower, &tv)) {
        f = add_fx(s, FX_RING, tv.x, tv.y, 0.5f, td_color(255, 230, 120, 255));
        if (f) f->size = tile;
      }
      break;
    case TD_EVENT_SOLD:
      f = add_fx(s, FX_RING, e->x, e->y, 0.5f, td_color(200, 200, 200, 255));
      if (f) f->size = tile;
      f = add_fx(s, FX_TEXT, e->x, e->y - 0.3f * tile, 1.0f, td_color(255, 215, 70, 255));
      if (f) snprintf(f->text, sizeof f->text, "+%d", (int)e->amount);
      break;
    default:
      break;
    }
  }
  /* ballistic shots that landed this step: an explosion of their splash */
  for (size_t i = 0; i < s->ps_cap; i++) {
    const prev_shot *p = &s->ps[i];
    if (!p->used || p->kind != TD_SHOT_BALLISTIC) continue;
    td_shot_view v;
    if (td_world_shot(w, i, &v) && v.tower == p->tower && v.target == p->target) continue;
    float splash = p->level >= 0 && (size_t)p->level < r->level_count ? r->levels[p->level].splash : 0.5f;
    fx *f = add_fx(s, FX_BOOM, p->tx, p->ty, 0.4f, td_color(255, 150, 50, 255));
    if (f) f->size = (splash > 0 ? splash : 0.5f) * tile;
  }
}

/* ---- drawing helpers ------------------------------------------------------ */

static SDL_Color with_alpha(SDL_Color c, int a) {
  c.a = (Uint8)(a < 0 ? 0 : a > 255 ? 255 : a);
  return c;
}

static float lerpf(float a, float b, float t) { return a + (b - a) * t; }

static float lerp_angle(float a, float b, float t) {
  float d = b - a;
  while (d > PI_F) d -= 2 * PI_F;
  while (d < -PI_F) d += 2 * PI_F;
  return a + d * t;
}

/* A shape for a type with no sprite: a disc (enemies) or a square (towers)
** in the name's colour with its initial. */
static void fallback(td_batch *b, const char *name, float x, float y, float size, float angle,
                     bool square, SDL_Color c) {
  if (square) {
    td_batch_rect(b, x - size * 0.5f, y - size * 0.5f, size, size, td_color(40, 40, 48, 255));
    td_batch_rect(b, x - size * 0.4f, y - size * 0.4f, size * 0.8f, size * 0.8f, c);
  } else {
    td_batch_disc(b, x, y, size * 0.5f, td_color(30, 30, 36, 255));
    td_batch_disc(b, x, y, size * 0.42f, c);
    td_batch_line(b, x, y, x + cosf(angle) * size * 0.5f, y + sinf(angle) * size * 0.5f,
                  fmaxf(1.5f, size * 0.08f), td_color(20, 20, 20, 255));
  }
  char ini[2] = {(char)(name[0] ? name[0] : '?'), 0};
  int sc = size >= 24 ? 2 : 1;
  td_batch_text(b, x - 3.0f * (float)sc, y - 4.0f * (float)sc, sc, ini, td_color(255, 255, 255, 255),
                true);
}

static const SDL_Color WHITE = {255, 255, 255, 255};

static const td_sprite *enemy_sprite(const td_scene *s, int32_t type) {
  return s->enemy_spr && type >= 0 && (size_t)type < s->n_enemy ? s->enemy_spr[type] : NULL;
}

/* An enemy whose body (the opaque part of its sprite, td_sprite.body; the
** fallback's disc) is body pixels across: its collision disc's diameter on
** screen. */
static void draw_enemy_sprite(td_scene *s, td_batch *b, const td_rules *r, int32_t type, float x,
                              float y, float body, float angle, SDL_Color tint) {
  const td_sprite *sp = enemy_sprite(s, type);
  if (sp && sp->body > 0) {
    float w = body / sp->body;
    td_batch_sprite(b, sp, x, y, w, w * (float)sp->h / (float)sp->w, angle, tint);
  } else
    fallback(b, type >= 0 && (size_t)type < r->enemy_count ? r->enemies[type].name : "?", x, y, body,
             angle, false,
             s->enemy_col && type >= 0 && (size_t)type < s->n_enemy ? s->enemy_col[type] : WHITE);
}

static void draw_tower_sprite(td_scene *s, td_batch *b, const td_rules *r, int32_t level,
                              float x, float y, float size, float facing, SDL_Color tint) {
  if (level < 0 || (size_t)level >= r->level_count || !s->base_spr) return;
  int32_t type = r->levels[level].tower;
  const td_sprite *base = type >= 0 && (size_t)type < s->n_tower ? s->base_spr[type] : NULL;
  const td_sprite *tur = s->turret_spr[level];
  SDL_Color col = type >= 0 && (size_t)type < s->n_tower ? s->tower_col[type] : WHITE;
  if (!base) base = td_atlas_find(s->atlas, "base_default");
  if (base) td_batch_sprite(b, base, x, y, size, size, 0, tint);
  if (tur) {
    td_batch_sprite(b, tur, x, y, size, size, facing, tint);
  } else {
    SDL_Color c = col;
    c.r = (Uint8)(c.r * tint.r / 255);
    c.g = (Uint8)(c.g * tint.g / 255);
    c.b = (Uint8)(c.b * tint.b / 255);
    c.a = tint.a;
    fallback(b, r->levels[level].name, x, y, size * 0.6f, facing, false, c);
  }
}

void td_scene_enemy_icon(td_scene *s, td_batch *b, const td_rules *r, int32_t type, float cx,
                         float cy, float size) {
  bind_rules(s, r);
  /* the whole cell size across (the fallback's disc 0.8 of it) */
  const td_sprite *sp = enemy_sprite(s, type);
  draw_enemy_sprite(s, b, r, type, cx, cy, sp && sp->body > 0 ? size * sp->body : size * 0.8f, 0, WHITE);
}

void td_scene_tower_icon(td_scene *s, td_batch *b, const td_rules *r, int32_t level, float cx,
                         float cy, float size) {
  bind_rules(s, r);
  draw_tower_sprite(s, b, r, level, cx, cy, size, 0, WHITE);
}

/* ---- the map ---------------------------------------------------------------- */

static void draw_tiles(td_scene *s, td_batch *b, const td_map *m, const td_camera *cam) {
  float tw = (float)m->tile_w, th = (float)m->tile_h;
  float x0 = td_camera_sx(cam, 0), y0 = td_camera_sy(cam, 0);
  float mw = (float)m->width * tw * cam->zoom, mh = (float)m->height * th * cam->zoom;
  td_batch_rect(b, x0 - 6, y0 - 6, mw + 12, mh + 12, td_color(30, 40, 30, 255));
  const td_sprite *grass = td_atlas_find(s->atlas, m->grid ? "tile_floor" : "tile_grass");
  const td_sprite *second = td_atlas_find(s->atlas, m->grid ? "tile_wall" : "tile_road");
  const td_sprite *pad = td_atlas_find(s->atlas, "tile_pad");
  if (m->layer_count == 0) {
    /* no tiles: grass, and the graph's edges as roads */
    for (int32_t y = 0; y < m->height; y++)
      for (int32_t x = 0; x < m->width; x++)
        if (grass)
          td_batch_sprite_rect(b, grass, td_camera_sx(cam, (float)x * tw),
                               td_camera_sy(cam, (float)y * th), tw * cam->zoom + 0.5f,
                               th * cam->zoom + 0.5f, WHITE);
    const td_graph *g = m->graph;
    for (int32_t e = 0; e < g->edge_count; e++) {
      const td_edge *ed = &g->edges[e];
      td_batch_line(b, td_camera_sx(cam, (float)g->x[ed->a]), td_camera_sy(cam, (float)g->y[ed->a]),
                    td_camera_sx(cam, (float)g->x[ed->b]), td_camera_sy(cam, (float)g->y[ed->b]),
                    tw * 0.8f * cam->zoom, td_color(176, 146, 100, 255));
    }
    return;
  }
  /* visible cell range */
  int32_t cx0 = (int32_t)floorf(td_camera_wx(cam, (float)cam->vx) / tw) - 1;
  int32_t cy0 = (int32_t)floorf(td_camera_wy(cam, (float)cam->vy) / th) - 1;
  int32_t cx1 = (int32_t)ceilf(td_camera_wx(cam, (float)(cam->vx + cam->vw)) / tw) + 1;
  int32_t cy1 = (int32_t)ceilf(td_camera_wy(cam, (float)(cam->vy + cam->vh)) / th) + 1;
  for (size_t l = 0; l < m->layer_count; l++) {
    const td_map_layer *L = &m->layers[l];
    for (int32_t y = cy0 < 0 ? 0 : cy0; y < L->height && y <= cy1; y++)
      for (int32_t x = cx0 < 0 ? 0 : cx0; x < L->width && x <= cx1; x++) {
        uint32_t gid = L->gids[(size_t)y * (size_t)L->width + (size_t)x] & ~TD_MAP_GID_FLAGS;
        if (!gid) continue;
        float sx = td_camera_sx(cam, (float)L->offset_x + (float)x * tw);
        float sy = td_camera_sy(cam, (float)L->offset_y + (float)y * th);
        /* +0.5: no seams between tiles at fractional zoom */
        float w = tw * cam->zoom + 0.5f, h = th * cam->zoom + 0.5f;
        const td_sprite *sp = gid == 1 ? grass : gid == 2 ? second : gid == 3 ? pad : NULL;
        if (sp) {
          td_batch_sprite_rect(b, sp, sx, sy, w, h, WHITE);
        } else {
          char n[16];
          snprintf(n, sizeof n, "tile %u", gid);
          td_batch_rect(b, sx, sy, w, h, td_scene_name_color(n));
        }
      }
  }
}

/* Every tower base's pad, drawn at the base's own rectangle (one pad tile
** per tile it covers): a base off the tile grid (01-crossroads' 7-9 sit
** half a tile off, on the roads they close) shows where it is, whatever
** the tile layer draws under it. */
static void draw_pads(td_scene *s, td_batch *b, const td_map *m, const td_camera *cam) {
  const td_sprite *pad = td_atlas_find(s->atlas, "tile_pad");
  float tw = (float)m->tile_w, th = (float)m->tile_h, z = cam->zoom;
  if (!pad || tw <= 0 || th <= 0) return;
  for (size_t i = 0; i < m->base_count; i++) {
    const td_tower_base *tb = &m->bases[i];
    int nx = (int)lrintf((float)tb->w / tw), ny = (int)lrintf((float)tb->h / th);
    if (nx < 1) nx = 1;
    if (ny < 1) ny = 1;
    float cw = (float)tb->w / (float)nx, ch = (float)tb->h / (float)ny;
    for (int y = 0; y < ny; y++)
      for (int x = 0; x < nx; x++)
        td_batch_sprite_rect(b, pad, td_camera_sx(cam, (float)tb->x + cw * (float)x),
                             td_camera_sy(cam, (float)tb->y + ch * (float)y), cw * z + 0.5f,
                             ch * z + 0.5f, WHITE);
  }
}

static void chevron(td_batch *b, float x, float y, float dx, float dy, float size, SDL_Color c) {
  float px = -dy, py = dx;
  float w = fmaxf(1.5f, size * 0.28f);
  td_batch_line(b, x - dx * size * 0.5f + px * size * 0.6f, y - dy * size * 0.5f + py * size * 0.6f,
                x + dx * size * 0.3f, y + dy * size * 0.3f, w, c);
  td_batch_line(b, x - dx * size * 0.5f - px * size * 0.6f, y - dy * size * 0.5f - py * size * 0.6f,
                x + dx * size * 0.3f, y + dy * size * 0.3f, w, c);
}

/* A grid step's arrow: a shaft and a narrow head, so it reads as an arrow
** in all eight directions (a plain chevron turned 45 degrees on square
** cells looks like a corner bracket). */
static void arrow(td_batch *b, float x, float y, float dx, float dy, float size, SDL_Color c) {
  float px = -dy, py = dx;
  float w = fmaxf(1.5f, size * 0.22f);
  float tx = x + dx * size * 0.55f, ty = y + dy * size * 0.55f;
  td_batch_line(b, x - dx * size * 0.55f, y - dy * size * 0.55f, tx, ty, w, c);
  td_batch_line(b, tx - dx * size * 0.5f + px * size * 0.32f, ty - dy * size * 0.5f + py * size * 0.32f,
                tx, ty, w, c);
  td_batch_line(b, tx - dx * size * 0.5f - px * size * 0.32f, ty - dy * size * 0.5f - py * size * 0.32f,
                tx, ty, w, c);
}

#define CHEVRON_SPACING 0.75f /* tiles between chevrons along a way */

/* Chevrons along one route step n -> t, spaced and drifting with time
** (seed 004's golden arrows), or one arrow at the middle when `one` (a
** grid's field). `start` is how far along its way the step begins (map
** units): the chevrons sit at the way's distances phase, phase + spacing,
** ..., so a way of steps shorter than the spacing (a grid's cells) shows
** them evenly whatever the phase (each step counting from its own start,
** a one-cell step had none once the phase was past 0.83: every chevron of
** a large grid vanished at once, ~0.2 s in every 1.25 s). Returns the
** step's length. */
static float step_chevrons(td_batch *b, const td_graph *g, int32_t n, int32_t t,
                           const td_camera *cam, float tile, float phase, float start, bool one,
                           SDL_Color c) {
  float ax = (float)g->x[n], ay = (float)g->y[n], bx = (float)g->x[t], by = (float)g->y[t];
  float dx = bx - ax, dy = by - ay, len = sqrtf(dx * dx + dy * dy);
  if (len < 1e-3f) return 0;
  dx /= len;
  dy /= len;
  float sa = td_camera_sx(cam, ax), sb = td_camera_sx(cam, bx);
  float ta = td_camera_sy(cam, ay), tb = td_camera_sy(cam, by);
  if (fmaxf(sa, sb) < (float)cam->vx - 20 || fminf(sa, sb) > (float)(cam->vx + cam->vw) + 20 ||
      fmaxf(ta, tb) < (float)cam->vy - 20 || fminf(ta, tb) > (float)(cam->vy + cam->vh) + 20)
    return len;
  if (one) {
    float mx = td_camera_sx(cam, ax + dx * len * 0.5f), my = td_camera_sy(cam, ay + dy * len * 0.5f);
    arrow(b, mx, my, dx, dy, tile * 0.34f * cam->zoom, c);
    return len;
  }
  float spacing = tile * CHEVRON_SPACING;
  /* the first chevron at or after start, in [0, spacing) from the step's start */
  float d0 = fmodf(spacing * (phase + 0.5f) - start, spacing);
  if (d0 < 0) d0 += spacing;
  /* an integer counter: a float one that no longer changes never ends */
  for (int k = 0; d0 + spacing * (float)k < len; k++) {
    float d = d0 + spacing * (float)k;
    float x = ax + dx * d, y = ay + dy * d;
    chevron(b, td_camera_sx(cam, x), td_camera_sy(cam, y), dx, dy, tile * 0.32f * cam->zoom, c);
  }
  return len;
}

/* The route on the ground: every node's next on a small map (a grid's
** whole flow field, which is what a player mazes with); on a large one
** (more than ROUTE_FIELD_MAX nodes, where a field of arrows is noise) the
** way from each spawn to a goal, spaced chevrons like a waypoint map's.
** With cur (a ghost's preview), steps whose next changed take `changed`. */
#define ROUTE_FIELD_MAX 2000

static void draw_route(td_scene *s, td_batch *b, const td_map *m, const td_graph *g,
                       const int32_t *next, const int32_t *cur, const td_camera *cam, double time,
                       SDL_Color col, SDL_Color changed) {
  float tile = (float)m->tile_w;
  float phase = (float)fmod(time * 0.8, 1.0);
  if (g->node_count <= ROUTE_FIELD_MAX) {
    bool one = m->grid != NULL;
    for (int32_t n = 0; n < g->node_count; n++)
      if (next[n] >= 0)
        step_chevrons(b, g, n, next[n], cam, tile, phase, 0, one, cur && cur[n] != next[n] ? changed : col);
    return;
  }
  /* the spawns' ways, each node once (ways merge): marks stamped with a
  ** generation, so nothing is cleared per frame */
  if (!grow((void **)&s->route_mark, &s->mark_cap, (size_t)g->node_count, sizeof *s->route_mark))
    return;
  if (++s->mark_gen == 0) {
    memset(s->route_mark, 0, s->mark_cap * sizeof *s->route_mark);
    s->mark_gen = 1;
  }
  for (size_t i = 0; i < m->spawn_count; i++) {
    int32_t n = m->spawns[i].node;
    float along = 0; /* the way's length so far: chevrons evenly along it */
    for (int32_t steps = 0; n >= 0 && steps < g->node_count; steps++) {
      int32_t t = next[n];
      if (t < 0 || s->route_mark[n] == s->mark_gen) break;
      s->route_mark[n] = s->mark_gen;
      along += step_chevrons(b, g, n, t, cam, tile, phase, along, false, cur && cur[n] != t ? changed : col);
      n = t;
    }
  }
}

/* ---- the grid overlay's A* --------------------------------------------------- */

/* Room for n more entries in ov_nodes and ov_differs. false: out of memory. */
static bool way_room(td_scene *s, size_t n) {
  return grow((void **)&s->ov_nodes, &s->ov_nodes_cap, s->ov_nnodes + n, sizeof *s->ov_nodes) &&
         grow((void **)&s->ov_differs, &s->ov_differs_cap, s->ov_nnodes + n, 1);
}

/* One spawn: A* to each goal, the cheapest kept (the earlier goal on a tie;
** the first goal's search when none is reached), its closed set added to
** ov_closed and its path to ov_nodes; then the route's way, each step
** compared with A*'s. false: out of memory. */
static bool astar_way_make(td_scene *s, const td_route *rt, int32_t spawn, astar_way *out) {
  const td_graph *g = td_route_graph(rt);
  const int32_t *goals;
  size_t ng = td_route_goals(rt, &goals);
  td_err err;
  *out = (astar_way){.spawn = spawn, .cost = TD_COST_INF, .route_dist = td_route_dist(rt)[spawn]};
  size_t keep = 0, last = ng;
  for (size_t j = 0; j < ng; j++) {
    last = j;
    td_astar_status st = td_astar_find(s->astar, g, spawn, goals[j], &err);
    if (st == TD_ASTAR_ERROR) return false;
    td_cost c;
    if (st == TD_ASTAR_FOUND && td_astar_path(s->astar, NULL, 0, &c) && c < out->cost) {
      out->cost = c;
      keep = j;
      out->found = true;
    }
  }
  if (ng == 0) return true;
  if (keep != last && td_astar_find(s->astar, g, spawn, goals[keep], &err) == TD_ASTAR_ERROR)
    return false; /* the kept search again, for its closed set */
  out->expanded = td_astar_expanded(s->astar);
  for (int32_t n = 0; n < g->node_count; n++)
    if (td_astar_closed(s->astar, n)) s->ov_closed[n] = 1;
  size_t len = td_astar_path(s->astar, NULL, 0, NULL);
  if (!way_room(s, len)) return false;
  out->path_at = s->ov_nnodes;
  out->path_len = td_astar_path(s->astar, s->ov_nodes + s->ov_nnodes, len, NULL);
  s->ov_nnodes += out->path_len;
  /* the route's way, as enemies walk it */
  const int32_t *next = td_route_next(rt);
  out->route_at = s->ov_nnodes;
  for (int32_t n = spawn, steps = 0; out->route_dist != TD_COST_INF; n = next[n], steps++) {
    if (!way_room(s, 1)) return false;
    s->ov_nodes[s->ov_nnodes++] = n;
    if (next[n] < 0 || steps >= g->node_count) break;
  }
  out->route_len = s->ov_nnodes - out->route_at;
  /* where they differ: A*'s path indexed in ov_pos (cleared again after) */
  const int32_t *path = s->ov_nodes + out->path_at, *way = s->ov_nodes + out->route_at;
  for (size_t i = 0; i < out->path_len; i++) s->ov_pos[path[i]] = (int32_t)i + 1;
  for (size_t i = 0; i < out->route_len; i++) {
    int32_t at = s->ov_pos[way[i]];
    if (at == 0) out->differ++;
    s->ov_differs[out->route_at + i] =
        i + 1 < out->route_len && (at == 0 || s->ov_pos[way[i + 1]] != at + 1);
  }
  for (size_t i = 0; i < out->path_len; i++) s->ov_pos[path[i]] = 0;
  return true;
}

/* Brings the A* cache up to date with the world's route. The route's
** update counters say when nothing was applied (the usual frame: O(1)); when
** they moved (a tower, or a placement check or preview, which rolls back),
** the blocked flags are compared with the snapshot, and A* runs only when
** they differ. Reads the world; changes nothing in it. */
static void astar_refresh(td_scene *s, const td_world *w) {
  const td_map *m = td_world_map(w);
  const td_route *rt = td_world_route(w);
  const td_graph *g = td_route_graph(rt);
  const td_route_stats *st = td_route_get_stats(rt);
  bool same_world = s->ov_valid && s->ov_route == rt && s->ov_graph == g;
  if (same_world && s->ov_full == st->full_count && s->ov_incr == st->incremental_count) return;
  s->ov_full = st->full_count;
  s->ov_incr = st->incremental_count;
  size_t nn = (size_t)g->node_count, nf = nn + (size_t)g->edge_count;
  if (same_world && s->ov_nflags == nf && !memcmp(s->ov_flags, g->node_blocked, nn)) {
    size_t e = 0;
    while (e < (size_t)g->edge_count && s->ov_flags[nn + e] == g->edges[e].blocked) e++;
    if (e == (size_t)g->edge_count) return; /* rolled back: as before */
  }
  s->ov_valid = true;
  s->ov_route = rt;
  s->ov_graph = g;
  s->ov_nways = s->ov_nnodes = 0;
  s->ov_nflags = 0;
  td_err err;
  if (!s->astar) s->astar = td_astar_create(&err);
  if (!s->astar || !grow((void **)&s->ov_flags, &s->ov_flags_cap, nf + 1, 1) ||
      !grow((void **)&s->ov_closed, &s->ov_closed_cap, nn + 1, 1) ||
      !grow((void **)&s->ov_pos, &s->ov_pos_cap, nn + 1, sizeof *s->ov_pos) ||
      !grow((void **)&s->ov_ways, &s->ov_ways_cap, m->spawn_count + 1, sizeof *s->ov_ways))
    return; /* nothing shown; tried again on the route's next update */
  memcpy(s->ov_flags, g->node_blocked, nn);
  for (size_t e = 0; e < (size_t)g->edge_count; e++) s->ov_flags[nn + e] = g->edges[e].blocked;
  s->ov_nflags = nf;
  memset(s->ov_closed, 0, nn);
  for (size_t i = 0; i < m->spawn_count; i++) {
    int32_t spawn = m->spawns[i].node;
    if (spawn < 0 || spawn >= g->node_count) continue;
    if (!astar_way_make(s, rt, spawn, &s->ov_ways[s->ov_nways])) {
      s->ov_nways = 0;
      return;
    }
    s->ov_nways++;
  }
}

/* A dashed segment; *along carries the dash phase from one segment to the
** next, so a polyline's dashes run on round its corners. */
static void dashed_line(td_batch *b, float x0, float y0, float x1, float y1, float width,
                        float dash, float *along, SDL_Color c) {
  float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
  if (len < 0.5f) return;
  dx /= len;
  dy /= len;
  float period = dash * 1.8f;
  float t = -fmodf(*along, period);
  for (int k = 0; t + period * (float)k < len; k++) {
    float a = fmaxf(0, t + period * (float)k), e = fminf(len, t + period * (float)k + dash);
    if (e > a) td_batch_line(b, x0 + dx * a, y0 + dy * a, x0 + dx * e, y0 + dy * e, width, c);
  }
  *along += len;
}

#define ASTAR_COLOR td_color(255, 70, 230, 255)    /* A*'s path (magenta) */
#define ASTAR_CLOSED td_color(70, 190, 255, 50)    /* its closed set, faint blue */

/* Over everything: per spawn, the route's steps that A* does not take
** (white dashes), A*'s path (magenta) and a label with A*'s expansions and
** cost against the route's dist. The closed set is tinted under the route
** (draw_overlays_under). */
static void draw_astar(td_scene *s, td_batch *b, const td_world *w, const td_camera *cam) {
  const td_map *m = td_world_map(w);
  const td_graph *g = td_route_graph(td_world_route(w));
  const float z = cam->zoom, tile = (float)m->tile_w;
  const float lw = fmaxf(2.0f, tile * 0.1f * z);
  for (size_t i = 0; i < s->ov_nways; i++) {
    const astar_way *wy = &s->ov_ways[i];
    float along = 0;
    for (size_t k = 0; k + 1 < wy->route_len; k++) {
      if (!s->ov_differs[wy->route_at + k]) continue;
      int32_t a = s->ov_nodes[wy->route_at + k], c = s->ov_nodes[wy->route_at + k + 1];
      float x0 = td_camera_sx(cam, (float)g->x[a]), y0 = td_camera_sy(cam, (float)g->y[a]);
      float x1 = td_camera_sx(cam, (float)g->x[c]), y1 = td_camera_sy(cam, (float)g->y[c]);
      float before = along;
      dashed_line(b, x0, y0, x1, y1, lw + 2.0f, lw * 2.5f, &along, td_color(0, 0, 0, 160));
      along = before;
      dashed_line(b, x0, y0, x1, y1, lw * 0.7f, lw * 2.5f, &along, td_color(255, 255, 255, 235));
    }
    for (int pass = 0; pass < 2; pass++) {
      SDL_Color c = pass ? ASTAR_COLOR : td_color(0, 0, 0, 150);
      float wd = pass ? lw : lw + 3.0f;
      for (size_t k = 0; k < wy->path_len; k++) {
        int32_t n = s->ov_nodes[wy->path_at + k];
        float x = td_camera_sx(cam, (float)g->x[n]), y = td_camera_sy(cam, (float)g->y[n]);
        td_batch_disc(b, x, y, wd * 0.5f, c); /* round joints */
        if (k + 1 < wy->path_len) {
          int32_t t = s->ov_nodes[wy->path_at + k + 1];
          td_batch_line(b, x, y, td_camera_sx(cam, (float)g->x[t]), td_camera_sy(cam, (float)g->y[t]),
                        wd, c);
        }
      }
    }
    /* the label, beside the spawn */
    char l1[96], l2[96];
    if (wy->found)
      snprintf(l1, sizeof l1, "A*: %llu expanded, cost %.1f", (unsigned long long)wy->expanded,
               td_graph_cost_to_units(wy->cost));
    else
      snprintf(l1, sizeof l1, "A*: no path, %llu expanded", (unsigned long long)wy->expanded);
    bool agree = wy->found && wy->route_dist == wy->cost;
    if (wy->route_dist == TD_COST_INF)
      snprintf(l2, sizeof l2, "route: cut off");
    else if (wy->differ == 0)
      snprintf(l2, sizeof l2, "route: %.1f, same cells", td_graph_cost_to_units(wy->route_dist));
    else
      snprintf(l2, sizeof l2, "route: %.1f, %zu %s (dashed)", td_graph_cost_to_units(wy->route_dist),
               wy->differ, wy->differ == 1 ? "cell differs" : "cells differ");
    int sc = z >= 1.6f ? 2 : 1;
    float tw = (float)(td_text_width(l1, sc) > td_text_width(l2, sc) ? td_text_width(l1, sc)
                                                                     : td_text_width(l2, sc));
    float th = (float)(18 * sc), pad = (float)(3 * sc);
    float sx = td_camera_sx(cam, (float)g->x[wy->spawn]), sy = td_camera_sy(cam, (float)g->y[wy->spawn]);
    float lx = sx + tile * 0.6f * z, ly = sy - tile * 0.6f * z - th - pad;
    lx = fminf(lx, (float)(cam->vx + cam->vw) - tw - pad - 4);
    lx = fmaxf(lx, (float)cam->vx + pad + 4);
    ly = fminf(fmaxf(ly, (float)cam->vy + pad + 4), (float)(cam->vy + cam->vh) - th - pad - 4);
    td_batch_rect(b, lx - pad, ly - pad, tw + 2 * pad, th + 2 * pad - (float)sc, td_color(15, 10, 25, 215));
    td_batch_rect_outline(b, lx - pad, ly - pad, tw + 2 * pad, th + 2 * pad - (float)sc, 1, ASTAR_COLOR);
    td_batch_text(b, lx, ly, sc, l1, td_color(255, 170, 245, 255), false);
    td_batch_text(b, lx, ly + (float)(9 * sc), sc, l2,
                  agree ? td_color(235, 235, 235, 255) : td_color(255, 110, 90, 255), false);
  }
}

static void draw_overlays_under(td_scene *s, td_batch *b, const td_world *w, const td_camera *cam,
                                const td_scene_params *p) {
  const td_map *m = td_world_map(w);
  const td_route *rt = td_world_route(w);
  const td_graph *g = td_route_graph(rt);
  const float z = cam->zoom, tile = (float)m->tile_w;
  if (p->overlay[TD_OVERLAY_GRID] && m->grid) {
    const td_grid *gr = m->grid;
    float cs = (float)gr->cell;
    astar_refresh(s, w);
    const uint8_t *closed = s->ov_nflags ? s->ov_closed : NULL;
    for (int32_t y = 0; y < gr->height; y++)
      for (int32_t x = 0; x < gr->width; x++) {
        float sx = td_camera_sx(cam, (float)gr->origin_x + (float)x * cs);
        float sy = td_camera_sy(cam, (float)gr->origin_y + (float)y * cs);
        if (sx > (float)(cam->vx + cam->vw) || sy > (float)(cam->vy + cam->vh) || sx + cs * z < 0 ||
            sy + cs * z < 0)
          continue;
        int32_t node = gr->cell_node ? gr->cell_node[(size_t)y * (size_t)gr->width + (size_t)x] : -1;
        bool blocked = node >= 0 && g->node_blocked[node];
        if (!gr->walkable[(size_t)y * (size_t)gr->width + (size_t)x])
          td_batch_rect(b, sx, sy, cs * z, cs * z, s->pal->cell_closed);
        else if (blocked)
          td_batch_rect(b, sx, sy, cs * z, cs * z, s->pal->cell_blocked);
        else if (closed && node >= 0 && closed[node])
          td_batch_rect(b, sx, sy, cs * z, cs * z, ASTAR_CLOSED);
        td_batch_rect_outline(b, sx, sy, cs * z, cs * z, 1, td_color(0, 0, 0, 60));
      }
  }
  if (p->overlay[TD_OVERLAY_HASH]) {
    /* the crowd's neighbour grid as its last step laid it out: the lines
    ** inside the view, and each agent's cell shaded (agents outside the
    ** grid fall into its border cells, as in the crowd) */
    const td_crowd *cr = td_world_crowd(w);
    td_crowd_grid gd;
    if (td_crowd_grid_info(cr, &gd)) {
      float cs = gd.cell, gx1 = gd.x0 + cs * (float)gd.cols, gy1 = gd.y0 + cs * (float)gd.rows;
      float wx0 = td_camera_wx(cam, (float)cam->vx), wy0 = td_camera_wy(cam, (float)cam->vy);
      float wx1 = td_camera_wx(cam, (float)(cam->vx + cam->vw));
      float wy1 = td_camera_wy(cam, (float)(cam->vy + cam->vh));
      SDL_Color c = td_color(120, 200, 255, 70);
      if (cs * z >= 3.0f) { /* lines closer than 3 pixels would only grey the map */
        int32_t k0 = (int32_t)fmaxf(0.0f, floorf((wx0 - gd.x0) / cs));
        int32_t k1 = (int32_t)fminf((float)gd.cols, ceilf((wx1 - gd.x0) / cs));
        float top = td_camera_sy(cam, fmaxf(gd.y0, wy0)), bottom = td_camera_sy(cam, fminf(gy1, wy1));
        for (int32_t k = k0; k <= k1; k++)
          td_batch_rect(b, td_camera_sx(cam, gd.x0 + cs * (float)k), top, 1, bottom - top, c);
        k0 = (int32_t)fmaxf(0.0f, floorf((wy0 - gd.y0) / cs));
        k1 = (int32_t)fminf((float)gd.rows, ceilf((wy1 - gd.y0) / cs));
        float left = td_camera_sx(cam, fmaxf(gd.x0, wx0)), right = td_camera_sx(cam, fminf(gx1, wx1));
        for (int32_t k = k0; k <= k1; k++)
          td_batch_rect(b, left, td_camera_sy(cam, gd.y0 + cs * (float)k), right - left, 1, c);
      }
      size_t cap = td_crowd_capacity(cr);
      td_agent_view v;
      for (size_t i = 0; i < cap; i++) {
        if (!td_crowd_view(cr, i, &v) || v.state == TD_AGENT_FREE || v.state == TD_AGENT_WAITING)
          continue;
        float col = fminf(fmaxf(floorf((v.x - gd.x0) / cs), 0.0f), (float)(gd.cols - 1));
        float row = fminf(fmaxf(floorf((v.y - gd.y0) / cs), 0.0f), (float)(gd.rows - 1));
        td_batch_rect(b, td_camera_sx(cam, gd.x0 + col * cs), td_camera_sy(cam, gd.y0 + row * cs),
                      cs * z, cs * z, td_color(120, 200, 255, 14));
      }
    }
  }
  (void)tile;
}

/* ---- the lanes overlay's road edges --------------------------------------- */

/* The edges of the walkable area (map.h): on a waypoint map the outline of
** the road, the union of its edges' square-capped rectangles; on a grid map
** the sides between open and closed cells (a tower's blocked cells
** included, read live); on both, the footprints of built towers that block
** something. One colour that reads on grass, road, floor and wall. */
#define ROAD_EDGE_COLOR td_color(90, 255, 255, 215)

typedef struct road_rect {
  double cx, cy;          /* centre */
  double ux, uy;          /* unit vector along the edge (n = (-uy, ux)) */
  double hl, hw;          /* half length (caps included), half width */
  double x0, y0, x1, y1;  /* bounding box */
} road_rect;

/* Edge e's rectangle; false when it has none (no width). */
static bool road_rect_of(const td_graph *g, const float *width, int32_t e, road_rect *r) {
  const td_edge *ed = &g->edges[e];
  double w = (double)width[e];
  if (!(w > 0) || !isfinite(w)) return false;
  double ax = g->x[ed->a], ay = g->y[ed->a], bx = g->x[ed->b], by = g->y[ed->b];
  double dx = bx - ax, dy = by - ay, l = sqrt(dx * dx + dy * dy);
  r->ux = l > 1e-9 ? dx / l : 1.0;
  r->uy = l > 1e-9 ? dy / l : 0.0;
  r->cx = (ax + bx) / 2;
  r->cy = (ay + by) / 2;
  r->hw = w / 2;
  r->hl = (l > 1e-9 ? l / 2 : 0.0) + r->hw;
  double ex = fabs(r->ux) * r->hl + fabs(r->uy) * r->hw;
  double ey = fabs(r->uy) * r->hl + fabs(r->ux) * r->hw;
  r->x0 = r->cx - ex;
  r->x1 = r->cx + ex;
  r->y0 = r->cy - ey;
  r->y1 = r->cy + ey;
  return true;
}

/* Narrows [*t0, *t1] to where a + d t lies strictly inside (-lim, lim). */
static bool clip_slab(double a, double d, double lim, double *t0, double *t1) {
  if (fabs(d) < 1e-12) return a > -lim && a < lim;
  double ta = (-lim - a) / d, tb = (lim - a) / d;
  if (ta > tb) {
    double t = ta;
    ta = tb;
    tb = t;
  }
  if (ta > *t0) *t0 = ta;
  if (tb < *t1) *t1 = tb;
  return *t0 < *t1;
}

static int cmp_interval(const void *a, const void *b) {
  double x = ((const double *)a)[0], y = ((const double *)b)[0];
  return x < y ? -1 : x > y;
}

static bool road_push(td_scene *s, double x0, double y0, double x1, double y1) {
  if (s->road_nseg == s->road_cap) {
    size_t cap = s->road_cap ? s->road_cap * 2 : 64;
    float *n = realloc(s->road_seg, cap * 4 * sizeof *n);
    if (!n) return false;
    s->road_seg = n;
    s->road_cap = cap;
  }
  float *o = &s->road_seg[s->road_nseg++ * 4];
  o[0] = (float)x0;
  o[1] = (float)y0;
  o[2] = (float)x1;
  o[3] = (float)y1;
  return true;
}

/* Builds the road's outline when the map changed: each rectangle's four
** sides, less the parts that are not on the union's outline, found by a
** parametric clip of the side against each other rectangle's two slabs:
** - where the ground a hair outside the side is another rectangle's (the
**   side runs inside it, or along a rectangle that abuts it);
** - where the side lies on a lower-numbered rectangle, edge included (a
**   side shared by two rectangles, as at a corner's caps or an edge and its
**   reverse, is drawn once, by the lowest).
** So junctions and corners show one clean outline. A closed edge stays
** road, so the outline never changes with the game. */
static void road_refresh(td_scene *s, const td_map *m) {
  const td_graph *g = m->graph;
  if (s->road_map == m && s->road_width == m->road_width && s->road_graph == g &&
      s->road_edges == (g ? g->edge_count : -1))
    return;
  s->road_map = m;
  s->road_width = m->road_width;
  s->road_graph = g;
  s->road_edges = g ? g->edge_count : -1;
  s->road_nseg = 0;
  if (!g || !m->road_width || g->edge_count <= 0) return;
  size_t ne = (size_t)g->edge_count;
  road_rect *rc = malloc(ne * sizeof *rc);
  bool *use = calloc(ne, sizeof *use);
  double *iv = malloc(ne * 2 * sizeof *iv);
  if (!rc || !use || !iv) goto done;
  for (size_t e = 0; e < ne; e++) use[e] = road_rect_of(g, m->road_width, (int32_t)e, &rc[e]);
  const double hair = 1e-3; /* map units */
  for (size_t e = 0; e < ne; e++) {
    if (!use[e]) continue;
    const road_rect *r = &rc[e];
    double nx = -r->uy, ny = r->ux;
    double px[4], py[4]; /* corners, in order around */
    for (int k = 0; k < 4; k++) {
      double sl = (k == 1 || k == 2) ? r->hl : -r->hl, sw = (k < 2) ? r->hw : -r->hw;
      px[k] = r->cx + r->ux * sl + nx * sw;
      py[k] = r->cy + r->uy * sl + ny * sw;
    }
    for (int k = 0; k < 4; k++) {
      double ax = px[k], ay = py[k], bx = px[(k + 1) & 3], by = py[(k + 1) & 3];
      double dx = bx - ax, dy = by - ay;
      /* outward normal: (-dy, dx) is n on the side at +hw, u on the cap at +hl */
      double on = sqrt(dx * dx + dy * dy), ox = on > 0 ? -dy / on : 0, oy = on > 0 ? dx / on : 0;
      double sx0 = fmin(ax, bx), sx1 = fmax(ax, bx), sy0 = fmin(ay, by), sy1 = fmax(ay, by);
      size_t n = 0;
      for (size_t j = 0; j < ne; j++) {
        if (j == e || !use[j]) continue;
        const road_rect *o = &rc[j];
        if (o->x0 > sx1 || o->x1 < sx0 || o->y0 > sy1 || o->y1 < sy0) continue;
        /* j < e: the side itself against j grown by a hair; else the side
        ** moved a hair outward against j */
        double grow = j < e ? hair : 0, shift = j < e ? 0 : hair;
        double t0 = 0, t1 = 1, qx = ax + ox * shift - o->cx, qy = ay + oy * shift - o->cy;
        if (!clip_slab(qx * o->ux + qy * o->uy, dx * o->ux + dy * o->uy, o->hl + grow, &t0, &t1))
          continue;
        if (!clip_slab(-qx * o->uy + qy * o->ux, -dx * o->uy + dy * o->ux, o->hw + grow, &t0, &t1))
          continue;
        iv[n * 2] = t0;
        iv[n * 2 + 1] = t1;
        n++;
      }
      qsort(iv, n, 2 * sizeof *iv, cmp_interval);
      double len = sqrt(dx * dx + dy * dy), at = 0, min_t = len > 0 ? 0.01 / len : 1;
      for (size_t i = 0; i <= n; i++) {
        double a = i < n ? iv[i * 2] : 1.0;
        if (a - at > min_t && !road_push(s, ax + dx * at, ay + dy * at, ax + dx * a, ay + dy * a))
          goto done;
        if (i < n && iv[i * 2 + 1] > at) at = iv[i * 2 + 1];
      }
    }
  }
done:
  free(rc);
  free(use);
  free(iv);
}

static bool cell_open(const td_grid *gr, const td_graph *g, int32_t x, int32_t y) {
  if (x < 0 || y < 0 || x >= gr->width || y >= gr->height) return false;
  size_t c = (size_t)y * (size_t)gr->width + (size_t)x;
  if (!gr->walkable[c]) return false;
  int32_t node = gr->cell_node ? gr->cell_node[c] : -1;
  return !(node >= 0 && node < g->node_count && g->node_blocked[node]);
}

static void draw_road_edges(td_scene *s, td_batch *b, const td_world *w, const td_camera *cam) {
  const td_map *m = td_world_map(w);
  const td_graph *g = td_route_graph(td_world_route(w));
  const float z = cam->zoom;
  const float vx0 = (float)cam->vx, vy0 = (float)cam->vy;
  const float vx1 = (float)(cam->vx + cam->vw), vy1 = (float)(cam->vy + cam->vh);
  SDL_Color c = ROAD_EDGE_COLOR;
  if (m->grid) {
    /* each visible cell's right and bottom sides (from the column and row
    ** before the grid, so its border shows): where one side is open and
    ** the other not */
    const td_grid *gr = m->grid;
    float cs = (float)gr->cell, ox = (float)gr->origin_x, oy = (float)gr->origin_y, l = cs * z;
    int32_t x0 = (int32_t)floorf((td_camera_wx(cam, vx0) - ox) / cs) - 1;
    int32_t y0 = (int32_t)floorf((td_camera_wy(cam, vy0) - oy) / cs) - 1;
    int32_t x1 = (int32_t)ceilf((td_camera_wx(cam, vx1) - ox) / cs) + 1;
    int32_t y1 = (int32_t)ceilf((td_camera_wy(cam, vy1) - oy) / cs) + 1;
    if (x0 < -1) x0 = -1;
    if (y0 < -1) y0 = -1;
    if (x1 > gr->width - 1) x1 = gr->width - 1;
    if (y1 > gr->height - 1) y1 = gr->height - 1;
    for (int32_t y = y0; y <= y1; y++) {
      bool here = cell_open(gr, g, x0, y);
      for (int32_t x = x0; x <= x1; x++) {
        bool right = cell_open(gr, g, x + 1, y);
        float sx = td_camera_sx(cam, ox + (float)x * cs), sy = td_camera_sy(cam, oy + (float)y * cs);
        if (here != right) td_batch_rect(b, sx + l - 1, sy, 2, l, c);
        if (here != cell_open(gr, g, x, y + 1)) td_batch_rect(b, sx, sy + l - 1, l, 2, c);
        here = right;
      }
    }
  } else {
    road_refresh(s, m);
    for (size_t i = 0; i < s->road_nseg; i++) {
      const float *q = &s->road_seg[i * 4];
      float ax = td_camera_sx(cam, q[0]), ay = td_camera_sy(cam, q[1]);
      float bx = td_camera_sx(cam, q[2]), by = td_camera_sy(cam, q[3]);
      if (fmaxf(ax, bx) < vx0 - 2 || fminf(ax, bx) > vx1 + 2 || fmaxf(ay, by) < vy0 - 2 ||
          fminf(ay, by) > vy1 + 2)
        continue;
      td_batch_line(b, ax, ay, bx, by, 2, c);
    }
  }
  /* built towers whose base blocks something: their footprints */
  for (size_t i = 0; i < m->base_count; i++) {
    const td_tower_base *tb = &m->bases[i];
    td_tower_view tv;
    if (tb->block_count == 0 || !td_world_tower(w, i, &tv)) continue;
    td_batch_rect_outline(b, td_camera_sx(cam, (float)tb->x), td_camera_sy(cam, (float)tb->y),
                          (float)tb->w * z, (float)tb->h * z, 2, c);
  }
}

static void draw_overlays_over(td_scene *s, td_batch *b, const td_world *w, const td_camera *cam,
                               const td_scene_params *p) {
  const td_map *m = td_world_map(w);
  const td_route *rt = td_world_route(w);
  const td_graph *g = td_route_graph(rt);
  const int32_t *next = td_route_next(rt);
  const float z = cam->zoom, tile = (float)m->tile_w;
  const td_crowd *cr = td_world_crowd(w);
  size_t cap = td_crowd_capacity(cr);
  td_agent_view v;
  if (p->overlay[TD_OVERLAY_GRID] && m->grid && s->ov_valid) draw_astar(s, b, w, cam);
  if (p->overlay[TD_OVERLAY_GRAPH]) {
    for (int32_t e = 0; e < g->edge_count; e++) {
      const td_edge *ed = &g->edges[e];
      bool open = td_graph_edge_open(g, e);
      float ax = td_camera_sx(cam, (float)g->x[ed->a]), ay = td_camera_sy(cam, (float)g->y[ed->a]);
      float bx = td_camera_sx(cam, (float)g->x[ed->b]), by = td_camera_sy(cam, (float)g->y[ed->b]);
      td_batch_line(b, ax, ay, bx, by, open ? 1.5f : 2.5f,
                    open ? td_color(230, 230, 255, 150) : td_color(255, 40, 40, 230));
      if (!open) {
        float mx = (ax + bx) / 2, my = (ay + by) / 2;
        td_batch_line(b, mx - 5, my - 5, mx + 5, my + 5, 2, td_color(255, 40, 40, 255));
        td_batch_line(b, mx - 5, my + 5, mx + 5, my - 5, 2, td_color(255, 40, 40, 255));
      }
    }
    bool labels = g->node_count < 400 && z >= 0.6f;
    for (int32_t n = 0; n < g->node_count; n++) {
      float x = td_camera_sx(cam, (float)g->x[n]), y = td_camera_sy(cam, (float)g->y[n]);
      if (x < -20 || y < -20 || x > (float)(cam->vx + cam->vw) + 20 || y > (float)(cam->vy + cam->vh) + 20)
        continue;
      td_batch_disc(b, x, y, 3, g->node_blocked[n] ? td_color(255, 40, 40, 255) : td_color(255, 255, 255, 220));
      int32_t t = next[n];
      if (t >= 0) {
        float tx = td_camera_sx(cam, (float)g->x[t]), ty = td_camera_sy(cam, (float)g->y[t]);
        float dx = tx - x, dy = ty - y, l = sqrtf(dx * dx + dy * dy);
        if (l > 1) {
          float al = fminf(l * 0.45f, tile * 0.6f * z);
          td_batch_line(b, x, y, x + dx / l * al, y + dy / l * al, 2, td_color(80, 255, 120, 255));
          td_batch_arrowhead(b, x + dx / l * al, y + dy / l * al, dx / l, dy / l, 7,
                             td_color(80, 255, 120, 255));
        }
      }
      if (labels) {
        char id[16];
        snprintf(id, sizeof id, "%d", n);
        td_batch_text(b, x + 4, y + 3, 1, id, td_color(255, 255, 255, 255), true);
      }
    }
  }
  if (p->overlay[TD_OVERLAY_LANES]) draw_road_edges(s, b, w, cam);
  if (p->overlay[TD_OVERLAY_LANES] || p->overlay[TD_OVERLAY_SEPARATION] ||
      p->overlay[TD_OVERLAY_FLYERS]) {
    for (size_t i = 0; i < cap; i++) {
      if (!td_crowd_view(cr, i, &v) || v.state == TD_AGENT_FREE || v.state == TD_AGENT_WAITING)
        continue;
      float x = td_camera_sx(cam, v.x), y = td_camera_sy(cam, v.y);
      if (x < -50 || y < -50 || x > (float)(cam->vx + cam->vw) + 50 || y > (float)(cam->vy + cam->vh) + 50)
        continue;
      if (p->overlay[TD_OVERLAY_SEPARATION] && v.ghost) {
        /* passing through the others to get out of a jam: no margin kept */
        td_batch_ring(b, x, y, v.radius * z, 2, td_color(0, 230, 255, 230));
      } else if (p->overlay[TD_OVERLAY_SEPARATION]) {
        td_batch_ring(b, x, y, v.radius * z, 1, td_color(255, 255, 255, 200));
        td_batch_ring(b, x, y, v.radius * 1.1f * z + 1, 1, td_color(255, 200, 0, 120));
      }
      if (p->overlay[TD_OVERLAY_LANES] && v.state == TD_AGENT_WALK && v.from >= 0 && v.to >= 0 &&
          v.from != v.to) {
        float ax = (float)g->x[v.from], ay = (float)g->y[v.from];
        float bx = (float)g->x[v.to], by = (float)g->y[v.to];
        float dx = bx - ax, dy = by - ay, l = sqrtf(dx * dx + dy * dy);
        if (l > 1e-3f) {
          dx /= l;
          dy /= l;
          /* + lane: to the left of travel, as seen on screen (y down) */
          float ox = dy * v.lane, oy = -dx * v.lane;
          float t = v.lane / (tile * 0.6f) * 0.5f + 0.5f;
          SDL_Color c = with_alpha(td_palette_lane(s->pal, t), 200);
          td_batch_line(b, td_camera_sx(cam, ax + ox), td_camera_sy(cam, ay + oy),
                        td_camera_sx(cam, bx + ox), td_camera_sy(cam, by + oy), 1, with_alpha(c, 90));
          float tx = td_camera_sx(cam, bx + ox), ty = td_camera_sy(cam, by + oy);
          td_batch_line(b, x, y, tx, ty, 1, c);
          td_batch_rect(b, tx - 2, ty - 2, 4, 4, c);
        }
      }
      if (p->overlay[TD_OVERLAY_FLYERS] && v.state == TD_AGENT_FLY) {
        /* the rays the flyer's next step casts: each to its length, red up
        ** to a hit (a dot where it hits); the fan's centre ray white, the
        ** last one (toward the goal) gold */
        td_crowd_ray rays[TD_CROWD_RAYS];
        int nr = td_crowd_flyer_rays(cr, i, rays);
        for (int k = 0; k < nr; k++) {
          const td_crowd_ray *ry = &rays[k];
          float x0 = td_camera_sx(cam, ry->ox), y0 = td_camera_sy(cam, ry->oy);
          float hit = isfinite(ry->hit) ? ry->hit : ry->len;
          float hx = td_camera_sx(cam, ry->ox + ry->dx * hit), hy = td_camera_sy(cam, ry->oy + ry->dy * hit);
          SDL_Color clear = k == 0                  ? td_color(255, 255, 255, 200)
                            : k == TD_CROWD_RAYS - 1 ? td_color(255, 210, 80, 200)
                                                     : td_color(120, 230, 255, 150);
          if (isfinite(ry->hit)) {
            td_batch_line(b, x0, y0, hx, hy, 1, td_color(255, 80, 60, 220));
            td_batch_line(b, hx, hy, td_camera_sx(cam, ry->ox + ry->dx * ry->len),
                          td_camera_sy(cam, ry->oy + ry->dy * ry->len), 1, with_alpha(clear, 60));
            td_batch_disc(b, hx, hy, 2.5f, td_color(255, 80, 60, 255));
          } else {
            td_batch_line(b, x0, y0, hx, hy, 1, clear);
          }
        }
      }
    }
  }
  if (p->overlay[TD_OVERLAY_UNITS]) td_units_draw_overlay(s->units, b, w, cam);
  if (p->overlay[TD_OVERLAY_FLYERS]) {
    for (size_t i = 0; i < m->base_count; i++) {
      td_tower_view tv;
      if (!td_world_tower(w, i, &tv)) continue;
      const td_tower_base *tb = &m->bases[i];
      td_batch_rect_outline(b, td_camera_sx(cam, (float)tb->x), td_camera_sy(cam, (float)tb->y),
                            (float)tb->w * z, (float)tb->h * z, 2, td_color(120, 230, 255, 200));
    }
  }
}

/* ---- the frame -------------------------------------------------------------- */

void td_scene_draw(td_scene *s, td_batch *b, const td_world *w, const td_camera *cam,
                   const td_scene_params *p) {
  const td_map *m = td_world_map(w);
  const td_rules *r = td_world_rules(w);
  const td_route *rt = td_world_route(w);
  const td_graph *g = td_route_graph(rt);
  bind_rules(s, r);
  const float z = cam->zoom, tile = (float)m->tile_w, a = p->alpha;
  draw_tiles(s, b, m, cam);
  draw_pads(s, b, m, cam);
  draw_overlays_under(s, b, w, cam, p);

  /* the route: the preview's when a ghost is shown */
  const int32_t *cur = td_route_next(rt);
  if (p->ghost.base >= 0 && p->ghost.next) {
    draw_route(s, b, m, g, p->ghost.next, cur, cam, p->time, with_alpha(s->pal->route, 150),
               s->pal->route_changed);
  } else {
    draw_route(s, b, m, g, cur, NULL, cam, p->time, s->pal->route, WHITE);
  }

  /* spawns and goals */
  for (size_t i = 0; i < m->spawn_count; i++) {
    int32_t n = m->spawns[i].node;
    float x = td_camera_sx(cam, (float)g->x[n]), y = td_camera_sy(cam, (float)g->y[n]);
    float pulse = 0.5f + 0.5f * sinf((float)p->time * 3);
    td_batch_disc(b, x, y, tile * 0.45f * z, s->pal->spawn_fill);
    td_batch_ring(b, x, y, tile * 0.45f * z, 3, s->pal->spawn);
    td_batch_ring(b, x, y, tile * (0.2f + 0.15f * pulse) * z, 2, s->pal->spawn_pulse);
  }
  for (size_t i = 0; i < m->goal_count; i++) {
    int32_t n = m->goals[i].node;
    float x = td_camera_sx(cam, (float)g->x[n]), y = td_camera_sy(cam, (float)g->y[n]);
    td_batch_disc(b, x, y, tile * 0.55f * z, s->pal->goal_fill);
    td_batch_ring(b, x, y, tile * 0.55f * z, 3, s->pal->goal);
    td_batch_disc(b, x, y, tile * 0.28f * z, s->pal->goal_core);
  }

  /* tower bases */
  float pulse = 0.5f + 0.5f * sinf((float)p->time * 4);
  for (size_t i = 0; i < m->base_count; i++) {
    const td_tower_base *tb = &m->bases[i];
    float x = td_camera_sx(cam, (float)tb->x), y = td_camera_sy(cam, (float)tb->y);
    float bw = (float)tb->w * z, bh = (float)tb->h * z;
    td_tower_view tv;
    bool has = td_world_tower(w, i, &tv);
    if (!has) {
      td_batch_rect(b, x + 2, y + 2, bw - 4, bh - 4, td_color(0, 0, 0, 40));
      SDL_Color oc = p->building ? td_color(255, 230, 120, 90 + (int)(120 * pulse)) : td_color(230, 230, 230, 110);
      td_batch_rect_outline(b, x + 1, y + 1, bw - 2, bh - 2, p->building ? 2 : 1, oc);
    }
    if ((int32_t)i == p->hover_base && p->ghost.base < 0)
      td_batch_rect_outline(b, x, y, bw, bh, 2, td_color(255, 255, 255, 200));
  }

  /* rubble, the selected barracks' flag, a flag being placed */
  td_units_draw_ground(s->units, b, w, cam, p->selected_base, &p->rally, p->time);

  /* ranges under everything that moves */
  for (size_t i = 0; i < m->base_count; i++) {
    td_tower_view tv;
    if (!td_world_tower(w, i, &tv)) continue;
    if ((int32_t)i != p->selected_base && !p->overlay[TD_OVERLAY_RANGES]) continue;
    float range = r->levels[tv.level].range * tile * z;
    float x = td_camera_sx(cam, tv.x), y = td_camera_sy(cam, tv.y);
    td_batch_disc(b, x, y, range, td_color(255, 255, 255, (int32_t)i == p->selected_base ? 30 : 14));
    td_batch_ring(b, x, y, range, 2, td_color(255, 255, 255, (int32_t)i == p->selected_base ? 160 : 70));
  }

  /* ground enemies, then towers, then flyers on top */
  size_t ncap = td_world_enemy_capacity(w);
  for (int layer = 0; layer < 2; layer++) {
    for (size_t i = 0; i < ncap; i++) {
      td_enemy_view v;
      if (!td_world_enemy(w, i, &v) || v.waiting || v.flying != (layer == 1)) continue;
      float x = v.x, y = v.y, f = v.facing;
      if (i < s->pe_cap && s->pe[i].handle == v.handle) {
        x = lerpf(s->pe[i].x, v.x, a);
        y = lerpf(s->pe[i].y, v.y, a);
        f = lerp_angle(s->pe[i].facing, v.facing, a);
      }
      float sx = td_camera_sx(cam, x), sy = td_camera_sy(cam, y);
      /* The body is the collision disc, 2 radius across at every zoom (the
      ** separation overlay's white ring is its edge). The floor is for
      ** visibility only: it applies when a disc would be under 4 pixels,
      ** i.e. zoomed far out on a big map (06-expanse fits at zoom 0.07,
      ** where a runner is 1 pixel); the other bundled maps never reach it. */
      float body = fmaxf(4.0f, v.radius * 2 * z);
      /* culling: the cell around the body (bodies fill 0.8-1 of theirs), its bar */
      float reach = body * 1.5f;
      if (sx < -reach || sy < -reach || sx > (float)(cam->vx + cam->vw) + reach ||
          sy > (float)(cam->vy + cam->vh) + reach)
        continue;
      SDL_Color tint = WHITE;
      if (v.state == TD_ENEMY_DYING) tint = td_color(255, 120, 120, 160);
      else if (v.slow > 0 && v.slow_time > 0) tint = td_color(150, 200, 255, 255);
      /* a flyer's shadow on the ground, below and right of the body */
      if (v.flying) td_batch_disc(b, sx + body * 0.2f, sy + body * 0.58f, body * 0.33f, td_color(0, 0, 0, 60));
      draw_enemy_sprite(s, b, r, v.type, sx, sy, body, f, tint);
      if (v.stun_time > 0 && s->star)
        td_batch_sprite(b, s->star, sx, sy - body * 0.55f, body * 0.5f, body * 0.5f, (float)p->time * 6,
                        td_color(255, 240, 120, 255));
      if (v.health < v.max_health && v.state != TD_ENEMY_DYING) {
        /* a bar a little wider than the body (a boss's wider), 3 pixels
        ** above its top */
        float bw = fmaxf(12.0f, body * (v.boss ? 1.5f : 1.1f)), bh = fmaxf(2.0f, body * 0.12f);
        float bx = sx - bw * 0.5f, by = sy - body * 0.5f - 3 - bh;
        float hp = v.max_health > 0 ? v.health / v.max_health : 0;
        td_batch_rect(b, bx - 1, by - 1, bw + 2, bh + 2, td_color(0, 0, 0, 200));
        SDL_Color hc = hp > 0.5f ? s->pal->hp_high : hp > 0.25f ? s->pal->hp_mid : s->pal->hp_low;
        td_batch_rect(b, bx, by, bw * hp, bh, hc);
      }
    }
    if (layer == 0) {
      for (size_t i = 0; i < m->base_count; i++) {
        td_tower_view tv;
        if (!td_world_tower(w, i, &tv)) continue;
        const td_tower_base *tb = &m->bases[i];
        float f = tv.facing;
        if (i < s->pt_cap) f = lerp_angle(s->pt[i], tv.facing, a);
        float size = (float)fmin(tb->w, tb->h) * z;
        float sx = td_camera_sx(cam, tv.x), sy = td_camera_sy(cam, tv.y);
        draw_tower_sprite(s, b, r, tv.level, sx, sy, size, f, WHITE);
        for (int32_t d = 0; d < tv.depth && d < 5; d++)
          td_batch_rect(b, sx - size * 0.42f + (float)d * size * 0.14f, sy + size * 0.32f, size * 0.1f,
                        size * 0.1f, td_color(255, 210, 60, 255));
        if (tv.buff_damage > 0 || tv.buff_rate > 0)
          td_batch_ring(b, sx, sy, size * 0.55f, 1.5f, td_color(255, 120, 255, 180));
        if ((int32_t)i == p->selected_base)
          td_batch_rect_outline(b, sx - size * 0.5f - 2, sy - size * 0.5f - 2, size + 4, size + 4, 2,
                                td_color(255, 255, 255, 230));
      }
      /* soldiers walk on the ground, between the towers and the flyers */
      td_units_draw(s->units, b, w, cam, a, p->time);
    }
  }

  /* projectiles */
  size_t nshot = td_world_shot_capacity(w);
  for (size_t i = 0; i < nshot; i++) {
    td_shot_view v;
    if (!td_world_shot(w, i, &v)) continue;
    float x = v.x, y = v.y;
    if (i < s->ps_cap && s->ps[i].used && s->ps[i].tower == v.tower && s->ps[i].target == v.target) {
      x = lerpf(s->ps[i].x, v.x, a);
      y = lerpf(s->ps[i].y, v.y, a);
    }
    float ang = atan2f(v.ty - v.y, v.tx - v.x);
    const td_sprite *sp = NULL;
    float size = tile * 0.5f * z;
    switch (v.kind) {
    case TD_SHOT_HOMING: sp = s->shot_spr[1]; break;
    case TD_SHOT_BALLISTIC: {
      sp = s->shot_spr[2];
      /* a shadow on the ground and a ball that arcs above it */
      float d = sqrtf((v.tx - x) * (v.tx - x) + (v.ty - y) * (v.ty - y));
      float lift = fminf(d, tile * 2) * 0.25f;
      td_batch_disc(b, td_camera_sx(cam, x), td_camera_sy(cam, y), size * 0.2f, td_color(0, 0, 0, 70));
      y -= lift;
      size *= 1.0f + lift / (tile * 2);
      break;
    }
    case TD_SHOT_CHAIN: sp = s->shot_spr[3]; break;
    case TD_SHOT_PIERCE: sp = s->shot_spr[4]; break;
    default: sp = s->shot_spr[0]; break;
    }
    float sx = td_camera_sx(cam, x), sy = td_camera_sy(cam, y);
    if (sp) td_batch_sprite(b, sp, sx, sy, size, size, ang, WHITE);
    else td_batch_disc(b, sx, sy, size * 0.25f, WHITE);
  }

  /* effects */
  for (size_t i = 0; i < s->nfx; i++) {
    const fx *f = &s->fx[i];
    float t = f->age / f->life;
    float sx = td_camera_sx(cam, f->x), sy = td_camera_sy(cam, f->y);
    int al = (int)(255 * (1 - t));
    switch (f->kind) {
    case FX_SPARK:
      if (s->star)
        td_batch_sprite(b, s->star, sx, sy, f->size * z * (0.6f + t), f->size * z * (0.6f + t), t * 2,
                        with_alpha(f->col, al));
      break;
    case FX_BURST:
      if (s->puff)
        td_batch_sprite(b, s->puff, sx, sy, f->size * z * (1 + 1.5f * t), f->size * z * (1 + 1.5f * t), 0,
                        with_alpha(f->col, al));
      for (int k = 0; k < 6; k++) {
        float ang = (float)k * PI_F / 3 + 0.3f;
        float d = f->size * z * t * 1.2f;
        td_batch_rect(b, sx + cosf(ang) * d - 2, sy + sinf(ang) * d - 2, 4, 4, with_alpha(f->col, al));
      }
      break;
    case FX_TEXT: {
      int sc = z >= 0.9f ? 2 : 1;
      float tw = (float)td_text_width(f->text, sc);
      td_batch_text(b, sx - tw / 2, sy - t * tile * z, sc, f->text, with_alpha(f->col, al), true);
      break;
    }
    case FX_TRACER: {
      float x = lerpf(f->x, f->x1, t), y = lerpf(f->y, f->y1, t);
      float ang = atan2f(f->y1 - f->y, f->x1 - f->x);
      if (s->arrow)
        td_batch_sprite(b, s->arrow, td_camera_sx(cam, x), td_camera_sy(cam, y), tile * 0.5f * z,
                        tile * 0.5f * z, ang, WHITE);
      break;
    }
    case FX_ZAP: {
      float x0 = sx, y0 = sy, x1 = td_camera_sx(cam, f->x1), y1 = td_camera_sy(cam, f->y1);
      float px = -(y1 - y0) * 0.15f, py = (x1 - x0) * 0.15f;
      float mx1 = x0 + (x1 - x0) * 0.33f + px, my1 = y0 + (y1 - y0) * 0.33f + py;
      float mx2 = x0 + (x1 - x0) * 0.66f - px, my2 = y0 + (y1 - y0) * 0.66f - py;
      SDL_Color c = with_alpha(f->col, al);
      td_batch_line(b, x0, y0, mx1, my1, 2, c);
      td_batch_line(b, mx1, my1, mx2, my2, 2, c);
      td_batch_line(b, mx2, my2, x1, y1, 2, c);
      break;
    }
    case FX_BOOM:
      td_batch_disc(b, sx, sy, f->size * z * (0.4f + 0.6f * t), with_alpha(td_color(255, 200, 80, 255), al / 2));
      td_batch_ring(b, sx, sy, f->size * z * (0.4f + 0.6f * t), 3, with_alpha(f->col, al));
      break;
    case FX_RING:
      td_batch_ring(b, sx, sy, f->size * z * (0.5f + t), 3, with_alpha(f->col, al));
      break;
    }
  }

  /* the ghost */
  if (p->ghost.base >= 0 && (size_t)p->ghost.base < m->base_count &&
      p->ghost.tower_type >= 0 && (size_t)p->ghost.tower_type < r->tower_count) {
    const td_tower_base *tb = &m->bases[p->ghost.base];
    float cx = (float)(tb->x + tb->w / 2), cy = (float)(tb->y + tb->h / 2);
    float sx = td_camera_sx(cam, cx), sy = td_camera_sy(cam, cy);
    int32_t root = r->towers[p->ghost.tower_type].root;
    float range = r->levels[root].range * tile * z;
    bool good = p->ghost.ok && p->ghost.afford;
    const td_palette *pal = s->pal;
    SDL_Color c = good ? pal->ok : p->ghost.ok ? pal->afford : pal->refused;
    td_batch_disc(b, sx, sy, range, with_alpha(c, 35));
    td_batch_ring(b, sx, sy, range, 2, with_alpha(c, 200));
    draw_tower_sprite(s, b, r, root, sx, sy, (float)fmin(tb->w, tb->h) * z, -PI_F / 4,
                      good ? td_color(255, 255, 255, 170) : pal->refused_tint);
    td_batch_rect_outline(b, td_camera_sx(cam, (float)tb->x), td_camera_sy(cam, (float)tb->y),
                          (float)tb->w * z, (float)tb->h * z, 2, c);
    float x0 = td_camera_sx(cam, (float)tb->x), y0 = td_camera_sy(cam, (float)tb->y);
    float fw = (float)tb->w * z, fh = (float)tb->h * z;
    if (!p->ghost.ok) {
      td_batch_line(b, x0, y0, x0 + fw, y0 + fh, 3, c);
      td_batch_line(b, x0 + fw, y0, x0, y0 + fh, 3, c);
      if (pal->shapes) /* stripes across the footprint: refused without its colour */
        for (int k = 1; k < 4; k++) {
          float f = (float)k / 4;
          td_batch_line(b, x0 + fw * f, y0, x0, y0 + fh * f, 2, with_alpha(c, 170));
          td_batch_line(b, x0 + fw, y0 + fh * f, x0 + fw * f, y0 + fh, 2, with_alpha(c, 170));
        }
    } else if (pal->shapes) { /* a tick in the footprint's corner: it can be built */
      float k = fmaxf(6.0f, fminf(fw, fh) * 0.22f), tx = x0 + fw - k * 1.3f, ty = y0 + k * 1.2f;
      SDL_Color tc = good ? c : pal->afford;
      td_batch_line(b, tx - k * 0.5f, ty, tx - k * 0.1f, ty + k * 0.45f, 3, tc);
      td_batch_line(b, tx - k * 0.1f, ty + k * 0.45f, tx + k * 0.6f, ty - k * 0.5f, 3, tc);
    }
    if (p->ghost.reason && p->ghost.reason[0]) {
      int tw = td_text_width(p->ghost.reason, 2);
      float tx = sx - (float)tw / 2, ty = sy - (float)tb->h * z * 0.5f - 30;
      if (tx < (float)cam->vx + 4) tx = (float)cam->vx + 4;
      if (tx + (float)tw > (float)(cam->vx + cam->vw) - 4) tx = (float)(cam->vx + cam->vw - 4 - tw);
      td_batch_rect(b, tx - 6, ty - 5, (float)tw + 12, 26, td_color(20, 10, 10, 220));
      td_batch_rect_outline(b, tx - 6, ty - 5, (float)tw + 12, 26, 1, c);
      td_batch_text(b, tx, ty, 2, p->ghost.reason, c, true);
    }
  }
  draw_overlays_over(s, b, w, cam, p);
}
