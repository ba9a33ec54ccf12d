/*
** batch.h: td's frame drawer: sprites, shapes and text from one atlas,
** drawn in software into the frame's pixels, then handed to the renderer
** in one copy.
**
** What. td_batch_begin opens a frame: a streaming texture of the target's
** size, locked, is the canvas (render/raster.h) the calls draw into (or,
** offscreen, the target surface itself: td_batch_set_surface). The calls
** are recorded and drawn at td_batch_end, in call order, strip of rows by
** strip (the picture is the one drawing each call at once would give;
** only faster); then the texture is copied onto the renderer's target
** with one SDL_RenderCopy. The same code draws td play's window, td
** shot's pictures and td bench render's frames, so they show the same
** picture whatever the renderer.
**
** Sprites. A sprite drawn at a size and an angle is a frame of a cache:
** the atlas sprite scaled to whole pixels and turned to the nearest of 64
** headings (5.6 degrees apart), premultiplied, with each row's span of
** non-transparent pixels; drawing it is an integer blit at the nearest
** whole pixel (opaque pixels stored, the others blended source-over, the
** colour multiplying the texel). An unturned frame samples the atlas
** nearest-neighbour (pixel art stays crisp); a turned one averages 4x4
** samples a pixel (smooth edges). Frames are made on first use; when the
** cache passes TD_BATCH_CACHE_BYTES it is emptied and refills (a zoom
** makes new sizes). Sprites larger than 2048 x 2048 pixels are not drawn.
**
** Shapes. Rectangles snap to whole pixels (health bars, panels: an
** integer fill); lines, triangles, discs and rings are antialiased
** (raster.h). Text uses the atlas font (6x8 cells, integer scale).
**
** Memory: a td_batch owns its texture (destroyed by td_batch_free, before
** the renderer is), its frame cache and its command lists (malloc, kept
** from frame to frame: no allocation per frame once warm); it borrows the
** renderer, the atlas and the surface. Out of memory, a sprite or shape
** is not drawn (nothing else happens). Determinism: not part of the simulation; the same calls on the
** same binary give the same pixels.
*/
#ifndef TD_RENDER_BATCH_H
#define TD_RENDER_BATCH_H

#include <SDL.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "render/atlas.h"
#include "render/raster.h"

#define TD_BATCH_DIRS 64                        /* headings of a turned sprite */
#define TD_BATCH_CACHE_BYTES ((size_t)48 << 20)

typedef struct td_batch_frame td_batch_frame;   /* a cached sprite frame (batch.c) */
typedef struct td_batch_cmd td_batch_cmd;       /* a recorded call (batch.c) */
typedef struct td_batch_strip {
  uint32_t *idx;         /* indices into cmd */
  size_t n, cap;
} td_batch_strip;
typedef struct td_batch_slot {
  uint64_t key;
  td_batch_frame *f;     /* NULL: empty */
} td_batch_slot;

typedef struct td_batch {
  SDL_Renderer *r;
  const td_atlas *atlas;
  SDL_Texture *tex;      /* the frame: streaming, tex_w x tex_h, ARGB8888 */
  int tex_w, tex_h;
  SDL_Surface *surface;  /* or drawn straight into this (td_batch_set_surface) */
  bool on_surface;       /* this frame is */
  td_canvas canvas;      /* its locked pixels between begin and end (px NULL: none) */
  float w, h;            /* target size */
  td_batch_cmd *cmd;     /* the calls recorded since begin (or the last clear of the cache) */
  size_t ncmd, cmd_cap;
  td_batch_strip *strip; /* per strip of rows: its commands, in call order */
  size_t nstrip;
  td_batch_slot *slot;   /* the cache: open addressing on the frame's key */
  size_t slot_cap, frames, bytes;
  uint32_t *scratch;     /* where a frame's pixels are made */
  size_t scratch_cap;
  size_t quads;          /* sprites and shapes drawn since td_batch_begin */
  size_t misses;         /* frames made since td_batch_begin */
  /* Called with every string td_batch_text draws (once, shadow or not), for
  ** tests that check what a player reads; NULL: none. */
  void (*on_text)(void *ud, const char *s);
  void *text_ud;
  float scale;           /* the calls' coordinates and sizes times this are pixels
                            (td_batch_set_scale; 1 after td_batch_begin) */
} td_batch;

void td_batch_init(td_batch *b, SDL_Renderer *r, const td_atlas *atlas);
void td_batch_free(td_batch *b);
/* Opens a frame of w x h pixels (the whole render target). Its pixels are
** undefined until td_batch_clear or an opaque layer covers them. */
void td_batch_begin(td_batch *b, int w, int h);
/* Fills the whole frame with c (no blending). */
void td_batch_clear(td_batch *b, SDL_Color c);
/* Closes the frame: copies it onto the render target (one SDL_RenderCopy;
** the renderer draws it at its next flush or present). Drawing after it
** and before the next begin does nothing. */
void td_batch_end(td_batch *b);
/* Offscreen: frames are drawn straight into s, the software renderer's
** target surface (td shot, td bench render), instead of into a texture
** then copied: one copy of the frame less. Used when s is ARGB8888 and of
** the size given to td_batch_begin (else the texture is). The renderer's
** queued drawing is flushed at begin, so it lands beneath. NULL: the
** texture. The surface is borrowed. */
void td_batch_set_surface(td_batch *b, SDL_Surface *s);
/* The scale of the calls that follow: their coordinates and sizes (text
** included) times s are the frame's pixels (a UI scale: the HUD laid out
** in units of s pixels). td_batch_begin sets 1. */
void td_batch_set_scale(td_batch *b, float s);
/* Empties the frame cache (it refills on use). */
void td_batch_cache_clear(td_batch *b);

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
/* A segment of the given width with square ends. */
void td_batch_line(td_batch *b, float x0, float y0, float x1, float y1, float width, SDL_Color c);
void td_batch_tri(td_batch *b, float x0, float y0, float x1, float y1, float x2, float y2,
                  SDL_Color c);
void td_batch_disc(td_batch *b, float cx, float cy, float r, SDL_Color c);
void td_batch_ring(td_batch *b, float cx, float cy, float r, float width, SDL_Color c);
/* An arrowhead at (x, y) pointing along (dx, dy) (unit), size pixels long. */
void td_batch_arrowhead(td_batch *b, float x, float y, float dx, float dy, float size, SDL_Color c);

/* Text at (x, y) (top-left), each font pixel scale x scale; '\n' starts a
** new line. Returns the width of the longest line in pixels. A 1-pixel
** dark shadow when shadow is set. The font has ASCII glyphs: any other
** character of UTF-8 text takes one cell, drawn as '?'. */
int td_batch_text(td_batch *b, float x, float y, int scale, const char *s, SDL_Color c,
                  bool shadow);
/* The size td_batch_text would draw (UTF-8: one cell a character). */
int td_text_width(const char *s, int scale);
int td_text_height(const char *s, int scale);

#endif
