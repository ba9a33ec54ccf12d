/*
** palette.h: the colours that carry meaning on the map, in one place:
** the ghost's verdict (ok, cannot afford, refused), the rally flag's,
** health bars, the route's arrows (and those a tower would change), spawns
** and goals, lanes, the grid overlay's closed and blocked cells, leaks.
**
** What. Two palettes: the standard one (green ok, red refused, a green to
** red health bar) and one safe for the red-green colour blind
** (deuteranopia, protanopia), built on Okabe and Ito's eight colours: blue
** and sky blue for ok and full health, yellow for "cannot afford" and half
** health, vermillion (a dark orange, never the standard red) for refused
** and low health, orange for the route. Colour is never alone: a refused
** ghost or flag is crossed out in both palettes, and the safe palette adds
** a tick to a ghost that can be built and stripes to a refused footprint
** (td_palette.shapes). The scene (scene.c), units (units.c), the client
** and the menu's thumbnails read their colours here; `td play`'s Settings
** choose one (kept as `palette standard|safe`), `td shot --palette`.
**
** Memory: the palettes are constant tables; td_palette_get returns a
** pointer into them (never NULL). Determinism: not part of the simulation.
*/
#ifndef TD_RENDER_PALETTE_H
#define TD_RENDER_PALETTE_H

#include <SDL.h>
#include <stdbool.h>

typedef enum td_palette_kind {
  TD_PALETTE_STANDARD = 0,
  TD_PALETTE_SAFE,       /* colour-blind safe (Okabe-Ito) */
  TD_PALETTE_COUNT
} td_palette_kind;

typedef struct td_palette {
  SDL_Color ok;            /* a ghost that can be built, a rally flag that can stand */
  SDL_Color afford;        /* a ghost that could be built, but the gold is short */
  SDL_Color refused;       /* a ghost or a flag refused */
  SDL_Color refused_tint;  /* a refused ghost's tower sprite (alpha: how faint) */
  SDL_Color refused_text;  /* messages of refusal (the toast) */
  SDL_Color hp_high, hp_mid, hp_low; /* health bars: above 1/2, above 1/4, below */
  SDL_Color route;         /* the route's chevrons (alpha 190) */
  SDL_Color route_changed; /* arrows a ghost's tower would change */
  SDL_Color spawn, spawn_fill, spawn_pulse;
  SDL_Color goal, goal_fill, goal_core;
  SDL_Color leak;          /* the ring and the lost lives of a leak */
  SDL_Color cell_closed;   /* grid overlay: not walkable */
  SDL_Color cell_blocked;  /* grid overlay: blocked by a tower */
  bool shapes;             /* extra shape cues: a tick on a good ghost, stripes on a refused one */
} td_palette;

const td_palette *td_palette_get(td_palette_kind k); /* a bad k: the standard one */
const char *td_palette_name(td_palette_kind k);      /* "standard", "safe"; NULL for a bad k */
int td_palette_parse(const char *name);              /* the kind, or -1 */
const char *td_palette_title(td_palette_kind k);     /* "Standard", "Colour-blind safe" */
/* A lane's colour at t (0: the rightmost lane .. 1: the leftmost): the
** standard palette's blue to pink hue ramp, or the safe one's blue, sky
** blue, yellow, orange, vermillion. */
SDL_Color td_palette_lane(const td_palette *p, float t);

#endif
