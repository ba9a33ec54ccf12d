/*
** bench_render.c: `td bench render`: the frame time of the game's renderer
** with 5,000 enemies, 200 towers and their projectiles on screen, drawn
** offscreen into a surface through SDL's software renderer (one core),
** against a baseline measured in the same run.
**
** A frame draws what td_scene draws per entity, through the same frame
** drawer (render/batch.h: sprites as cached frames turned to 64 headings,
** blitted in software into a streaming texture, copied to the target once):
** a clear, the map's tiles, each tower as platform + turned turret + level
** pips, each enemy as a sprite turned to its facing with a two-part health
** bar, each projectile as a turned sprite; entities move and turn between
** frames. The frame's time includes td_batch_end and SDL_RenderFlush (the
** copy onto the surface). The baseline, interleaved frame by frame, clears
** the target and blits the same number of sprites one SDL_RenderCopy each,
** unrotated, 16x16 (SDL's own fastest path per sprite); the ratio (frame /
** baseline) is what stays comparable across machines.
**
** TD_BENCH_RENDER_PNG=FILE in the environment saves the last timed frame
** of the last case run as a PNG (to look at what is timed).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/bench.h"
#include "app/cmds.h"
#include "app/play.h"
#include "render/batch.h"

#define W 1280
#define H 720

typedef struct ent {
  float x, y, vx, vy, facing, hp;
  int kind;
} ent;

static uint32_t rng_state = 1;
static float rnd(void) {
  rng_state = rng_state * 1664525u + 1013904223u;
  return (float)(rng_state >> 8) / 16777216.0f;
}

typedef struct bench_case {
  const char *name;
  int enemies, towers, shots;
  double target_ms;  /* issue 5's target per frame, 0: none */
} bench_case;

static void run_case(const bench_opts *o, SDL_Renderer *ren, SDL_Surface *surf, const td_atlas *atlas,
                     const bench_case *bc, int frames, const char *png, int *status) {
  static const char *enemy_names[6] = {"enemy_runner", "enemy_grunt", "enemy_tank",
                                       "enemy_wisp", "enemy_splitter", "enemy_warlord"};
  static const char *turrets[4] = {"turret_arrow", "turret_cannon", "turret_frost", "turret_sniper"};
  static const char *bases[4] = {"base_arrow", "base_cannon", "base_frost", "base_arrow"};
  static const char *shots[3] = {"shot_arrow", "shot_ball", "shot_orb"};
  const td_sprite *es[6], *ts[4], *bs[4], *ss[3];
  for (int i = 0; i < 6; i++) es[i] = td_atlas_find(atlas, enemy_names[i]);
  for (int i = 0; i < 4; i++) {
    ts[i] = td_atlas_find(atlas, turrets[i]);
    bs[i] = td_atlas_find(atlas, bases[i]);
  }
  for (int i = 0; i < 3; i++) ss[i] = td_atlas_find(atlas, shots[i]);
  const td_sprite *grass = td_atlas_find(atlas, "tile_grass");
  int ne = bc->enemies, nt = bc->towers, ns = bc->shots;
  ent *e = calloc((size_t)ne + (size_t)nt + (size_t)ns, sizeof *e);
  double *ms = calloc((size_t)frames, sizeof *ms), *base_ms = calloc((size_t)frames, sizeof *base_ms);
  if (!e || !ms || !base_ms) {
    free(e);
    free(ms);
    free(base_ms);
    *status = 2;
    return;
  }
  rng_state = (uint32_t)o->seed * 2654435761u + 1;
  for (int i = 0; i < ne + nt + ns; i++) {
    e[i].x = rnd() * W;
    e[i].y = 48 + rnd() * (H - 120);
    float a = rnd() * 6.2831853f, sp = 0.5f + rnd() * 1.5f;
    e[i].vx = cosf(a) * sp;
    e[i].vy = sinf(a) * sp;
    e[i].facing = a;
    e[i].hp = 0.2f + 0.8f * rnd();
    e[i].kind = (int)(rnd() * 6);
  }
  td_batch b;
  td_batch_init(&b, ren, atlas);
  td_batch_set_surface(&b, surf);
  size_t drawn = 0, made = 0, quads = 0;
  const SDL_Color white = td_color(255, 255, 255, 255);
  for (int f = 0; f < frames + 3; f++) {
    for (int i = 0; i < ne + nt + ns; i++) {
      ent *p = &e[i];
      if (i >= ne && i < ne + nt) {
        p->facing += 0.03f;
        continue;
      }
      p->x += p->vx;
      p->y += p->vy;
      if (p->x < 0 || p->x > W) p->vx = -p->vx;
      if (p->y < 48 || p->y > H - 70) p->vy = -p->vy;
      p->facing = atan2f(p->vy, p->vx);
    }
    double t0 = bench_now_ms();
    td_batch_begin(&b, W, H);
    td_batch_clear(&b, td_color(12, 14, 20, 255));
    for (int y = 48; y < H - 68; y += 32)
      for (int x = 0; x < W; x += 32) td_batch_sprite_rect(&b, grass, (float)x, (float)y, 32, 32, white);
    for (int i = ne; i < ne + nt; i++) {
      td_batch_sprite(&b, bs[e[i].kind % 4], e[i].x, e[i].y, 28, 28, 0, white);
      td_batch_sprite(&b, ts[e[i].kind % 4], e[i].x, e[i].y, 28, 28, e[i].facing, white);
      for (int d = 0; d < 1 + e[i].kind % 3; d++)
        td_batch_rect(&b, e[i].x - 12 + (float)d * 4, e[i].y + 9, 3, 3, td_color(255, 210, 60, 255));
    }
    for (int i = 0; i < ne; i++) {
      float s = 14 + (float)(e[i].kind % 3) * 4;
      td_batch_sprite(&b, es[e[i].kind], e[i].x, e[i].y, s, s, e[i].facing, white);
      td_batch_rect(&b, e[i].x - 7, e[i].y - s * 0.55f - 3, 14, 4, td_color(0, 0, 0, 200));
      td_batch_rect(&b, e[i].x - 6, e[i].y - s * 0.55f - 2, 12 * e[i].hp, 2, td_color(80, 220, 80, 255));
    }
    for (int i = ne + nt; i < ne + nt + ns; i++)
      td_batch_sprite(&b, ss[e[i].kind % 3], e[i].x, e[i].y, 14, 14, e[i].facing, white);
    drawn = b.quads;
    if (f >= 3) made += b.misses;
    td_batch_end(&b);
    SDL_RenderFlush(ren);
    double t1 = bench_now_ms();
    if (png && f == frames + 2) {
      td_err err;
      if (td_app_save_png(ren, W, H, png, &err) != 0) {
        td_app_say("bench render: %s", err.msg);
        *status = 2;
      }
    }
    /* the baseline: clear, and as many sprites blitted one by one */
    SDL_SetRenderDrawColor(ren, 12, 14, 20, 255);
    SDL_RenderClear(ren);
    quads = drawn;
    size_t k = 0;
    for (size_t q = 0; q < quads; q++) {
      const ent *p = &e[k];
      k = (k + 1) % ((size_t)ne + (size_t)nt + (size_t)ns);
      const td_sprite *sp = es[p->kind];
      SDL_Rect src = {sp->x, sp->y, sp->w, sp->h};
      SDL_Rect dst = {(int)p->x - 8, (int)p->y - 8, 16, 16};
      SDL_RenderCopy(ren, atlas->tex, &src, &dst);
    }
    SDL_RenderFlush(ren);
    double t2 = bench_now_ms();
    if (f >= 3) {
      ms[f - 3] = t1 - t0;
      base_ms[f - 3] = t2 - t1;
    }
  }
  size_t cached = b.frames;
  td_batch_free(&b);
  qsort(ms, (size_t)frames, sizeof *ms, bench_cmp_double);
  qsort(base_ms, (size_t)frames, sizeof *base_ms, bench_cmp_double);
  double med = bench_quantile(ms, (size_t)frames, 0.5), p95 = bench_quantile(ms, (size_t)frames, 0.95);
  double bmed = bench_quantile(base_ms, (size_t)frames, 0.5);
  double ratio = bmed > 0 ? med / bmed : 0;
  if (o->json) {
    bench_emit("render", bc->name, "enemies", ne);
    bench_emit("render", bc->name, "towers", nt);
    bench_emit("render", bc->name, "shots", ns);
    bench_emit("render", bc->name, "drawn", (double)drawn);
    bench_emit("render", bc->name, "frames_cached", (double)cached);
    bench_emit("render", bc->name, "frames_made", (double)made);
    bench_emit("render", bc->name, "frame_ms", med);
    bench_emit("render", bc->name, "p95_ms", p95);
    bench_emit("render", bc->name, "min_ms", ms[0]);
    bench_emit("render", bc->name, "baseline_ms", bmed);
    bench_emit("render", bc->name, "over_baseline", ratio);
    if (bc->target_ms > 0) {
      bench_emit("render", bc->name, "target_ms", bc->target_ms);
      bench_emit("render", bc->name, "target_met", med <= bc->target_ms);
    }
  } else {
    char target[24] = "-";
    if (bc->target_ms > 0)
      snprintf(target, sizeof target, "<=%g %s", bc->target_ms, med <= bc->target_ms ? "MET" : "MISSED");
    printf("%-6s %7d %6d %5d %7zu %6zu %8.2f %7.2f %7.2f %8.2f %6.3f  %s\n", bc->name, ne, nt, ns,
           drawn, cached, med, p95, ms[0], bmed, ratio, target);
  }
  free(e);
  free(ms);
  free(base_ms);
}

int td_bench_render(const bench_opts *o) {
  static const bench_case cases[] = {
    {"1k", 1000, 50, 100, 0},
    {"5k", 5000, 200, 400, 8.0},
  };
  bool found = false;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    if (!o->only || !strcmp(o->only, cases[i].name)) found = true;
  if (!found) {
    td_app_say("bench render: no case named '%s' (cases: 1k, 5k)", o->only);
    return 2;
  }
  SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, W, H, 32, SDL_PIXELFORMAT_ARGB8888);
  SDL_Renderer *ren = surf ? SDL_CreateSoftwareRenderer(surf) : NULL;
  char dir[1024];
  td_err err = {{0}};
  td_atlas *atlas = ren ? td_atlas_load(ren, td_app_find_dir("assets", dir, sizeof dir), &err) : NULL;
  if (!atlas) {
    td_app_say("bench render: %s", ren ? err.msg : SDL_GetError());
    if (ren) SDL_DestroyRenderer(ren);
    if (surf) SDL_FreeSurface(surf);
    return 2;
  }
  const char *png = getenv("TD_BENCH_RENDER_PNG");
  if (png && !*png) png = NULL;
  if (!o->json)
    printf("%dx%d, td's software frame drawer, copied through SDL's software renderer\n"
           "case   enemies towers shots   drawn cached frame_ms  p95_ms  min_ms baseline x_base  target\n",
           W, H);
  int status = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    if (o->only && strcmp(o->only, cases[i].name) != 0) continue;
    if (o->quick && strcmp(cases[i].name, "1k") != 0) continue;
    run_case(o, ren, surf, atlas, &cases[i], o->quick ? 10 : 60, png, &status);
  }
  if (!o->json)
    printf("frame_ms: median frame (clear, tiles, towers, enemies turned to their facing with\n"
           "health bars, shots; the copy to the target included), p95 and min over the frames;\n"
           "drawn: sprites and shapes drawn a frame; cached: sprite frames (sizes x headings);\n"
           "baseline: clear + as many sprites, one unrotated 16x16 SDL_RenderCopy each;\n"
           "x_base = frame_ms / baseline_ms.\n");
  td_atlas_destroy(atlas);
  SDL_DestroyRenderer(ren);
  SDL_FreeSurface(surf);
  return status;
}
