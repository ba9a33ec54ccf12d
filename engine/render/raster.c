/*
** raster.c: antialiased lines, discs, rectangles and a 5x7 font on ARGB
** pixels (see raster.h).
**
** Coverage is estimated from the distance between a pixel centre and the
** shape's edge: a pixel whose centre lies exactly on the edge is half
** covered, and coverage ramps linearly over one pixel. That is cheap, has no
** seams between segments, and looks as smooth as exact area coverage for
** the thin strokes drawn here. Rectangles use exact area coverage.
*/
#include "render/raster.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

static inline float clampf(float v, float lo, float hi) { return v < lo ? lo : v > hi ? hi : v; }

/* Blends col at coverage cov (0..1) into pixel (i, j), source over. */
static inline void blend(td_canvas *c, int i, int j, td_rgba col, float cov) {
  float a = (float)col.a * cov * (1.0f / 255.0f);
  if (a <= 0.0f) return;
  uint32_t *p = &c->px[(size_t)j * (size_t)c->stride + (size_t)i];
  uint32_t d = *p;
  float da = (float)((d >> 24) & 0xFF) * (1.0f / 255.0f);
  float dr = (float)((d >> 16) & 0xFF), dg = (float)((d >> 8) & 0xFF), db = (float)(d & 0xFF);
  float oa = a + da * (1.0f - a);
  float r = (float)col.r * a + dr * (1.0f - a);
  float g = (float)col.g * a + dg * (1.0f - a);
  float b = (float)col.b * a + db * (1.0f - a);
  *p = ((uint32_t)(oa * 255.0f + 0.5f) << 24) | ((uint32_t)(r + 0.5f) << 16) |
       ((uint32_t)(g + 0.5f) << 8) | (uint32_t)(b + 0.5f);
}

td_rgba td_rgba_hsv(float h, float s, float v, uint8_t a) {
  h = fmodf(h, 360.0f);
  if (h < 0.0f) h += 360.0f;
  float cc = v * s, x = cc * (1.0f - fabsf(fmodf(h / 60.0f, 2.0f) - 1.0f)), m = v - cc;
  float r, g, b;
  if (h < 60.0f) r = cc, g = x, b = 0.0f;
  else if (h < 120.0f) r = x, g = cc, b = 0.0f;
  else if (h < 180.0f) r = 0.0f, g = cc, b = x;
  else if (h < 240.0f) r = 0.0f, g = x, b = cc;
  else if (h < 300.0f) r = x, g = 0.0f, b = cc;
  else r = cc, g = 0.0f, b = x;
  return (td_rgba){(uint8_t)((r + m) * 255.0f + 0.5f), (uint8_t)((g + m) * 255.0f + 0.5f),
                   (uint8_t)((b + m) * 255.0f + 0.5f), a};
}

td_rgba td_rgba_mix(td_rgba x, td_rgba y, float t) {
  t = clampf(t, 0.0f, 1.0f);
#define MIX(f) (uint8_t)((float)x.f + ((float)y.f - (float)x.f) * t + 0.5f)
  return (td_rgba){MIX(r), MIX(g), MIX(b), MIX(a)};
#undef MIX
}

void td_canvas_clear(td_canvas *c, td_rgba col) {
  uint32_t v = ((uint32_t)col.a << 24) | ((uint32_t)col.r << 16) | ((uint32_t)col.g << 8) | col.b;
  for (int j = 0; j < c->h; j++)
    for (int i = 0; i < c->w; i++) c->px[(size_t)j * (size_t)c->stride + (size_t)i] = v;
}

/* The pixel range [*i0, *i1) x [*j0, *j1) covering [x0, x1] x [y0, y1],
** clipped to the canvas; false when empty. */
static bool span(const td_canvas *c, float x0, float y0, float x1, float y1, int *i0, int *j0,
                 int *i1, int *j1) {
  if (!(x1 >= 0.0f && y1 >= 0.0f && x0 <= (float)c->w && y0 <= (float)c->h)) return false;
  *i0 = (int)clampf(floorf(x0), 0.0f, (float)c->w);
  *j0 = (int)clampf(floorf(y0), 0.0f, (float)c->h);
  *i1 = (int)clampf(ceilf(x1) + 1.0f, 0.0f, (float)c->w);
  *j1 = (int)clampf(ceilf(y1) + 1.0f, 0.0f, (float)c->h);
  return *i0 < *i1 && *j0 < *j1;
}

/* Distance from (px, py) to the segment (x0, y0)-(x1, y1). */
static float seg_dist(float px, float py, float x0, float y0, float x1, float y1) {
  float dx = x1 - x0, dy = y1 - y0, l2 = dx * dx + dy * dy;
  float t = l2 > 0.0f ? clampf(((px - x0) * dx + (py - y0) * dy) / l2, 0.0f, 1.0f) : 0.0f;
  float ex = px - (x0 + t * dx), ey = py - (y0 + t * dy);
  return sqrtf(ex * ex + ey * ey);
}

/* Half width and coverage scale of a stroke: strokes thinner than a pixel
** are drawn one pixel wide and fainter. */
static void stroke(float width, float *hw, float *fade) {
  *fade = width < 1.0f ? clampf(width, 0.0f, 1.0f) : 1.0f;
  *hw = width < 1.0f ? 0.5f : 0.5f * width;
}

void td_canvas_line(td_canvas *c, float x0, float y0, float x1, float y1, float width,
                    td_rgba col) {
  float hw, fade;
  stroke(width, &hw, &fade);
  int i0, j0, i1, j1;
  if (!span(c, fminf(x0, x1) - hw - 1.0f, fminf(y0, y1) - hw - 1.0f, fmaxf(x0, x1) + hw + 1.0f,
            fmaxf(y0, y1) + hw + 1.0f, &i0, &j0, &i1, &j1))
    return;
  for (int j = j0; j < j1; j++)
    for (int i = i0; i < i1; i++) {
      float d = seg_dist((float)i + 0.5f, (float)j + 0.5f, x0, y0, x1, y1);
      float cov = clampf(hw + 0.5f - d, 0.0f, 1.0f) * fade;
      if (cov > 0.0f) blend(c, i, j, col, cov);
    }
}

int td_canvas_polyline(td_canvas *c, const float *xy, size_t n, float width, td_rgba col,
                       td_err *err) {
  if (n == 0) return 0;
  if (n == 1) {
    td_canvas_disc(c, xy[0], xy[1], 0.5f * width, col);
    return 0;
  }
  float hw, fade;
  stroke(width, &hw, &fade);
  float bx0 = xy[0], by0 = xy[1], bx1 = xy[0], by1 = xy[1];
  for (size_t k = 1; k < n; k++) {
    bx0 = fminf(bx0, xy[2 * k]);
    by0 = fminf(by0, xy[2 * k + 1]);
    bx1 = fmaxf(bx1, xy[2 * k]);
    by1 = fmaxf(by1, xy[2 * k + 1]);
  }
  int i0, j0, i1, j1;
  if (!span(c, bx0 - hw - 1.0f, by0 - hw - 1.0f, bx1 + hw + 1.0f, by1 + hw + 1.0f, &i0, &j0, &i1,
            &j1))
    return 0;
  size_t mw = (size_t)(i1 - i0), mh = (size_t)(j1 - j0);
  uint8_t *mask = td_mem_calloc(mw * mh, 1);
  if (!mask) return td_err_set(err, "render: out of memory for a %zux%zu mask", mw, mh);
  /* coverage is the largest over the segments: joints are not blended twice */
  for (size_t k = 0; k + 1 < n; k++) {
    float x0 = xy[2 * k], y0 = xy[2 * k + 1], x1 = xy[2 * k + 2], y1 = xy[2 * k + 3];
    int a0, b0, a1, b1;
    if (!span(c, fminf(x0, x1) - hw - 1.0f, fminf(y0, y1) - hw - 1.0f, fmaxf(x0, x1) + hw + 1.0f,
              fmaxf(y0, y1) + hw + 1.0f, &a0, &b0, &a1, &b1))
      continue;
    for (int j = b0; j < b1; j++)
      for (int i = a0; i < a1; i++) {
        float d = seg_dist((float)i + 0.5f, (float)j + 0.5f, x0, y0, x1, y1);
        float cov = clampf(hw + 0.5f - d, 0.0f, 1.0f);
        if (cov <= 0.0f) continue;
        uint8_t *m = &mask[(size_t)(j - j0) * mw + (size_t)(i - i0)];
        uint8_t v = (uint8_t)(cov * 255.0f + 0.5f);
        if (v > *m) *m = v;
      }
  }
  for (int j = j0; j < j1; j++)
    for (int i = i0; i < i1; i++) {
      uint8_t m = mask[(size_t)(j - j0) * mw + (size_t)(i - i0)];
      if (m) blend(c, i, j, col, (float)m * (1.0f / 255.0f) * fade);
    }
  td_mem_free(mask, mw * mh);
  return 0;
}

void td_canvas_disc(td_canvas *c, float x, float y, float r, td_rgba col) {
  int i0, j0, i1, j1;
  if (!span(c, x - r - 1.0f, y - r - 1.0f, x + r + 1.0f, y + r + 1.0f, &i0, &j0, &i1, &j1)) return;
  float fade = r < 0.5f ? clampf(2.0f * r, 0.0f, 1.0f) : 1.0f;
  float rr = r < 0.5f ? 0.5f : r;
  for (int j = j0; j < j1; j++) {
    /* only the columns the disc can cover on this row */
    float dy = (float)j + 0.5f - y, reach = (rr + 1.0f) * (rr + 1.0f) - dy * dy;
    if (reach <= 0.0f) continue;
    reach = sqrtf(reach) + 1.0f;
    int a = (int)clampf(floorf(x - reach), (float)i0, (float)i1);
    int b = (int)clampf(ceilf(x + reach), (float)i0, (float)i1);
    for (int i = a; i < b; i++) {
      float dx = (float)i + 0.5f - x;
      float cov = clampf(rr + 0.5f - sqrtf(dx * dx + dy * dy), 0.0f, 1.0f) * fade;
      if (cov > 0.0f) blend(c, i, j, col, cov);
    }
  }
}

void td_canvas_ring(td_canvas *c, float x, float y, float r, float width, td_rgba col) {
  float hw, fade;
  stroke(width, &hw, &fade);
  float ro = r + hw;
  int i0, j0, i1, j1;
  if (!span(c, x - ro - 1.0f, y - ro - 1.0f, x + ro + 1.0f, y + ro + 1.0f, &i0, &j0, &i1, &j1))
    return;
  /* per row: the columns within the outer edge, less those well inside
  ** the inner one (a pixel there has d >= hw + 0.5: no coverage) */
  float rin = r - hw - 0.5f;
  for (int j = j0; j < j1; j++) {
    float dy = (float)j + 0.5f - y, reach = (ro + 1.0f) * (ro + 1.0f) - dy * dy;
    if (reach <= 0.0f) continue;
    reach = sqrtf(reach) + 1.0f;
    float hole = rin > 0.0f && rin * rin > dy * dy ? sqrtf(rin * rin - dy * dy) - 1.5f : -1.0f;
    int a = (int)clampf(floorf(x - reach), (float)i0, (float)i1);
    int b = (int)clampf(ceilf(x + reach), (float)i0, (float)i1);
    for (int i = a; i < b; i++) {
      float dx = (float)i + 0.5f - x;
      if (fabsf(dx) < hole) {
        int skip = (int)floorf(x + hole); /* jump over the hole */
        if (skip > i) {
          i = skip - 1;
          continue;
        }
      }
      float d = fabsf(sqrtf(dx * dx + dy * dy) - r);
      float cov = clampf(hw + 0.5f - d, 0.0f, 1.0f) * fade;
      if (cov > 0.0f) blend(c, i, j, col, cov);
    }
  }
}

void td_canvas_rect(td_canvas *c, float x, float y, float w, float h, td_rgba col) {
  if (!(w > 0.0f && h > 0.0f)) return;
  int i0, j0, i1, j1;
  if (!span(c, x, y, x + w, y + h, &i0, &j0, &i1, &j1)) return;
  for (int j = j0; j < j1; j++) {
    float cy = clampf(fminf((float)j + 1.0f, y + h) - fmaxf((float)j, y), 0.0f, 1.0f);
    if (cy <= 0.0f) continue;
    for (int i = i0; i < i1; i++) {
      float cx = clampf(fminf((float)i + 1.0f, x + w) - fmaxf((float)i, x), 0.0f, 1.0f);
      if (cx > 0.0f) blend(c, i, j, col, cx * cy);
    }
  }
}

void td_canvas_rect_outline(td_canvas *c, float x, float y, float w, float h, float width,
                            td_rgba col) {
  if (2.0f * width >= w || 2.0f * width >= h) {
    td_canvas_rect(c, x, y, w, h, col);
    return;
  }
  td_canvas_rect(c, x, y, w, width, col);
  td_canvas_rect(c, x, y + h - width, w, width, col);
  td_canvas_rect(c, x, y + width, width, h - 2.0f * width, col);
  td_canvas_rect(c, x + w - width, y + width, width, h - 2.0f * width, col);
}

void td_canvas_triangle(td_canvas *c, const float p[6], td_rgba col) {
  float area = (p[2] - p[0]) * (p[5] - p[1]) - (p[4] - p[0]) * (p[3] - p[1]);
  if (fabsf(area) < 1e-6f) return;
  float sgn = area > 0.0f ? 1.0f : -1.0f;
  /* edge k from vertex k to vertex k+1: inward unit normal and offset */
  float nx[3], ny[3], off[3];
  for (size_t k = 0; k < 3; k++) {
    size_t a = 2 * k, b = 2 * ((k + 1) % 3);
    float ax = p[a], ay = p[a + 1], bx = p[b], by = p[b + 1];
    float ex = bx - ax, ey = by - ay, l = sqrtf(ex * ex + ey * ey);
    nx[k] = -ey / l * sgn;
    ny[k] = ex / l * sgn;
    off[k] = nx[k] * ax + ny[k] * ay;
  }
  float x0 = fminf(p[0], fminf(p[2], p[4])), x1 = fmaxf(p[0], fmaxf(p[2], p[4]));
  float y0 = fminf(p[1], fminf(p[3], p[5])), y1 = fmaxf(p[1], fmaxf(p[3], p[5]));
  int i0, j0, i1, j1;
  if (!span(c, x0 - 1.0f, y0 - 1.0f, x1 + 1.0f, y1 + 1.0f, &i0, &j0, &i1, &j1)) return;
  for (int j = j0; j < j1; j++)
    for (int i = i0; i < i1; i++) {
      float px = (float)i + 0.5f, py = (float)j + 0.5f, d = INFINITY;
      for (int k = 0; k < 3; k++) d = fminf(d, nx[k] * px + ny[k] * py - off[k]);
      float cov = clampf(d + 0.5f, 0.0f, 1.0f);
      if (cov > 0.0f) blend(c, i, j, col, cov);
    }
}

void td_canvas_convex(td_canvas *c, const float *p, int n, td_rgba col) {
  if (n < 3 || n > 8) return;
  float area = 0.0f;
  const size_t np = (size_t)n;
  for (size_t k = 0; k < np; k++) {
    size_t a = 2 * k, b = 2 * ((k + 1) % np);
    area += p[a] * p[b + 1] - p[b] * p[a + 1];
  }
  if (fabsf(area) < 1e-6f) return;
  float sgn = area > 0.0f ? 1.0f : -1.0f;
  float nx[8], ny[8], off[8];
  float x0 = p[0], x1 = p[0], y0 = p[1], y1 = p[1];
  int ne = 0;
  for (size_t k = 0; k < np; k++) {
    size_t a = 2 * k, b = 2 * ((k + 1) % np);
    float ax = p[a], ay = p[a + 1], ex = p[b] - ax, ey = p[b + 1] - ay;
    float l = sqrtf(ex * ex + ey * ey);
    x0 = fminf(x0, ax);
    x1 = fmaxf(x1, ax);
    y0 = fminf(y0, ay);
    y1 = fmaxf(y1, ay);
    if (l < 1e-6f) continue; /* a repeated point */
    nx[ne] = -ey / l * sgn;
    ny[ne] = ex / l * sgn;
    off[ne] = nx[ne] * ax + ny[ne] * ay;
    ne++;
  }
  int i0, j0, i1, j1;
  if (!span(c, x0 - 1.0f, y0 - 1.0f, x1 + 1.0f, y1 + 1.0f, &i0, &j0, &i1, &j1)) return;
  for (int j = j0; j < j1; j++) {
    /* the row's pixel centres px with every edge's d > -0.5 (a little
    ** wider, so that no covered pixel is skipped) */
    float py = (float)j + 0.5f, lo = (float)i0, hi = (float)i1;
    for (int k = 0; k < ne; k++) {
      float rhs = off[k] - 0.5f - ny[k] * py;
      if (nx[k] > 1e-6f) lo = fmaxf(lo, rhs / nx[k] - 1.0f);
      else if (nx[k] < -1e-6f) hi = fminf(hi, rhs / nx[k] + 1.0f);
      else if (rhs > 0.0f) hi = lo; /* a horizontal edge the row is outside of */
    }
    int a = (int)clampf(floorf(lo), (float)i0, (float)i1);
    int b = (int)clampf(ceilf(hi), (float)i0, (float)i1);
    for (int i = a; i < b; i++) {
      float px = (float)i + 0.5f, d = INFINITY;
      for (int k = 0; k < ne; k++) d = fminf(d, nx[k] * px + ny[k] * py - off[k]);
      float cov = clampf(d + 0.5f, 0.0f, 1.0f);
      if (cov > 0.0f) blend(c, i, j, col, cov);
    }
  }
}

/* ---- a 5x7 font: 7 rows of 5 bits (bit 4 is the leftmost pixel) --------- */

static const uint8_t font[64][7] = {
  [' ' - 32] = {0, 0, 0, 0, 0, 0, 0},
  ['!' - 32] = {0x04, 0x04, 0x04, 0x04, 0x04, 0x00, 0x04},
  ['#' - 32] = {0x0A, 0x0A, 0x1F, 0x0A, 0x1F, 0x0A, 0x0A},
  ['%' - 32] = {0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03},
  ['\'' - 32] = {0x04, 0x04, 0x08, 0x00, 0x00, 0x00, 0x00},
  ['(' - 32] = {0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02},
  [')' - 32] = {0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08},
  ['+' - 32] = {0x00, 0x04, 0x04, 0x1F, 0x04, 0x04, 0x00},
  [',' - 32] = {0x00, 0x00, 0x00, 0x00, 0x0C, 0x04, 0x08},
  ['-' - 32] = {0x00, 0x00, 0x00, 0x1F, 0x00, 0x00, 0x00},
  ['.' - 32] = {0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C},
  ['/' - 32] = {0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x00},
  ['0' - 32] = {0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E},
  ['1' - 32] = {0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E},
  ['2' - 32] = {0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F},
  ['3' - 32] = {0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E},
  ['4' - 32] = {0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02},
  ['5' - 32] = {0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E},
  ['6' - 32] = {0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E},
  ['7' - 32] = {0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08},
  ['8' - 32] = {0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E},
  ['9' - 32] = {0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C},
  [':' - 32] = {0x00, 0x0C, 0x0C, 0x00, 0x0C, 0x0C, 0x00},
  [';' - 32] = {0x00, 0x0C, 0x0C, 0x00, 0x0C, 0x04, 0x08},
  ['<' - 32] = {0x02, 0x04, 0x08, 0x10, 0x08, 0x04, 0x02},
  ['=' - 32] = {0x00, 0x00, 0x1F, 0x00, 0x1F, 0x00, 0x00},
  ['>' - 32] = {0x08, 0x04, 0x02, 0x01, 0x02, 0x04, 0x08},
  ['?' - 32] = {0x0E, 0x11, 0x01, 0x02, 0x04, 0x00, 0x04},
  ['A' - 32] = {0x0E, 0x11, 0x11, 0x11, 0x1F, 0x11, 0x11},
  ['B' - 32] = {0x1E, 0x11, 0x11, 0x1E, 0x11, 0x11, 0x1E},
  ['C' - 32] = {0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E},
  ['D' - 32] = {0x1C, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1C},
  ['E' - 32] = {0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F},
  ['F' - 32] = {0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10},
  ['G' - 32] = {0x0E, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0F},
  ['H' - 32] = {0x11, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11},
  ['I' - 32] = {0x0E, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E},
  ['J' - 32] = {0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0C},
  ['K' - 32] = {0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11},
  ['L' - 32] = {0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F},
  ['M' - 32] = {0x11, 0x1B, 0x15, 0x15, 0x11, 0x11, 0x11},
  ['N' - 32] = {0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11},
  ['O' - 32] = {0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E},
  ['P' - 32] = {0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10},
  ['Q' - 32] = {0x0E, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0D},
  ['R' - 32] = {0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11},
  ['S' - 32] = {0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E},
  ['T' - 32] = {0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04},
  ['U' - 32] = {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E},
  ['V' - 32] = {0x11, 0x11, 0x11, 0x11, 0x11, 0x0A, 0x04},
  ['W' - 32] = {0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0A},
  ['X' - 32] = {0x11, 0x11, 0x0A, 0x04, 0x0A, 0x11, 0x11},
  ['Y' - 32] = {0x11, 0x11, 0x11, 0x0A, 0x04, 0x04, 0x04},
  ['Z' - 32] = {0x1F, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1F},
  ['_' - 32] = {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1F},
};

int td_canvas_text(td_canvas *c, int x, int y, int scale, const char *s, td_rgba col) {
  if (scale < 1) scale = 1;
  int x0 = x;
  for (; *s; s++, x += 6 * scale) {
    int ch = (unsigned char)*s;
    if (ch >= 'a' && ch <= 'z') ch -= 'a' - 'A';
    if (ch < 32 || ch >= 96 || (ch != ' ' && !memcmp(font[ch - 32], font[0], 7))) ch = '?';
    const uint8_t *g = font[ch - 32];
    for (int row = 0; row < 7; row++)
      for (int bit = 0; bit < 5; bit++)
        if (g[row] & (0x10 >> bit))
          td_canvas_rect(c, (float)(x + bit * scale), (float)(y + row * scale), (float)scale,
                         (float)scale, col);
  }
  return x - x0;
}
