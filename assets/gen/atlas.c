/*
** atlas.c: draws td's sprites, icons, tiles and bitmap font into one
** texture atlas, assets/atlas.png, with its index assets/atlas.txt.
**
**   td_assetgen ASSETS_DIR      (writes ASSETS_DIR/atlas.png, atlas.txt and
**                                tiles/crossroads.png, tiles/maze.png)
**
** Everything is drawn with engine/render/raster.h (antialiased shapes on a
** pixel buffer) and saved with SDL2_image, so the art is code: change a
** shape here, rebuild, run it, commit the output. The index has one line a
** sprite, "name x y w h" in pixels (comments start with '#'); the renderer
** (render/atlas.h) looks sprites up by name:
**   tile_grass tile_road tile_pad tile_floor tile_wall
**   base_<tower type> turret_<tower level>        (32x32, facing +x)
**   enemy_<enemy type>                            (32x32, facing +x)
**   shot_<arrow|ball|orb|spark|bolt>, fx_puff, fx_star, fx_ring
**   icon_<coin|heart|wave|clock|play|pause|fast|up|sell|target|skull|gear|warn>
**   white (a 4x4 opaque block for shapes), glyph_<code> (6x8 font cells)
** Determinism: pure drawing, no randomness but a fixed hash (same binary,
** same pixels).
*/
#include <SDL.h>
#include <SDL_image.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "render/raster.h"

#define AW 512
#define AH 256
#define PI_F 3.14159265f

static td_canvas cv;
static FILE *idx;

static td_rgba rgb(int r, int g, int b) { return (td_rgba){(uint8_t)r, (uint8_t)g, (uint8_t)b, 255}; }
static td_rgba rgba(int r, int g, int b, int a) {
  return (td_rgba){(uint8_t)r, (uint8_t)g, (uint8_t)b, (uint8_t)a};
}
static td_rgba shade(td_rgba c, float f) {
  float r = c.r * f, g = c.g * f, b = c.b * f;
  return rgba(r > 255 ? 255 : (int)r, g > 255 ? 255 : (int)g, b > 255 ? 255 : (int)b, c.a);
}

static void entry(const char *name, int x, int y, int w, int h) {
  fprintf(idx, "%s %d %d %d %d\n", name, x, y, w, h);
}

static uint32_t hash2(int x, int y, uint32_t s) {
  uint32_t h = (uint32_t)x * 374761393u + (uint32_t)y * 668265263u + s * 2246822519u;
  h = (h ^ (h >> 13)) * 1274126177u;
  return h ^ (h >> 16);
}

/* ---- tiles -------------------------------------------------------------- */

static void noise_tile(int ox, int oy, td_rgba base, td_rgba dark, td_rgba light, uint32_t seed,
                       int density) {
  td_canvas_rect(&cv, (float)ox, (float)oy, 32, 32, base);
  for (int y = 0; y < 32; y++)
    for (int x = 0; x < 32; x++) {
      uint32_t h = hash2(x, y, seed) % 100;
      if ((int)h < density) td_canvas_rect(&cv, (float)(ox + x), (float)(oy + y), 1, 1, dark);
      else if ((int)h > 99 - density / 2)
        td_canvas_rect(&cv, (float)(ox + x), (float)(oy + y), 1, 1, light);
    }
}

static void tiles(void) {
  /* row 0: x 0..159 */
  noise_tile(0, 0, rgb(74, 122, 60), rgb(62, 104, 50), rgb(92, 142, 70), 1, 14);
  for (int k = 0; k < 6; k++) { /* grass tufts */
    int x = (int)(hash2(k, 9, 3) % 28) + 2, y = (int)(hash2(k, 7, 5) % 26) + 4;
    td_canvas_line(&cv, (float)x, (float)y, (float)x - 1, (float)y - 3, 1, rgb(104, 158, 78));
    td_canvas_line(&cv, (float)x, (float)y, (float)x + 1, (float)y - 3, 1, rgb(104, 158, 78));
  }
  entry("tile_grass", 0, 0, 32, 32);
  noise_tile(32, 0, rgb(176, 146, 100), rgb(156, 126, 84), rgb(192, 164, 118), 2, 18);
  for (int k = 0; k < 4; k++) {
    int x = (int)(hash2(k, 1, 8) % 26) + 3, y = (int)(hash2(k, 2, 8) % 26) + 3;
    td_canvas_disc(&cv, 32.0f + x, (float)y, 1.3f, rgb(138, 112, 76));
  }
  entry("tile_road", 32, 0, 32, 32);
  noise_tile(64, 0, rgb(118, 118, 124), rgb(100, 100, 108), rgb(138, 138, 144), 3, 10);
  td_canvas_rect_outline(&cv, 64, 0, 32, 32, 2, rgb(84, 84, 92));
  td_canvas_line(&cv, 66, 16, 94, 16, 1, rgb(100, 100, 108));
  td_canvas_line(&cv, 80, 2, 80, 30, 1, rgb(100, 100, 108));
  entry("tile_pad", 64, 0, 32, 32);
  noise_tile(96, 0, rgb(150, 136, 110), rgb(136, 122, 98), rgb(164, 150, 124), 4, 12);
  entry("tile_floor", 96, 0, 32, 32);
  noise_tile(128, 0, rgb(70, 62, 74), rgb(56, 50, 60), rgb(90, 82, 96), 5, 16);
  td_canvas_rect(&cv, 128, 0, 32, 4, rgb(104, 96, 110));
  td_canvas_line(&cv, 128, 15.5f, 160, 15.5f, 1, rgb(50, 44, 54));
  td_canvas_line(&cv, 144, 4, 144, 15.5f, 1, rgb(50, 44, 54));
  td_canvas_line(&cv, 136, 16, 136, 32, 1, rgb(50, 44, 54));
  td_canvas_line(&cv, 152, 16, 152, 32, 1, rgb(50, 44, 54));
  entry("tile_wall", 128, 0, 32, 32);
}

/* ---- towers ------------------------------------------------------------- */

static void platform(const char *name, int ox, int oy, td_rgba trim) {
  td_canvas_rect(&cv, ox + 2.0f, oy + 3.0f, 29, 29, rgba(0, 0, 0, 90));
  td_canvas_rect(&cv, ox + 1.0f, oy + 1.0f, 29, 29, rgb(96, 92, 100));
  td_canvas_rect(&cv, ox + 3.0f, oy + 3.0f, 25, 25, rgb(120, 116, 124));
  td_canvas_rect_outline(&cv, ox + 1.0f, oy + 1.0f, 29, 29, 1.5f, rgb(60, 56, 64));
  td_canvas_rect_outline(&cv, ox + 5.0f, oy + 5.0f, 21, 21, 1.5f, trim);
  for (int k = 0; k < 4; k++) {
    float x = ox + (k & 1 ? 26.0f : 5.0f), y = oy + (k & 2 ? 26.0f : 5.0f);
    td_canvas_disc(&cv, x, y, 1.5f, rgb(70, 66, 74));
  }
  char n[64];
  snprintf(n, sizeof n, "base_%s", name);
  entry(n, ox, oy, 32, 32);
}

static void turret_entry(const char *name, int ox, int oy) {
  char n[64];
  snprintf(n, sizeof n, "turret_%s", name);
  entry(n, ox, oy, 32, 32);
}

/* Crossbow: a body, a bow across, a bolt; bigger with size. */
static void turret_arrow(const char *name, int ox, int oy, int kind) {
  float cx = ox + 16.0f, cy = oy + 16.0f;
  td_rgba wood = rgb(150, 100, 54), dark = rgb(96, 62, 30);
  td_canvas_disc(&cv, cx, cy, 9, dark);
  td_canvas_disc(&cv, cx, cy, 7.5f, wood);
  if (kind == 2) { /* sniper: a long barrel */
    td_canvas_line(&cv, cx - 4, cy, cx + 15, cy, 4, rgb(70, 70, 76));
    td_canvas_line(&cv, cx - 4, cy, cx + 15, cy, 2, rgb(130, 130, 140));
    td_canvas_disc(&cv, cx + 2, cy, 3, rgb(200, 40, 40));
  } else {
    int bolts = kind == 3 ? 3 : 1;
    for (int b = 0; b < bolts; b++) {
      float dy = (float)(b - (bolts - 1) / 2) * 5.0f;
      td_canvas_line(&cv, cx - 6, cy + dy, cx + 12, cy + dy, 1.6f, rgb(230, 220, 190));
      float head[6] = {cx + 15, cy + dy, cx + 10, cy + dy - 3, cx + 10, cy + dy + 3};
      td_canvas_triangle(&cv, head, rgb(210, 210, 220));
    }
    float bow = kind == 1 ? 13.0f : 11.0f;
    td_canvas_line(&cv, cx + 5, cy - bow, cx + 9, cy, 2.5f, dark);
    td_canvas_line(&cv, cx + 5, cy + bow, cx + 9, cy, 2.5f, dark);
    td_canvas_line(&cv, cx + 5, cy - bow, cx + 5, cy + bow, 1, rgb(240, 240, 230));
  }
  if (kind >= 1) td_canvas_ring(&cv, cx, cy, 8.5f, 1.2f, rgb(230, 190, 60));
  turret_entry(name, ox, oy);
}

static void turret_cannon(const char *name, int ox, int oy, int kind) {
  float cx = ox + 15.0f, cy = oy + 16.0f;
  td_rgba iron = rgb(70, 72, 80), hi = rgb(120, 124, 136);
  if (kind == 1) {
    td_canvas_line(&cv, cx, cy - 4, cx + 15, cy - 4, 5, iron);
    td_canvas_line(&cv, cx, cy + 4, cx + 15, cy + 4, 5, iron);
    td_canvas_line(&cv, cx, cy - 5, cx + 14, cy - 5, 1.5f, hi);
    td_canvas_line(&cv, cx, cy + 3, cx + 14, cy + 3, 1.5f, hi);
  } else {
    td_canvas_line(&cv, cx, cy, cx + 14, cy, 7, iron);
    td_canvas_line(&cv, cx, cy - 1.5f, cx + 13, cy - 1.5f, 1.5f, hi);
  }
  td_canvas_disc(&cv, cx, cy, 10, rgb(50, 50, 58));
  td_canvas_disc(&cv, cx, cy, 8.5f, iron);
  td_canvas_disc(&cv, cx - 2, cy - 2, 4, hi);
  if (kind == 1) td_canvas_ring(&cv, cx, cy, 9, 1.2f, rgb(230, 120, 40));
  turret_entry(name, ox, oy);
}

static void crystal(float cx, float cy, float s, td_rgba c) {
  float a[6] = {cx + s, cy, cx - s * 0.6f, cy - s * 0.7f, cx - s * 0.6f, cy + s * 0.7f};
  td_canvas_triangle(&cv, a, c);
  float b[6] = {cx + s, cy, cx - s * 0.2f, cy - s * 0.35f, cx - s * 0.6f, cy};
  td_canvas_triangle(&cv, b, shade(c, 1.35f));
}

static void turret_frost(const char *name, int ox, int oy, int kind) {
  float cx = ox + 16.0f, cy = oy + 16.0f;
  if (kind == 2) { /* storm: a violet orb with sparks */
    td_canvas_disc(&cv, cx, cy, 10, rgb(60, 30, 100));
    td_canvas_disc(&cv, cx, cy, 8, rgb(150, 90, 230));
    td_canvas_disc(&cv, cx - 2, cy - 2, 3.5f, rgb(230, 210, 255));
    for (int k = 0; k < 5; k++) {
      float a = (float)k * 2 * PI_F / 5;
      td_canvas_line(&cv, cx + 8 * cosf(a), cy + 8 * sinf(a), cx + 13 * cosf(a + 0.3f),
                     cy + 13 * sinf(a + 0.3f), 1.4f, rgb(250, 240, 120));
    }
  } else {
    td_canvas_disc(&cv, cx, cy, 9, rgb(40, 70, 110));
    crystal(cx + 2, cy, kind == 1 ? 13.0f : 11.0f, rgb(110, 190, 240));
    crystal(cx - 3, cy - 5, 5, rgb(170, 225, 255));
    crystal(cx - 3, cy + 5, 5, rgb(170, 225, 255));
    if (kind == 1) td_canvas_ring(&cv, cx, cy, 9.5f, 1.2f, rgb(220, 250, 255));
  }
  turret_entry(name, ox, oy);
}

/* ---- enemies (facing +x) ------------------------------------------------ */

static void enemy_entry(const char *name, int ox, int oy) {
  char n[64];
  snprintf(n, sizeof n, "enemy_%s", name);
  entry(n, ox, oy, 32, 32);
}

static void eyes(float x, float y, float sep, float r) {
  td_canvas_disc(&cv, x, y - sep, r, rgb(255, 255, 255));
  td_canvas_disc(&cv, x, y + sep, r, rgb(255, 255, 255));
  td_canvas_disc(&cv, x + r * 0.4f, y - sep, r * 0.5f, rgb(20, 20, 20));
  td_canvas_disc(&cv, x + r * 0.4f, y + sep, r * 0.5f, rgb(20, 20, 20));
}

static void enemies(int ox, int oy) {
  /* runner: a small green beetle with legs */
  float cx = ox + 16.0f, cy = oy + 16.0f;
  for (int k = -1; k <= 1; k++) {
    td_canvas_line(&cv, cx + k * 5.0f, cy, cx + k * 5.0f - 3, cy - 12, 1.5f, rgb(30, 60, 20));
    td_canvas_line(&cv, cx + k * 5.0f, cy, cx + k * 5.0f - 3, cy + 12, 1.5f, rgb(30, 60, 20));
  }
  td_canvas_disc(&cv, cx - 2, cy, 9, rgb(40, 110, 40));
  td_canvas_disc(&cv, cx - 3, cy, 7, rgb(90, 200, 70));
  td_canvas_disc(&cv, cx + 7, cy, 5, rgb(40, 110, 40));
  eyes(cx + 9, cy, 2.5f, 1.8f);
  enemy_entry("runner", ox, oy);
  ox += 32;
  cx += 32;
  /* grunt: an orange brute */
  td_canvas_disc(&cv, cx, cy, 13, rgb(120, 60, 20));
  td_canvas_disc(&cv, cx - 1, cy, 11.5f, rgb(230, 130, 50));
  td_canvas_disc(&cv, cx + 9, cy - 9, 4, rgb(200, 110, 40)); /* fists */
  td_canvas_disc(&cv, cx + 9, cy + 9, 4, rgb(200, 110, 40));
  td_canvas_disc(&cv, cx - 4, cy - 3, 4, rgb(250, 170, 90));
  eyes(cx + 6, cy, 3.5f, 2.5f);
  enemy_entry("grunt", ox, oy);
  ox += 32;
  cx += 32;
  /* tank: treads and a turret */
  td_canvas_rect(&cv, cx - 14, cy - 14, 28, 7, rgb(40, 40, 44));
  td_canvas_rect(&cv, cx - 14, cy + 7, 28, 7, rgb(40, 40, 44));
  for (int k = 0; k < 7; k++) {
    td_canvas_rect(&cv, cx - 13 + k * 4.0f, cy - 13, 2, 5, rgb(80, 80, 86));
    td_canvas_rect(&cv, cx - 13 + k * 4.0f, cy + 8, 2, 5, rgb(80, 80, 86));
  }
  td_canvas_rect(&cv, cx - 12, cy - 8, 24, 16, rgb(100, 110, 90));
  td_canvas_rect_outline(&cv, cx - 12, cy - 8, 24, 16, 1.5f, rgb(60, 66, 52));
  td_canvas_line(&cv, cx, cy, cx + 15, cy, 3.5f, rgb(60, 66, 52));
  td_canvas_disc(&cv, cx - 1, cy, 5.5f, rgb(130, 140, 116));
  enemy_entry("tank", ox, oy);
  ox += 32;
  cx += 32;
  /* wisp: a glowing spirit with wings */
  td_canvas_disc(&cv, cx, cy, 14, rgba(120, 230, 255, 50));
  float wl[6] = {cx - 2, cy - 2, cx - 12, cy - 14, cx + 4, cy - 8};
  float wr[6] = {cx - 2, cy + 2, cx - 12, cy + 14, cx + 4, cy + 8};
  td_canvas_triangle(&cv, wl, rgba(200, 250, 255, 200));
  td_canvas_triangle(&cv, wr, rgba(200, 250, 255, 200));
  float tail[6] = {cx - 14, cy, cx, cy - 6, cx, cy + 6};
  td_canvas_triangle(&cv, tail, rgb(80, 200, 230));
  td_canvas_disc(&cv, cx + 2, cy, 7, rgb(110, 230, 250));
  td_canvas_disc(&cv, cx + 1, cy - 1, 3.5f, rgb(230, 255, 255));
  eyes(cx + 6, cy, 2.2f, 1.5f);
  enemy_entry("wisp", ox, oy);
  ox += 32;
  cx += 32;
  /* splitter: a purple blob with three cores */
  td_canvas_disc(&cv, cx, cy, 13.5f, rgb(80, 30, 90));
  td_canvas_disc(&cv, cx, cy, 12, rgb(170, 80, 190));
  for (int k = 0; k < 3; k++) {
    float a = (float)k * 2 * PI_F / 3 + 0.5f;
    td_canvas_disc(&cv, cx + 6 * cosf(a) - 2, cy + 6 * sinf(a), 3.5f, rgb(230, 160, 240));
  }
  eyes(cx + 8, cy, 3, 2);
  enemy_entry("splitter", ox, oy);
  ox += 32;
  cx += 32;
  /* warlord: a crowned red giant */
  td_canvas_disc(&cv, cx, cy, 15, rgb(90, 10, 10));
  td_canvas_disc(&cv, cx - 1, cy, 13.5f, rgb(200, 40, 40));
  for (int k = 0; k < 5; k++) {
    float y = cy - 8 + k * 4.0f;
    float sp[6] = {cx - 6, y - 2, cx - 6, y + 2, cx - 15, y};
    td_canvas_triangle(&cv, sp, rgb(240, 200, 60));
  }
  td_canvas_disc(&cv, cx - 3, cy, 4, rgb(240, 200, 60));
  eyes(cx + 7, cy, 4, 2.5f);
  td_canvas_line(&cv, cx + 10, cy - 3, cx + 10, cy + 3, 1.5f, rgb(60, 0, 0));
  enemy_entry("warlord", ox, oy);
}

/* ---- projectiles, effects ----------------------------------------------- */

static void shots(int ox, int oy) {
  /* 16x16 cells, facing +x */
  td_canvas_line(&cv, ox + 1.0f, oy + 8.0f, ox + 12.0f, oy + 8.0f, 1.6f, rgb(240, 230, 200));
  float h[6] = {ox + 15.0f, oy + 8.0f, ox + 10.0f, oy + 5.0f, ox + 10.0f, oy + 11.0f};
  td_canvas_triangle(&cv, h, rgb(220, 220, 230));
  td_canvas_line(&cv, ox + 1.0f, oy + 6.0f, ox + 4.0f, oy + 8.0f, 1, rgb(230, 80, 60));
  td_canvas_line(&cv, ox + 1.0f, oy + 10.0f, ox + 4.0f, oy + 8.0f, 1, rgb(230, 80, 60));
  entry("shot_arrow", ox, oy, 16, 16);
  ox += 16;
  td_canvas_disc(&cv, ox + 8.0f, oy + 8.0f, 5.5f, rgb(30, 30, 34));
  td_canvas_disc(&cv, ox + 6.5f, oy + 6.5f, 2, rgb(140, 140, 150));
  entry("shot_ball", ox, oy, 16, 16);
  ox += 16;
  td_canvas_disc(&cv, ox + 8.0f, oy + 8.0f, 7, rgba(120, 210, 255, 90));
  td_canvas_disc(&cv, ox + 8.0f, oy + 8.0f, 4.5f, rgb(150, 230, 255));
  td_canvas_disc(&cv, ox + 7.0f, oy + 7.0f, 2, rgb(255, 255, 255));
  entry("shot_orb", ox, oy, 16, 16);
  ox += 16;
  for (int k = 0; k < 4; k++) {
    float a = (float)k * PI_F / 4;
    td_canvas_line(&cv, ox + 8 - 7 * cosf(a), oy + 8 - 7 * sinf(a), ox + 8 + 7 * cosf(a),
                   oy + 8 + 7 * sinf(a), 1.5f, rgb(255, 250, 150));
  }
  td_canvas_disc(&cv, ox + 8.0f, oy + 8.0f, 3, rgb(255, 255, 230));
  entry("shot_spark", ox, oy, 16, 16);
  ox += 16;
  td_canvas_line(&cv, ox + 1.0f, oy + 8.0f, ox + 14.0f, oy + 8.0f, 3.5f, rgba(255, 220, 120, 140));
  td_canvas_line(&cv, ox + 3.0f, oy + 8.0f, ox + 14.0f, oy + 8.0f, 1.6f, rgb(255, 250, 220));
  entry("shot_bolt", ox, oy, 16, 16);
  ox += 16;
  /* effects: a soft puff, a star, a ring (white, tinted when drawn) */
  for (int r = 7; r >= 1; r--)
    td_canvas_disc(&cv, ox + 8.0f, oy + 8.0f, (float)r, rgba(255, 255, 255, 40));
  entry("fx_puff", ox, oy, 16, 16);
  ox += 16;
  for (int k = 0; k < 4; k++) {
    float a = (float)k * PI_F / 4;
    float l = k & 1 ? 4.5f : 7.5f;
    td_canvas_line(&cv, ox + 8 - l * cosf(a), oy + 8 - l * sinf(a), ox + 8 + l * cosf(a),
                   oy + 8 + l * sinf(a), 1.6f, rgb(255, 255, 255));
  }
  entry("fx_star", ox, oy, 16, 16);
  ox += 16;
  td_canvas_ring(&cv, ox + 8.0f, oy + 8.0f, 6.5f, 1.5f, rgb(255, 255, 255));
  entry("fx_ring", ox, oy, 16, 16);
  ox += 16;
  td_canvas_rect(&cv, (float)ox + 4, (float)oy + 4, 4, 4, rgb(255, 255, 255));
  entry("white", ox + 4, oy + 4, 4, 4);
}

/* ---- icons (16x16) ------------------------------------------------------ */

static void icons(int ox, int oy) {
  float cx, cy;
#define NEXT(name)                                                                              \
  do {                                                                                          \
    entry("icon_" name, ox, oy, 16, 16);                                                        \
    ox += 16;                                                                                   \
  } while (0)
  cx = ox + 8.0f, cy = oy + 8.0f;
  td_canvas_disc(&cv, cx, cy, 7, rgb(150, 100, 10));
  td_canvas_disc(&cv, cx, cy, 5.8f, rgb(250, 200, 50));
  td_canvas_rect(&cv, cx - 1, cy - 3.5f, 2, 7, rgb(180, 120, 20));
  NEXT("coin");
  cx = ox + 8.0f;
  td_canvas_disc(&cv, cx - 3.2f, cy - 2, 3.8f, rgb(220, 40, 60));
  td_canvas_disc(&cv, cx + 3.2f, cy - 2, 3.8f, rgb(220, 40, 60));
  float heart[6] = {cx - 6.9f, cy - 0.8f, cx + 6.9f, cy - 0.8f, cx, cy + 7};
  td_canvas_triangle(&cv, heart, rgb(220, 40, 60));
  td_canvas_disc(&cv, cx - 3.5f, cy - 3, 1.2f, rgb(255, 170, 180));
  NEXT("heart");
  cx = ox + 8.0f;
  td_canvas_line(&cv, cx - 4, cy - 7, cx - 4, cy + 7, 1.6f, rgb(200, 200, 200));
  float flag[6] = {cx - 3, cy - 7, cx + 7, cy - 4, cx - 3, cy - 0.5f};
  td_canvas_triangle(&cv, flag, rgb(230, 60, 50));
  NEXT("wave");
  cx = ox + 8.0f;
  td_canvas_disc(&cv, cx, cy, 7, rgb(220, 220, 230));
  td_canvas_disc(&cv, cx, cy, 5.5f, rgb(50, 60, 80));
  td_canvas_line(&cv, cx, cy, cx, cy - 4, 1.4f, rgb(255, 255, 255));
  td_canvas_line(&cv, cx, cy, cx + 3, cy, 1.4f, rgb(255, 255, 255));
  NEXT("clock");
  cx = ox + 8.0f;
  float play[6] = {cx - 4, cy - 6, cx + 6, cy, cx - 4, cy + 6};
  td_canvas_triangle(&cv, play, rgb(240, 240, 240));
  NEXT("play");
  cx = ox + 8.0f;
  td_canvas_rect(&cv, cx - 5, cy - 6, 3.5f, 12, rgb(240, 240, 240));
  td_canvas_rect(&cv, cx + 1.5f, cy - 6, 3.5f, 12, rgb(240, 240, 240));
  NEXT("pause");
  cx = ox + 8.0f;
  float f1[6] = {cx - 7, cy - 6, cx, cy, cx - 7, cy + 6};
  float f2[6] = {cx, cy - 6, cx + 7, cy, cx, cy + 6};
  td_canvas_triangle(&cv, f1, rgb(240, 240, 240));
  td_canvas_triangle(&cv, f2, rgb(240, 240, 240));
  NEXT("fast");
  cx = ox + 8.0f;
  float up[6] = {cx, cy - 7, cx + 6, cy, cx - 6, cy};
  td_canvas_triangle(&cv, up, rgb(90, 220, 90));
  td_canvas_rect(&cv, cx - 2.5f, cy, 5, 7, rgb(90, 220, 90));
  NEXT("up");
  cx = ox + 8.0f;
  td_canvas_disc(&cv, cx, cy, 7, rgb(150, 100, 10));
  td_canvas_disc(&cv, cx, cy, 5.8f, rgb(250, 200, 50));
  td_canvas_rect(&cv, cx - 4, cy - 1, 8, 2.2f, rgb(160, 40, 20));
  NEXT("sell");
  cx = ox + 8.0f;
  td_canvas_ring(&cv, cx, cy, 5.5f, 1.5f, rgb(250, 90, 80));
  td_canvas_line(&cv, cx - 7.5f, cy, cx - 2.5f, cy, 1.5f, rgb(250, 90, 80));
  td_canvas_line(&cv, cx + 2.5f, cy, cx + 7.5f, cy, 1.5f, rgb(250, 90, 80));
  td_canvas_line(&cv, cx, cy - 7.5f, cx, cy - 2.5f, 1.5f, rgb(250, 90, 80));
  td_canvas_line(&cv, cx, cy + 2.5f, cx, cy + 7.5f, 1.5f, rgb(250, 90, 80));
  NEXT("target");
  cx = ox + 8.0f;
  td_canvas_disc(&cv, cx, cy - 1, 6, rgb(230, 230, 220));
  td_canvas_rect(&cv, cx - 3.5f, cy + 3, 7, 4, rgb(230, 230, 220));
  td_canvas_disc(&cv, cx - 2.5f, cy - 1, 1.8f, rgb(30, 30, 30));
  td_canvas_disc(&cv, cx + 2.5f, cy - 1, 1.8f, rgb(30, 30, 30));
  NEXT("skull");
  cx = ox + 8.0f;
  for (int k = 0; k < 8; k++) {
    float a = (float)k * PI_F / 4;
    td_canvas_line(&cv, cx, cy, cx + 7 * cosf(a), cy + 7 * sinf(a), 2.5f, rgb(200, 200, 210));
  }
  td_canvas_disc(&cv, cx, cy, 5, rgb(200, 200, 210));
  td_canvas_disc(&cv, cx, cy, 2.2f, rgb(40, 40, 50));
  NEXT("gear");
  cx = ox + 8.0f;
  float warn[6] = {cx, cy - 7, cx + 7.5f, cy + 6.5f, cx - 7.5f, cy + 6.5f};
  td_canvas_triangle(&cv, warn, rgb(240, 190, 40));
  td_canvas_rect(&cv, cx - 1, cy - 3, 2, 5.5f, rgb(40, 30, 0));
  td_canvas_rect(&cv, cx - 1, cy + 3.5f, 2, 2, rgb(40, 30, 0));
  NEXT("warn");
#undef NEXT
}

/* ---- font: 6x8 cells, the raster font plus the symbols it lacks --------- */

static const struct {
  char ch;
  uint8_t rows[7];
} extra[] = {
  {'[', {0x0E, 0x08, 0x08, 0x08, 0x08, 0x08, 0x0E}},
  {']', {0x0E, 0x02, 0x02, 0x02, 0x02, 0x02, 0x0E}},
  {'"', {0x0A, 0x0A, 0x00, 0x00, 0x00, 0x00, 0x00}},
  {'*', {0x00, 0x15, 0x0E, 0x1F, 0x0E, 0x15, 0x00}},
  {'&', {0x0C, 0x12, 0x14, 0x08, 0x15, 0x12, 0x0D}},
  {'$', {0x04, 0x0F, 0x14, 0x0E, 0x05, 0x1E, 0x04}},
  {'@', {0x0E, 0x11, 0x17, 0x15, 0x17, 0x10, 0x0F}},
  {'|', {0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04}},
  {'{', {0x06, 0x08, 0x08, 0x10, 0x08, 0x08, 0x06}},
  {'}', {0x0C, 0x02, 0x02, 0x01, 0x02, 0x02, 0x0C}},
  {'~', {0x00, 0x00, 0x08, 0x15, 0x02, 0x00, 0x00}},
  {'^', {0x04, 0x0A, 0x11, 0x00, 0x00, 0x00, 0x00}},
  {'\\', {0x00, 0x10, 0x08, 0x04, 0x02, 0x01, 0x00}},
  {'`', {0x08, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00}},
};

static void font(int ox, int oy) {
  for (int ch = 32; ch < 127; ch++) {
    int k = ch - 32, x = ox + (k % 32) * 6, y = oy + (k / 32) * 8;
    bool done = false;
    for (size_t e = 0; e < sizeof extra / sizeof extra[0]; e++)
      if (extra[e].ch == ch) {
        for (int r = 0; r < 7; r++)
          for (int b = 0; b < 5; b++)
            if (extra[e].rows[r] & (0x10 >> b))
              td_canvas_rect(&cv, (float)(x + b), (float)(y + r), 1, 1, rgb(255, 255, 255));
        done = true;
      }
    if (!done) {
      char s[2] = {(char)ch, 0};
      td_canvas_text(&cv, x, y, 1, s, rgb(255, 255, 255));
    }
    char n[32];
    snprintf(n, sizeof n, "glyph_%d", ch);
    entry(n, x, y, 6, 8);
  }
}

static int save(SDL_Surface *s, const char *path) {
  if (IMG_SavePNG(s, path) != 0) {
    fprintf(stderr, "td_assetgen: %s: %s\n", path, IMG_GetError());
    return -1;
  }
  return 0;
}

/* A Tiled tileset strip (3 tiles of 32) cut from the atlas. */
static int tileset(SDL_Surface *atlas, const char *path, const int *xs) {
  SDL_Surface *t = SDL_CreateRGBSurfaceWithFormat(0, 96, 32, 32, SDL_PIXELFORMAT_ARGB8888);
  if (!t) return -1;
  SDL_SetSurfaceBlendMode(atlas, SDL_BLENDMODE_NONE);
  for (int i = 0; i < 3; i++) {
    SDL_Rect src = {xs[i], 0, 32, 32}, dst = {32 * i, 0, 32, 32};
    SDL_BlitSurface(atlas, &src, t, &dst);
  }
  int rc = save(t, path);
  SDL_FreeSurface(t);
  return rc;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fputs("usage: td_assetgen ASSETS_DIR\n", stderr);
    return 2;
  }
  SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, AW, AH, 32, SDL_PIXELFORMAT_ARGB8888);
  if (!s) return 1;
  cv = (td_canvas){(uint32_t *)s->pixels, AW, AH, s->pitch / 4};
  td_canvas_clear(&cv, (td_rgba){0, 0, 0, 0});
  char path[1024];
  snprintf(path, sizeof path, "%s/atlas.txt", argv[1]);
  idx = fopen(path, "w");
  if (!idx) {
    fprintf(stderr, "td_assetgen: %s: cannot write\n", path);
    return 1;
  }
  fputs("# td texture atlas index (generated by assets/gen/atlas.c: do not edit)\n"
        "# name x y w h, pixels in atlas.png\n", idx);
  tiles();
  /* row 1 (y 32): platforms and turrets */
  platform("arrow", 0, 32, rgb(200, 150, 80));
  platform("cannon", 32, 32, rgb(220, 100, 50));
  platform("frost", 64, 32, rgb(110, 190, 240));
  turret_arrow("arrow", 96, 32, 0);
  turret_arrow("arrow_2", 128, 32, 1);
  turret_arrow("sniper", 160, 32, 2);
  turret_arrow("volley", 192, 32, 3);
  turret_cannon("cannon", 224, 32, 0);
  turret_cannon("cannon_2", 256, 32, 1);
  turret_frost("frost", 288, 32, 0);
  turret_frost("frost_2", 320, 32, 1);
  turret_frost("storm", 352, 32, 2);
  /* a neutral platform for modded tower types */
  platform("default", 384, 32, rgb(200, 200, 200));
  enemies(0, 64);
  shots(0, 96);
  icons(0, 112);
  font(0, 128);
  fclose(idx);
  snprintf(path, sizeof path, "%s/atlas.png", argv[1]);
  int rc = save(s, path);
  static const int cross[3] = {0, 32, 64}, maze[3] = {96, 128, 64};
  snprintf(path, sizeof path, "%s/tiles/crossroads.png", argv[1]);
  if (rc == 0) rc = tileset(s, path, cross);
  snprintf(path, sizeof path, "%s/tiles/maze.png", argv[1]);
  if (rc == 0) rc = tileset(s, path, maze);
  SDL_FreeSurface(s);
  return rc == 0 ? 0 : 1;
}
