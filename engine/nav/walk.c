/*
** walk.c: the walkable area (see walk.h).
**
** A road edge is kept as its start, unit direction, length and half width.
** For a disc of radius r, the centres that keep the disc inside the edge's
** square-capped rectangle form the same rectangle shrunk by r: half width
** h = hw - r, from -h before the start to len + h past the end. Keeping a
** centre inside one of those is the whole road test; the nearest point of
** the nearest one is where a body that left the road goes back to.
**
** Blocks (tower footprints) sit in buckets of a coarse grid over the
** graph's box, so that a query looks at the few near it. A grid's closed
** cells and its blocks push a disc out along the shortest way; a centre
** inside a closed cell first goes to the nearest open cell around it.
*/
#include "nav/walk.h"

#include <math.h>
#include <string.h>

#include "nav/mem.h"

#define BUCKETS_MAX 4096       /* buckets of the block index, at most */
#define PUSH_ROUNDS 3          /* rounds of pushes out of closed cells and blocks */
#define EPS 1e-3f              /* a disc this close to a wall counts as inside */

struct td_walk {
  const td_graph *g;
  const td_grid *grid;         /* NULL: a road */
  /* road: per edge */
  float *ax, *ay, *dx, *dy, *len, *hw;
  int32_t edges;
  /* grid: per cell */
  float gx0, gy0, cell;
  int32_t gw, gh;
  uint8_t *closed;             /* the mirror of the cells' state at the last sync */
  uint8_t *dist;               /* Chebyshev distance to a closed cell, capped at MAX_RING + 1 */
  /* blocks and their buckets (CSR: bucket q holds bidx[bstart[q] .. bstart[q + 1])) */
  float *blk;
  size_t nblk;
  float bx0, by0, bcell;
  int32_t bw, bh;
  int32_t *bstart, *bidx;
  size_t nbidx;
  float box[4];                /* x0, y0, x1, y1 of the graph */
  uint64_t version;            /* changes so far */
};

static inline float clampf(float v, float lo, float hi) { return v < lo ? lo : v > hi ? hi : v; }

static void graph_box(const td_graph *g, float box[4]) {
  double x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0;
  for (int32_t n = 0; n < g->node_count; n++) {
    if (n == 0 || g->x[n] < x0) x0 = g->x[n];
    if (n == 0 || g->y[n] < y0) y0 = g->y[n];
    if (n == 0 || g->x[n] > x1) x1 = g->x[n];
    if (n == 0 || g->y[n] > y1) y1 = g->y[n];
  }
  box[0] = (float)x0;
  box[1] = (float)y0;
  box[2] = (float)x1;
  box[3] = (float)y1;
}

static td_walk *walk_new(const td_graph *g, td_err *err) {
  td_walk *w = td_mem_calloc(1, sizeof *w);
  if (!w) {
    td_err_set(err, "walk: out of memory");
    return NULL;
  }
  w->g = g;
  graph_box(g, w->box);
  return w;
}

td_walk *td_walk_create_road(const td_graph *g, const float *road_width, td_err *err) {
  td_walk *w = walk_new(g, err);
  if (!w) return NULL;
  size_t n = g->edge_count > 0 ? (size_t)g->edge_count : 1;
  w->edges = g->edge_count; /* what td_walk_destroy frees by */
  float **cols[] = {&w->ax, &w->ay, &w->dx, &w->dy, &w->len, &w->hw};
  for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++)
    if (!(*cols[k] = td_mem_alloc(n * sizeof(float)))) {
      td_walk_destroy(w);
      td_err_set(err, "walk: out of memory");
      return NULL;
    }
  for (int32_t e = 0; e < g->edge_count; e++) {
    const td_edge *ed = &g->edges[e];
    if (!(road_width[e] > 0.0f) || !isfinite(road_width[e])) {
      td_err_set(err, "walk: edge %d (%d-%d): road width %g is not a positive number", e, ed->a,
                 ed->b, (double)road_width[e]);
      td_walk_destroy(w);
      return NULL;
    }
    float ax = (float)g->x[ed->a], ay = (float)g->y[ed->a];
    float vx = (float)g->x[ed->b] - ax, vy = (float)g->y[ed->b] - ay;
    float l = sqrtf(vx * vx + vy * vy);
    w->ax[e] = ax;
    w->ay[e] = ay;
    w->dx[e] = l > 0.0f ? vx / l : 1.0f;
    w->dy[e] = l > 0.0f ? vy / l : 0.0f;
    w->len[e] = l;
    w->hw[e] = 0.5f * road_width[e];
  }
  return w;
}

static inline bool cell_closed_now(const td_walk *w, int32_t c) {
  const td_grid *gr = w->grid;
  if (!gr->walkable[c]) return true;
  int32_t n = gr->cell_node ? gr->cell_node[c] : TD_NONE;
  return n != TD_NONE && n < w->g->node_count && w->g->node_blocked[n];
}

static inline int dist_at(const td_walk *w, int32_t cx, int32_t cy) {
  if (cx < 0 || cy < 0 || cx >= w->gw || cy >= w->gh) return 0;
  return w->dist[(size_t)cy * (size_t)w->gw + (size_t)cx];
}

/* The distances of cells x0..x1, y0..y1 (inclusive, inside the grid) again,
** from the closed cells in the box and the distances around it: two raster
** passes (Rosenfeld and Pfaltz), exact for the Chebyshev distance. */
static void rings_box(td_walk *w, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  const int cap = TD_WALK_MAX_RING + 1;
  for (int32_t y = y0; y <= y1; y++)
    for (int32_t x = x0; x <= x1; x++) {
      size_t c = (size_t)y * (size_t)w->gw + (size_t)x;
      w->dist[c] = w->closed[c] ? 0 : (uint8_t)cap;
    }
  for (int32_t y = y0; y <= y1; y++)
    for (int32_t x = x0; x <= x1; x++) {
      size_t c = (size_t)y * (size_t)w->gw + (size_t)x;
      int d = w->dist[c];
      int n[4] = {dist_at(w, x - 1, y), dist_at(w, x - 1, y - 1), dist_at(w, x, y - 1),
                  dist_at(w, x + 1, y - 1)};
      for (int k = 0; k < 4; k++)
        if (n[k] + 1 < d) d = n[k] + 1;
      w->dist[c] = (uint8_t)d;
    }
  for (int32_t y = y1; y >= y0; y--)
    for (int32_t x = x1; x >= x0; x--) {
      size_t c = (size_t)y * (size_t)w->gw + (size_t)x;
      int d = w->dist[c];
      int n[4] = {dist_at(w, x + 1, y), dist_at(w, x + 1, y + 1), dist_at(w, x, y + 1),
                  dist_at(w, x - 1, y + 1)};
      for (int k = 0; k < 4; k++)
        if (n[k] + 1 < d) d = n[k] + 1;
      w->dist[c] = (uint8_t)d;
    }
}

td_walk *td_walk_create_grid(const td_grid *grid, const td_graph *g, td_err *err) {
  td_walk *w = walk_new(g, err);
  if (!w) return NULL;
  w->grid = grid;
  w->gw = grid->width;
  w->gh = grid->height;
  w->cell = (float)grid->cell;
  w->gx0 = (float)grid->origin_x;
  w->gy0 = (float)grid->origin_y;
  size_t cells = (size_t)grid->width * (size_t)grid->height;
  w->closed = td_mem_alloc(cells);
  w->dist = td_mem_alloc(cells);
  if (!w->closed || !w->dist) {
    td_walk_destroy(w);
    td_err_set(err, "walk: out of memory");
    return NULL;
  }
  for (size_t c = 0; c < cells; c++) w->closed[c] = cell_closed_now(w, (int32_t)c);
  rings_box(w, 0, 0, w->gw - 1, w->gh - 1);
  w->box[0] = w->gx0;
  w->box[1] = w->gy0;
  w->box[2] = w->gx0 + w->cell * (float)w->gw;
  w->box[3] = w->gy0 + w->cell * (float)w->gh;
  return w;
}

void td_walk_destroy(td_walk *w) {
  if (!w) return;
  size_t n = w->edges > 0 ? (size_t)w->edges : 1;
  float *cols[] = {w->ax, w->ay, w->dx, w->dy, w->len, w->hw};
  for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++)
    td_mem_free(cols[k], cols[k] ? n * sizeof(float) : 0);
  size_t cells = (size_t)w->gw * (size_t)w->gh;
  td_mem_free(w->closed, w->closed ? cells : 0);
  td_mem_free(w->dist, w->dist ? cells : 0);
  td_mem_free(w->blk, w->nblk * 4 * sizeof *w->blk);
  td_mem_free(w->bstart, w->bstart ? ((size_t)w->bw * (size_t)w->bh + 1) * sizeof *w->bstart : 0);
  td_mem_free(w->bidx, w->nbidx * sizeof *w->bidx);
  td_mem_free(w, sizeof *w);
}

bool td_walk_is_grid(const td_walk *w) { return w->grid != NULL; }

uint64_t td_walk_version(const td_walk *w) { return w->version; }

int td_walk_rings(const td_walk *w, int32_t cx, int32_t cy) {
  if (!w->grid || cx < 0 || cy < 0 || cx >= w->gw || cy >= w->gh) return -1;
  return dist_at(w, cx, cy) - 1;
}

size_t td_walk_sync(td_walk *w) {
  if (!w->grid) return 0;
  size_t changed = 0;
  const int32_t m = TD_WALK_MAX_RING + 1;
  for (int32_t cy = 0; cy < w->gh; cy++)
    for (int32_t cx = 0; cx < w->gw; cx++) {
      int32_t c = cy * w->gw + cx;
      uint8_t now = cell_closed_now(w, c);
      if (now == w->closed[c]) continue;
      w->closed[c] = now;
      changed++;
      /* the cells it can be the nearest closed cell of */
      rings_box(w, cx - m < 0 ? 0 : cx - m, cy - m < 0 ? 0 : cy - m,
                cx + m >= w->gw ? w->gw - 1 : cx + m, cy + m >= w->gh ? w->gh - 1 : cy + m);
    }
  w->version += changed > 0;
  return changed;
}

/* ---- blocks -------------------------------------------------------------- */

static inline void bucket_range(const td_walk *w, float x0, float y0, float x1, float y1,
                                int32_t r[4]) {
  float ix0 = floorf((x0 - w->bx0) / w->bcell), iy0 = floorf((y0 - w->by0) / w->bcell);
  float ix1 = floorf((x1 - w->bx0) / w->bcell), iy1 = floorf((y1 - w->by0) / w->bcell);
  r[0] = (int32_t)clampf(ix0, 0.0f, (float)(w->bw - 1));
  r[1] = (int32_t)clampf(iy0, 0.0f, (float)(w->bh - 1));
  r[2] = (int32_t)clampf(ix1, 0.0f, (float)(w->bw - 1));
  r[3] = (int32_t)clampf(iy1, 0.0f, (float)(w->bh - 1));
}

/* The blocks in the buckets under a box, one after another (a block in
** two of them comes twice: every use is idempotent). */
typedef struct block_iter {
  const td_walk *w;
  int32_t br[4], bx, by, k, end;
} block_iter;

static void blocks_under(block_iter *it, const td_walk *w, float x0, float y0, float x1,
                         float y1) {
  it->w = w;
  it->k = it->end = 0;
  if (!w->nblk) { /* no buckets at all: an empty range */
    it->br[0] = it->br[1] = 0;
    it->br[2] = it->br[3] = -1;
  } else {
    bucket_range(w, x0, y0, x1, y1, it->br);
  }
  it->bx = it->br[0] - 1;
  it->by = it->br[1];
}

static const float *next_block(block_iter *it) {
  const td_walk *w = it->w;
  while (it->k == it->end) {
    if (++it->bx > it->br[2]) {
      it->bx = it->br[0];
      it->by++;
    }
    if (it->by > it->br[3]) return NULL;
    size_t q = (size_t)it->by * (size_t)w->bw + (size_t)it->bx;
    it->k = w->bstart[q];
    it->end = w->bstart[q + 1];
  }
  return w->blk + 4 * (size_t)w->bidx[it->k++];
}

int td_walk_set_blocks(td_walk *w, const float *rects, size_t n, td_err *err) {
  float *blk = n ? td_mem_alloc(n * 4 * sizeof *blk) : NULL;
  if (n && !blk) return td_err_set(err, "walk: out of memory");
  if (n) memcpy(blk, rects, n * 4 * sizeof *blk);
  /* buckets as wide as the widest block (at least one unit), over the box */
  float big = 1.0f;
  for (size_t k = 0; k < n; k++) {
    if (blk[4 * k + 2] > big) big = blk[4 * k + 2];
    if (blk[4 * k + 3] > big) big = blk[4 * k + 3];
  }
  float bx0 = w->box[0] - big, by0 = w->box[1] - big;
  float spanx = w->box[2] + big - bx0, spany = w->box[3] + big - by0;
  float cell = big;
  while ((spanx / cell + 1.0f) * (spany / cell + 1.0f) > (float)BUCKETS_MAX) cell *= 2.0f;
  int32_t bw = (int32_t)(spanx / cell) + 1, bh = (int32_t)(spany / cell) + 1;
  size_t nb = (size_t)bw * (size_t)bh;
  int32_t *start = td_mem_calloc(nb + 1, sizeof *start);
  if (!start) {
    td_mem_free(blk, n * 4 * sizeof *blk);
    return td_err_set(err, "walk: out of memory");
  }
  td_walk t = *w; /* the layout, to find the buckets */
  t.bx0 = bx0;
  t.by0 = by0;
  t.bcell = cell;
  t.bw = bw;
  t.bh = bh;
  size_t total = 0;
  for (int pass = 0; pass < 2; pass++) {
    for (size_t k = 0; k < n; k++) {
      int32_t r[4];
      const float *b = blk + 4 * k;
      bucket_range(&t, b[0], b[1], b[0] + b[2], b[1] + b[3], r);
      for (int32_t y = r[1]; y <= r[3]; y++)
        for (int32_t x = r[0]; x <= r[2]; x++) {
          size_t q = (size_t)y * (size_t)bw + (size_t)x;
          if (pass == 0) start[q + 1]++;
          else t.bidx[start[q] + t.bstart[q]++] = (int32_t)k; /* bstart: fill counts */
        }
    }
    if (pass == 0) {
      for (size_t q = 0; q < nb; q++) start[q + 1] += start[q];
      total = (size_t)start[nb];
      t.bidx = total ? td_mem_alloc(total * sizeof *t.bidx) : NULL;
      t.bstart = td_mem_calloc(nb, sizeof *t.bstart);
      if ((total && !t.bidx) || !t.bstart) {
        td_mem_free(t.bidx, total * sizeof *t.bidx);
        td_mem_free(t.bstart, nb * sizeof *t.bstart);
        td_mem_free(start, (nb + 1) * sizeof *start);
        td_mem_free(blk, n * 4 * sizeof *blk);
        return td_err_set(err, "walk: out of memory");
      }
    }
  }
  td_mem_free(t.bstart, nb * sizeof *t.bstart);
  td_mem_free(w->blk, w->nblk * 4 * sizeof *w->blk);
  td_mem_free(w->bstart, w->bstart ? ((size_t)w->bw * (size_t)w->bh + 1) * sizeof *w->bstart : 0);
  td_mem_free(w->bidx, w->nbidx * sizeof *w->bidx);
  w->blk = blk;
  w->nblk = n;
  w->bx0 = bx0;
  w->by0 = by0;
  w->bcell = cell;
  w->bw = bw;
  w->bh = bh;
  w->bstart = start;
  w->bidx = t.bidx;
  w->nbidx = total;
  w->version++;
  return 0;
}

/* How far a disc (x, y, r) reaches into rectangle b = {x, y, w, h} (<= 0:
** apart), and the unit direction that takes it out the shortest way. */
static float rect_depth(const float *b, float x, float y, float r, float *ox, float *oy) {
  float x0 = b[0], y0 = b[1], x1 = b[0] + b[2], y1 = b[1] + b[3];
  if (x > x0 && x < x1 && y > y0 && y < y1) { /* the centre inside: out by the nearest side */
    float l = x - x0, rr = x1 - x, t = y - y0, bo = y1 - y;
    float m = l;
    *ox = -1.0f;
    *oy = 0.0f;
    if (rr < m) { m = rr; *ox = 1.0f; *oy = 0.0f; }
    if (t < m) { m = t; *ox = 0.0f; *oy = -1.0f; }
    if (bo < m) { m = bo; *ox = 0.0f; *oy = 1.0f; }
    return m + r;
  }
  float qx = clampf(x, x0, x1), qy = clampf(y, y0, y1);
  float vx = x - qx, vy = y - qy, d = sqrtf(vx * vx + vy * vy);
  if (d >= r) return r - d;
  if (d > 0.0f) {
    *ox = vx / d;
    *oy = vy / d;
  } else { /* on the boundary: out through the nearer side */
    *ox = x <= x0 ? -1.0f : x >= x1 ? 1.0f : 0.0f;
    *oy = *ox != 0.0f ? 0.0f : y <= y0 ? -1.0f : 1.0f;
  }
  return r - d;
}

/* Pushes the disc out of the blocks under it, in index order; the largest
** depth before the pushes. */
static float blocks_push(const td_walk *w, float r, float *x, float *y, bool move) {
  block_iter it;
  blocks_under(&it, w, *x - r, *y - r, *x + r, *y + r);
  float worst = 0.0f;
  for (const float *b; (b = next_block(&it));) {
    float ox = 0.0f, oy = 0.0f, d = rect_depth(b, *x, *y, r, &ox, &oy);
    if (d <= 0.0f) continue;
    if (d > worst) worst = d;
    if (move) {
      *x += ox * (d + EPS);
      *y += oy * (d + EPS);
    }
  }
  return worst;
}

/* ---- road ---------------------------------------------------------------- */

/* Squared distance from (x, y) to edge e's rectangle of centres for radius
** r, and its nearest point. */
static float edge_d2(const td_walk *w, int32_t e, float r, float x, float y, float *nx,
                     float *ny) {
  float h = w->hw[e] - r;
  if (h < 0.0f) h = 0.0f;
  float rx = x - w->ax[e], ry = y - w->ay[e];
  float u = rx * w->dx[e] + ry * w->dy[e], v = rx * -w->dy[e] + ry * w->dx[e];
  float cu = clampf(u, -h, w->len[e] + h), cv = clampf(v, -h, h);
  float du = u - cu, dv = v - cv;
  *nx = w->ax[e] + w->dx[e] * cu - w->dy[e] * cv;
  *ny = w->ay[e] + w->dy[e] * cu + w->dx[e] * cv;
  return du * du + dv * dv;
}

/* The nearest point of the road near a and b for radius r: its squared
** distance (0: inside, or outside by less than EPS). */
static float road_near(const td_walk *w, int32_t a, int32_t b, float r, float x, float y,
                       float *px, float *py) {
  const td_graph *g = w->g;
  float best = INFINITY;
  *px = x;
  *py = y;
  int32_t ends[2] = {b, a};
  for (int k = 0; k < (a == b ? 1 : 2); k++) {
    int32_t n = ends[k];
    if (n < 0 || n >= g->node_count) continue;
    for (int32_t h = g->adj_start[n]; h < g->adj_start[n + 1]; h++) {
      float nx, ny, d2 = edge_d2(w, g->adj_edge[h], r, x, y, &nx, &ny);
      if (d2 <= EPS * EPS) return 0.0f;
      if (d2 < best) {
        best = d2;
        *px = nx;
        *py = ny;
      }
    }
  }
  return best == INFINITY ? 0.0f : best;
}

/* A centre outside the road near (a, b) goes back to the nearest point of
** its way: its own segment's rectangle or the next one's (b -> c), not of
** any other edge at a or b. Where two roads meet at an angle the
** rectangles leave a notch between them (a disc there would straddle both),
** and a body whose pursuit point lay across the notch was put back on the
** same spot of a road it was not on every tick: it stood there for good.
** Without its way (no such edge), the nearest point of any. */
static void road_back(const td_walk *w, int32_t a, int32_t b, int32_t c, float r, float *x,
                      float *y) {
  float px, py;
  if (road_near(w, a, b, r, *x, *y, &px, &py) <= 0.0f) return;
  int32_t way[2] = {a != b ? td_graph_find_edge(w->g, a, b) : TD_NONE,
                    c != TD_NONE && c != b ? td_graph_find_edge(w->g, b, c) : TD_NONE};
  float best = INFINITY;
  for (int k = 0; k < 2; k++) {
    if (way[k] == TD_NONE) continue;
    float nx, ny, d2 = edge_d2(w, way[k], r, *x, *y, &nx, &ny);
    if (d2 < best) {
      best = d2;
      px = nx;
      py = ny;
    }
  }
  *x = px;
  *y = py;
}

/* ---- grid ---------------------------------------------------------------- */

static inline bool closed_at(const td_walk *w, int32_t cx, int32_t cy) {
  if (cx < 0 || cy < 0 || cx >= w->gw || cy >= w->gh) return true;
  return cell_closed_now(w, cy * w->gw + cx);
}

static inline int32_t cell_of(const td_walk *w, float v, float o) {
  return (int32_t)floorf((v - o) / w->cell);
}

/* A centre inside a closed cell goes to the nearest point of an open cell
** among the 8 around it (none open: it stays). */
static bool grid_unbury(const td_walk *w, float *x, float *y) {
  int32_t cx = cell_of(w, *x, w->gx0), cy = cell_of(w, *y, w->gy0);
  if (cx < -1 || cy < -1 || cx > w->gw || cy > w->gh) { /* far outside: to the grid's edge */
    cx = cx < 0 ? 0 : cx >= w->gw ? w->gw - 1 : cx;
    cy = cy < 0 ? 0 : cy >= w->gh ? w->gh - 1 : cy;
  }
  if (!closed_at(w, cx, cy)) {
    float cx0 = w->gx0 + w->cell * (float)cx, cy0 = w->gy0 + w->cell * (float)cy;
    if (*x >= cx0 && *x <= cx0 + w->cell && *y >= cy0 && *y <= cy0 + w->cell) return false;
  }
  float best = INFINITY, bx = *x, by = *y;
  for (int32_t dy = -1; dy <= 1; dy++)
    for (int32_t dx = -1; dx <= 1; dx++) {
      int32_t qx = cx + dx, qy = cy + dy;
      if (closed_at(w, qx, qy)) continue;
      float x0 = w->gx0 + w->cell * (float)qx, y0 = w->gy0 + w->cell * (float)qy;
      float px = clampf(*x, x0 + EPS, x0 + w->cell - EPS);
      float py = clampf(*y, y0 + EPS, y0 + w->cell - EPS);
      float d2 = (px - *x) * (px - *x) + (py - *y) * (py - *y);
      if (d2 < best) {
        best = d2;
        bx = px;
        by = py;
      }
    }
  if (best == INFINITY) return false;
  *x = bx;
  *y = by;
  return true;
}

/* Pushes the disc out of the closed cells under it (row-major order); the
** largest depth before the pushes. */
static float cells_push(const td_walk *w, float r, float *x, float *y, bool move) {
  int32_t x0 = cell_of(w, *x - r, w->gx0), x1 = cell_of(w, *x + r, w->gx0);
  int32_t y0 = cell_of(w, *y - r, w->gy0), y1 = cell_of(w, *y + r, w->gy0);
  float worst = 0.0f;
  for (int32_t cy = y0; cy <= y1; cy++)
    for (int32_t cx = x0; cx <= x1; cx++) {
      if (!closed_at(w, cx, cy)) continue;
      float rc[4] = {w->gx0 + w->cell * (float)cx, w->gy0 + w->cell * (float)cy, w->cell, w->cell};
      float ox = 0.0f, oy = 0.0f, d = rect_depth(rc, *x, *y, r, &ox, &oy);
      if (d <= 0.0f) continue;
      if (d > worst) worst = d;
      if (move) {
        *x += ox * (d + EPS);
        *y += oy * (d + EPS);
      }
    }
  return worst;
}

/* ---- queries ------------------------------------------------------------- */

float td_walk_half_width(const td_walk *w, int32_t a, int32_t b) {
  const td_graph *g = w->g;
  if (a < 0 || a >= g->node_count) return 0.0f;
  if (b < 0 || b >= g->node_count) b = a;
  if (w->grid) {
    const td_grid *gr = w->grid;
    float best = INFINITY;
    int32_t ends[2] = {a, b};
    for (int k = 0; k < 2; k++) {
      int32_t c = gr->node_cell ? gr->node_cell[ends[k]] : -1;
      if (c < 0) continue;
      int d = w->dist[c];
      float hw = d > 0 ? ((float)(d - 1) + 0.5f) * w->cell : 0.0f;
      if (hw < best) best = hw;
    }
    return best == INFINITY ? 0.0f : best;
  }
  int32_t e = a != b ? td_graph_find_edge(g, a, b) : TD_NONE;
  if (e != TD_NONE) return w->hw[e];
  float best = 0.0f; /* on a node: its widest edge */
  for (int32_t h = g->adj_start[a]; h < g->adj_start[a + 1]; h++)
    if (w->hw[g->adj_edge[h]] > best) best = w->hw[g->adj_edge[h]];
  return best;
}

bool td_walk_constrain(const td_walk *w, int32_t a, int32_t b, int32_t c, float r, float *x,
                       float *y) {
  float x0 = *x, y0 = *y;
  if (!isfinite(x0) || !isfinite(y0)) return false;
  if (w->grid) {
    grid_unbury(w, x, y);
    for (int k = 0; k < PUSH_ROUNDS; k++) {
      float d = cells_push(w, r, x, y, true);
      d = fmaxf(d, blocks_push(w, r, x, y, true));
      if (d <= 0.0f) break;
      grid_unbury(w, x, y);
    }
  } else {
    for (int k = 0; k < PUSH_ROUNDS; k++) {
      road_back(w, a, b, c, r, x, y);
      if (blocks_push(w, r, x, y, true) <= 0.0f) break;
      road_back(w, a, b, c, r, x, y); /* pushed out of a block: back on the road (the last word) */
    }
  }
  return *x != x0 || *y != y0;
}

float td_walk_depth(const td_walk *w, int32_t a, int32_t b, float x, float y, float r) {
  if (!isfinite(x) || !isfinite(y)) return INFINITY;
  float d = 0.0f;
  if (w->grid) {
    d = cells_push(w, r, &x, &y, false);
  } else { /* a disc wider than the road sticks out by its excess wherever it is */
    const td_graph *g = w->g;
    float best = INFINITY;
    int32_t ends[2] = {a, b};
    for (int k = 0; k < (a == b ? 1 : 2); k++) {
      if (ends[k] < 0 || ends[k] >= g->node_count) continue;
      for (int32_t h = g->adj_start[ends[k]]; h < g->adj_start[ends[k] + 1]; h++) {
        int32_t e = g->adj_edge[h];
        float nx, ny, d2 = edge_d2(w, e, r, x, y, &nx, &ny);
        float out = (d2 <= EPS * EPS ? 0.0f : sqrtf(d2)) + (r > w->hw[e] ? r - w->hw[e] : 0.0f);
        if (out < best) best = out;
      }
    }
    d = best == INFINITY ? 0.0f : best;
  }
  float bd = blocks_push(w, r, &x, &y, false);
  return bd > d ? bd : d;
}

bool td_walk_blocks_near(const td_walk *w, float x0, float y0, float x1, float y1, float pad) {
  block_iter it;
  blocks_under(&it, w, x0 - pad, y0 - pad, x1 + pad, y1 + pad);
  for (const float *b; (b = next_block(&it));)
    if (b[0] <= x1 + pad && b[0] + b[2] >= x0 - pad && b[1] <= y1 + pad &&
        b[1] + b[3] >= y0 - pad)
      return true;
  return false;
}

bool td_walk_inside_quick(const td_walk *w, float x, float y, float r) {
  if (!w->grid || !isfinite(x) || !isfinite(y)) return false;
  int32_t cx = cell_of(w, x, w->gx0), cy = cell_of(w, y, w->gy0);
  int d = cx >= 0 && cy >= 0 && cx < w->gw && cy < w->gh ? dist_at(w, cx, cy) : 0;
  if (d <= 0) return false;
  /* the open square of d - 1 rings around the cell */
  float k = (float)(d - 1);
  float x0 = w->gx0 + w->cell * ((float)cx - k), x1 = w->gx0 + w->cell * ((float)cx + k + 1.0f);
  float y0 = w->gy0 + w->cell * ((float)cy - k), y1 = w->gy0 + w->cell * ((float)cy + k + 1.0f);
  if (x - r < x0 || x + r > x1 || y - r < y0 || y + r > y1) return false;
  return !td_walk_blocks_near(w, x - r, y - r, x + r, y + r, 0.0f);
}

/* Whether segment p -> q crosses rectangle b grown by r (Liang-Barsky). */
static bool seg_hits(const float *b, float r, float px, float py, float qx, float qy) {
  float x0 = b[0] - r, y0 = b[1] - r, x1 = b[0] + b[2] + r, y1 = b[1] + b[3] + r;
  float dx = qx - px, dy = qy - py, t0 = 0.0f, t1 = 1.0f;
  float pk[4] = {-dx, dx, -dy, dy}, qk[4] = {px - x0, x1 - px, py - y0, y1 - py};
  for (int k = 0; k < 4; k++) {
    if (pk[k] == 0.0f) {
      if (qk[k] < 0.0f) return false;
      continue;
    }
    float t = qk[k] / pk[k];
    if (pk[k] < 0.0f) {
      if (t > t1) return false;
      if (t > t0) t0 = t;
    } else {
      if (t < t0) return false;
      if (t < t1) t1 = t;
    }
  }
  return true;
}

bool td_walk_blocked_way(const td_walk *w, float px, float py, float qx, float qy, float r) {
  block_iter it;
  blocks_under(&it, w, fminf(px, qx) - r, fminf(py, qy) - r, fmaxf(px, qx) + r, fmaxf(py, qy) + r);
  for (const float *b; (b = next_block(&it));) {
    /* a block behind p (its centre not ahead along the way) is no bar: a
    ** disc on its edge, or caught under it, leaves that way */
    float cx = b[0] + 0.5f * b[2] - px, cy = b[1] + 0.5f * b[3] - py;
    if (cx * (qx - px) + cy * (qy - py) <= 0.0f) continue;
    if (seg_hits(b, r, px, py, qx, qy)) return true;
  }
  return false;
}
