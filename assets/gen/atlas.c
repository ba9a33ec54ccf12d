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
**   enemy_<enemy type>                            (32x32, facing +x; the newer
**                                                  bosses 48x48, see BOSS;
**                                                  any margin: the body is
**                                                  scaled to the disc)
**   soldier_<soldier type>                        (32x32, facing +x)
**   shot_<arrow|ball|orb|spark|bolt>, fx_puff, fx_star, fx_ring,
**   fx_rubble (a fallen tower), fx_flag (a rally flag, its foot at 10, 28)
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

#include "game/file.h"
#include "render/png.h"
#include "render/raster.h"

#define AW 512
#define AH 256
#define PI_F 3.14159265f

static td_canvas cv;
static FILE *idx;          /* idx_out.f */
static td_file_out idx_out; /* atlas.txt, whole or not at all (game/file.h) */

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
  td_canvas whole = cv;
  cv.w = ox + 32; /* the barrels' round ends would reach into the next cell */
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
  cv = whole;
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
  /* tank: treads and a turret; drawn on its cell alone (its barrel's end
  ** would spill into the wisp's cell and count as part of the wisp's body) */
  td_canvas whole = cv;
  cv = (td_canvas){whole.px + (size_t)oy * (size_t)whole.stride + (size_t)ox, 32, 32, whole.stride};
  cx -= (float)ox, cy -= (float)oy;
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
  cv = whole;
  cx += (float)ox, cy += (float)oy;
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
}

/* ---- a pen for the newer sprites ---------------------------------------- */

/* The sprites below are drawn in cell units: (0, 0) is the cell's top-left
** corner and the cell is 32 units across whatever its size in pixels, so a
** boss drawn in a 48-pixel cell keeps the proportions its code was written
** for and gains detail rather than blur. The pen's canvas is the cell
** itself (the atlas's pixels, its stride), so nothing spills into a
** neighbour. */
static td_canvas pc;
static float pen_s;

static void pen_at(int ox, int oy, int cell) {
  pc = (td_canvas){cv.px + (size_t)oy * (size_t)cv.stride + (size_t)ox, cell, cell, cv.stride};
  pen_s = (float)cell / 32.0f;
}

static void p_disc(float x, float y, float r, td_rgba c) {
  td_canvas_disc(&pc, x * pen_s, y * pen_s, r * pen_s, c);
}
static void p_ring(float x, float y, float r, float w, td_rgba c) {
  td_canvas_ring(&pc, x * pen_s, y * pen_s, r * pen_s, w * pen_s, c);
}
static void p_line(float x0, float y0, float x1, float y1, float w, td_rgba c) {
  td_canvas_line(&pc, x0 * pen_s, y0 * pen_s, x1 * pen_s, y1 * pen_s, w * pen_s, c);
}
static void p_rect(float x, float y, float w, float h, td_rgba c) {
  td_canvas_rect(&pc, x * pen_s, y * pen_s, w * pen_s, h * pen_s, c);
}
static void p_tri(float x0, float y0, float x1, float y1, float x2, float y2, td_rgba c) {
  float t[6] = {x0 * pen_s, y0 * pen_s, x1 * pen_s, y1 * pen_s, x2 * pen_s, y2 * pen_s};
  td_canvas_triangle(&pc, t, c);
}
/* A convex polygon of n <= 8 points, x y interleaved. */
static void p_poly(const float *xy, int n, td_rgba c) {
  float t[16];
  for (int i = 0; i < 2 * n && i < 16; i++) t[i] = xy[i] * pen_s;
  td_canvas_convex(&pc, t, n, c);
}
/* The same polygon grown by d units about its centroid (an outline drawn
** under it). */
static void p_poly_grown(const float *xy, int n, float d, td_rgba c) {
  float mx = 0, my = 0, t[16];
  for (int i = 0; i < n; i++) mx += xy[2 * i], my += xy[2 * i + 1];
  mx /= (float)n, my /= (float)n;
  for (int i = 0; i < n && i < 8; i++) {
    float dx = xy[2 * i] - mx, dy = xy[2 * i + 1] - my, l = sqrtf(dx * dx + dy * dy);
    float k = l > 0 ? (l + d) / l : 1;
    t[2 * i] = mx + dx * k, t[2 * i + 1] = my + dy * k;
  }
  p_poly(t, n, c);
}
/* A shaded ball: an outline, the body, a highlight to the top-left (the
** light of every sprite here). */
static void p_ball(float x, float y, float r, td_rgba dark, td_rgba fill) {
  p_disc(x, y, r, dark);
  p_disc(x, y, r - 1.3f, fill);
  p_disc(x - r * 0.3f, y - r * 0.3f, r * 0.38f, shade(fill, 1.22f));
}
/* Eyes looking along (dx, dy) (a unit vector), sep units either side. */
static void p_eyes(float x, float y, float dx, float dy, float sep, float r) {
  float px = -dy * sep, py = dx * sep;
  p_disc(x + px, y + py, r, rgb(255, 255, 255));
  p_disc(x - px, y - py, r, rgb(255, 255, 255));
  p_disc(x + px + dx * r * 0.4f, y + py + dy * r * 0.4f, r * 0.5f, rgb(20, 20, 20));
  p_disc(x - px + dx * r * 0.4f, y - py + dy * r * 0.4f, r * 0.5f, rgb(20, 20, 20));
}
/* Glowing eyes (no pupils), for stone and spirits. */
static void p_glow_eyes(float x, float y, float sep, float r, td_rgba c) {
  for (int s = -1; s <= 1; s += 2) {
    p_disc(x, y + (float)s * sep, r * 1.9f, rgba(c.r, c.g, c.b, 80));
    p_disc(x, y + (float)s * sep, r, c);
    p_disc(x, y + (float)s * sep, r * 0.45f, rgb(255, 255, 235));
  }
}
/* A wing of triangles fanned from a shoulder through the given points
** (n of them, the first the leading tip), bones along the fan: side 1 as
** given (a wing at -y), -1 mirrored across y = 16. */
static void p_wing(float sx, float sy, const float *pts, int n, int side, td_rgba memb, td_rgba bone,
                   float bw) {
  float m = (float)side;
  for (int i = 0; i + 1 < n; i++)
    p_tri(sx, 16 + m * (sy - 16), pts[2 * i], 16 + m * (pts[2 * i + 1] - 16), pts[2 * i + 2],
          16 + m * (pts[2 * i + 3] - 16), memb);
  for (int i = 0; i + 1 < n; i++)
    p_line(sx, 16 + m * (sy - 16), pts[2 * i], 16 + m * (pts[2 * i + 1] - 16), i ? bw * 0.6f : bw,
           bone);
}

/* ---- barracks, soldiers, sappers, rubble, the rally flag --------------- */

/* barracks: a keep seen from above, roof ridge along x; 0 a timber hall,
** 1 a stone keep with a banner, 2 a fortress with four corner towers. */
static void turret_barracks(const char *name, int ox, int oy, int kind) {
  pen_at(ox, oy, 32);
  td_rgba wall = kind ? rgb(150, 146, 156) : rgb(150, 104, 60);
  td_rgba roof = kind == 2 ? rgb(60, 84, 150) : kind ? rgb(70, 100, 180) : rgb(176, 64, 44);
  if (kind == 2)
    for (int k = 0; k < 4; k++) {
      float x = k & 1 ? 25.0f : 7.0f, y = k & 2 ? 25.0f : 7.0f;
      p_ball(x, y, 5.0f, rgb(70, 66, 76), rgb(160, 156, 168));
      p_disc(x, y, 2.4f, roof);
    }
  p_rect(7, 8, 18, 16, shade(wall, 0.55f));
  p_rect(8, 9, 16, 14, wall);
  float left[8] = {8, 9, 24, 9, 24, 16, 8, 16}, right[8] = {8, 16, 24, 16, 24, 23, 8, 23};
  p_poly(left, 4, shade(roof, 1.15f));
  p_poly(right, 4, shade(roof, 0.8f));
  p_line(8, 16, 24, 16, 1.2f, shade(roof, 0.5f));
  for (int k = 0; k < 4; k++) p_line(10 + 4.0f * (float)k, 9.5f, 10 + 4.0f * (float)k, 22.5f, 0.5f,
                                     shade(roof, 0.65f));
  if (kind >= 1) { /* a banner on the ridge */
    p_line(22, 16, 22, 6, 1.0f, rgb(60, 50, 40));
    p_tri(22, 6, 29, 8, 22, 10, rgb(240, 210, 80));
  }
  turret_entry(name, ox, oy);
}

/* A soldier from above, facing +x: a shield on the left arm (-y), a blade
** in the right hand (+y), a helmet; blue, the player's colour. */
static void soldier(const char *name, int ox, int oy, bool knight) {
  pen_at(ox, oy, 32);
  td_rgba cloth = knight ? rgb(40, 70, 170) : rgb(60, 120, 210);
  td_rgba steel = rgb(200, 204, 214), dark = rgb(40, 44, 60);
  p_disc(16, 16, 10.5f, rgba(0, 0, 0, 60));
  p_ball(15, 16, 8.0f, shade(cloth, 0.5f), cloth); /* shoulders */
  /* the blade, forward from the right hand */
  p_line(18, 22, 29, 22, 2.6f, dark);
  p_line(18, 22, 29, 22, 1.5f, steel);
  p_line(18, 19.5f, 18, 24.5f, 1.6f, rgb(200, 160, 60)); /* the guard */
  /* the shield, on the left arm */
  p_ball(19, 9, knight ? 5.6f : 4.8f, rgb(70, 50, 30), knight ? rgb(230, 200, 80) : rgb(170, 120, 70));
  p_disc(19, 9, 1.4f, dark);
  if (knight) p_line(15.5f, 9, 22.5f, 9, 1.0f, rgb(180, 40, 40));
  /* the helmet */
  p_ball(15.5f, 16, 5.2f, dark, steel);
  if (knight) p_tri(10, 16, 14, 14, 14, 18, rgb(200, 40, 40)); /* a plume, behind */
  p_line(19.5f, 14, 19.5f, 18, 1.0f, dark); /* the visor */
  char n[64];
  snprintf(n, sizeof n, "soldier_%s", name);
  entry(n, ox, oy, 32, 32);
}

/* sapper: a hunched goblin with a lit powder keg on its back. */
static void enemy_sapper(int ox, int oy) {
  pen_at(ox, oy, 32);
  p_ball(10, 16, 7.0f, rgb(60, 40, 24), rgb(120, 82, 44)); /* the keg */
  p_ring(10, 16, 4.6f, 0.9f, rgb(70, 70, 76));
  p_line(4, 16, 1.5f, 12, 1.0f, rgb(90, 80, 70));            /* the fuse */
  p_disc(1.8f, 11.6f, 1.8f, rgba(255, 200, 60, 200));
  p_disc(1.8f, 11.6f, 0.9f, rgb(255, 255, 200));
  p_ball(19, 16, 6.5f, rgb(40, 70, 30), rgb(110, 160, 70)); /* the body */
  p_tri(21, 9.5f, 26, 6, 23, 11.5f, rgb(110, 160, 70));      /* ears */
  p_tri(21, 22.5f, 26, 26, 23, 20.5f, rgb(110, 160, 70));
  p_disc(25, 12, 2.2f, rgb(80, 80, 86)); /* a pick */
  p_line(22, 12, 29, 12, 1.4f, rgb(100, 70, 40));
  p_eyes(23, 16, 1, 0, 2.2f, 1.4f);
  enemy_entry("sapper", ox, oy);
}

/* fx_rubble: what is left of a tower; fx_flag: a rally flag on its pole,
** the pole's foot at (10, 28). */
static void rubble_and_flag(int ox, int oy) {
  pen_at(ox, oy, 32);
  p_disc(16, 17, 13, rgba(30, 26, 24, 120));
  static const float stones[][3] = {{9, 12, 4.5f}, {19, 10, 3.8f}, {23, 19, 4.8f}, {12, 21, 5.2f},
                                    {17, 16, 3.0f}, {26, 12, 2.4f}, {7, 18, 2.6f}, {18, 25, 3.0f}};
  for (size_t k = 0; k < sizeof stones / sizeof stones[0]; k++) {
    float x = stones[k][0], y = stones[k][1], r = stones[k][2];
    float q[8] = {x - r, y, x, y - r * 0.8f, x + r, y - r * 0.2f, x + r * 0.3f, y + r * 0.8f};
    p_poly_grown(q, 4, 0.8f, rgb(54, 50, 56));
    p_poly(q, 4, k & 1 ? rgb(130, 126, 132) : rgb(106, 100, 110));
  }
  p_line(8, 24, 14, 20, 1.6f, rgb(90, 60, 30)); /* a broken beam */
  entry("fx_rubble", ox, oy, 32, 32);
  pen_at(ox + 32, oy, 32);
  p_disc(10, 28, 3, rgba(0, 0, 0, 70));
  p_line(10, 28, 10, 4, 1.8f, rgb(70, 50, 30));
  float flag[8] = {10.5f, 4, 26, 7.5f, 20, 10.5f, 10.5f, 13};
  p_poly_grown(flag, 4, 0.7f, rgb(20, 40, 100));
  p_poly(flag, 4, rgb(60, 120, 230));
  p_disc(10, 4, 1.6f, rgb(240, 210, 80));
  entry("fx_flag", ox + 32, oy, 32, 32);
}

/* ---- enemies of the newer content (32 units, facing +x) ----------------- */

/* shaman: a healer in an indigo robe, a bone mask, a fan of feathers, a
** staff with a green glow; a faint green aura says what it does. */
static void enemy_shaman(int ox, int oy) {
  pen_at(ox, oy, 32);
  p_disc(16, 16, 15.5f, rgba(120, 255, 140, 38));
  p_ring(16, 16, 15, 0.8f, rgba(150, 255, 160, 90));
  for (int pass = 0; pass < 2; pass++)
    for (int k = 0; k < 5; k++) { /* feathers fanned behind the head */
      float a = PI_F + (float)(k - 2) * 0.44f, l = k == 2 ? 13.5f : 12.5f;
      td_rgba c = k & 1 ? rgb(246, 206, 70) : rgb(220, 62, 50);
      float ex = 14 + l * cosf(a), ey = 16 + l * sinf(a);
      if (pass == 0) p_line(14, 16, ex, ey, 4.0f, shade(c, 0.45f));
      else {
        p_line(14, 16, ex, ey, 2.6f, c);
        p_disc(ex, ey, 0.9f, rgb(250, 250, 240));
      }
    }
  p_disc(15, 16, 9.5f, rgb(26, 26, 70));
  p_disc(14.6f, 16, 8.2f, rgb(72, 74, 176));
  p_disc(12.4f, 13.4f, 3.2f, rgb(108, 112, 214));
  /* the staff, held at the side, and its orb */
  p_disc(20.5f, 24.5f, 2, rgb(150, 110, 80));
  p_line(8, 25.5f, 27, 24.2f, 2.2f, rgb(70, 44, 20));
  p_line(8, 25.3f, 27, 24, 1.0f, rgb(160, 114, 64));
  p_disc(27.6f, 24.2f, 4.4f, rgba(150, 255, 160, 110));
  p_disc(27.6f, 24.2f, 2.7f, rgb(110, 235, 130));
  p_disc(27.0f, 23.6f, 1.1f, rgb(240, 255, 240));
  /* the mask */
  p_disc(20.6f, 16, 5.2f, rgb(96, 78, 60));
  p_disc(20.4f, 16, 4.3f, rgb(238, 228, 204));
  p_line(17.4f, 16, 24.2f, 16, 0.9f, rgb(200, 60, 50));
  p_disc(22.2f, 14.1f, 1.35f, rgb(30, 24, 20));
  p_disc(22.2f, 17.9f, 1.35f, rgb(30, 24, 20));
  p_disc(22.5f, 14.1f, 0.65f, rgb(170, 255, 170));
  p_disc(22.5f, 17.9f, 0.65f, rgb(170, 255, 170));
  enemy_entry("shaman", ox, oy);
}

/* salamander: a black lizard with yellow spots and a rim of embers. */
static void enemy_salamander(int ox, int oy) {
  pen_at(ox, oy, 32);
  td_rgba rim = rgb(196, 64, 22), body = rgb(42, 34, 44), spot = rgb(255, 206, 40);
  for (int s = -1; s <= 1; s += 2) { /* legs: front bent forward, hind bent back */
    float m = (float)s;
    p_line(19, 16 + m * 2, 22, 16 + m * 8, 2.6f, rim);
    p_line(22, 16 + m * 8, 25, 16 + m * 9, 2.0f, rim);
    p_line(10, 16 + m * 2, 8, 16 + m * 8, 2.6f, rim);
    p_line(8, 16 + m * 8, 5, 16 + m * 9.5f, 2.0f, rim);
    p_line(19, 16 + m * 2, 22, 16 + m * 8, 1.2f, body);
    p_line(22, 16 + m * 8, 25, 16 + m * 9, 0.8f, body);
    p_line(10, 16 + m * 2, 8, 16 + m * 8, 1.2f, body);
    p_line(8, 16 + m * 8, 5, 16 + m * 9.5f, 0.8f, body);
  }
  /* spine: head to tail tip, a curl at the end */
  static const float sp[][3] = {{28.6f, 16, 2.6f}, {25.6f, 16, 3.9f}, {21, 16, 3.6f},
                                {15.5f, 16, 4.8f},  {10, 16, 4.0f},   {6, 17, 3.0f},
                                {3.4f, 19.4f, 2.1f}, {2.2f, 22.4f, 1.4f}, {3, 25, 0.9f}};
  const int n = (int)(sizeof sp / sizeof sp[0]);
  for (int i = 0; i < n; i++) p_disc(sp[i][0], sp[i][1], sp[i][2] + 1.2f, rim);
  for (int i = 0; i + 1 < n; i++)
    p_line(sp[i][0], sp[i][1], sp[i + 1][0], sp[i + 1][1], 2 * fminf(sp[i][2], sp[i + 1][2]) + 2.4f, rim);
  for (int i = 0; i + 1 < n; i++)
    p_line(sp[i][0], sp[i][1], sp[i + 1][0], sp[i + 1][1], 2 * fminf(sp[i][2], sp[i + 1][2]), body);
  for (int i = 0; i < n; i++) p_disc(sp[i][0], sp[i][1], sp[i][2], body);
  static const float spots[][3] = {{15, 13.2f, 1.7f}, {16.5f, 18.6f, 1.6f}, {11, 17.6f, 1.3f},
                                   {20.5f, 14.4f, 1.2f}, {6.5f, 16.2f, 1.1f}, {12, 13.2f, 0.9f},
                                   {25, 13.6f, 0.9f}, {25, 18.4f, 0.9f}, {3.6f, 20.4f, 0.8f}};
  for (size_t i = 0; i < sizeof spots / sizeof spots[0]; i++)
    p_disc(spots[i][0], spots[i][1], spots[i][2], i % 3 == 2 ? rgb(250, 130, 30) : spot);
  p_eyes(26.4f, 16, 1, 0, 2.5f, 1.5f);
  enemy_entry("salamander", ox, oy);
}

/* golem: a slab of grey stone with boulder fists, moss, and a cyan ward
** rune and eyes (magic slides off it). */
static void enemy_golem(int ox, int oy) {
  pen_at(ox, oy, 32);
  td_rgba dark = rgb(54, 52, 60), stone = rgb(128, 126, 122), light = rgb(164, 162, 154);
  td_rgba moss = rgb(92, 134, 62), rune = rgb(110, 222, 255);
  p_ball(24, 6.5f, 4.8f, dark, stone);
  p_ball(24, 25.5f, 4.8f, dark, stone);
  float body[16];
  static const float rad[8] = {12, 11, 12.6f, 11.4f, 12.2f, 11, 12.6f, 11.2f};
  for (int k = 0; k < 8; k++) {
    float a = (float)k * PI_F / 4 + PI_F / 8;
    body[2 * k] = 14 + rad[k] * cosf(a) * 0.92f, body[2 * k + 1] = 16 + rad[k] * sinf(a);
  }
  p_poly_grown(body, 8, 1.5f, dark);
  p_poly(body, 8, stone);
  float top[8] = {6, 9, 14, 6, 17, 11, 9, 14};
  p_poly(top, 4, light);
  p_line(5, 19, 9, 21, 1.0f, dark);
  p_line(9, 21, 10, 25, 1.0f, dark);
  p_line(16, 22, 19, 25.5f, 1.0f, dark);
  p_line(17, 6, 18, 9.5f, 1.0f, dark);
  p_disc(7.5f, 23, 2.2f, moss);
  p_disc(10, 24.6f, 1.6f, moss);
  p_disc(18.5f, 7.4f, 1.5f, moss);
  p_ring(10.5f, 16, 2.6f, 1.0f, rune);
  p_line(10.5f, 12.6f, 10.5f, 19.4f, 1.0f, rune);
  p_ball(21.6f, 16, 4.8f, dark, rgb(138, 136, 130));
  p_line(23, 13.8f, 24.6f, 14.4f, 1.3f, rune);
  p_line(23, 18.2f, 24.6f, 17.6f, 1.3f, rune);
  enemy_entry("golem", ox, oy);
}

/* drake: a sea-green dragon, wings spread, a long tail. */
static void enemy_drake(int ox, int oy) {
  pen_at(ox, oy, 32);
  td_rgba dark = rgb(16, 64, 56), scale = rgb(46, 158, 126), light = rgb(124, 216, 168);
  td_rgba memb = rgb(92, 196, 150);
  static const float wing[] = {11, 1.2f, 6.5f, 4.5f, 4, 9.5f, 11, 13};
  for (int s = -1; s <= 1; s += 2) {
    float m = (float)s;
    p_wing(17, 14, wing, 4, s, shade(memb, 0.75f), dark, 1.4f);
    p_tri(17, 16 + m * -2, 12, 16 + m * -12, 7.5f, 16 + m * -9.5f, memb); /* a lit panel */
  }
  p_tri(11, 13.5f, 11, 18.5f, 1.2f, 16, dark);
  p_tri(11, 14.6f, 11, 17.4f, 2.4f, 16, scale);
  p_tri(0.6f, 16, 3.6f, 13.4f, 3.6f, 18.6f, dark);
  p_ball(15.5f, 16, 5.2f, dark, scale);
  p_disc(20.5f, 16, 3.0f, dark);
  p_disc(20.5f, 16, 2.0f, scale);
  p_line(22.6f, 13.6f, 19.8f, 11.2f, 1.3f, rgb(236, 226, 190));
  p_line(22.6f, 18.4f, 19.8f, 20.8f, 1.3f, rgb(236, 226, 190));
  p_tri(25.5f, 13.2f, 25.5f, 18.8f, 31, 16, dark);
  p_tri(25.5f, 14.2f, 25.5f, 17.8f, 29.8f, 16, scale);
  p_ball(24.4f, 16, 3.7f, dark, scale);
  for (int k = 0; k < 3; k++) p_disc(9.5f + 3.0f * (float)k, 16, 0.9f, light);
  p_eyes(25.4f, 16, 1, 0, 1.9f, 1.3f);
  enemy_entry("drake", ox, oy);
}

/* ---- bosses (48-pixel cells, drawn in 32 units; facing +x) -------------- */

/* The scene draws an enemy so that its opaque body (alpha >= 128, measured
** from these pixels when the atlas loads: td_sprite.body) is its collision
** disc's diameter, whatever the cell, so a boss (radius 0.6-0.7) shows
** twice a grunt's size by its radius; its bigger cell only keeps its
** detail. Bosses fill their cell, wear heavier outlines and a touch of
** gold. */
#define BOSS 48

static void boss_entry(const char *name, int ox, int oy) {
  char n[64];
  snprintf(n, sizeof n, "enemy_%s", name);
  entry(n, ox, oy, BOSS, BOSS);
}

/* The part of a disc between x = a and x = b: a convex slice. */
static void p_slice(float cx, float cy, float r, float a, float b, td_rgba c) {
  float p[16];
  for (int i = 0; i < 4; i++) {
    float x = a + (b - a) * (float)i / 3.0f, d = r * r - (x - cx) * (x - cx), h = d > 0 ? sqrtf(d) : 0;
    p[2 * i] = x, p[2 * i + 1] = cy - h;
    p[2 * (7 - i)] = x, p[2 * (7 - i) + 1] = cy + h;
  }
  p_poly(p, 8, c);
}

/* hydra: a plum body with three heads on thick necks; the splitter's pale
** cores on its back are what crawls out of it. */
static void boss_hydra(int ox, int oy) {
  pen_at(ox, oy, BOSS);
  td_rgba dark = rgb(46, 12, 56), hide = rgb(120, 48, 140), light = rgb(178, 106, 200);
  td_rgba core = rgb(238, 176, 248), gold = rgb(240, 196, 70);
  static const float head[3][2] = {{24.2f, 6.0f}, {27.0f, 16}, {24.2f, 26.0f}};
  const float bx = 11.0f, by = 16;
  for (int k = 0; k < 5; k++) { /* back spikes */
    float a = PI_F + (float)(k - 2) * 0.55f;
    float px = -sinf(a) * 2.4f, py = cosf(a) * 2.4f, sx = bx + 9.5f * cosf(a), sy = by + 9.5f * sinf(a);
    p_tri(sx + px, sy + py, sx - px, sy - py, bx + 12.6f * cosf(a), by + 12.6f * sinf(a), dark);
    p_tri(sx + px * 0.6f, sy + py * 0.6f, sx - px * 0.6f, sy - py * 0.6f, bx + 11.8f * cosf(a),
          by + 11.8f * sinf(a), gold);
  }
  for (int h = 0; h < 3; h++) p_line(bx + 2, by, head[h][0], head[h][1], 8.6f, dark);
  for (int h = 0; h < 3; h++) p_line(bx + 2, by, head[h][0], head[h][1], 6.2f, hide);
  for (int h = 0; h < 3; h++)
    p_line(bx + 7, by + (head[h][1] - by) * 0.35f, head[h][0], head[h][1], 1.5f, light);
  p_disc(bx, by, 11.0f, dark);
  p_disc(bx - 0.2f, by, 9.5f, hide);
  p_disc(bx - 3.2f, by - 3.4f, 3.4f, light);
  for (int k = 0; k < 3; k++) {
    float a = (float)k * 2 * PI_F / 3 + 0.5f;
    p_disc(bx - 0.6f + 5.0f * cosf(a), by + 5.0f * sinf(a), 2.8f, shade(hide, 0.7f));
    p_disc(bx - 0.8f + 5.0f * cosf(a), by - 0.2f + 5.0f * sinf(a), 2.2f, core);
  }
  for (int h = 0; h < 3; h++) {
    float dx = head[h][0] - bx, dy = head[h][1] - by, l = sqrtf(dx * dx + dy * dy);
    dx /= l, dy /= l;
    float x = head[h][0], y = head[h][1];
    for (int s = -1; s <= 1; s += 2) { /* a frill of two horns */
      float m = (float)s;
      p_line(x - dy * m * 3.0f, y + dx * m * 3.0f, x - dx * 3.8f - dy * m * 5.0f, y - dy * 3.8f + dx * m * 5.0f,
             1.5f, gold);
    }
    p_tri(x - dy * 3.2f, y + dx * 3.2f, x + dy * 3.2f, y - dx * 3.2f, x + dx * 7.6f, y + dy * 7.6f, dark);
    p_tri(x - dy * 2.2f, y + dx * 2.2f, x + dy * 2.2f, y - dx * 2.2f, x + dx * 6.4f, y + dy * 6.4f, hide);
    p_disc(x, y, 5.0f, dark);
    p_disc(x, y, 3.8f, hide);
    p_disc(x - 1.3f, y - 1.3f, 1.5f, light);
    p_eyes(x + dx * 1.1f, y + dy * 1.1f, dx, dy, 2.2f, 1.5f);
  }
  boss_entry("hydra", ox, oy);
}

/* wyrm: a crimson serpent on great wings, a tail in a long S, gold horns. */
static void boss_wyrm(int ox, int oy) {
  pen_at(ox, oy, BOSS);
  td_rgba dark = rgb(66, 8, 20), scale = rgb(172, 34, 44), light = rgb(226, 84, 72);
  td_rgba memb = rgb(232, 112, 68), gold = rgb(246, 198, 72);
  static const float wing[] = {12, 0.4f, 6, 2.4f, 1.8f, 6.8f, 3.4f, 11, 12, 13.6f};
  for (int s = -1; s <= 1; s += 2) {
    float m = (float)s;
    p_wing(18.5f, 14, wing, 5, s, shade(memb, 0.7f), dark, 1.8f);
    p_tri(18.5f, 16 + m * -2, 12.6f, 16 + m * -14.6f, 6.6f, 16 + m * -12.8f, memb);
    p_disc(12, 16 + m * -15.4f, 1.3f, gold);
  }
  float t[9][3];
  for (int i = 0; i < 9; i++) { /* the tail: an S from the hips to the tip */
    float u = (float)i / 8.0f;
    t[i][0] = 13 - 11.6f * u, t[i][1] = 16 + 6.5f * sinf(u * 2 * PI_F) * u, t[i][2] = 3.4f * (1 - u) + 0.6f;
  }
  for (int i = 0; i + 1 < 9; i++)
    p_line(t[i][0], t[i][1], t[i + 1][0], t[i + 1][1], 2 * t[i + 1][2] + 2.6f, dark);
  for (int i = 0; i + 1 < 9; i++)
    p_line(t[i][0], t[i][1], t[i + 1][0], t[i + 1][1], 2 * t[i + 1][2], scale);
  p_tri(t[8][0] + 1.5f, t[8][1], t[8][0] - 1.2f, t[8][1] - 2.6f, t[8][0] - 1.2f, t[8][1] + 2.6f, gold);
  p_ball(16.5f, 16, 7, dark, scale);
  p_disc(22, 16, 4.4f, dark);
  p_disc(22, 16, 3.2f, scale);
  p_line(25, 12.8f, 20.4f, 8.6f, 2.0f, dark); /* horns, swept back */
  p_line(25, 19.2f, 20.4f, 23.4f, 2.0f, dark);
  p_line(25, 12.8f, 20.4f, 8.6f, 1.1f, gold);
  p_line(25, 19.2f, 20.4f, 23.4f, 1.1f, gold);
  p_tri(27, 12.6f, 27, 19.4f, 31.8f, 16, dark);
  p_tri(27, 13.8f, 27, 18.2f, 30.6f, 16, scale);
  p_ball(26, 16, 4.6f, dark, scale);
  for (int k = 0; k < 4; k++) /* a gold ridge down the back */
    p_tri(10.5f + 3.2f * (float)k, 14.6f, 10.5f + 3.2f * (float)k, 17.4f, 13 + 3.2f * (float)k, 16, gold);
  p_disc(15, 13, 1.6f, light);
  p_eyes(27, 16, 1, 0, 2.3f, 1.5f);
  boss_entry("wyrm", ox, oy);
}

/* juggernaut: an iron armadillo: banded plates lit along their front
** edges, rivets, bronze spikes, a bull-horned helm with a red visor slit. */
static void boss_juggernaut(int ox, int oy) {
  pen_at(ox, oy, BOSS);
  td_rgba dark = rgb(28, 30, 38), iron = rgb(88, 94, 110), light = rgb(156, 162, 178);
  td_rgba bronze = rgb(204, 150, 64), glow = rgb(255, 72, 40);
  const float cx = 13.5f, cy = 16, r = 13.4f;
  for (int k = 0; k < 3; k++) { /* spikes along the flanks */
    float x = 7 + 6.5f * (float)k, ch = sqrtf(r * r - (x - cx) * (x - cx));
    for (int s = -1; s <= 1; s += 2) {
      float m = (float)s;
      p_tri(x - 2.4f, cy + m * (ch - 1), x + 2.4f, cy + m * (ch - 1), x - 0.8f, cy + m * (ch + 3.2f), dark);
      p_tri(x - 1.5f, cy + m * (ch - 1), x + 1.5f, cy + m * (ch - 1), x - 0.7f, cy + m * (ch + 2.2f), bronze);
    }
  }
  p_disc(cx, cy, r + 1.6f, dark);
  static const float edge[5] = {0, 5.2f, 10.2f, 15.2f, 20.2f};
  for (int k = 0; k < 4; k++) { /* the bands, back to front */
    float a = edge[k] + 0.9f, b = edge[k + 1];
    p_slice(cx, cy, r, a, b, iron);
    p_slice(cx, cy, r - 0.2f, a, a + 1.2f, shade(iron, 0.75f));
    p_slice(cx, cy, r - 0.4f, b - 1.3f, b, light);
    float ch = sqrtf(r * r - (b - 2.6f - cx) * (b - 2.6f - cx));
    for (int j = -2; j <= 2; j++)
      if (fabsf((float)j * 5.0f) < ch - 2) p_disc(b - 2.6f, cy + (float)j * 5, 0.75f, light);
  }
  for (int s = -1; s <= 1; s += 2) { /* bull horns, out then forward */
    float m = (float)s;
    p_line(24, cy + m * 5, 27.5f, cy + m * 10.5f, 3.4f, dark);
    p_line(27.5f, cy + m * 10.5f, 31.4f, cy + m * 9.6f, 2.6f, dark);
    p_line(24, cy + m * 5, 27.5f, cy + m * 10.5f, 2.2f, bronze);
    p_line(27.5f, cy + m * 10.5f, 31.2f, cy + m * 9.7f, 1.2f, bronze);
  }
  p_ball(23.5f, 16, 6.8f, dark, iron);
  p_ring(23.5f, 16, 5.3f, 1.0f, bronze);
  p_tri(28.6f, 13.4f, 28.6f, 18.6f, 32, 16, dark);
  p_tri(28.8f, 14.4f, 28.8f, 17.6f, 31.2f, 16, bronze);
  p_line(26.2f, 12.4f, 26.2f, 19.6f, 2.6f, dark);
  p_line(26.2f, 12.6f, 26.2f, 19.4f, 1.2f, glow);
  boss_entry("juggernaut", ox, oy);
}

/* warlord: a giant in dark plate under a red cape, pauldrons on both
** shoulders, a gold crown of five points, and a broad sword held forward:
** the first map's boss. */
static void boss_warlord(int ox, int oy) {
  pen_at(ox, oy, BOSS);
  td_rgba dark = rgb(34, 10, 14), cape = rgb(168, 28, 34), cape_hi = rgb(214, 62, 56);
  td_rgba plate = rgb(92, 88, 104), gold = rgb(244, 196, 60), gold_dark = rgb(146, 100, 30);
  td_rgba steel = rgb(222, 228, 238), ember = rgb(255, 96, 40);
  static const float mantle[10] = {2.4f, 7, 13, 3.2f, 13, 28.8f, 2.4f, 25, 0.8f, 16};
  p_poly_grown(mantle, 5, 1.1f, dark); /* the cape, behind, in folds */
  p_poly(mantle, 5, cape);
  for (int k = 0; k < 3; k++) p_line(3.2f, 9.5f + 6.5f * (float)k, 11.6f, 8 + 8 * (float)k, 0.9f, cape_hi);
  /* the sword, along +x from the right hand, under the arm */
  p_line(17, 23.6f, 31.6f, 23.6f, 3.4f, dark);
  p_line(17.5f, 23.6f, 31, 23.6f, 1.8f, steel);
  p_tri(30, 22.2f, 30, 25, 31.9f, 23.6f, steel);
  p_line(19.5f, 20.6f, 19.5f, 26.6f, 2.4f, dark);
  p_line(19.5f, 21.1f, 19.5f, 26.1f, 1.3f, gold);
  p_ball(15.5f, 16, 8.6f, dark, plate); /* the breastplate */
  p_ring(15.5f, 16, 5.8f, 1.0f, shade(plate, 0.7f));
  for (int s = -1; s <= 1; s += 2) { /* pauldrons, rimmed in gold */
    float y = 16 + (float)s * 8.6f;
    p_ball(14.5f, y, 5.1f, dark, cape);
    p_ring(14.5f, y, 3.9f, 0.9f, gold_dark);
  }
  p_ball(20.2f, 16, 5.2f, dark, plate); /* the head, helmed, and its crown */
  p_ring(20.2f, 16, 4.0f, 1.7f, gold);
  for (int k = 0; k < 5; k++) {
    float ang = -1.6f + 0.8f * (float)k, cx = 20.2f + 4.2f * cosf(ang), cy = 16 + 4.2f * sinf(ang);
    float tx = 20.2f + 6.9f * cosf(ang), ty = 16 + 6.9f * sinf(ang);
    float nx = -sinf(ang) * 1.3f, ny = cosf(ang) * 1.3f;
    p_tri(cx - nx, cy - ny, cx + nx, cy + ny, tx, ty, gold_dark);
    p_tri(cx - nx * 0.6f, cy - ny * 0.6f, cx + nx * 0.6f, cy + ny * 0.6f, tx - 0.5f * cosf(ang),
          ty - 0.5f * sinf(ang), gold);
  }
  p_glow_eyes(23, 16, 1.7f, 0.9f, ember);
  boss_entry("warlord", ox, oy);
}

/* herald: a white-and-gold winged figure with a halo and a trumpet, a
** green cross on its robe and a golden glow: it heals. */
static void boss_herald(int ox, int oy) {
  pen_at(ox, oy, BOSS);
  td_rgba gold = rgb(244, 200, 76), gold_dark = rgb(150, 112, 36);
  td_rgba white = rgb(248, 246, 236), shadow = rgb(186, 186, 202);
  p_disc(16, 16, 15.8f, rgba(255, 236, 150, 56));
  p_ring(16, 16, 15.1f, 1.0f, rgba(255, 226, 130, 150));
  for (int s = -1; s <= 1; s += 2)
    for (int k = 0; k < 5; k++) { /* wings of long feathers */
      float a = PI_F - (float)s * (0.36f + 0.3f * (float)k), l = 14.5f - 0.8f * (float)k;
      float bx = 13, by = 16 + (float)s * 3.5f;
      float ex = bx + l * cosf(a), ey = by + l * sinf(a);
      p_line(bx, by, ex, ey, 4.4f, shadow);
      p_line(bx, by, ex, ey, 2.8f, white);
    }
  p_disc(15, 16, 11.0f, gold_dark);
  p_disc(14.7f, 16, 9.7f, white);
  p_disc(12.0f, 13.0f, 3.8f, rgb(255, 255, 250));
  p_ring(14.7f, 16, 8.2f, 1.0f, gold);
  p_rect(8.6f, 14.4f, 7.2f, 3.2f, rgb(66, 182, 94)); /* the healer's cross */
  p_rect(10.6f, 12.4f, 3.2f, 7.2f, rgb(66, 182, 94));
  p_line(24.5f, 16, 28.4f, 16, 1.8f, gold_dark); /* the trumpet */
  p_line(24.5f, 15.7f, 28.4f, 15.7f, 0.9f, gold);
  p_tri(27.4f, 16, 31.9f, 12.2f, 31.9f, 19.8f, gold_dark);
  p_tri(28.2f, 16, 31.7f, 13.2f, 31.7f, 18.8f, gold);
  p_ball(21.4f, 16, 5.2f, gold_dark, rgb(250, 232, 196));
  p_eyes(23.0f, 16, 1, 0, 2.3f, 1.5f);
  p_ring(21.4f, 16, 6.9f, 1.5f, gold);
  boss_entry("herald", ox, oy);
}

/* titan: a basalt colossus, shoulders to the cell's edges, lava in its
** cracks, a gold crown; on its shoulders ride two golems (what climbs off
** its corpse), grey with their cyan rune. */
static void boss_titan(int ox, int oy) {
  pen_at(ox, oy, BOSS);
  td_rgba dark = rgb(34, 28, 36), rock = rgb(96, 84, 92), light = rgb(134, 122, 128);
  td_rgba lava = rgb(255, 116, 28), hot = rgb(255, 226, 110), gstone = rgb(150, 148, 142);
  td_rgba rune = rgb(110, 222, 255), gold = rgb(244, 200, 76);
  for (int s = -1; s <= 1; s += 2) { /* arms: shoulder to fist */
    float m = (float)s;
    p_line(13, 16 + m * 10.5f, 26, 16 + m * 10.4f, 7.6f, dark);
    p_line(13, 16 + m * 10.5f, 26, 16 + m * 10.4f, 5.4f, rock);
    p_line(15, 16 + m * 9.4f, 24, 16 + m * 9.4f, 1.2f, light);
    p_ball(27, 16 + m * 10.2f, 4.8f, dark, rock);
    for (int k = -1; k <= 1; k++)
      p_line(29.2f, 16 + m * 10.2f + (float)k * 1.9f, 31.2f, 16 + m * 10.2f + (float)k * 1.9f, 0.8f, dark);
  }
  float body[16] = {1.5f, 10, 6.5f, 4.2f, 16, 3.6f, 22, 8.5f, 22, 23.5f, 16, 28.4f, 6.5f, 27.8f, 1.5f, 22};
  p_poly_grown(body, 8, 1.8f, dark);
  p_poly(body, 8, rock);
  float top[8] = {3.5f, 11, 7.5f, 6, 15, 5.6f, 9, 13};
  p_poly(top, 4, light);
  static const float crack[][4] = {{10, 9, 12.5f, 12.5f}, {12.5f, 12.5f, 10, 16}, {10, 16, 12.5f, 19.5f},
                                   {12.5f, 19.5f, 10, 23}, {10, 16, 5, 15}, {12.5f, 12.5f, 16.5f, 13},
                                   {12.5f, 19.5f, 16.5f, 19}};
  const int nc = (int)(sizeof crack / sizeof crack[0]);
  for (int i = 0; i < nc; i++) p_line(crack[i][0], crack[i][1], crack[i][2], crack[i][3], 2.4f, shade(lava, 0.5f));
  for (int i = 0; i < nc; i++) p_line(crack[i][0], crack[i][1], crack[i][2], crack[i][3], 1.3f, lava);
  for (int i = 0; i < nc; i++) p_line(crack[i][0], crack[i][1], crack[i][2], crack[i][3], 0.45f, hot);
  for (int s = -1; s <= 1; s += 2) { /* the golems on its shoulders */
    float m = (float)s, y = 16 + m * 10.4f;
    p_ball(12.5f, y, 5.0f, dark, gstone);
    p_ring(12.0f, y, 1.8f, 0.8f, rune);
    p_disc(14.6f, y - 1.6f, 0.8f, rune);
    p_disc(14.6f, y + 1.6f, 0.8f, rune);
  }
  for (int k = 0; k < 5; k++) { /* the crown: five points around the back of the head */
    float a = PI_F + (float)(k - 2) * 0.5f, r0 = 5.2f, r1 = 8.2f;
    float px = -sinf(a) * 1.3f, py = cosf(a) * 1.3f, bx = 21 + r0 * cosf(a), by = 16 + r0 * sinf(a);
    p_tri(bx + px * 1.5f, by + py * 1.5f, bx - px * 1.5f, by - py * 1.5f, 21 + (r1 + 0.8f) * cosf(a),
          16 + (r1 + 0.8f) * sinf(a), dark);
    p_tri(bx + px, by + py, bx - px, by - py, 21 + r1 * cosf(a), 16 + r1 * sinf(a), gold);
  }
  p_ball(21.5f, 16, 6.0f, dark, rock);
  p_ring(21.3f, 16, 4.9f, 0.9f, gold);
  p_glow_eyes(24.4f, 16, 2.3f, 1.15f, lava);
  boss_entry("titan", ox, oy);
}

/* ---- towers of the newer content (32 units, turrets facing +x) ---------- */

/* A crackle of lightning from (x0, y0) to (x1, y1): a zigzag of n legs,
** a soft glow under a white core. */
static void p_bolt(float x0, float y0, float x1, float y1, int n, float amp, td_rgba glow) {
  float dx = x1 - x0, dy = y1 - y0, l = sqrtf(dx * dx + dy * dy);
  float px = -dy / l * amp, py = dx / l * amp, lx = x0, ly = y0;
  for (int pass = 0; pass < 2; pass++) {
    lx = x0, ly = y0;
    for (int i = 1; i <= n; i++) {
      float u = (float)i / (float)n, side = i == n ? 0.0f : (i & 1 ? 1.0f : -1.0f);
      float x = x0 + dx * u + px * side, y = y0 + dy * u + py * side;
      if (pass == 0) p_line(lx, ly, x, y, 2.2f, rgba(glow.r, glow.g, glow.b, 120));
      else p_line(lx, ly, x, y, 0.9f, rgb(255, 255, 235));
      lx = x, ly = y;
    }
  }
}

/* Tesla: a copper coil under a steel sphere, an electrode forward;
** kind 1 bigger with a ring, 2 (thunder) a great toroid throwing a bolt,
** 3 (arc) twin electrodes with arcs between them. */
static void turret_tesla(const char *name, int ox, int oy, int kind) {
  pen_at(ox, oy, 32);
  td_rgba cu_dark = rgb(104, 52, 28), cu = rgb(218, 136, 72), steel_dark = rgb(60, 64, 76);
  td_rgba steel = rgb(200, 206, 220), spark = rgb(255, 236, 110);
  float r = kind == 0 ? 7.4f : 8.4f, cx = 14;
  if (kind == 3) { /* twin electrodes, arcs jumping between them */
    for (int s = -1; s <= 1; s += 2) {
      float y = 16 + (float)s * 4.4f;
      p_line(cx, y, 28.5f, y, 3.0f, steel_dark);
      p_line(cx, y - 0.35f, 28.5f, y - 0.35f, 1.3f, steel);
      p_disc(28.6f, y, 1.9f, steel_dark);
      p_disc(28.4f, y - 0.3f, 1.2f, steel);
    }
    p_disc(27, 16, 4.6f, rgba(spark.r, spark.g, spark.b, 70));
    p_bolt(28.3f, 12.6f, 28.3f, 19.4f, 4, 1.3f, spark);
    p_bolt(24.4f, 12.6f, 24.4f, 19.4f, 3, 1.1f, spark);
  } else if (kind != 2) { /* one electrode, sparking at its tip */
    p_line(cx, 16, 26.5f, 16, 3.0f, steel_dark);
    p_line(cx, 15.65f, 26.5f, 15.65f, 1.3f, steel);
    p_disc(27.4f, 16, 4.6f, rgba(spark.r, spark.g, spark.b, 80));
    p_disc(27.4f, 16, 2.5f, steel_dark);
    p_disc(27.4f, 16, 1.8f, rgb(255, 250, 210));
    p_bolt(28.6f, 14.6f, 31.4f, 10.6f, 2, 0.9f, spark);
    p_bolt(28.6f, 17.4f, 31.4f, 21.4f, 2, 0.9f, spark);
    if (kind == 1) p_bolt(29.4f, 16, 31.8f, 16, 2, 0.8f, spark);
  }
  p_disc(cx, 16, r + 1.3f, rgb(42, 32, 28));
  p_disc(cx, 16, r, cu_dark);
  for (int k = 0; r - 1.0f - 1.8f * (float)k > 3.0f; k++) /* the windings */
    p_ring(cx, 16, r - 1.0f - 1.8f * (float)k, 1.0f, cu);
  p_disc(cx - 3.2f, 12.8f, 1.4f, rgb(255, 206, 156));
  if (kind == 2) { /* the toroid, and a bolt forward */
    p_ring(cx, 16, 6.6f, 4.2f, steel_dark);
    p_ring(cx, 16, 6.6f, 2.9f, steel);
    p_disc(cx - 3.8f, 11.6f, 1.3f, rgb(255, 255, 255));
    p_disc(cx, 16, 4.0f, rgba(150, 200, 255, 120));
    p_disc(cx, 16, 2.4f, rgb(232, 244, 255));
    p_disc(27, 16, 5.0f, rgba(140, 190, 255, 60));
    p_bolt(20.5f, 16, 31.6f, 16, 5, 2.4f, rgb(140, 190, 255));
  } else {
    p_ball(cx, 16, kind == 0 ? 3.4f : 4.0f, steel_dark, steel);
  }
  if (kind == 1 || kind == 3) p_ring(cx, 16, r + 0.9f, 1.2f, rgb(255, 230, 90));
  turret_entry(name, ox, oy);
}

/* Flak: an olive mount with two long thin barrels and muzzle brakes;
** kind 1 heavier barrels, ammunition drums and a ring, 2 (skyguard) two
** pairs of barrels and a radar dish at the back. */
static void turret_flak(const char *name, int ox, int oy, int kind) {
  pen_at(ox, oy, 32);
  td_rgba olive_dark = rgb(46, 54, 26), olive = rgb(108, 122, 62), olive_light = rgb(148, 162, 92);
  td_rgba steel = rgb(54, 56, 62), steel_hi = rgb(156, 160, 168);
  float r = kind == 0 ? 7.6f : 8.4f, cx = 13.5f;
  if (kind >= 1) /* ammunition drums on both sides */
    for (int s = -1; s <= 1; s += 2) {
      float y = 16 + (float)s * 8.2f;
      p_ball(17.5f, y, 3.2f, olive_dark, olive);
      p_line(15.6f, y, 19.4f, y, 0.6f, olive_dark);
    }
  p_disc(cx, 16, r + 1.3f, olive_dark);
  p_disc(cx, 16, r, olive);
  p_disc(cx - 2.6f, 13.4f, r * 0.36f, olive_light);
  p_rect(cx, 10.6f, 8.0f, 10.8f, olive_dark); /* the cradle */
  p_rect(cx + 0.8f, 11.4f, 6.4f, 9.2f, shade(olive, 0.85f));
  static const float two[] = {13.4f, 18.6f}, four[] = {11.6f, 14.0f, 18.0f, 20.4f};
  const float *ys = kind == 2 ? four : two;
  int n = kind == 2 ? 4 : 2;
  float w = kind == 1 ? 2.8f : kind == 2 ? 1.9f : 2.3f;
  for (int i = 0; i < n; i++) {
    float y = ys[i];
    p_line(cx + 3, y, 29, y, w + 0.8f, rgb(26, 28, 32));
    p_line(cx + 3, y, 29, y, w, steel);
    p_line(cx + 3, y - w * 0.22f, 28, y - w * 0.22f, w * 0.38f, steel_hi);
    p_rect(27.6f, y - w * 0.8f, 3.2f, w * 1.6f, rgb(26, 28, 32));
  }
  if (kind == 2) { /* the radar dish */
    p_disc(7.8f, 9.2f, 5.2f, rgb(40, 44, 50));
    p_disc(7.8f, 9.2f, 4.3f, rgb(208, 214, 222));
    p_ring(7.8f, 9.2f, 2.6f, 0.8f, rgb(150, 156, 166));
    p_line(7.8f, 9.2f, 10.8f, 6.2f, 0.8f, rgb(80, 84, 92));
    p_disc(7.8f, 9.2f, 1.0f, rgb(235, 60, 50));
  }
  if (kind >= 1) p_ring(cx, 16, r + 0.8f, 1.2f, rgb(226, 206, 96));
  turret_entry(name, ox, oy);
}

/* A six-pointed star of two triangles. */
static void p_star(float x, float y, float r, td_rgba c) {
  for (int k = 0; k < 2; k++) {
    float a = (float)k * PI_F / 3, t[6];
    for (int i = 0; i < 3; i++) {
      t[2 * i] = x + r * cosf(a + (float)i * 2 * PI_F / 3);
      t[2 * i + 1] = y + r * sinf(a + (float)i * 2 * PI_F / 3);
    }
    p_tri(t[0], t[1], t[2], t[3], t[4], t[5], c);
  }
}

/* A magenta flag streaming +x from a pole at x0, len long and 2 * half
** wide, in folds, a swallowtail, a gold star (the buff ring the scene
** draws is magenta too); edged: gold along its edges. */
static void banner_flag(float x0, float len, float half, bool edged) {
  td_rgba cloth = rgb(208, 46, 124), dark = rgb(110, 18, 66), light = rgb(238, 108, 170);
  float x1 = x0 + len * 0.42f, x2 = x0 + len * 0.72f, x3 = x0 + len;
  float a[8] = {x0, 16 - half, x1, 16 - half + 1.0f, x1, 16 + half + 1.0f, x0, 16 + half};
  float b[8] = {x1, 16 - half + 1.0f, x2, 16 - half, x2, 16 + half, x1, 16 + half + 1.0f};
  float t1[8] = {x2, 16 - half, x3, 16 - half + 1.0f, x3 - len * 0.18f, 16, x2, 16};
  float t2[8] = {x2, 16, x3 - len * 0.18f, 16, x3, 16 + half + 1.0f, x2, 16 + half};
  float sh[8] = {x0 + 1, 16 - half + 1.5f, x3 + 0.5f, 16 - half + 2.5f, x3 + 0.5f, 16 + half + 2.5f,
                 x0 + 1, 16 + half + 1.5f};
  p_poly(sh, 4, rgba(0, 0, 0, 80));
  p_poly_grown(a, 4, 0.9f, dark);
  p_poly_grown(b, 4, 0.9f, dark);
  p_poly_grown(t1, 4, 0.9f, dark);
  p_poly_grown(t2, 4, 0.9f, dark);
  p_poly(a, 4, light);
  p_poly(b, 4, cloth);
  p_poly(t1, 4, shade(cloth, 0.8f));
  p_poly(t2, 4, shade(cloth, 0.8f));
  if (edged) {
    p_line(x0 + 0.5f, 16 - half + 0.6f, x2, 16 - half + 0.6f, 1.1f, rgb(244, 200, 76));
    p_line(x0 + 0.5f, 16 + half - 0.2f, x2, 16 + half - 0.2f, 1.1f, rgb(244, 200, 76));
  }
  float ex = x0 + len * 0.45f;
  p_star(ex, 16.5f, half * 0.62f, rgb(120, 84, 20));
  p_star(ex, 16.3f, half * 0.5f, rgb(248, 208, 84));
}

/* Banner: the flag on a pole on a wooden stand; kind 1 a bigger flag with
** gold edges and a ring, 2 (warhorn) a great ivory horn with a pennant, 3
** (drums) a war drum in the banner's colour. */
static void turret_banner(const char *name, int ox, int oy, int kind) {
  pen_at(ox, oy, 32);
  td_rgba gold = rgb(244, 200, 76), gold_dark = rgb(140, 100, 30);
  float px = kind == 3 ? 16.0f : 11.0f;
  p_disc(px, 16, 6.4f, rgb(64, 48, 36));
  p_disc(px, 16, 5.2f, rgb(132, 98, 62));
  p_ring(px, 16, 3.6f, 0.7f, rgb(104, 76, 46));
  if (kind == 0) banner_flag(px, 17.5f, 6.8f, false);
  else if (kind == 1) banner_flag(px, 20.0f, 8.0f, true);
  else if (kind == 2) { /* the warhorn: ivory, gold bands, its bell forward */
    banner_flag(px, 11.0f, 4.6f, false);
    float p0x = 5.5f, p0y = 23, p1x = 16, p1y = 31, p2x = 28, p2y = 20;
    for (int pass = 0; pass < 2; pass++)
      for (int i = 0; i <= 20; i++) {
        float u = (float)i / 20.0f, v = 1 - u;
        float x = v * v * p0x + 2 * u * v * p1x + u * u * p2x, y = v * v * p0y + 2 * u * v * p1y + u * u * p2y;
        float rr = 0.9f + 3.6f * u * u;
        p_disc(x, y, pass ? rr : rr + 1.0f, pass ? rgb(240, 228, 200) : rgb(96, 76, 50));
        if (pass && (i == 7 || i == 14)) p_disc(x, y, rr + 0.5f, gold);
        if (pass) p_disc(x - rr * 0.3f, y - rr * 0.4f, rr * 0.35f, rgb(255, 250, 236));
      }
    p_disc(p2x + 0.3f, p2y - 0.5f, 3.0f, rgb(70, 48, 30));
    p_ring(p2x + 0.3f, p2y - 0.5f, 3.5f, 1.0f, gold);
  } else { /* the drum: a magenta shell, gold ropes, a skin, two sticks */
    p_disc(16, 16, 10.6f, rgb(90, 14, 54));
    p_disc(16, 16, 9.4f, rgb(208, 46, 124));
    p_disc(16, 16, 7.4f, rgb(238, 222, 186));
    p_disc(14.4f, 14.4f, 3.2f, rgb(250, 240, 214));
    p_ring(16, 16, 5.6f, 0.6f, rgb(206, 188, 148));
    for (int k = 0; k < 12; k++) {
      float a0 = (float)k * PI_F / 6, a1 = a0 + PI_F / 6;
      float r0 = k & 1 ? 7.6f : 9.8f, r1 = k & 1 ? 9.8f : 7.6f;
      p_line(16 + r0 * cosf(a0), 16 + r0 * sinf(a0), 16 + r1 * cosf(a1), 16 + r1 * sinf(a1), 0.9f, gold);
    }
    for (int s = -1; s <= 1; s += 2) {
      float m = (float)s;
      p_line(30, 16 + m * 9, 19.5f, 16 + m * 2.2f, 2.0f, rgb(60, 36, 16));
      p_line(30, 16 + m * 9, 19.5f, 16 + m * 2.2f, 1.1f, rgb(150, 104, 56));
      p_disc(19.5f, 16 + m * 2.2f, 1.6f, rgb(236, 226, 198));
    }
  }
  if (kind != 3) p_ball(px, 16, 2.0f, gold_dark, gold);
  if (kind >= 1) p_ring(px, 16, kind == 3 ? 11.4f : 6.9f, 1.2f, gold);
  turret_entry(name, ox, oy);
}

/* ---- the cannon's and frost's last levels ------------------------------- */

/* Mortar: a fat short tube, its bore seen from above, on the cannon's
** iron drum; the cannon's orange ring. */
static void turret_mortar(const char *name, int ox, int oy) {
  pen_at(ox, oy, 32);
  td_rgba iron = rgb(70, 72, 80), hi = rgb(124, 128, 140), dark = rgb(44, 44, 52);
  p_disc(15, 16, 10.2f, dark);
  p_disc(15, 16, 8.8f, iron);
  p_disc(12.6f, 13.6f, 3.4f, hi);
  p_line(15, 16, 22.5f, 16, 12.0f, dark);
  p_line(15, 16, 22.5f, 16, 9.6f, iron);
  p_line(15, 12.6f, 22, 12.6f, 1.6f, hi);
  p_disc(23, 16, 6.6f, dark);
  p_disc(23, 16, 5.4f, rgb(96, 98, 108));
  p_ring(23, 16, 5.4f, 1.0f, rgb(230, 120, 40));
  p_disc(23.4f, 16, 3.6f, rgb(16, 16, 20));
  p_ring(15, 16, 9.4f, 1.2f, rgb(230, 120, 40));
  turret_entry(name, ox, oy);
}

/* Firebomb: the cannon with a red-banded barrel and a flame at its mouth. */
static void turret_firebomb(const char *name, int ox, int oy) {
  pen_at(ox, oy, 32);
  td_rgba iron = rgb(74, 66, 66), hi = rgb(132, 120, 116), dark = rgb(48, 40, 42);
  p_line(15, 16, 26, 16, 8.0f, dark);
  p_line(15, 16, 26, 16, 6.2f, iron);
  p_line(15, 14.2f, 26, 14.2f, 1.4f, hi);
  p_rect(25.6f, 12.8f, 1.8f, 6.4f, rgb(210, 64, 30));
  p_disc(30, 16, 3.4f, rgba(255, 110, 30, 150)); /* the flame */
  p_tri(28, 12.4f, 28, 19.6f, 32, 16, rgb(255, 120, 30));
  p_tri(28.4f, 14, 28.4f, 18, 31.6f, 16, rgb(255, 210, 70));
  p_disc(29, 16, 1.4f, rgb(255, 248, 210));
  p_disc(15, 16, 10, dark);
  p_disc(15, 16, 8.5f, iron);
  p_disc(13, 14, 4, hi);
  float fl[6] = {15, 10.5f, 18.6f, 18.8f, 11.4f, 18.8f}; /* a flame on its drum */
  p_poly(fl, 3, rgb(240, 110, 30));
  p_disc(15, 17.0f, 2.2f, rgb(255, 206, 70));
  p_ring(15, 16, 9.0f, 1.2f, rgb(230, 120, 40));
  turret_entry(name, ox, oy);
}

/* A pen crystal: the arrowhead shape of the frost turret's crystals,
** pointing along angle a. */
static void p_crystal(float x, float y, float s, float a, td_rgba c) {
  float ca = cosf(a), sa = sinf(a);
  float bx = x - s * 0.6f * ca, by = y - s * 0.6f * sa;
  p_tri(x + s * ca, y + s * sa, bx + s * 0.7f * sa, by - s * 0.7f * ca, bx - s * 0.7f * sa, by + s * 0.7f * ca, c);
  p_tri(x + s * ca, y + s * sa, x - s * 0.2f * ca + s * 0.35f * sa, y - s * 0.2f * sa - s * 0.35f * ca, bx, by,
        shade(c, 1.35f));
}

/* Glacier: a cluster of great crystals fanned forward on a frozen drum,
** a frost ring. */
static void turret_glacier(const char *name, int ox, int oy) {
  pen_at(ox, oy, 32);
  p_disc(16, 16, 10.6f, rgba(200, 240, 255, 70));
  p_disc(15, 16, 9.4f, rgb(30, 58, 96));
  p_disc(15, 16, 8.0f, rgb(56, 100, 150));
  p_crystal(17, 9.5f, 7.5f, -0.5f, rgb(150, 210, 245));
  p_crystal(17, 22.5f, 7.5f, 0.5f, rgb(150, 210, 245));
  p_crystal(18, 16, 13.5f, 0, rgb(110, 190, 240));
  p_crystal(9.5f, 16, 4.5f, PI_F, rgb(190, 235, 255));
  p_ring(15, 16, 9.9f, 1.3f, rgb(220, 250, 255));
  for (int k = 0; k < 3; k++) { /* a snowflake */
    float a = (float)k * PI_F / 3;
    p_line(10 - 2.6f * cosf(a), 16 - 2.6f * sinf(a), 10 + 2.6f * cosf(a), 16 + 2.6f * sinf(a), 0.8f,
           rgb(245, 252, 255));
  }
  turret_entry(name, ox, oy);
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
  td_err err;
  if (td_png_save(s, path, &err) != 0) {
    fprintf(stderr, "td_assetgen: %s\n", err.msg);
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
  td_err err;
  if (td_file_begin(&idx_out, path, &err) != 0) {
    fprintf(stderr, "td_assetgen: %s\n", err.msg);
    return 1;
  }
  idx = idx_out.f;
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
  enemy_shaman(192, 64);
  enemy_salamander(224, 64);
  enemy_golem(256, 64);
  enemy_drake(288, 64);
  shots(0, 96);
  icons(0, 112);
  font(0, 128);
  /* y 160: the bosses in 48-pixel cells */
  boss_hydra(0, 160);
  boss_wyrm(48, 160);
  boss_juggernaut(96, 160);
  boss_herald(144, 160);
  boss_titan(192, 160);
  /* after them, the last levels of cannon and frost */
  turret_mortar("mortar", 240, 160);
  turret_firebomb("firebomb", 272, 160);
  turret_glacier("glacier", 304, 160);
  boss_warlord(336, 160);
  /* y 208: tesla, flak and banner */
  platform("tesla", 0, 208, rgb(250, 214, 70));
  platform("flak", 32, 208, rgb(150, 170, 70));
  platform("banner", 64, 208, rgb(220, 70, 160));
  turret_tesla("tesla", 96, 208, 0);
  turret_tesla("tesla_2", 128, 208, 1);
  turret_tesla("thunder", 160, 208, 2);
  turret_tesla("arc", 192, 208, 3);
  turret_flak("flak", 224, 208, 0);
  turret_flak("flak_2", 256, 208, 1);
  turret_flak("skyguard", 288, 208, 2);
  turret_banner("banner", 320, 208, 0);
  turret_banner("banner_2", 352, 208, 1);
  turret_banner("warhorn", 384, 208, 2);
  turret_banner("drums", 416, 208, 3);
  /* soldiers and sappers: the barracks at y 32, the units at y 64 */
  platform("barracks", 416, 32, rgb(90, 140, 220));
  turret_barracks("barracks", 448, 32, 0);
  turret_barracks("barracks_2", 480, 32, 1);
  turret_barracks("fortress", 448, 208, 2);
  soldier("footman", 320, 64, false);
  soldier("knight", 352, 64, true);
  enemy_sapper(384, 64);
  rubble_and_flag(416, 64);
  if (td_file_commit(&idx_out, &err) != 0) {
    fprintf(stderr, "td_assetgen: %s\n", err.msg);
    SDL_FreeSurface(s);
    return 1;
  }
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
