/*
** units.c: soldiers, fights, tower health, rubble, rally flags and the
** units overlay (see units.h).
*/
#include "render/units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/scene.h"

#define PI_F 3.14159265f
#define RUBBLE_LIFE 30.0f   /* seconds a fallen tower's rubble stays (sim time) */
#define MAX_FX 4096

typedef struct prev_soldier {
  uint32_t handle;
  float x, y, facing;
} prev_soldier;

typedef enum ufx_kind { UFX_SLASH, UFX_RUBBLE, UFX_DEBRIS } ufx_kind;

typedef struct ufx {
  ufx_kind kind;
  int32_t base;          /* rubble, debris */
  float x, y, ang, size;
  float age, life;       /* seconds of simulation */
} ufx;

struct td_units {
  const td_atlas *atlas;
  const td_sprite *rubble, *flag;
  const td_palette *pal;  /* health bars, the rally flag's verdict (palette.h) */
  prev_soldier *ps;
  size_t ps_cap;
  ufx *fx;
  size_t nfx, fx_cap;
};

static const SDL_Color WHITE = {255, 255, 255, 255};

void td_units_set_palette(td_units *u, td_palette_kind k) {
  if (u) u->pal = td_palette_get(k);
}

td_units *td_units_create(const td_atlas *atlas) {
  td_units *u = calloc(1, sizeof *u);
  if (!u) return NULL;
  u->pal = td_palette_get(TD_PALETTE_STANDARD);
  u->atlas = atlas;
  u->rubble = td_atlas_find(atlas, "fx_rubble");
  u->flag = td_atlas_find(atlas, "fx_flag");
  return u;
}

void td_units_destroy(td_units *u) {
  if (!u) return;
  free(u->ps);
  free(u->fx);
  free(u);
}

void td_units_reset(td_units *u) {
  u->nfx = 0;
  if (u->ps) memset(u->ps, 0, u->ps_cap * sizeof *u->ps);
}

static bool grow(void **p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return true;
  size_t c = *cap ? *cap : 32;
  while (c < need) c *= 2;
  void *q = realloc(*p, c * elem);
  if (!q) return false;
  memset((char *)q + *cap * elem, 0, (c - *cap) * elem);
  *p = q;
  *cap = c;
  return true;
}

void td_units_before_step(td_units *u, const td_world *w) {
  size_t n = td_world_soldier_capacity(w);
  if (!grow((void **)&u->ps, &u->ps_cap, n, sizeof *u->ps)) return;
  for (size_t i = 0; i < u->ps_cap; i++) {
    td_soldier_view v;
    if (i < n && td_world_soldier(w, i, &v)) u->ps[i] = (prev_soldier){v.handle, v.x, v.y, v.facing};
    else u->ps[i].handle = 0;
  }
}

static ufx *add_fx(td_units *u, ufx_kind k, float x, float y, float life) {
  if (u->nfx >= MAX_FX || !grow((void **)&u->fx, &u->fx_cap, u->nfx + 1, sizeof *u->fx)) return NULL;
  ufx *f = &u->fx[u->nfx++];
  *f = (ufx){.kind = k, .base = -1, .x = x, .y = y, .life = life, .size = 1};
  return f;
}

void td_units_after_step(td_units *u, const td_world *w) {
  const float dt = 1.0f / (float)TD_WORLD_TICK_HZ;
  size_t k = 0;
  for (size_t i = 0; i < u->nfx; i++) {
    ufx f = u->fx[i];
    f.age += dt;
    bool keep = f.age < f.life;
    /* rubble goes when the base is built on again */
    td_tower_view tv;
    if (f.kind == UFX_RUBBLE && td_world_tower(w, (size_t)f.base, &tv)) keep = false;
    if (keep) u->fx[k++] = f;
  }
  u->nfx = k;
  const td_map *m = td_world_map(w);
  const float tile = (float)m->tile_w;
  size_t n;
  const td_event *ev = td_world_events(w, &n);
  for (size_t i = 0; i < n; i++) {
    const td_event *e = &ev[i];
    td_soldier_view sv;
    ufx *f;
    switch (e->kind) {
    case TD_EVENT_HIT:
      if (e->source == TD_HIT_SOLDIER && td_world_soldier_get(w, e->soldier, &sv)) {
        f = add_fx(u, UFX_SLASH, sv.x, sv.y, 0.18f);
        if (f) {
          f->ang = atan2f(e->y - sv.y, e->x - sv.x);
          f->size = sv.radius * 2.2f;
        }
      }
      break;
    case TD_EVENT_TOWER_DAMAGED:
      f = add_fx(u, UFX_DEBRIS, e->x, e->y, 0.35f);
      if (f) {
        f->size = 0.5f * tile;
        f->ang = (float)(e->tick % 7) * 0.9f;
      }
      break;
    case TD_EVENT_TOWER_DESTROYED:
      if (e->base >= 0 && (size_t)e->base < m->base_count) {
        const td_tower_base *tb = &m->bases[e->base];
        f = add_fx(u, UFX_RUBBLE, (float)(tb->x + tb->w / 2), (float)(tb->y + tb->h / 2), RUBBLE_LIFE);
        if (f) {
          f->base = e->base;
          f->size = (float)fmin(tb->w, tb->h);
        }
      }
      break;
    default:
      break;
    }
  }
}

/* ---- drawing -------------------------------------------------------------- */

static SDL_Color alpha_of(SDL_Color c, int a) {
  c.a = (Uint8)(a < 0 ? 0 : a > 255 ? 255 : a);
  return c;
}

static void bar(td_batch *b, const td_palette *pal, float cx, float top, float width, float frac,
                SDL_Color full) {
  float bh = fmaxf(2.0f, width * 0.1f), bx = cx - width * 0.5f, by = top - 3 - bh;
  if (frac < 0) frac = 0;
  if (frac > 1) frac = 1;
  td_batch_rect(b, bx - 1, by - 1, width + 2, bh + 2, td_color(0, 0, 0, 200));
  SDL_Color c = frac > 0.5f ? full : frac > 0.25f ? pal->hp_mid : pal->hp_low;
  td_batch_rect(b, bx, by, width * frac, bh, c);
}

static void draw_flag(td_units *u, td_batch *b, float sx, float sy, float size, SDL_Color tint) {
  if (u->flag) {
    /* the sprite's pole foot is at (10, 28) of 32: put it on the point */
    float cx = sx + (16.0f - 10.0f) / 32.0f * size, cy = sy + (16.0f - 28.0f) / 32.0f * size;
    td_batch_sprite(b, u->flag, cx, cy, size, size, 0, tint);
  } else {
    td_batch_line(b, sx, sy, sx, sy - size * 0.8f, 2, tint);
    td_batch_tri(b, sx, sy - size * 0.8f, sx + size * 0.5f, sy - size * 0.65f, sx, sy - size * 0.5f,
                 td_color(60, 120, 230, tint.a));
  }
}

void td_units_draw_ground(td_units *u, td_batch *b, const td_world *w, const td_camera *cam,
                          int32_t selected_base, const td_units_rally *rally, double time) {
  const td_map *m = td_world_map(w);
  const float z = cam->zoom, tile = (float)m->tile_w;
  for (size_t i = 0; i < u->nfx; i++) {
    const ufx *f = &u->fx[i];
    if (f->kind != UFX_RUBBLE) continue;
    float t = f->age / f->life, fade = t > 0.8f ? (1 - t) / 0.2f : 1;
    float sx = td_camera_sx(cam, f->x), sy = td_camera_sy(cam, f->y), size = f->size * z;
    if (u->rubble) td_batch_sprite(b, u->rubble, sx, sy, size, size, 0, alpha_of(WHITE, (int)(255 * fade)));
    else td_batch_rect(b, sx - size * 0.4f, sy - size * 0.4f, size * 0.8f, size * 0.8f,
                       td_color(90, 86, 92, (int)(220 * fade)));
  }
  /* the selected barracks: its flag and its soldiers' posts */
  td_tower_view tv;
  if (selected_base >= 0 && td_world_tower(w, (size_t)selected_base, &tv) && tv.soldiers > 0) {
    float fx = td_camera_sx(cam, tv.rally_x), fy = td_camera_sy(cam, tv.rally_y);
    td_batch_line(b, td_camera_sx(cam, tv.x), td_camera_sy(cam, tv.y), fx, fy, 1,
                  td_color(120, 170, 255, 90));
    size_t ns = td_world_soldier_capacity(w);
    for (size_t i = 0; i < ns; i++) {
      td_soldier_view v;
      if (!td_world_soldier(w, i, &v) || v.base != selected_base) continue;
      td_batch_ring(b, td_camera_sx(cam, v.post_x), td_camera_sy(cam, v.post_y), fmaxf(3, v.radius * z), 1,
                    td_color(120, 170, 255, 150));
    }
    draw_flag(u, b, fx, fy, tile * 0.7f * z, WHITE);
  }
  /* a flag being placed: where the soldiers would stand, or why not */
  if (rally && rally->base >= 0 && td_world_tower(w, (size_t)rally->base, &tv)) {
    float xy[2 * TD_RULES_MAX_SOLDIERS];
    td_refusal why = TD_REFUSAL_NONE;
    size_t np = td_world_rally_posts(w, rally->base, tv.type, rally->x, rally->y, xy,
                                     TD_RULES_MAX_SOLDIERS, &why);
    bool ok = np > 0;
    SDL_Color c = ok ? u->pal->ok : u->pal->refused;
    float range = td_world_rules(w)->levels[tv.level].range * tile * z;
    td_batch_ring(b, td_camera_sx(cam, tv.x), td_camera_sy(cam, tv.y), range, 2, alpha_of(c, 120));
    float pulse = 0.5f + 0.5f * sinf((float)time * 5);
    for (size_t k = 0; k < np; k++)
      td_batch_ring(b, td_camera_sx(cam, xy[2 * k]), td_camera_sy(cam, xy[2 * k + 1]),
                    fmaxf(3, 0.3f * tile * z) * (0.9f + 0.2f * pulse), 2, c);
    float sx = td_camera_sx(cam, rally->x), sy = td_camera_sy(cam, rally->y);
    draw_flag(u, b, sx, sy, tile * 0.7f * z, ok ? td_color(255, 255, 255, 200) : u->pal->refused_tint);
    if (!ok) {
      const char *t = td_refusal_text(why);
      int tw = td_text_width(t, 2);
      float tx = sx - (float)tw / 2, ty = sy - tile * z - 30;
      if (tx < (float)cam->vx + 4) tx = (float)cam->vx + 4;
      if (tx + (float)tw > (float)(cam->vx + cam->vw) - 4) tx = (float)(cam->vx + cam->vw - 4 - tw);
      td_batch_rect(b, tx - 6, ty - 5, (float)tw + 12, 26, td_color(20, 10, 10, 220));
      td_batch_rect_outline(b, tx - 6, ty - 5, (float)tw + 12, 26, 1, c);
      td_batch_text(b, tx, ty, 2, t, c, true);
    }
  }
}

static void draw_soldier(td_units *u, td_batch *b, const td_rules *r, const td_soldier_view *v,
                         float sx, float sy, float facing, float body, SDL_Color tint) {
  const char *name = v->type >= 0 && (size_t)v->type < r->soldier_type_count
                         ? r->soldier_types[v->type].name : "?";
  const td_sprite *sp = td_atlas_findf(u->atlas, "soldier_", name);
  if (sp && sp->body > 0) {
    float k = body / sp->body;
    td_batch_sprite(b, sp, sx, sy, k, k * (float)sp->h / (float)sp->w, facing, tint);
    return;
  }
  SDL_Color c = td_scene_name_color(name);
  td_batch_disc(b, sx, sy, body * 0.5f, td_color(20, 30, 70, tint.a));
  td_batch_disc(b, sx, sy, body * 0.42f, alpha_of(c, tint.a));
  td_batch_line(b, sx, sy, sx + cosf(facing) * body * 0.6f, sy + sinf(facing) * body * 0.6f,
                fmaxf(1.5f, body * 0.1f), td_color(220, 220, 230, tint.a));
}

void td_units_draw(td_units *u, td_batch *b, const td_world *w, const td_camera *cam, float alpha,
                   double time) {
  (void)time;
  const td_map *m = td_world_map(w);
  const td_rules *r = td_world_rules(w);
  const float z = cam->zoom;
  size_t ns = td_world_soldier_capacity(w);
  for (size_t i = 0; i < ns; i++) {
    td_soldier_view v;
    if (!td_world_soldier(w, i, &v) || v.state == TD_SOLDIER_RESPAWN) continue;
    float x = v.x, y = v.y, f = v.facing;
    if (i < u->ps_cap && u->ps[i].handle == v.handle) {
      x = u->ps[i].x + (v.x - u->ps[i].x) * alpha;
      y = u->ps[i].y + (v.y - u->ps[i].y) * alpha;
      float d = remainderf(v.facing - u->ps[i].facing, 2 * PI_F);
      f = u->ps[i].facing + d * alpha;
    }
    float sx = td_camera_sx(cam, x), sy = td_camera_sy(cam, y);
    float body = fmaxf(4.0f, v.radius * 2 * z);
    if (sx < -body * 2 || sy < -body * 2 || sx > (float)(cam->vx + cam->vw) + body * 2 ||
        sy > (float)(cam->vy + cam->vh) + body * 2)
      continue;
    if (v.state == TD_SOLDIER_DIE) { /* it falls: tips over and fades */
      float t = 1.0f - v.timer / TD_SOLDIER_FALL_TIME;
      draw_soldier(u, b, r, &v, sx, sy, f + t * PI_F * 0.5f, body * (1 - 0.2f * t),
                   td_color(255, 200, 200, (int)(230 * (1 - t))));
      continue;
    }
    td_batch_disc(b, sx + body * 0.12f, sy + body * 0.2f, body * 0.45f, td_color(0, 0, 0, 50));
    draw_soldier(u, b, r, &v, sx, sy, f, body, WHITE);
    if (v.health < v.max_health) bar(b, u->pal, sx, sy - body * 0.5f, fmaxf(10.0f, body * 1.1f),
                                     v.max_health > 0 ? v.health / v.max_health : 0,
                                     td_color(90, 170, 255, 255));
  }
  /* swings: an arc of the blade in front of the soldier that just struck */
  for (size_t i = 0; i < u->nfx; i++) {
    const ufx *f = &u->fx[i];
    float t = f->age / f->life;
    float sx = td_camera_sx(cam, f->x), sy = td_camera_sy(cam, f->y);
    if (f->kind == UFX_SLASH) {
      float rr = f->size * z, a0 = f->ang - 0.9f + 1.8f * t;
      for (int k = 0; k < 4; k++) {
        float a = a0 - 0.25f * (float)k;
        td_batch_line(b, sx + cosf(a) * rr * 0.5f, sy + sinf(a) * rr * 0.5f, sx + cosf(a) * rr,
                      sy + sinf(a) * rr, fmaxf(1.5f, rr * 0.12f),
                      td_color(255, 255, 255, (int)(220 * (1 - t) * (1 - 0.25f * (float)k))));
      }
    } else if (f->kind == UFX_DEBRIS) {
      for (int k = 0; k < 5; k++) {
        float a = f->ang + (float)k * 1.26f, d = f->size * z * (0.3f + 0.7f * t);
        td_batch_rect(b, sx + cosf(a) * d - 2, sy + sinf(a) * d - 2 + t * t * f->size * z * 0.5f, 4, 4,
                      td_color(120, 110, 100, (int)(255 * (1 - t))));
      }
    }
  }
  /* damaged towers: a bar above the footprint */
  for (size_t i = 0; i < m->base_count; i++) {
    td_tower_view tv;
    if (!td_world_tower(w, i, &tv) || tv.max_health <= 0 || tv.health >= tv.max_health) continue;
    const td_tower_base *tb = &m->bases[i];
    float size = (float)fmin(tb->w, tb->h) * z;
    bar(b, u->pal, td_camera_sx(cam, tv.x), td_camera_sy(cam, tv.y) - size * 0.5f, fmaxf(16.0f, size * 0.9f),
        tv.health / tv.max_health, u->pal->hp_high);
  }
}

void td_units_draw_overlay(td_units *u, td_batch *b, const td_world *w, const td_camera *cam) {
  (void)u;
  const float z = cam->zoom;
  size_t ne = td_world_enemy_capacity(w);
  for (size_t i = 0; i < ne; i++) {
    td_enemy_view v;
    if (!td_world_enemy(w, i, &v) || v.waiting) continue;
    const char *name = td_unit_state_name(TD_UNIT_ENEMY, (int)v.state);
    SDL_Color c = v.state == TD_ENEMY_WALK ? td_color(220, 220, 220, 200)
                  : v.state == TD_ENEMY_BLOCKED ? td_color(255, 210, 80, 255)
                  : v.state == TD_ENEMY_ATTACK ? td_color(255, 90, 70, 255)
                                               : td_color(150, 200, 255, 255);
    float sx = td_camera_sx(cam, v.x), sy = td_camera_sy(cam, v.y) + v.radius * z + 2;
    td_batch_text(b, sx - (float)td_text_width(name, 1) / 2, sy, 1, name, c, true);
  }
  size_t ns = td_world_soldier_capacity(w);
  for (size_t i = 0; i < ns; i++) {
    td_soldier_view v;
    if (!td_world_soldier(w, i, &v)) continue;
    float xy[2 * 64];
    size_t np = td_world_soldier_path(w, v.handle, xy, 64);
    if (np > 64) np = 64;
    for (size_t k = 0; k + 1 < np; k++)
      td_batch_line(b, td_camera_sx(cam, xy[2 * k]), td_camera_sy(cam, xy[2 * k + 1]),
                    td_camera_sx(cam, xy[2 * k + 2]), td_camera_sy(cam, xy[2 * k + 3]), 1.5f,
                    td_color(120, 200, 255, 200));
    for (size_t k = 1; k < np; k++)
      td_batch_rect(b, td_camera_sx(cam, xy[2 * k]) - 2, td_camera_sy(cam, xy[2 * k + 1]) - 2, 4, 4,
                    td_color(120, 200, 255, 230));
    td_batch_ring(b, td_camera_sx(cam, v.post_x), td_camera_sy(cam, v.post_y), fmaxf(3, v.radius * z), 1,
                  td_color(120, 200, 255, 120));
    char label[32];
    snprintf(label, sizeof label, "%s%s", td_unit_state_name(TD_UNIT_SOLDIER, (int)v.state),
             v.request ? " ?" : "");
    float sx = td_camera_sx(cam, v.x), sy = td_camera_sy(cam, v.y) + v.radius * z + 2;
    td_batch_text(b, sx - (float)td_text_width(label, 1) / 2, sy, 1, label, td_color(140, 210, 255, 255),
                  true);
  }
  const td_pathq_stats *st = td_world_pathq_stats(w);
  char line[2][96];
  snprintf(line[0], sizeof line[0], "path queue: %zu pending, %llu/%d expansions last tick",
           td_world_pathq_pending(w), (unsigned long long)st->last_expansions, TD_WORLD_PATH_BUDGET);
  snprintf(line[1], sizeof line[1], "answered %llu, restarts %llu, %llu expansions in all",
           (unsigned long long)st->delivered, (unsigned long long)st->restarts,
           (unsigned long long)st->expansions);
  float bw = (float)fmax(td_text_width(line[0], 1), td_text_width(line[1], 1)) + 12;
  float bx = (float)cam->vx + 8, by = (float)cam->vy + 40;
  td_batch_rect(b, bx, by, bw, 28, td_color(10, 20, 40, 200));
  td_batch_rect_outline(b, bx, by, bw, 28, 1, td_color(120, 200, 255, 200));
  td_batch_text(b, bx + 6, by + 5, 1, line[0], td_color(200, 230, 255, 255), true);
  td_batch_text(b, bx + 6, by + 16, 1, line[1], td_color(200, 230, 255, 255), true);
}
