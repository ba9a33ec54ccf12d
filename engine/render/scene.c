/*
** scene.c: the world as the player sees it (see scene.h).
*/
#include "render/scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

struct td_scene {
  const td_atlas *atlas;
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
};

static const char *const overlay_names[TD_OVERLAY_COUNT] = {
  "graph", "lanes", "separation", "hash", "grid", "flyers", "ranges", "stats"};

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

td_scene *td_scene_create(const td_atlas *atlas) {
  td_scene *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->atlas = atlas;
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
  free(s->pe);
  free(s->ps);
  free(s->pt);
  free(s->fx);
  free(s->route_mark);
  free(s);
}

void td_scene_reset(td_scene *s) {
  s->nfx = 0;
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
      f = add_fx(s, FX_RING, e->x, e->y, 0.6f, td_color(255, 60, 60, 255));
      if (f) f->size = tile;
      if (td_world_enemy_get(w, e->enemy, &enemy)) {
        f = add_fx(s, FX_TEXT, enemy.x, enemy.y - 0.3f * tile, 1.0f, td_color(255, 90, 90, 255));
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

static void draw_enemy_sprite(td_scene *s, td_batch *b, const td_rules *r, int32_t type, float x,
                              float y, float size, float angle, SDL_Color tint) {
  const td_sprite *sp = s->enemy_spr && type >= 0 && (size_t)type < s->n_enemy ? s->enemy_spr[type] : NULL;
  if (sp) td_batch_sprite(b, sp, x, y, size, size, angle, tint);
  else
    fallback(b, type >= 0 && (size_t)type < r->enemy_count ? r->enemies[type].name : "?", x, y,
             size * 0.8f, angle, false,
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
  draw_enemy_sprite(s, b, r, type, cx, cy, size, 0, WHITE);
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

static void chevron(td_batch *b, float x, float y, float dx, float dy, float size, SDL_Color c) {
  float px = -dy, py = dx;
  float w = fmaxf(1.5f, size * 0.28f);
  td_batch_line(b, x - dx * size * 0.5f + px * size * 0.6f, y - dy * size * 0.5f + py * size * 0.6f,
                x + dx * size * 0.3f, y + dy * size * 0.3f, w, c);
  td_batch_line(b, x - dx * size * 0.5f - px * size * 0.6f, y - dy * size * 0.5f - py * size * 0.6f,
                x + dx * size * 0.3f, y + dy * size * 0.3f, w, c);
}

/* The route on the ground: golden chevrons along every node's next, moving
** toward the goals (waypoint maps), or one arrow per cell (grid maps).
** `changed` nodes (a ghost's preview differs there) are drawn in white. */
/* Chevrons along one route step n -> t: spaced and drifting with time
** (seed 004's golden arrows), or one at the middle when `one`. */
static void step_chevrons(td_batch *b, const td_graph *g, int32_t n, int32_t t,
                          const td_camera *cam, float tile, float phase, bool one, SDL_Color c) {
  float ax = (float)g->x[n], ay = (float)g->y[n], bx = (float)g->x[t], by = (float)g->y[t];
  float dx = bx - ax, dy = by - ay, len = sqrtf(dx * dx + dy * dy);
  if (len < 1e-3f) return;
  dx /= len;
  dy /= len;
  float sa = td_camera_sx(cam, ax), sb = td_camera_sx(cam, bx);
  float ta = td_camera_sy(cam, ay), tb = td_camera_sy(cam, by);
  if (fmaxf(sa, sb) < (float)cam->vx - 20 || fminf(sa, sb) > (float)(cam->vx + cam->vw) + 20 ||
      fmaxf(ta, tb) < (float)cam->vy - 20 || fminf(ta, tb) > (float)(cam->vy + cam->vh) + 20)
    return;
  if (one) {
    float mx = td_camera_sx(cam, ax + dx * len * 0.5f), my = td_camera_sy(cam, ay + dy * len * 0.5f);
    chevron(b, mx, my, dx, dy, tile * 0.3f * cam->zoom, c);
    return;
  }
  float spacing = tile * 0.75f;
  /* an integer counter: a float one that no longer changes never ends */
  float d0 = spacing * phase + spacing * 0.5f;
  for (int k = 0; d0 + spacing * (float)k < len; k++) {
    float d = d0 + spacing * (float)k;
    float x = ax + dx * d, y = ay + dy * d;
    chevron(b, td_camera_sx(cam, x), td_camera_sy(cam, y), dx, dy, tile * 0.32f * cam->zoom, c);
  }
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
        step_chevrons(b, g, n, next[n], cam, tile, phase, one, cur && cur[n] != next[n] ? changed : col);
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
    for (int32_t steps = 0; n >= 0 && steps < g->node_count; steps++) {
      int32_t t = next[n];
      if (t < 0 || s->route_mark[n] == s->mark_gen) break;
      s->route_mark[n] = s->mark_gen;
      step_chevrons(b, g, n, t, cam, tile, phase, false, cur && cur[n] != t ? changed : col);
      n = t;
    }
  }
}

static void draw_overlays_under(td_batch *b, const td_world *w, const td_camera *cam,
                                const td_scene_params *p) {
  const td_map *m = td_world_map(w);
  const td_route *rt = td_world_route(w);
  const td_graph *g = td_route_graph(rt);
  const float z = cam->zoom, tile = (float)m->tile_w;
  if (p->overlay[TD_OVERLAY_GRID] && m->grid) {
    const td_grid *gr = m->grid;
    float cs = (float)gr->cell;
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
          td_batch_rect(b, sx, sy, cs * z, cs * z, td_color(200, 40, 40, 70));
        else if (blocked)
          td_batch_rect(b, sx, sy, cs * z, cs * z, td_color(255, 140, 0, 90));
        td_batch_rect_outline(b, sx, sy, cs * z, cs * z, 1, td_color(0, 0, 0, 60));
      }
  }
  if (p->overlay[TD_OVERLAY_HASH]) {
    /* the crowd's hash cell size is private: estimated as twice the
    ** largest enemy diameter in the rules, at least one tile */
    const td_rules *r = td_world_rules(w);
    float maxr = 0.25f;
    for (size_t i = 0; i < r->enemy_count; i++) maxr = fmaxf(maxr, r->enemies[i].radius);
    float cs = fmaxf(tile, 4.0f * maxr * tile);
    float wx0 = floorf(td_camera_wx(cam, (float)cam->vx) / cs) * cs;
    float wy0 = floorf(td_camera_wy(cam, (float)cam->vy) / cs) * cs;
    float wx1 = td_camera_wx(cam, (float)(cam->vx + cam->vw)), wy1 = td_camera_wy(cam, (float)(cam->vy + cam->vh));
    SDL_Color c = td_color(120, 200, 255, 70);
    for (int k = 0; wx0 + cs * (float)k <= wx1; k++)
      td_batch_rect(b, td_camera_sx(cam, wx0 + cs * (float)k), (float)cam->vy, 1, (float)cam->vh, c);
    for (int k = 0; wy0 + cs * (float)k <= wy1; k++)
      td_batch_rect(b, (float)cam->vx, td_camera_sy(cam, wy0 + cs * (float)k), (float)cam->vw, 1, c);
    /* occupied cells */
    const td_crowd *cr = td_world_crowd(w);
    size_t cap = td_crowd_capacity(cr);
    td_agent_view v;
    for (size_t i = 0; i < cap; i++) {
      if (!td_crowd_view(cr, i, &v) || v.state == TD_AGENT_FREE) continue;
      float cx = floorf(v.x / cs) * cs, cy = floorf(v.y / cs) * cs;
      td_batch_rect(b, td_camera_sx(cam, cx), td_camera_sy(cam, cy), cs * z, cs * z,
                    td_color(120, 200, 255, 10));
    }
  }
  (void)tile;
}

static void draw_overlays_over(td_scene *s, td_batch *b, const td_world *w, const td_camera *cam,
                               const td_scene_params *p) {
  (void)s;
  const td_map *m = td_world_map(w);
  const td_route *rt = td_world_route(w);
  const td_graph *g = td_route_graph(rt);
  const int32_t *next = td_route_next(rt);
  const float z = cam->zoom, tile = (float)m->tile_w;
  const td_crowd *cr = td_world_crowd(w);
  size_t cap = td_crowd_capacity(cr);
  td_agent_view v;
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
  if (p->overlay[TD_OVERLAY_LANES] || p->overlay[TD_OVERLAY_SEPARATION] ||
      p->overlay[TD_OVERLAY_FLYERS]) {
    for (size_t i = 0; i < cap; i++) {
      if (!td_crowd_view(cr, i, &v) || v.state == TD_AGENT_FREE) continue;
      float x = td_camera_sx(cam, v.x), y = td_camera_sy(cam, v.y);
      if (x < -50 || y < -50 || x > (float)(cam->vx + cam->vw) + 50 || y > (float)(cam->vy + cam->vh) + 50)
        continue;
      if (p->overlay[TD_OVERLAY_SEPARATION]) {
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
          td_rgba lc = td_render_lane_color(t);
          SDL_Color c = td_color(lc.r, lc.g, lc.b, 200);
          td_batch_line(b, td_camera_sx(cam, ax + ox), td_camera_sy(cam, ay + oy),
                        td_camera_sx(cam, bx + ox), td_camera_sy(cam, by + oy), 1, with_alpha(c, 90));
          float tx = td_camera_sx(cam, bx + ox), ty = td_camera_sy(cam, by + oy);
          td_batch_line(b, x, y, tx, ty, 1, c);
          td_batch_rect(b, tx - 2, ty - 2, 4, 4, c);
        }
      }
      if (p->overlay[TD_OVERLAY_FLYERS] && v.state == TD_AGENT_FLY) {
        float sp = sqrtf(v.vx * v.vx + v.vy * v.vy);
        float hd = sp > 1e-3f ? atan2f(v.vy, v.vx) : 0;
        float reach = 2.0f * tile * z;
        static const float fan[5] = {-0.9f, -0.45f, 0, 0.45f, 0.9f};
        for (int k = 0; k < 5; k++) {
          float a = hd + fan[k];
          td_batch_line(b, x, y, x + cosf(a) * reach * (k == 2 ? 1.2f : 1), y + sinf(a) * reach * (k == 2 ? 1.2f : 1),
                        1, k == 2 ? td_color(255, 255, 255, 200) : td_color(120, 230, 255, 150));
        }
      }
    }
  }
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
  draw_overlays_under(b, w, cam, p);

  /* the route: the preview's when a ghost is shown */
  const int32_t *cur = td_route_next(rt);
  if (p->ghost.base >= 0 && p->ghost.next) {
    draw_route(s, b, m, g, p->ghost.next, cur, cam, p->time, td_color(255, 205, 60, 150),
               td_color(120, 255, 255, 255));
  } else {
    draw_route(s, b, m, g, cur, NULL, cam, p->time, td_color(255, 205, 60, 190), WHITE);
  }

  /* spawns and goals */
  for (size_t i = 0; i < m->spawn_count; i++) {
    int32_t n = m->spawns[i].node;
    float x = td_camera_sx(cam, (float)g->x[n]), y = td_camera_sy(cam, (float)g->y[n]);
    float pulse = 0.5f + 0.5f * sinf((float)p->time * 3);
    td_batch_disc(b, x, y, tile * 0.45f * z, td_color(30, 60, 30, 200));
    td_batch_ring(b, x, y, tile * 0.45f * z, 3, td_color(90, 240, 90, 255));
    td_batch_ring(b, x, y, tile * (0.2f + 0.15f * pulse) * z, 2, td_color(150, 255, 150, 200));
  }
  for (size_t i = 0; i < m->goal_count; i++) {
    int32_t n = m->goals[i].node;
    float x = td_camera_sx(cam, (float)g->x[n]), y = td_camera_sy(cam, (float)g->y[n]);
    td_batch_disc(b, x, y, tile * 0.55f * z, td_color(40, 40, 90, 255));
    td_batch_ring(b, x, y, tile * 0.55f * z, 3, td_color(120, 140, 255, 255));
    td_batch_disc(b, x, y, tile * 0.28f * z, td_color(160, 200, 255, 255));
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
      if (!td_world_enemy(w, i, &v) || v.flying != (layer == 1)) continue;
      float x = v.x, y = v.y, f = v.facing;
      if (i < s->pe_cap && s->pe[i].handle == v.handle) {
        x = lerpf(s->pe[i].x, v.x, a);
        y = lerpf(s->pe[i].y, v.y, a);
        f = lerp_angle(s->pe[i].facing, v.facing, a);
      }
      float sx = td_camera_sx(cam, x), sy = td_camera_sy(cam, y);
      float size = fmaxf(8.0f, v.radius * 2.6f * z);
      if (sx < -size || sy < -size || sx > (float)(cam->vx + cam->vw) + size || sy > (float)(cam->vy + cam->vh) + size)
        continue;
      SDL_Color tint = WHITE;
      if (v.state == TD_ENEMY_DYING) tint = td_color(255, 120, 120, 160);
      else if (v.slow > 0 && v.slow_time > 0) tint = td_color(150, 200, 255, 255);
      if (v.flying) td_batch_disc(b, sx + size * 0.15f, sy + size * 0.45f, size * 0.25f, td_color(0, 0, 0, 60));
      draw_enemy_sprite(s, b, r, v.type, sx, sy, size, f, tint);
      if (v.stun_time > 0 && s->star)
        td_batch_sprite(b, s->star, sx, sy - size * 0.45f, size * 0.4f, size * 0.4f, (float)p->time * 6,
                        td_color(255, 240, 120, 255));
      if (v.health < v.max_health && v.state != TD_ENEMY_DYING) {
        float bw = fmaxf(12.0f, size * (v.boss ? 1.3f : 0.9f)), bh = fmaxf(2.0f, size * 0.1f);
        float bx = sx - bw * 0.5f, by = sy - size * 0.55f - bh;
        float hp = v.max_health > 0 ? v.health / v.max_health : 0;
        td_batch_rect(b, bx - 1, by - 1, bw + 2, bh + 2, td_color(0, 0, 0, 200));
        SDL_Color hc = hp > 0.5f ? td_color(80, 220, 80, 255) : hp > 0.25f ? td_color(240, 200, 40, 255)
                                                                          : td_color(240, 60, 40, 255);
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
    SDL_Color c = good ? td_color(120, 255, 140, 255) : p->ghost.ok ? td_color(255, 210, 80, 255)
                                                                    : td_color(255, 70, 60, 255);
    td_batch_disc(b, sx, sy, range, with_alpha(c, 35));
    td_batch_ring(b, sx, sy, range, 2, with_alpha(c, 200));
    draw_tower_sprite(s, b, r, root, sx, sy, (float)fmin(tb->w, tb->h) * z, -PI_F / 4,
                      good ? td_color(255, 255, 255, 170) : td_color(255, 120, 110, 170));
    td_batch_rect_outline(b, td_camera_sx(cam, (float)tb->x), td_camera_sy(cam, (float)tb->y),
                          (float)tb->w * z, (float)tb->h * z, 2, c);
    if (!p->ghost.ok) {
      float x0 = td_camera_sx(cam, (float)tb->x), y0 = td_camera_sy(cam, (float)tb->y);
      td_batch_line(b, x0, y0, x0 + (float)tb->w * z, y0 + (float)tb->h * z, 3, c);
      td_batch_line(b, x0 + (float)tb->w * z, y0, x0, y0 + (float)tb->h * z, 3, c);
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
