/*
** batch.c: the frame drawer (see batch.h).
**
** Why in software. SDL 2.26's software renderer rasterises
** SDL_RenderGeometry's triangles one pixel at a time through generic
** code, and even its plain blits cost about 3 us each: 5,000 turned
** enemies took over 100 ms a frame. Here a sprite is a cached frame
** already scaled and turned, stored as runs per row (opaque runs are
** copied, the others blended with integer arithmetic, clear pixels
** skipped); shapes reuse raster.c. One streaming texture carries the
** result to the renderer, whatever the renderer is.
**
** Why deferred. Sprites land all over a 3.7 MB frame, and drawing them
** in call order spent most of its time waiting for rows of the frame to
** come from memory. So the calls are recorded (a command each, clipped
** to the rows it touches) and binned by strips of STRIP rows; at the end
** each strip (160 KB at 1280 wide: it stays in cache) is drawn with its
** commands in call order, each clipped to the strip. The picture is the
** one immediate drawing would give: every pixel sees the same commands in
** the same order.
**
** Pixels are premultiplied ARGB8888 in the frames; the canvas is
** ARGB8888 and opaque (cleared opaque, and source-over keeps it so).
*/
#include "render/batch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define PI_F 3.14159265f
#define MAX_SIDE 2048

struct td_batch_frame {
  uint64_t key;
  int w, h;
  size_t bytes;
  uint32_t *px;          /* w x h, premultiplied */
  int16_t *x0, *x1;      /* per row: [x0, x1) holds every non-transparent pixel */
  uint8_t *opaque;       /* per row: every pixel of [x0, x1) is opaque (copied) */
};

#define STRIP 32         /* rows drawn together */

typedef enum cmd_kind { CMD_CLEAR, CMD_BLIT, CMD_RECT, CMD_POLY, CMD_DISC, CMD_RING } cmd_kind;

/* A recorded call, touching rows [y0, y1) of the frame. */
struct td_batch_cmd {
  uint8_t kind;
  uint8_t n;             /* CMD_POLY: points */
  int16_t y0, y1;
  union {
    struct {
      const td_batch_frame *f;
      int x, y;
      SDL_Color c;
    } blit;
    struct {
      int x0, x1;
      uint32_t p;        /* premultiplied (CMD_CLEAR: the colour as is) */
    } rect;
    struct {
      float xy[8];
      td_rgba c;
    } poly;
    struct {
      float x, y, r, w;
      td_rgba c;
    } circ;
  } u;
};

/* ---- pixel arithmetic ------------------------------------------------------ */

/* x * y / 255, rounded (x, y in 0..255). */
static inline uint32_t mul255(uint32_t x, uint32_t y) {
  uint32_t t = x * y + 128;
  return (t + (t >> 8)) >> 8;
}

/* Premultiplied s over d (both ARGB8888; d's channels scaled by 1 - s.a). */
static inline uint32_t over(uint32_t d, uint32_t s) {
  uint32_t ia = 255 - (s >> 24);
  uint32_t rb = (d & 0x00FF00FFu) * ia + 0x00800080u;
  rb = ((rb + ((rb >> 8) & 0x00FF00FFu)) >> 8) & 0x00FF00FFu;
  uint32_t ag = ((d >> 8) & 0x00FF00FFu) * ia + 0x00800080u;
  ag = (ag + ((ag >> 8) & 0x00FF00FFu)) & 0xFF00FF00u;
  return s + (rb | ag);
}

static inline uint32_t premul(SDL_Color c) {
  return ((uint32_t)c.a << 24) | (mul255(c.r, c.a) << 16) | (mul255(c.g, c.a) << 8) |
         mul255(c.b, c.a);
}

static inline td_rgba rgba(SDL_Color c) { return (td_rgba){c.r, c.g, c.b, c.a}; }

/* floor(v + 0.5) clamped to [lo, hi] (NaN: lo). */
static inline int round_px(float v, int lo, int hi) {
  v = floorf(v + 0.5f);
  if (!(v >= (float)lo)) return lo;
  if (v > (float)hi) return hi;
  return (int)v;
}

/* ---- frames ------------------------------------------------------------------ */

static uint64_t frame_key(size_t sprite, int w, int h, int dir) {
  return (uint64_t)sprite | (uint64_t)w << 16 | (uint64_t)h << 28 | (uint64_t)dir << 40;
}

static size_t key_slot(uint64_t key, size_t cap) {
  return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

static void run_pending(td_batch *b);
static void unlock(td_batch *b);

void td_batch_cache_clear(td_batch *b) {
  run_pending(b); /* recorded blits point into the cache */
  for (size_t i = 0; i < b->slot_cap; i++) {
    free(b->slot[i].f);
    b->slot[i].f = NULL;
  }
  b->frames = b->bytes = 0;
}

/* Puts f in the table (growing it at half full); false when out of memory. */
static bool cache_put(td_batch *b, td_batch_frame *f) {
  if (b->bytes + f->bytes > TD_BATCH_CACHE_BYTES) td_batch_cache_clear(b);
  if (2 * (b->frames + 1) > b->slot_cap) {
    size_t cap = b->slot_cap ? b->slot_cap * 2 : 1024;
    td_batch_slot *t = calloc(cap, sizeof *t);
    if (!t) return false;
    for (size_t i = 0; i < b->slot_cap; i++) {
      if (!b->slot[i].f) continue;
      size_t k = key_slot(b->slot[i].key, cap);
      while (t[k].f) k = (k + 1) & (cap - 1);
      t[k] = b->slot[i];
    }
    free(b->slot);
    b->slot = t;
    b->slot_cap = cap;
  }
  size_t k = key_slot(f->key, b->slot_cap);
  while (b->slot[k].f) k = (k + 1) & (b->slot_cap - 1);
  b->slot[k] = (td_batch_slot){f->key, f};
  b->frames++;
  b->bytes += f->bytes;
  return true;
}

static td_batch_frame *cache_get(const td_batch *b, uint64_t key) {
  if (!b->slot_cap) return NULL;
  for (size_t k = key_slot(key, b->slot_cap); b->slot[k].f; k = (k + 1) & (b->slot_cap - 1))
    if (b->slot[k].key == key) return b->slot[k].f;
  return NULL;
}

/* The size of sprite s (w x h pixels) turned to heading dir, and the
** rotation's cosine and sine (exact at multiples of 90 degrees). */
static void frame_size(int w, int h, int dir, int *fw, int *fh, float *ca, float *sa) {
  float a = (float)dir * (2.0f * PI_F / (float)TD_BATCH_DIRS);
  float c = cosf(a), s = sinf(a);
  if (dir % (TD_BATCH_DIRS / 4) == 0) {
    c = roundf(c);
    s = roundf(s);
  }
  *ca = c;
  *sa = s;
  *fw = (int)ceilf(fabsf(c) * (float)w + fabsf(s) * (float)h - 0.01f);
  *fh = (int)ceilf(fabsf(s) * (float)w + fabsf(c) * (float)h - 0.01f);
  if (*fw < 1) *fw = 1;
  if (*fh < 1) *fh = 1;
}

/* Makes the frame of sprite s at w x h pixels turned to heading dir: each
** frame pixel averages n x n samples (n = 1, nearest, when the turn is a
** multiple of 90 degrees, else 4) of the atlas, premultiplied. The pixels
** are made in b's scratch buffer, then the frame is allocated to size. */
static td_batch_frame *frame_make(td_batch *b, const td_sprite *s, int w, int h, int dir,
                                  uint64_t key) {
  const td_atlas *at = b->atlas;
  int fw, fh;
  float ca, sa;
  frame_size(w, h, dir, &fw, &fh, &ca, &sa);
  size_t npx = (size_t)fw * (size_t)fh;
  if (npx > b->scratch_cap) {
    uint32_t *p = realloc(b->scratch, npx * sizeof *p);
    if (!p) return NULL;
    b->scratch = p;
    b->scratch_cap = npx;
  }
  uint32_t *px = b->scratch;
  const int n = dir % (TD_BATCH_DIRS / 4) == 0 ? 1 : 4;
  const uint32_t nn = (uint32_t)(n * n);
  const float sx = (float)s->w / (float)w, sy = (float)s->h / (float)h;
  const float hw = 0.5f * (float)w, hh = 0.5f * (float)h;
  const float fcx = 0.5f * (float)fw, fcy = 0.5f * (float)fh;
  for (int j = 0; j < fh; j++)
    for (int i = 0; i < fw; i++) {
      uint32_t sum_a = 0, sum_r = 0, sum_g = 0, sum_b = 0;
      for (int q = 0; q < n; q++)
        for (int p = 0; p < n; p++) {
          float dx = (float)i + ((float)p + 0.5f) / (float)n - fcx;
          float dy = (float)j + ((float)q + 0.5f) / (float)n - fcy;
          /* back into the unturned w x h rectangle */
          float u = dx * ca + dy * sa + hw, v = -dx * sa + dy * ca + hh;
          if (!(u >= 0.0f && v >= 0.0f && u < (float)w && v < (float)h)) continue;
          int tx = (int)(u * sx), ty = (int)(v * sy);
          if (tx >= s->w) tx = s->w - 1;
          if (ty >= s->h) ty = s->h - 1;
          uint32_t t = at->px[(size_t)(s->y + ty) * (size_t)at->tex_w + (size_t)(s->x + tx)];
          uint32_t ta = t >> 24;
          sum_a += ta;
          sum_r += ((t >> 16) & 0xFF) * ta;
          sum_g += ((t >> 8) & 0xFF) * ta;
          sum_b += (t & 0xFF) * ta;
        }
      uint32_t A = (sum_a + nn / 2) / nn;
      uint32_t R = (sum_r + 255 * nn / 2) / (255 * nn);
      uint32_t G = (sum_g + 255 * nn / 2) / (255 * nn);
      uint32_t B = (sum_b + 255 * nn / 2) / (255 * nn);
      px[(size_t)j * (size_t)fw + (size_t)i] = A << 24 | R << 16 | G << 8 | B;
    }
  size_t head = (sizeof(td_batch_frame) + 7) & ~(size_t)7;
  size_t bytes = head + npx * sizeof(uint32_t) + (size_t)fh * (2 * sizeof(int16_t) + 1);
  td_batch_frame *f = malloc(bytes);
  if (!f) return NULL;
  f->key = key;
  f->w = fw;
  f->h = fh;
  f->bytes = bytes;
  f->px = (uint32_t *)((char *)f + head);
  f->x0 = (int16_t *)(f->px + npx);
  f->x1 = f->x0 + fh;
  f->opaque = (uint8_t *)(f->x1 + fh);
  memcpy(f->px, px, npx * sizeof *px);
  for (int j = 0; j < fh; j++) {
    const uint32_t *r = px + (size_t)j * (size_t)fw;
    int i0 = 0, i1 = fw;
    while (i0 < i1 && !(r[i0] >> 24)) i0++;
    while (i1 > i0 && !(r[i1 - 1] >> 24)) i1--;
    bool opaque = true;
    for (int i = i0; i < i1 && opaque; i++) opaque = r[i] >> 24 == 255;
    f->x0[j] = (int16_t)i0;
    f->x1[j] = (int16_t)i1;
    f->opaque[j] = opaque;
  }
  return f;
}

static td_batch_frame *frame_find(td_batch *b, const td_sprite *s, int w, int h, int dir) {
  if (!b->atlas->px || s < b->atlas->sprites || s >= b->atlas->sprites + b->atlas->count)
    return NULL;
  size_t idx = (size_t)(s - b->atlas->sprites);
  if (idx > 0xFFFF) return NULL;
  uint64_t key = frame_key(idx, w, h, dir);
  td_batch_frame *f = cache_get(b, key);
  if (f) return f;
  f = frame_make(b, s, w, h, dir, key);
  if (!f) return NULL;
  if (!cache_put(b, f)) {
    free(f);
    return NULL;
  }
  b->misses++;
  return f;
}

/* ---- drawing a command on a strip ---------------------------------------------- */

/* n pixels of src (premultiplied) over dst, each first multiplied by m
** (premultiplied, as 16-bit lanes B G R A; NULL: no multiplication). */
static void over_span(uint32_t *dst, const uint32_t *src, int n, const uint16_t *m) {
  int i = 0;
#ifdef __SSE2__
  const __m128i zero = _mm_setzero_si128(), c255 = _mm_set1_epi16(255),
                c128 = _mm_set1_epi16(128);
  const __m128i mm = m ? _mm_set_epi16((short)m[3], (short)m[2], (short)m[1], (short)m[0],
                                       (short)m[3], (short)m[2], (short)m[1], (short)m[0])
                       : c255;
  const __m128i amask = _mm_set1_epi32((int)0xFF000000u);
  for (; i + 4 <= n; i += 4) {
    __m128i s = _mm_loadu_si128((const __m128i *)(src + i));
    if (!m && _mm_movemask_epi8(_mm_cmpeq_epi32(_mm_and_si128(s, amask), amask)) == 0xFFFF) {
      _mm_storeu_si128((__m128i *)(dst + i), s); /* four opaque pixels: a sprite's inside */
      continue;
    }
    __m128i d = _mm_loadu_si128((const __m128i *)(dst + i));
    __m128i sl = _mm_unpacklo_epi8(s, zero), sh = _mm_unpackhi_epi8(s, zero);
    if (m) { /* x * m / 255, rounded */
      sl = _mm_add_epi16(_mm_mullo_epi16(sl, mm), c128);
      sl = _mm_srli_epi16(_mm_add_epi16(sl, _mm_srli_epi16(sl, 8)), 8);
      sh = _mm_add_epi16(_mm_mullo_epi16(sh, mm), c128);
      sh = _mm_srli_epi16(_mm_add_epi16(sh, _mm_srli_epi16(sh, 8)), 8);
    }
    /* 255 - alpha in each lane of its pixel */
    __m128i al = _mm_sub_epi16(c255, _mm_shufflehi_epi16(_mm_shufflelo_epi16(sl, 0xFF), 0xFF));
    __m128i ah = _mm_sub_epi16(c255, _mm_shufflehi_epi16(_mm_shufflelo_epi16(sh, 0xFF), 0xFF));
    __m128i dl = _mm_add_epi16(_mm_mullo_epi16(_mm_unpacklo_epi8(d, zero), al), c128);
    __m128i dh = _mm_add_epi16(_mm_mullo_epi16(_mm_unpackhi_epi8(d, zero), ah), c128);
    dl = _mm_srli_epi16(_mm_add_epi16(dl, _mm_srli_epi16(dl, 8)), 8);
    dh = _mm_srli_epi16(_mm_add_epi16(dh, _mm_srli_epi16(dh, 8)), 8);
    __m128i o = _mm_packus_epi16(_mm_add_epi16(dl, sl), _mm_add_epi16(dh, sh));
    _mm_storeu_si128((__m128i *)(dst + i), o);
  }
#endif
  for (; i < n; i++) {
    uint32_t s = src[i];
    if (m)
      s = mul255(s >> 24, m[3]) << 24 | mul255((s >> 16) & 0xFF, m[2]) << 16 |
          mul255((s >> 8) & 0xFF, m[1]) << 8 | mul255(s & 0xFF, m[0]);
    dst[i] = over(dst[i], s);
  }
}

/* n pixels copied: rows of a sprite are short, and a call to memcpy
** costs more than the copy. */
static inline void copy_span(uint32_t *dst, const uint32_t *src, int n) {
  int i = 0;
#ifdef __SSE2__
  for (; i + 4 <= n; i += 4)
    _mm_storeu_si128((__m128i *)(dst + i), _mm_loadu_si128((const __m128i *)(src + i)));
#endif
  for (; i < n; i++) dst[i] = src[i];
}

/* The premultiplied colour p over n pixels. */
static void over_const(uint32_t *dst, int n, uint32_t p) {
  int i = 0;
#ifdef __SSE2__
  const __m128i zero = _mm_setzero_si128(), c128 = _mm_set1_epi16(128);
  const __m128i ps = _mm_unpacklo_epi8(_mm_set1_epi32((int)p), zero);
  const __m128i ia = _mm_set1_epi16((short)(255 - (p >> 24)));
  for (; i + 4 <= n; i += 4) {
    __m128i d = _mm_loadu_si128((const __m128i *)(dst + i));
    __m128i dl = _mm_add_epi16(_mm_mullo_epi16(_mm_unpacklo_epi8(d, zero), ia), c128);
    __m128i dh = _mm_add_epi16(_mm_mullo_epi16(_mm_unpackhi_epi8(d, zero), ia), c128);
    dl = _mm_srli_epi16(_mm_add_epi16(dl, _mm_srli_epi16(dl, 8)), 8);
    dh = _mm_srli_epi16(_mm_add_epi16(dh, _mm_srli_epi16(dh, 8)), 8);
    __m128i o = _mm_packus_epi16(_mm_add_epi16(dl, ps), _mm_add_epi16(dh, ps));
    _mm_storeu_si128((__m128i *)(dst + i), o);
  }
#endif
  for (; i < n; i++) dst[i] = over(dst[i], p);
}

/* Frame f with its top-left at (x, y), modulated by c, on rows [r0, r1)
** of the canvas only. */
static void blit(td_canvas *cv, const td_batch_frame *f, int x, int y, SDL_Color c, int r0,
                 int r1) {
  int j0 = r0 - y, j1 = r1 - y; /* the frame's rows */
  if (j0 < 0) j0 = 0;
  if (j1 > f->h) j1 = f->h;
  int c0 = x < 0 ? -x : 0, c1 = cv->w - x; /* the frame's columns on the canvas */
  bool plain = c.r == 255 && c.g == 255 && c.b == 255 && c.a == 255;
  const uint16_t m[4] = {(uint16_t)mul255(c.b, c.a), (uint16_t)mul255(c.g, c.a),
                         (uint16_t)mul255(c.r, c.a), c.a};
  for (int j = j0; j < j1; j++) {
    int i0 = f->x0[j] > c0 ? f->x0[j] : c0, i1 = f->x1[j] < c1 ? f->x1[j] : c1;
    if (i0 >= i1) continue;
    uint32_t *dst = cv->px + (size_t)(y + j) * (size_t)cv->stride + (x + i0);
    const uint32_t *src = f->px + (size_t)j * (size_t)f->w + i0;
    if (plain && f->opaque[j]) copy_span(dst, src, i1 - i0);
    else over_span(dst, src, i1 - i0, plain ? NULL : m);
  }
}

/* Draws command c on rows [r0, r1) of the canvas. */
static void draw_cmd(td_canvas *cv, const td_batch_cmd *c, int r0, int r1) {
  if (c->y0 > r0) r0 = c->y0;
  if (c->y1 < r1) r1 = c->y1;
  if (r0 >= r1) return;
  switch ((cmd_kind)c->kind) {
  case CMD_BLIT: blit(cv, c->u.blit.f, c->u.blit.x, c->u.blit.y, c->u.blit.c, r0, r1); return;
  case CMD_CLEAR:
  case CMD_RECT: {
    const uint32_t p = c->u.rect.p;
    const int x0 = c->u.rect.x0, n = c->u.rect.x1 - x0;
    const bool opaque = c->kind == CMD_CLEAR || p >> 24 == 255;
    for (int j = r0; j < r1; j++) {
      uint32_t *row = cv->px + (size_t)j * (size_t)cv->stride + x0;
      if (opaque)
        for (int i = 0; i < n; i++) row[i] = p;
      else
        over_const(row, n, p);
    }
    return;
  }
  default: break;
  }
  /* the shapes: raster.c on the rows [r0, r1) as a canvas of their own,
  ** the shape moved up by r0 */
  td_canvas sub = {cv->px + (size_t)r0 * (size_t)cv->stride, cv->w, r1 - r0, cv->stride};
  float dy = (float)r0;
  if (c->kind == CMD_POLY) {
    float xy[8];
    for (size_t k = 0; k < 2 * (size_t)c->n; k += 2) {
      xy[k] = c->u.poly.xy[k];
      xy[k + 1] = c->u.poly.xy[k + 1] - dy;
    }
    td_canvas_convex(&sub, xy, c->n, c->u.poly.c);
  } else if (c->kind == CMD_DISC) {
    td_canvas_disc(&sub, c->u.circ.x, c->u.circ.y - dy, c->u.circ.r, c->u.circ.c);
  } else if (c->kind == CMD_RING) {
    td_canvas_ring(&sub, c->u.circ.x, c->u.circ.y - dy, c->u.circ.r, c->u.circ.w, c->u.circ.c);
  }
}

/* Draws every recorded command, strip by strip, and forgets them. */
static void run_pending(td_batch *b) {
  size_t n = b->ncmd;
  b->ncmd = 0;
  int ns = (b->canvas.h + STRIP - 1) / STRIP;
  if (ns > (int)b->nstrip) ns = (int)b->nstrip;
  if (!n || !b->canvas.px) {
    for (int s = 0; s < ns; s++) b->strip[s].n = 0;
    return;
  }
  for (int s = 0; s < ns; s++) {
    int r0 = s * STRIP, r1 = r0 + STRIP < b->canvas.h ? r0 + STRIP : b->canvas.h;
    const uint32_t *idx = b->strip[s].idx;
    size_t m = b->strip[s].n;
    for (size_t k = 0; k < m; k++) {
      /* commands and frames lie all over memory: ask ahead for them */
      if (k + 8 < m) __builtin_prefetch(&b->cmd[idx[k + 8]]);
      if (k + 4 < m) {
        const td_batch_cmd *ahead = &b->cmd[idx[k + 4]];
        if (ahead->kind == CMD_BLIT) {
          const td_batch_frame *f = ahead->u.blit.f;
          int j = r0 - ahead->u.blit.y;
          if (j < 0) j = 0;
          if (j < f->h) {
            __builtin_prefetch(f->x0 + j);
            __builtin_prefetch(f->px + (size_t)j * (size_t)f->w + f->x0[j]);
          }
        }
      }
      draw_cmd(&b->canvas, &b->cmd[idx[k]], r0, r1);
    }
    b->strip[s].n = 0;
  }
}

/* A new command touching rows [y0, y1) (clipped to the frame), filed in
** the strips it touches; NULL when there is nothing to draw or no memory
** (then it is not drawn). */
static td_batch_cmd *record(td_batch *b, cmd_kind kind, float y0, float y1) {
  if (!b->canvas.px) return NULL;
  int r0 = y0 <= 0.0f ? 0 : y0 >= (float)b->canvas.h ? b->canvas.h : (int)y0;
  int r1 = !(y1 >= 0.0f) ? 0 : y1 >= (float)b->canvas.h ? b->canvas.h : (int)ceilf(y1);
  if (r0 >= r1) return NULL;
  if (b->ncmd == b->cmd_cap) {
    size_t cap = b->cmd_cap ? b->cmd_cap * 2 : 4096;
    td_batch_cmd *p = realloc(b->cmd, cap * sizeof *p);
    if (!p) return NULL;
    b->cmd = p;
    b->cmd_cap = cap;
  }
  int s0 = r0 / STRIP, s1 = (r1 - 1) / STRIP;
  for (int s = s0; s <= s1; s++) {
    td_batch_strip *st = &b->strip[s];
    if (st->n < st->cap) continue;
    size_t cap = st->cap ? st->cap * 2 : 1024;
    uint32_t *p = realloc(st->idx, cap * sizeof *p);
    if (!p) return NULL;
    st->idx = p;
    st->cap = cap;
  }
  for (int s = s0; s <= s1; s++) b->strip[s].idx[b->strip[s].n++] = (uint32_t)b->ncmd;
  td_batch_cmd *c = &b->cmd[b->ncmd++];
  c->kind = (uint8_t)kind;
  c->n = 0;
  c->y0 = (int16_t)r0;
  c->y1 = (int16_t)r1;
  b->quads++;
  return c;
}

/* ---- the frame ----------------------------------------------------------------- */

void td_batch_init(td_batch *b, SDL_Renderer *r, const td_atlas *atlas) {
  memset(b, 0, sizeof *b);
  b->r = r;
  b->atlas = atlas;
  b->scale = 1;
}

void td_batch_set_scale(td_batch *b, float s) { b->scale = s > 0 && isfinite(s) ? s : 1; }

void td_batch_free(td_batch *b) {
  b->ncmd = 0;
  unlock(b);
  if (b->tex) SDL_DestroyTexture(b->tex);
  td_batch_cache_clear(b);
  free(b->slot);
  free(b->scratch);
  free(b->cmd);
  for (size_t i = 0; i < b->nstrip; i++) free(b->strip[i].idx);
  free(b->strip);
  memset(b, 0, sizeof *b);
}

/* Releases the frame's pixels (the texture or the surface). */
static void unlock(td_batch *b) {
  if (!b->canvas.px) return;
  if (b->on_surface) SDL_UnlockSurface(b->surface);
  else SDL_UnlockTexture(b->tex);
  b->canvas.px = NULL;
}

void td_batch_set_surface(td_batch *b, SDL_Surface *s) {
  b->ncmd = 0;
  unlock(b);
  b->surface = s;
}

void td_batch_begin(td_batch *b, int w, int h) {
  b->ncmd = 0;
  b->scale = 1;
  unlock(b); /* a frame never ended */
  b->on_surface = false;
  b->w = (float)w;
  b->h = (float)h;
  b->quads = b->misses = 0;
  if (!b->r || w <= 0 || h <= 0 || h > INT16_MAX) return;
  size_t ns = (size_t)(h + STRIP - 1) / STRIP;
  if (ns > b->nstrip) {
    td_batch_strip *p = realloc(b->strip, ns * sizeof *p);
    if (!p) return;
    memset(p + b->nstrip, 0, (ns - b->nstrip) * sizeof *p);
    b->strip = p;
    b->nstrip = ns;
  }
  for (size_t i = 0; i < b->nstrip; i++) b->strip[i].n = 0;
  SDL_Surface *sf = b->surface;
  if (sf && sf->format->format == SDL_PIXELFORMAT_ARGB8888 && sf->w == w && sf->h == h) {
    SDL_RenderFlush(b->r);
    if (SDL_LockSurface(sf) != 0) return;
    b->on_surface = true;
    b->canvas = (td_canvas){(uint32_t *)sf->pixels, w, h, sf->pitch / 4};
    return;
  }
  if (!b->tex || b->tex_w != w || b->tex_h != h) {
    if (b->tex) SDL_DestroyTexture(b->tex);
    b->tex = SDL_CreateTexture(b->r, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_STREAMING, w, h);
    b->tex_w = b->tex ? w : 0;
    b->tex_h = b->tex ? h : 0;
    if (!b->tex) return;
    SDL_SetTextureBlendMode(b->tex, SDL_BLENDMODE_NONE);
  }
  void *px;
  int pitch;
  if (SDL_LockTexture(b->tex, NULL, &px, &pitch) != 0) return;
  b->canvas = (td_canvas){(uint32_t *)px, w, h, pitch / 4};
}

void td_batch_clear(td_batch *b, SDL_Color c) {
  td_batch_cmd *k = record(b, CMD_CLEAR, 0.0f, b->h);
  if (!k) return;
  b->quads--;
  k->u.rect.x0 = 0;
  k->u.rect.x1 = b->canvas.w;
  k->u.rect.p = (uint32_t)c.a << 24 | (uint32_t)c.r << 16 | (uint32_t)c.g << 8 | c.b;
}

void td_batch_end(td_batch *b) {
  if (!b->canvas.px) return;
  run_pending(b);
  bool copy = !b->on_surface;
  unlock(b);
  if (copy) SDL_RenderCopy(b->r, b->tex, NULL, NULL);
}

/* ---- sprites ------------------------------------------------------------------- */

static void put_frame(td_batch *b, const td_batch_frame *f, int x, int y, SDL_Color c) {
  if (x >= b->canvas.w || y >= b->canvas.h || x + f->w <= 0 || y + f->h <= 0) return;
  td_batch_cmd *k = record(b, CMD_BLIT, (float)y, (float)(y + f->h));
  if (!k) return;
  k->u.blit.f = f;
  k->u.blit.x = x;
  k->u.blit.y = y;
  k->u.blit.c = c;
}

void td_batch_sprite(td_batch *b, const td_sprite *s, float cx, float cy, float w, float h,
                     float angle, SDL_Color c) {
  if (!b->canvas.px || !s || c.a == 0) return;
  cx *= b->scale, cy *= b->scale, w *= b->scale, h *= b->scale;
  /* culled before anything is made: the turned sprite lies within
  ** (w + h) / 2 of its centre */
  float reach = 0.5f * (fabsf(w) + fabsf(h)) + 1.0f;
  if (!(cx + reach >= 0.0f && cy + reach >= 0.0f && cx - reach <= b->w && cy - reach <= b->h))
    return;
  int iw = round_px(w, 0, MAX_SIDE + 1), ih = round_px(h, 0, MAX_SIDE + 1);
  if (iw < 1 || ih < 1 || iw > MAX_SIDE || ih > MAX_SIDE) return;
  float turns = angle * ((float)TD_BATCH_DIRS / (2.0f * PI_F));
  if (!isfinite(turns)) return;
  int dir = (int)fmodf(floorf(turns + 0.5f), (float)TD_BATCH_DIRS);
  if (dir < 0) dir += TD_BATCH_DIRS;
  const td_batch_frame *f = frame_find(b, s, iw, ih, dir);
  if (!f) return;
  int x = round_px(cx - 0.5f * (float)f->w, -4 * MAX_SIDE, b->canvas.w + 4 * MAX_SIDE);
  int y = round_px(cy - 0.5f * (float)f->h, -4 * MAX_SIDE, b->canvas.h + 4 * MAX_SIDE);
  put_frame(b, f, x, y, c);
}

void td_batch_sprite_rect(td_batch *b, const td_sprite *s, float x, float y, float w, float h,
                          SDL_Color c) {
  if (!b->canvas.px || !s || c.a == 0) return;
  x *= b->scale, y *= b->scale, w *= b->scale, h *= b->scale;
  const int lim = 1 << 20;
  int x0 = round_px(x, -lim, lim), y0 = round_px(y, -lim, lim);
  int x1 = round_px(x + w, -lim, lim), y1 = round_px(y + h, -lim, lim);
  if (x1 <= 0 || y1 <= 0 || x0 >= b->canvas.w || y0 >= b->canvas.h) return;
  if (x1 - x0 < 1 || y1 - y0 < 1 || x1 - x0 > MAX_SIDE || y1 - y0 > MAX_SIDE) return;
  const td_batch_frame *f = frame_find(b, s, x1 - x0, y1 - y0, 0);
  if (f) put_frame(b, f, x0, y0, c);
}

/* ---- shapes -------------------------------------------------------------------- */

void td_batch_rect(td_batch *b, float x, float y, float w, float h, SDL_Color c) {
  if (!b->canvas.px || c.a == 0) return;
  x *= b->scale, y *= b->scale, w *= b->scale, h *= b->scale;
  int x0 = round_px(x, 0, b->canvas.w), y0 = round_px(y, 0, b->canvas.h);
  int x1 = round_px(x + w, 0, b->canvas.w), y1 = round_px(y + h, 0, b->canvas.h);
  if (x0 >= x1 || y0 >= y1) return;
  td_batch_cmd *k = record(b, CMD_RECT, (float)y0, (float)y1);
  if (!k) return;
  k->u.rect.x0 = x0;
  k->u.rect.x1 = x1;
  k->u.rect.p = premul(c);
}

void td_batch_rect_outline(td_batch *b, float x, float y, float w, float h, float t, SDL_Color c) {
  td_batch_rect(b, x, y, w, t, c);
  td_batch_rect(b, x, y + h - t, w, t, c);
  td_batch_rect(b, x, y + t, t, h - 2 * t, c);
  td_batch_rect(b, x + w - t, y + t, t, h - 2 * t, c);
}

/* A convex polygon of n <= 4 points; raster.c's coverage reaches a pixel
** beyond the outline. */
static void poly(td_batch *b, float *xy, int n, SDL_Color c) {
  if (!b->canvas.px || c.a == 0) return;
  for (int i = 0; i < 2 * n; i++) xy[i] *= b->scale;
  float x0 = xy[0], x1 = xy[0], y0 = xy[1], y1 = xy[1];
  for (size_t k = 2; k < 2 * (size_t)n; k += 2) {
    x0 = fminf(x0, xy[k]);
    x1 = fmaxf(x1, xy[k]);
    y0 = fminf(y0, xy[k + 1]);
    y1 = fmaxf(y1, xy[k + 1]);
  }
  if (!(x1 >= -1.0f && x0 <= b->w + 1.0f)) return;
  td_batch_cmd *k = record(b, CMD_POLY, floorf(y0) - 1.0f, y1 + 2.0f);
  if (!k) return;
  k->n = (uint8_t)n;
  memcpy(k->u.poly.xy, xy, (size_t)(2 * n) * sizeof *xy);
  k->u.poly.c = rgba(c);
}

void td_batch_line(td_batch *b, float x0, float y0, float x1, float y1, float width, SDL_Color c) {
  float dx = x1 - x0, dy = y1 - y0, l = sqrtf(dx * dx + dy * dy);
  if (l < 1e-4f) return;
  float nx = -dy / l * width * 0.5f, ny = dx / l * width * 0.5f;
  float xy[8] = {x0 + nx, y0 + ny, x1 + nx, y1 + ny, x1 - nx, y1 - ny, x0 - nx, y0 - ny};
  poly(b, xy, 4, c);
}

void td_batch_tri(td_batch *b, float x0, float y0, float x1, float y1, float x2, float y2,
                  SDL_Color c) {
  float xy[6] = {x0, y0, x1, y1, x2, y2};
  poly(b, xy, 3, c);
}

static void circle(td_batch *b, cmd_kind kind, float cx, float cy, float r, float w, SDL_Color c) {
  cx *= b->scale, cy *= b->scale, r *= b->scale, w *= b->scale;
  float reach = (r < 0.5f ? 0.5f : r) + 0.5f * w + 2.0f;
  if (!b->canvas.px || c.a == 0 || !(cx + reach >= 0.0f && cx - reach <= b->w)) return;
  td_batch_cmd *k = record(b, kind, floorf(cy - reach), cy + reach);
  if (!k) return;
  k->u.circ.x = cx;
  k->u.circ.y = cy;
  k->u.circ.r = r;
  k->u.circ.w = w;
  k->u.circ.c = rgba(c);
}

void td_batch_disc(td_batch *b, float cx, float cy, float r, SDL_Color c) {
  circle(b, CMD_DISC, cx, cy, r, 0.0f, c);
}

void td_batch_ring(td_batch *b, float cx, float cy, float r, float width, SDL_Color c) {
  circle(b, CMD_RING, cx, cy, r, width < 1.0f ? 1.0f : width, c);
}

void td_batch_arrowhead(td_batch *b, float x, float y, float dx, float dy, float size,
                        SDL_Color c) {
  float px = -dy, py = dx;
  td_batch_tri(b, x, y, x - dx * size + px * size * 0.55f, y - dy * size + py * size * 0.55f,
               x - dx * size - px * size * 0.55f, y - dy * size - py * size * 0.55f, c);
}

/* ---- text ---------------------------------------------------------------------- */

/* A UTF-8 continuation byte: part of the character before it (one cell). */
static bool continuation(unsigned char ch) { return (ch & 0xc0) == 0x80; }

static int draw_text(td_batch *b, float x, float y, int scale, const char *s, SDL_Color c) {
  float cx = x, cy = y;
  int wmax = 0;
  for (; *s; s++) {
    unsigned ch = (unsigned char)*s;
    if (continuation((unsigned char)ch)) continue;
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

int td_batch_text(td_batch *b, float x, float y, int scale, const char *s, SDL_Color c,
                  bool shadow) {
  if (scale < 1) scale = 1;
  if (b->on_text) b->on_text(b->text_ud, s);
  if (shadow)
    draw_text(b, x + (float)scale * 0.5f + 0.5f, y + (float)scale * 0.5f + 0.5f, scale, s,
              td_color(0, 0, 0, c.a * 3 / 4));
  return draw_text(b, x, y, scale, s, c);
}

int td_text_width(const char *s, int scale) {
  int w = 0, line = 0;
  for (; *s; s++) {
    if (continuation((unsigned char)*s)) continue;
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
