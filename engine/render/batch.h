/*
** batch.h: a sprite batch: textured quads, shapes and text from one atlas,
** drawn with as few SDL_RenderGeometry calls as possible.
**
** What. Every draw call appends vertices (screen pixels, the atlas's
** texture coordinates, a colour that modulates the texel) to one list;
** td_batch_flush hands the list to SDL_RenderGeometry in one call. Shapes
** (rectangles, lines, discs, rings, triangles) sample the atlas's white
** block, so they go in the same batch as sprites and keep back-to-front
** order. Text uses the atlas font (6x8 cells, integer scale). Quads
** entirely outside the target are culled when appended.
**
** Memory: a td_batch owns its vertex and index arrays (grown by doubling,
** malloc); it borrows the renderer and the atlas. A failed growth drops
** the shape (nothing else happens). Determinism: not part of the simulation.
*/
#ifndef TD_RENDER_BATCH_H
#define TD_RENDER_BATCH_H

#include <SDL.h>
#include <stdbool.h>
#include <stddef.h>

#include "render/atlas.h"

typedef struct td_batch {
  SDL_Renderer *r;
  const td_atlas *atlas;
  SDL_Vertex *v;
  int *idx;
  size_t nv, ni, cap_v, cap_i;
  float w, h;            /* target size, for culling */
  size_t quads, flushes; /* statistics since td_batch_begin */
} td_batch;

void td_batch_init(td_batch *b, SDL_Renderer *r, const td_atlas *atlas);
void td_batch_free(td_batch *b);
/* Starts a frame on a target of w x h pixels (culling; counters reset). */
void td_batch_begin(td_batch *b, int w, int h);
/* Draws what was appended (one SDL_RenderGeometry), and empties the list. */
void td_batch_flush(td_batch *b);

static inline SDL_Color td_color(int r, int g, int b, int a) {
  SDL_Color c = {(Uint8)r, (Uint8)g, (Uint8)b, (Uint8)a};
  return c;
}

/* A sprite centred at (cx, cy), w x h pixels, turned by angle radians
** (clockwise on screen, y down: the world's convention). */
void td_batch_sprite(td_batch *b, const td_sprite *s, float cx, float cy, float w, float h,
                     float angle, SDL_Color c);
/* A sprite in an axis-aligned rectangle (x, y: top-left). */
void td_batch_sprite_rect(td_batch *b, const td_sprite *s, float x, float y, float w, float h,
                          SDL_Color c);
void td_batch_rect(td_batch *b, float x, float y, float w, float h, SDL_Color c);
/* An outline of thickness t drawn inside the rectangle. */
void td_batch_rect_outline(td_batch *b, float x, float y, float w, float h, float t, SDL_Color c);
void td_batch_line(td_batch *b, float x0, float y0, float x1, float y1, float width, SDL_Color c);
void td_batch_tri(td_batch *b, float x0, float y0, float x1, float y1, float x2, float y2,
                  SDL_Color c);
void td_batch_disc(td_batch *b, float cx, float cy, float r, SDL_Color c);
void td_batch_ring(td_batch *b, float cx, float cy, float r, float width, SDL_Color c);
/* An arrowhead at (x, y) pointing along (dx, dy) (unit), size pixels long. */
void td_batch_arrowhead(td_batch *b, float x, float y, float dx, float dy, float size, SDL_Color c);

/* Text at (x, y) (top-left), each font pixel scale x scale; '\n' starts a
** new line. Returns the width of the longest line in pixels. A 1-pixel
** dark shadow when shadow is set. */
int td_batch_text(td_batch *b, float x, float y, int scale, const char *s, SDL_Color c,
                  bool shadow);
/* The size td_batch_text would draw. */
int td_text_width(const char *s, int scale);
int td_text_height(const char *s, int scale);

#endif
