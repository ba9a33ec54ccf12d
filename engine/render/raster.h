/*
** raster.h: a few antialiased drawing routines on a 32-bit pixel buffer,
** for pictures drawn without a window or a GPU (td sim --png, later
** screenshots and tests).
**
** A canvas is a borrowed block of ARGB8888 pixels (0xAARRGGBB in a uint32,
** the layout of SDL_PIXELFORMAT_ARGB8888), so an SDL_Surface's pixels can
** be drawn into directly; this module itself does not include SDL. Shapes
** are given in pixel coordinates as floats (pixel (i, j) covers
** [i, i+1) x [j, j+1), its centre is (i + 0.5, j + 0.5)); coverage is the
** clamped distance from a pixel centre to the shape's edge, and colours are
** blended source-over. Everything is clipped to the canvas.
**
** Memory: the canvas borrows its pixels; td_canvas_polyline allocates a
** coverage mask for the polyline's bounding box and frees it before it
** returns (the only allocation here, through td_mem).
** Determinism: pure functions of their arguments (float arithmetic: same
** binary, same pixels).
*/
#ifndef TD_RASTER_H
#define TD_RASTER_H

#include <stddef.h>
#include <stdint.h>

#include "nav/mem.h"

typedef struct td_canvas {
  uint32_t *px;      /* w x h pixels, row r starts at px + r * stride */
  int w, h;
  int stride;        /* pixels per row (>= w) */
} td_canvas;

typedef struct td_rgba {
  uint8_t r, g, b, a;   /* a: 255 opaque */
} td_rgba;

td_rgba td_rgba_hsv(float hue_deg, float sat, float val, uint8_t a); /* hue in [0, 360) */
td_rgba td_rgba_mix(td_rgba x, td_rgba y, float t);                  /* (1-t) x + t y */

void td_canvas_clear(td_canvas *c, td_rgba col);                     /* no blending */
/* A segment with round caps, width in pixels (thinner than 1 fades). */
void td_canvas_line(td_canvas *c, float x0, float y0, float x1, float y1, float width,
                    td_rgba col);
/* n points (x, y interleaved), round joins and caps, blended once per
** pixel (a translucent polyline does not darken at its joints). 0 ok,
** -1 with err set when out of memory (nothing drawn). */
int td_canvas_polyline(td_canvas *c, const float *xy, size_t n, float width, td_rgba col,
                       td_err *err);
void td_canvas_disc(td_canvas *c, float x, float y, float r, td_rgba col);
void td_canvas_ring(td_canvas *c, float x, float y, float r, float width, td_rgba col);
/* Axis-aligned rectangle (x, y: top-left), filled or as an outline of the
** given width drawn inside it. */
void td_canvas_rect(td_canvas *c, float x, float y, float w, float h, td_rgba col);
void td_canvas_rect_outline(td_canvas *c, float x, float y, float w, float h, float width,
                            td_rgba col);
/* A filled triangle (for arrowheads and markers). */
void td_canvas_triangle(td_canvas *c, const float xy[6], td_rgba col);
/* A filled convex polygon of n points (3 <= n <= 8, either winding; a
** thick segment with square ends is its 4 corners). Degenerate: nothing. */
void td_canvas_convex(td_canvas *c, const float *xy, int n, td_rgba col);

/* Text in a 5x7 pixel font, each font pixel scale x scale canvas pixels,
** 6 * scale wide per character; (x, y) is the top-left of the first one.
** ASCII letters (lower case drawn as upper case), digits and
** " .,:;-+=/()<>%#_'!?"; anything else draws as '?'. Returns the width. */
int td_canvas_text(td_canvas *c, int x, int y, int scale, const char *s, td_rgba col);

#endif
