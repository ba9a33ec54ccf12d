/*
** palette.c: the standard and the colour-blind safe palettes (palette.h).
**
** The safe one uses Okabe and Ito's colours (2008), chosen to stay apart
** for deuteranopes and protanopes: blue (0, 114, 178), sky blue (86, 180,
** 233), yellow (240, 228, 66), orange (230, 159, 0), vermillion (213, 94,
** 0). Its pairs that carry a meaning differ in lightness too (sky blue /
** vermillion, yellow / vermillion), so they also survive a grey screen.
*/
#include "render/palette.h"

#include <string.h>

#include "render/trails.h"

static SDL_Color rgba(int r, int g, int b, int a) {
  return (SDL_Color){(Uint8)r, (Uint8)g, (Uint8)b, (Uint8)a};
}

static const td_palette PALETTES[TD_PALETTE_COUNT] = {
  [TD_PALETTE_STANDARD] = {
    .ok = {120, 255, 140, 255}, .afford = {255, 210, 80, 255}, .refused = {255, 70, 60, 255},
    .refused_tint = {255, 120, 110, 170}, .refused_text = {255, 120, 100, 255},
    .hp_high = {80, 220, 80, 255}, .hp_mid = {240, 200, 40, 255}, .hp_low = {240, 60, 40, 255},
    .route = {255, 205, 60, 190}, .route_changed = {120, 255, 255, 255},
    .spawn = {90, 240, 90, 255}, .spawn_fill = {30, 60, 30, 200}, .spawn_pulse = {150, 255, 150, 200},
    .goal = {120, 140, 255, 255}, .goal_fill = {40, 40, 90, 255}, .goal_core = {160, 200, 255, 255},
    .leak = {255, 60, 60, 255}, .cell_closed = {200, 40, 40, 70}, .cell_blocked = {255, 140, 0, 90},
    .shapes = false},
  [TD_PALETTE_SAFE] = {
    .ok = {86, 180, 233, 255}, .afford = {240, 228, 66, 255}, .refused = {213, 94, 0, 255},
    .refused_tint = {230, 150, 90, 170}, .refused_text = {240, 140, 60, 255},
    .hp_high = {86, 180, 233, 255}, .hp_mid = {240, 228, 66, 255}, .hp_low = {213, 94, 0, 255},
    .route = {230, 159, 0, 190}, .route_changed = {86, 180, 233, 255},
    .spawn = {230, 159, 0, 255}, .spawn_fill = {70, 50, 10, 200}, .spawn_pulse = {240, 228, 66, 200},
    .goal = {86, 180, 233, 255}, .goal_fill = {0, 50, 90, 255}, .goal_core = {200, 235, 255, 255},
    .leak = {213, 94, 0, 255}, .cell_closed = {0, 114, 178, 90}, .cell_blocked = {230, 159, 0, 100},
    .shapes = true},
};

const td_palette *td_palette_get(td_palette_kind k) {
  return &PALETTES[(unsigned)k < TD_PALETTE_COUNT ? k : TD_PALETTE_STANDARD];
}

static const char *const NAMES[TD_PALETTE_COUNT] = {"standard", "safe"};
static const char *const TITLES[TD_PALETTE_COUNT] = {"Standard", "Colour-blind safe"};

const char *td_palette_name(td_palette_kind k) { return (unsigned)k < TD_PALETTE_COUNT ? NAMES[k] : NULL; }
const char *td_palette_title(td_palette_kind k) { return (unsigned)k < TD_PALETTE_COUNT ? TITLES[k] : NULL; }

int td_palette_parse(const char *name) {
  for (int k = 0; k < TD_PALETTE_COUNT; k++)
    if (name && !strcmp(name, NAMES[k])) return k;
  return -1;
}

SDL_Color td_palette_lane(const td_palette *p, float t) {
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  if (!p->shapes) {
    td_rgba c = td_render_lane_color(t);
    return rgba(c.r, c.g, c.b, 255);
  }
  static const int stops[5][3] = {{0, 114, 178}, {86, 180, 233}, {240, 228, 66}, {230, 159, 0}, {213, 94, 0}};
  float f = t * 4;
  int i = (int)f;
  if (i > 3) i = 3;
  f -= (float)i;
  int c[3];
  for (int k = 0; k < 3; k++)
    c[k] = (int)((float)stops[i][k] + ((float)stops[i + 1][k] - (float)stops[i][k]) * f + 0.5f);
  return rgba(c[0], c[1], c[2], 255);
}
