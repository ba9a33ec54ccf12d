/*
** batch.c: the sprite batch (see batch.h).
*/
#include "render/batch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void td_batch_init(td_batch *b, SDL_Renderer *r, const td_atlas *atlas) {
  memset(b, 0, sizeof *b);
  b->r = r;
  b->atlas = atlas;
}

void td_batch_free(td_batch *b) {
  free(b->v);
  free(b->idx);
  memset(b, 0, sizeof *b);
}

void td_batch_begin(td_batch *b, int w, int h) {
  b->w = (float)w;
  b->h = (float)h;
  b->nv = b->ni = 0;
  b->quads = b->flushes = 0;
}

void td_batch_flush(td_batch *b) {
  if (b->ni) {
    SDL_RenderGeometry(b->r, b->atlas->tex, b->v, (int)b->nv, b->idx, (int)b->ni);
    b->flushes++;
  }
  b->nv = b->ni = 0;
}

/* Room for nv more vertices and ni more indices; false when out of memory. */
static bool room(td_batch *b, size_t nv, size_t ni) {
  if (b->nv + nv > 1u << 22) td_batch_flush(b);
  if (b->nv + nv > b->cap_v) {
    size_t cap = b->cap_v ? b->cap_v : 4096;
    while (cap < b->nv + nv) cap *= 2;
    SDL_Vertex *p = realloc(b->v, cap * sizeof *p);
    if (!p) return false;
    b->v = p;
    b->cap_v = cap;
  }
  if (b->ni + ni > b->cap_i) {
    size_t cap = b->cap_i ? b->cap_i : 6144;
    while (cap < b->ni + ni) cap *= 2;
    int *p = realloc(b->idx, cap * sizeof *p);
    if (!p) return false;
    b->idx = p;
    b->cap_i = cap;
  }
  return true;
}

static inline void vert(td_batch *b, float x, float y, float u, float v, SDL_Color c) {
  SDL_Vertex *p = &b->v[b->nv++];
  p->position.x = x;
  p->position.y = y;
  p->tex_coord.x = u;
  p->tex_coord.y = v;
  p->color = c;
}

/* A quad from 4 corners in order (top-left, top-right, bottom-right,
** bottom-left) with texture rectangle s. */
static void quad(td_batch *b, const float *xy, float u0, float v0, float u1, float v1,
                 SDL_Color c) {
  float minx = xy[0], maxx = xy[0], miny = xy[1], maxy = xy[1];
  for (int k = 1; k < 4; k++) {
    minx = fminf(minx, xy[2 * k]);
    maxx = fmaxf(maxx, xy[2 * k]);
    miny = fminf(miny, xy[2 * k + 1]);
    maxy = fmaxf(maxy, xy[2 * k + 1]);
  }
  if (maxx < 0 || maxy < 0 || minx > b->w || miny > b->h) return;
  if (!room(b, 4, 6)) return;
  int i = (int)b->nv;
  vert(b, xy[0], xy[1], u0, v0, c);
  vert(b, xy[2], xy[3], u1, v0, c);
  vert(b, xy[4], xy[5], u1, v1, c);
  vert(b, xy[6], xy[7], u0, v1, c);
  int *p = &b->idx[b->ni];
  p[0] = i;
  p[1] = i + 1;
  p[2] = i + 2;
  p[3] = i;
  p[4] = i + 2;
  p[5] = i + 3;
  b->ni += 6;
  b->quads++;
}

/* The white block's centre: shapes sample one texel colour. */
static void white_uv(const td_batch *b, float *u, float *v) {
  const td_sprite *w = b->atlas->white;
  *u = (w->u0 + w->u1) * 0.5f;
  *v = (w->v0 + w->v1) * 0.5f;
}

void td_batch_sprite(td_batch *b, const td_sprite *s, float cx, float cy, float w, float h,
                     float angle, SDL_Color c) {
  float hw = w * 0.5f, hh = h * 0.5f;
  float xy[8];
  if (angle == 0.0f) {
    float q[8] = {cx - hw, cy - hh, cx + hw, cy - hh, cx + hw, cy + hh, cx - hw, cy + hh};
    memcpy(xy, q, sizeof q);
  } else {
    float ca = cosf(angle), sa = sinf(angle);
    static const float corner[8] = {-1, -1, 1, -1, 1, 1, -1, 1};
    for (int k = 0; k < 4; k++) {
      float x = corner[2 * k] * hw, y = corner[2 * k + 1] * hh;
      xy[2 * k] = cx + x * ca - y * sa;
      xy[2 * k + 1] = cy + x * sa + y * ca;
    }
  }
  quad(b, xy, s->u0, s->v0, s->u1, s->v1, c);
}

void td_batch_sprite_rect(td_batch *b, const td_sprite *s, float x, float y, float w, float h,
                          SDL_Color c) {
  float xy[8] = {x, y, x + w, y, x + w, y + h, x, y + h};
  quad(b, xy, s->u0, s->v0, s->u1, s->v1, c);
}

void td_batch_rect(td_batch *b, float x, float y, float w, float h, SDL_Color c) {
  float u, v;
  white_uv(b, &u, &v);
  float xy[8] = {x, y, x + w, y, x + w, y + h, x, y + h};
  quad(b, xy, u, v, u, v, c);
}

void td_batch_rect_outline(td_batch *b, float x, float y, float w, float h, float t, SDL_Color c) {
  td_batch_rect(b, x, y, w, t, c);
  td_batch_rect(b, x, y + h - t, w, t, c);
  td_batch_rect(b, x, y + t, t, h - 2 * t, c);
  td_batch_rect(b, x + w - t, y + t, t, h - 2 * t, c);
}

void td_batch_line(td_batch *b, float x0, float y0, float x1, float y1, float width, SDL_Color c) {
  float dx = x1 - x0, dy = y1 - y0, l = sqrtf(dx * dx + dy * dy);
  if (l < 1e-4f) return;
  float nx = -dy / l * width * 0.5f, ny = dx / l * width * 0.5f;
  float u, v;
  white_uv(b, &u, &v);
  float xy[8] = {x0 + nx, y0 + ny, x1 + nx, y1 + ny, x1 - nx, y1 - ny, x0 - nx, y0 - ny};
  quad(b, xy, u, v, u, v, c);
}

void td_batch_tri(td_batch *b, float x0, float y0, float x1, float y1, float x2, float y2,
                  SDL_Color c) {
  float minx = fminf(x0, fminf(x1, x2)), maxx = fmaxf(x0, fmaxf(x1, x2));
  float miny = fminf(y0, fminf(y1, y2)), maxy = fmaxf(y0, fmaxf(y1, y2));
  if (maxx < 0 || maxy < 0 || minx > b->w || miny > b->h) return;
  if (!room(b, 3, 3)) return;
  float u, v;
  white_uv(b, &u, &v);
  int i = (int)b->nv;
  vert(b, x0, y0, u, v, c);
  vert(b, x1, y1, u, v, c);
  vert(b, x2, y2, u, v, c);
  b->idx[b->ni++] = i;
  b->idx[b->ni++] = i + 1;
  b->idx[b->ni++] = i + 2;
}

static int segments(float r) {
  int n = (int)(r * 0.8f) + 8;
  return n > 64 ? 64 : n;
}

void td_batch_disc(td_batch *b, float cx, float cy, float r, SDL_Color c) {
  if (cx + r < 0 || cy + r < 0 || cx - r > b->w || cy - r > b->h) return;
  int n = segments(r);
  if (!room(b, (size_t)n + 1, (size_t)n * 3)) return;
  float u, v;
  white_uv(b, &u, &v);
  int i0 = (int)b->nv;
  vert(b, cx, cy, u, v, c);
  for (int k = 0; k < n; k++) {
    float a = (float)k * 6.2831853f / (float)n;
    vert(b, cx + r * cosf(a), cy + r * sinf(a), u, v, c);
  }
  for (int k = 0; k < n; k++) {
    b->idx[b->ni++] = i0;
    b->idx[b->ni++] = i0 + 1 + k;
    b->idx[b->ni++] = i0 + 1 + (k + 1) % n;
  }
}

void td_batch_ring(td_batch *b, float cx, float cy, float r, float width, SDL_Color c) {
  if (cx + r < 0 || cy + r < 0 || cx - r > b->w || cy - r > b->h) return;
  int n = segments(r) * 2;
  if (n > 128) n = 128;
  if (!room(b, (size_t)n * 2, (size_t)n * 6)) return;
  float u, v;
  white_uv(b, &u, &v);
  int i0 = (int)b->nv;
  float ri = r - width * 0.5f, ro = r + width * 0.5f;
  if (ri < 0) ri = 0;
  for (int k = 0; k < n; k++) {
    float a = (float)k * 6.2831853f / (float)n, ca = cosf(a), sa = sinf(a);
    vert(b, cx + ri * ca, cy + ri * sa, u, v, c);
    vert(b, cx + ro * ca, cy + ro * sa, u, v, c);
  }
  for (int k = 0; k < n; k++) {
    int a0 = i0 + 2 * k, a1 = i0 + 2 * ((k + 1) % n);
    int *p = &b->idx[b->ni];
    p[0] = a0;
    p[1] = a0 + 1;
    p[2] = a1 + 1;
    p[3] = a0;
    p[4] = a1 + 1;
    p[5] = a1;
    b->ni += 6;
  }
}

void td_batch_arrowhead(td_batch *b, float x, float y, float dx, float dy, float size,
                        SDL_Color c) {
  float px = -dy, py = dx;
  td_batch_tri(b, x, y, x - dx * size + px * size * 0.55f, y - dy * size + py * size * 0.55f,
               x - dx * size - px * size * 0.55f, y - dy * size - py * size * 0.55f, c);
}

int td_batch_text(td_batch *b, float x, float y, int scale, const char *s, SDL_Color c,
                  bool shadow) {
  if (scale < 1) scale = 1;
  if (shadow) {
    SDL_Color k = td_color(0, 0, 0, c.a * 3 / 4);
    td_batch_text(b, x + (float)scale * 0.5f + 0.5f, y + (float)scale * 0.5f + 0.5f, scale, s, k,
                  false);
  }
  float cx = x, cy = y;
  int wmax = 0;
  for (; *s; s++) {
    unsigned ch = (unsigned char)*s;
    if (ch == '\n') {
      cy += 9.0f * (float)scale;
      cx = x;
      continue;
    }
    if (ch == '\t') ch = ' ';
    const td_sprite *g = ch < 128 ? b->atlas->glyph[ch] : NULL;
    if (!g) g = b->atlas->glyph['?'];
    if (ch != ' ' && g) td_batch_sprite_rect(b, g, cx, cy, 6.0f * (float)scale, 8.0f * (float)scale, c);
    cx += 6.0f * (float)scale;
    if ((int)(cx - x) > wmax) wmax = (int)(cx - x);
  }
  return wmax;
}

int td_text_width(const char *s, int scale) {
  int w = 0, line = 0;
  for (; *s; s++) {
    if (*s == '\n') {
      line = 0;
      continue;
    }
    line += 6 * scale;
    if (line > w) w = line;
  }
  return w;
}

int td_text_height(const char *s, int scale) {
  int n = 1;
  for (; *s; s++) n += *s == '\n';
  return n * 9 * scale - scale;
}
