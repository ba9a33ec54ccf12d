/*
** atlas.h: td's sprites, icons, tiles and font, in one texture.
**
** What. assets/atlas.png (made by assets/gen/atlas.c) holds every sprite;
** assets/atlas.txt names them, one "name x y w h" a line. td_atlas_load
** reads both into an SDL texture for one renderer (nearest-neighbour
** scaling, so pixel art stays crisp at any zoom) and a name table;
** td_atlas_find looks a sprite up by name; each sprite knows how much of
** its cell its opaque body fills (td_sprite.body). Names follow the index's
** conventions (base_<tower type>, turret_<level>, enemy_<type>, shot_*,
** fx_*, icon_*, tile_*, white, glyph_<ascii code>); a name not in the atlas
** gives NULL and the caller draws a fallback shape in the type's colour.
**
** Memory: a td_atlas owns its pixels, texture and table (freed by
** td_atlas_destroy, before the renderer is). Determinism: not part of the
** simulation.
*/
#ifndef TD_RENDER_ATLAS_H
#define TD_RENDER_ATLAS_H

#include <SDL.h>
#include <stdbool.h>
#include <stdint.h>

#include "nav/mem.h"

typedef struct td_sprite {
  char name[48];
  int x, y, w, h;        /* pixels in the texture */
  float u0, v0, u1, v1;  /* the same as texture coordinates */
  /* The sprite's body: the side of the smallest square centred on it that
  ** holds every pixel with alpha >= 128, as a share of its width (height)
  ** (measured from the pixels at load; 0: no such pixel). A sprite drawn
  ** size / body wide shows a body size wide: enemies match their collision
  ** disc this way (render/scene.c), whatever margin their cell leaves. */
  float body;
} td_sprite;

typedef struct td_atlas {
  SDL_Texture *tex;
  int tex_w, tex_h;
  uint32_t *px;                 /* tex_w x tex_h, ARGB8888 (0xAARRGGBB), not premultiplied */
  td_sprite *sprites;
  size_t count;
  const td_sprite *white;       /* an opaque block: shapes are drawn with it */
  const td_sprite *glyph[128];  /* font cells 6x8 (5x7 glyphs), NULL: none */
} td_atlas;

/* Loads dir/atlas.png and dir/atlas.txt for renderer r. NULL with err set
** ("assets/atlas.txt:12: bad line", "assets/atlas.png: ..."). */
td_atlas *td_atlas_load(SDL_Renderer *r, const char *dir, td_err *err);
void td_atlas_destroy(td_atlas *a);            /* NULL is a no-op */

/* The sprite named name, or NULL. Linear in the count (a few hundred):
** callers cache per type. */
const td_sprite *td_atlas_find(const td_atlas *a, const char *name);
/* td_atlas_find of prefix + name ("enemy_" + "runner"). */
const td_sprite *td_atlas_findf(const td_atlas *a, const char *prefix, const char *name);

#endif
