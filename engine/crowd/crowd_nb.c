/*
** crowd_nb.c: neighbours: the grid, the neighbour lists and the scans.
**
** The grid sorts the agents by cell; the neighbour lists (Verlet lists,
** see make_lists) are made from it and kept over ticks while no agent has
** moved half their skin; each agent's scan of its list (or, without lists,
** of the grid) finds what steering needs of its neighbours (nbres: the
** mate ahead to follow, the slower agents to pass, the soft push) and the
** close pairs that the projection (crowd_project.c) looks at. Which agents
** interact depends only on where they are: the grid and the lists only
** choose what the exact tests look at.
**
** Memory: the cell table, the lists and the close-pair list grow here; out
** of memory, binary searches replace the table, the grid the lists, and the
** projection looks elsewhere than the close pairs (same results).
** Determinism: the scans read every agent as it was at the start of the
** tick and write only the scanned agent's nbres; sums over neighbours are
** in fixed point (fixed), the follow cap and shifts are maxima and minima.
*/
#include "crowd/crowd_int.h"

#include <math.h>
#include <string.h>

#define KEY_BITS 24        /* two digits: a grid of at most 16M cells */
/* Neighbour lists (see make_lists): their skin, the margin beyond the widest
** test, in radii of the largest agent (it sets how often they are made and
** how long they are, never a result: -DSKIN_RADII=... to measure); and how
** many directions of travel a list covers before it takes a disc instead. */
#ifndef SKIN_RADII
#define SKIN_RADII 1.8f
#endif
#define MAX_DIRS 3
#define LIST_PAD ((size_t)(4 * LIST_LANES)) /* readable entries after the last list */
/* A grid cell's width, in `reach`es (see size_grid): wider cells make the
** table of cells that the sort clears and sums smaller (the list build
** then tests more candidates from fewer rows: about even). Only how many
** agents are looked at depends on it. */
#ifndef CELL_REACHES
#define CELL_REACHES 2.0f
#endif
/* The windows of following and passing (see walk_pair), in reaches (two
** agents' radii): a mate is followed up to FOLLOW_AHEAD ahead, a slower
** agent passed from PASS_AHEAD ahead (the shift fading in over the first
** PASS_FADE) until it is a reach behind. FOLLOW_AHEAD <= PASS_AHEAD. */
#define FOLLOW_AHEAD 3.0f
#define PASS_AHEAD 3.0f
#define PASS_FADE 1.0f
/* Sums of pair forces are taken in fixed point, so that their order does
** not matter: a push (at most 1 per pair) in units of 2^-40. */
#define PUSH_ONE 0x1p40f

/* ---- the grid ------------------------------------------------------------ */

/* Lays the grid out for the widest symmetric interaction of a tick (two
** agents' reach plus what both can move: `reach`; cells CELL_REACHES of
** it wide) over the graph's box and a border; coarser when there would be
** more than 2^KEY_BITS cells (a huge map). Queries cover any box (cell_box), so the layout
** changes which agents are looked at, never which interact. */
static void size_grid(td_crowd *c) {
  float reach = 2.0f * c->max_radius * 1.5f + 2.0f * c->max_speed_all * c->dt + c->p.margin;
  if (!(reach > 0.0f)) reach = 1.0f;
  if (reach == c->reach && c->cell > 0.0f) return;
  c->reach = reach;
  /* a border for lanes, miters and detours just outside the graph; agents
  ** beyond it share the edge cells */
  double border = 0.02 * (c->bx1 - c->bx0 + c->by1 - c->by0) + 8.0;
  c->gx0 = (float)(c->bx0 - border);
  c->gy0 = (float)(c->by0 - border);
  float w = (float)(c->bx1 - c->bx0 + 2 * border), h = (float)(c->by1 - c->by0 + 2 * border);
  float cell = reach * CELL_REACHES;
  for (;;) {
    float fw = w / cell, fh = h / cell;
    if (fw < 4194304.0f && fh < 4194304.0f &&
        ((double)fw + 1.0) * ((double)fh + 1.0) <= (double)(1u << KEY_BITS)) {
      c->gw = (int32_t)fw + 1;
      c->gh = (int32_t)fh + 1;
      break;
    }
    cell *= 1.5f;
  }
  c->cell = cell;
  c->inv_cell = 1.0f / cell;
}

static inline uint32_t cell_key(const td_crowd *c, float x, float y) {
  return (uint32_t)cell_row(c, y) * (uint32_t)c->gw + (uint32_t)cell_col(c, x);
}

/* Dense or sparse. A table of every cell makes the sort one pass and a
** row of a query two loads, but costs a pass over the cells: worth it while
** there are not many more cells than agents. Without the memory for it,
** binary searches of the keys work as well. Both find the same agents in
** the same order, so the choice changes no result. */
static void choose_sort(td_crowd *c) {
  size_t cells = (size_t)c->gw * (size_t)c->gh, slots = cells + 2;
  c->dense = cells <= 8 * c->live + 4096;
  if (c->dense && c->tab_slots < slots) {
    int32_t *t = td_mem_alloc(slots * sizeof *t);
    if (t) {
      td_mem_free(c->cell_tab, c->tab_slots * sizeof *c->cell_tab);
      c->cell_tab = t;
      c->tab_slots = slots;
    } else {
      c->dense = false;
    }
  }
}

/* Sorts the agents that are not FREE by cell, as they stand now: the cell
** order by (key, slot), a stable counting sort over the table of cells
** (dense) or a radix sort of one or two digits of the keys (sparse), and
** the positions copied into that order. */
void td_crowd_grid_sort(td_crowd *c) {
  choose_sort(c);
  size_t n = 0, cells = (size_t)c->gw * (size_t)c->gh;
  int32_t *tab = c->cell_tab;
  if (c->dense) memset(tab, 0, (cells + 2) * sizeof *tab);
  else memset(c->hist, 0, sizeof c->hist);
  for (size_t i = 0; i < c->used; i++) {
    if (c->state[i] == TD_AGENT_FREE || c->state[i] == TD_AGENT_WAITING) { /* off the map */
      c->cell_of[i] = -1;
      continue;
    }
    uint32_t key = cell_key(c, c->x[i], c->y[i]);
    c->cell_of[i] = (int32_t)key;
    if (c->dense) {
      tab[key + 2]++;
    } else {
      c->hist[0][key & (RADIX - 1)]++;
      c->hist[1][key >> RADIX_BITS]++; /* < RADIX: keys have at most KEY_BITS */
    }
  }
  if (c->dense) {
    /* tab[q + 2] holds cell q's count: the running sum makes tab[q + 1]
    ** the start of cell q, which the fill advances to its end, the start
    ** of q + 1: then tab[q] is the start of q for every q <= cells */
    for (size_t q = 2; q <= cells + 1; q++) tab[q] += tab[q - 1];
    for (size_t i = 0; i < c->used; i++) {
      if (c->cell_of[i] < 0) continue;
      uint32_t key = (uint32_t)c->cell_of[i];
      int32_t pos = tab[key + 1]++;
      c->s_key[pos] = key;
      c->order[pos] = (int32_t)i;
    }
    n = (size_t)tab[cells];
  } else {
    int passes = cells > RADIX ? 2 : 1;
    for (int p = 0; p < passes; p++) { /* counts -> first position of each digit */
      int32_t sum = 0;
      for (int d = 0; d < RADIX; d++) {
        int32_t t = c->hist[p][d];
        c->hist[p][d] = sum;
        sum += t;
      }
      n = (size_t)sum;
    }
    /* by the low digit, from slot order; then (if any) by the high digit */
    uint32_t *key1 = passes == 1 ? c->s_key : c->rk_key;
    int32_t *slot1 = passes == 1 ? c->order : c->rk_slot;
    for (size_t i = 0; i < c->used; i++) {
      if (c->cell_of[i] < 0) continue;
      uint32_t key = (uint32_t)c->cell_of[i];
      int32_t pos = c->hist[0][key & (RADIX - 1)]++;
      key1[pos] = key;
      slot1[pos] = (int32_t)i;
    }
    if (passes == 2)
      for (size_t q = 0; q < n; q++) {
        uint32_t key = c->rk_key[q];
        int32_t pos = c->hist[1][key >> RADIX_BITS]++;
        c->s_key[pos] = key;
        c->order[pos] = c->rk_slot[q];
      }
  }
  c->n_grid = n;
  for (size_t k = 0; k < n; k++) {
    size_t i = (size_t)c->order[k];
    c->s_x[k] = c->x[i];
    c->s_y[k] = c->y[i];
  }
}

/* ---- the neighbour lists and the scans ---------------------------------- */

/* The loose bounds of the tests of a tick: every exact test below passes
** them (two agents' reach is at most 2 max_radius). */
typedef struct bounds {
  float side, back, ahead; /* a walker's window: |side| < side, back < ahead <= ahead */
  float sep2;              /* the soft push: d2 <= sep2 (-1: no separation) */
  float pl2;               /* close pairs: d2 < pl2 (0: none) */
#if SIMD4
  __m128 v_side, v_back, v_ahead, v_sep2, v_pl2, v_noside; /* the same, four times; -1 */
#endif
} bounds;

static inline bounds bounds_of(const td_crowd *c) {
  float rr = 2.0f * c->max_radius, want = rr + c->p.margin + 0.2f * c->max_radius;
  bounds b = {.side = 1.31f * rr, .back = -1.01f * rr, .ahead = 1.01f * PASS_AHEAD * rr,
              .sep2 = c->p.separation ? want * want * 1.0001f : -1.0f, .pl2 = c->pl_reach2};
#if SIMD4
  b.v_side = _mm_set1_ps(b.side);
  b.v_back = _mm_set1_ps(b.back);
  b.v_ahead = _mm_set1_ps(b.ahead);
  b.v_sep2 = _mm_set1_ps(b.sep2);
  b.v_pl2 = _mm_set1_ps(b.pl2);
  b.v_noside = _mm_set1_ps(-1.0f);
#endif
  return b;
}

/* The shape of the regions of a tick, the same for every agent: a disc
** (d2 < rc2; none when rc2 <= 0) and a window along a direction (|ahead -
** mid| <= half, |side| < side); the half-widths of their boxes (with a
** margin for rounding); a disc that holds the window in every direction;
** and, with a skin, how far an agent gets before the lists are made again. */
typedef struct shape {
  float rc2, rcb;
  float mid, half, side, hb, sb;
  float all2, allb;
  float lim;
} shape;

/* Everything the tests of a tick can pass (see scan_pair), grown by `skin`
** on every side. */
static shape shape_of(const bounds *b, float skin) {
  shape h;
  float near2 = b->pl2 > b->sep2 ? b->pl2 : b->sep2;
  float rc = near2 > 0.0f ? sqrtf(near2) * 1.0001f + 1e-5f + skin : 0.0f;
  h.rc2 = near2 > 0.0f ? rc * rc : -1.0f;
  h.rcb = rc * 1.001f + 1e-4f;
  h.mid = 0.5f * (b->ahead + b->back);
  h.half = (0.5f * (b->ahead - b->back) + skin) * 1.0001f + 1e-5f;
  h.side = (b->side + skin) * 1.0001f + 1e-5f;
  h.hb = h.half * 1.001f + 1e-4f;
  h.sb = h.side * 1.001f + 1e-4f;
  float far = b->ahead > -b->back ? b->ahead : -b->back;
  float all = len2(far, b->side) * 1.0001f + 1e-5f + skin;
  all = all > rc ? all : rc;
  h.all2 = all * all;
  h.allb = all * 1.001f + 1e-4f;
  h.lim = 0.5f * skin * 1.01f + 1e-3f;
  return h;
}

/* The region of an agent at (x, y): the shape's disc (or the larger one)
** and its window along nd directions. */
typedef struct region {
  float x, y, rc2, rcb;
  int nd;
  float dx[MAX_DIRS], dy[MAX_DIRS];
} region;

#if !SIMD4 /* (with SIMD4, list_run tests four at a time) */
static inline bool region_has(const shape *h, const region *g, float rx, float ry) {
  bool in = rx * rx + ry * ry < g->rc2;
  for (int d = 0; d < g->nd; d++) {
    float a = rx * g->dx[d] + ry * g->dy[d] - h->mid, s = ry * g->dx[d] - rx * g->dy[d];
    in |= (fabsf(a) <= h->half) & (fabsf(s) < h->side);
  }
  return in;
}
#endif

/* The box over a region (x0, y0, x1, y1 in e): the disc's box and each
** window's. */
static HOT_INLINE void region_extent(const shape *h, const region *g, float e[4]) {
  float r = g->rc2 > 0.0f ? g->rcb : 0.0f;
  float x0 = g->x - r, x1 = g->x + r, y0 = g->y - r, y1 = g->y + r;
  for (int d = 0; d < g->nd; d++) {
    float ax = fabsf(g->dx[d]), ay = fabsf(g->dy[d]);
    float cx = g->x + g->dx[d] * h->mid, cy = g->y + g->dy[d] * h->mid;
    float ex = ax * h->hb + ay * h->sb, ey = ay * h->hb + ax * h->sb;
    x0 = cx - ex < x0 ? cx - ex : x0;
    x1 = cx + ex > x1 ? cx + ex : x1;
    y0 = cy - ey < y0 ? cy - ey : y0;
    y1 = cy + ey > y1 ? cy + ey : y1;
  }
  e[0] = x0;
  e[1] = y0;
  e[2] = x1;
  e[3] = y1;
}

/* The cells under a region. */
static HOT_INLINE cellbox region_box(const td_crowd *c, const shape *h, const region *g) {
  float e[4];
  region_extent(h, g, e);
  return cell_box(c, e[0], e[1], e[2], e[3]);
}

/* Agent i's region. With `ahead_too` (lists), the window covers every
** direction of travel the agent can take before it has moved h->lim: its
** segment's, and the next ones' while the bisector where it would take
** them (see waypoint_agent) is that near, for any agent on the ground
** (stunned and stranded ones may walk on); beyond MAX_DIRS, a disc holds
** them all. Without, a walker's window along its segment. */
static HOT_INLINE void agent_region(td_crowd *c, size_t i, const shape *h, bool ahead_too,
                                    region *g) {
  g->x = c->x[i];
  g->y = c->y[i];
  g->rc2 = h->rc2;
  g->rcb = h->rcb;
  g->nd = 0;
  for (int d = 0; d < MAX_DIRS; d++) g->dx[d] = g->dy[d] = 0.0f;
  uint8_t st = c->state[i];
  if (st != TD_AGENT_WALK && (!ahead_too || layer(st) != 0)) return;
  g->dx[0] = c->dirx[i];
  g->dy[0] = c->diry[i];
  g->nd = 1;
  if (!ahead_too) return;
  const corner *k = corner_at(c, i);
  if (k->last || (g->x - k->bx) * k->tx + (g->y - k->by) * k->ty < -h->lim) return;
  corner n = *k;
  for (;;) {
    if (g->nd == MAX_DIRS) {
      g->rc2 = h->all2;
      g->rcb = h->allb;
      g->nd = 0;
      return;
    }
    g->dx[g->nd] = n.d2x;
    g->dy[g->nd] = n.d2y;
    g->nd++;
    int32_t b2 = n.b;
    td_crowd_corner_fill(c, b2, c->next[b2], &n);
    if (n.last || (g->x - n.bx) * n.tx + (g->y - n.by) * n.ty < -h->lim) return;
  }
}

#if SIMD4
/* The lanes set in a mask of four, in order (then anything), and how many:
** a compaction without a branch. */
static const int8_t mask_lanes[16][4] = {
  {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {2, 0, 0, 0}, {0, 2, 0, 0},
  {1, 2, 0, 0}, {0, 1, 2, 0}, {3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0},
  {2, 3, 0, 0}, {0, 2, 3, 0}, {1, 2, 3, 0}, {0, 1, 2, 3}};
static const int8_t mask_count[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

#endif

/* A region's tests, set up once per agent for list_run (with SIMD4, each
** number four times). */
typedef struct region_test {
#if SIMD4
  __m128 gx, gy, rc2, mid, half, side;
  __m128 dx[MAX_DIRS], dy[MAX_DIRS];
  __m128i self;
#else
  int unused;
#endif
} region_test;

static HOT_INLINE void region_test_of(const shape *h, const region *g, int32_t i,
                                      region_test *rt) {
#if SIMD4
  rt->gx = _mm_set1_ps(g->x);
  rt->gy = _mm_set1_ps(g->y);
  rt->rc2 = _mm_set1_ps(g->rc2);
  rt->mid = _mm_set1_ps(h->mid);
  rt->half = _mm_set1_ps(h->half);
  rt->side = _mm_set1_ps(h->side);
  for (int d = 0; d < g->nd; d++) {
    rt->dx[d] = _mm_set1_ps(g->dx[d]);
    rt->dy[d] = _mm_set1_ps(g->dy[d]);
  }
  rt->self = _mm_set1_epi32(i);
#else
  (void)h;
  (void)g;
  (void)i;
  rt->unused = 0;
#endif
}

/* Appends to nb (from np) the agents of the cell order [lo, hi) in region g
** (its tests rt), but agent i; returns the new end. nb has room for hi - lo
** + 4 more. */
static HOT_INLINE size_t list_run(const td_crowd *c, const shape *h, const region *g,
                                  const region_test *rt, int32_t i, int32_t lo, int32_t hi,
                                  int32_t *nb, size_t np) {
  const float *sx = c->s_x, *sy = c->s_y;
  const int32_t *order = c->order;
#if SIMD4
  /* four at a time: the columns have SPARE elements after the last */
  (void)h;
  (void)i;
  const int nd = g->nd;
  for (int32_t kk = lo; kk < hi; kk += 4) {
    __m128 rx = _mm_sub_ps(_mm_loadu_ps(sx + kk), rt->gx);
    __m128 ry = _mm_sub_ps(_mm_loadu_ps(sy + kk), rt->gy);
    __m128 in = _mm_cmplt_ps(_mm_add_ps(_mm_mul_ps(rx, rx), _mm_mul_ps(ry, ry)), rt->rc2);
    for (int d = 0; d < nd; d++) { /* most agents: one */
      __m128 a = _mm_sub_ps(_mm_add_ps(_mm_mul_ps(rx, rt->dx[d]), _mm_mul_ps(ry, rt->dy[d])),
                            rt->mid);
      __m128 s = _mm_sub_ps(_mm_mul_ps(ry, rt->dx[d]), _mm_mul_ps(rx, rt->dy[d]));
      in = _mm_or_ps(in, _mm_and_ps(_mm_cmple_ps(abs4(a), rt->half),
                                    _mm_cmplt_ps(abs4(s), rt->side)));
    }
    __m128i j4 = _mm_loadu_si128((const __m128i *)(const void *)(order + kk));
    unsigned m = (unsigned)_mm_movemask_ps(in) &
                 ~(unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(j4, rt->self)));
    int32_t left = hi - kk;
    m &= left >= 4 ? 15u : (1u << left) - 1u;
    const int8_t *ln = mask_lanes[m];
    nb[np] = order[kk + ln[0]];
    nb[np + 1] = order[kk + ln[1]];
    nb[np + 2] = order[kk + ln[2]];
    nb[np + 3] = order[kk + ln[3]];
    np += (size_t)mask_count[m];
  }
#else
  (void)rt;
  for (int32_t kk = lo; kk < hi; kk++) {
    int32_t j = order[kk];
    nb[np] = j;
    np += region_has(h, g, sx[kk] - g->x, sy[kk] - g->y) & (j != i);
  }
#endif
  return np;
}

/* Room in nb for `more` entries after np; -1 out of memory. */
static inline int nb_room(td_crowd *c, size_t np, size_t more) {
  size_t need = np + more;
  if (need > INT32_MAX) return -1;
  if (need > c->nb_cap) {
    int32_t *p = td_mem_grow(c->nb, &c->nb_cap, need, sizeof *p);
    if (!p) return -1;
    c->nb = p;
  }
  return 0;
}

/* Closes the interleaved lists of slots i .. i + n - 1 (i a multiple of
** LIST_LANES, n at most that), written from np with cnt[l] entries each:
** 0 (a slot that exists) past each list's end up to the longest, and
** their starts and counts. Returns the new end. */
static size_t close_four(td_crowd *c, size_t i, size_t n, size_t np, const size_t cnt[]) {
  size_t most = 0;
  for (size_t l = 0; l < n; l++) most = cnt[l] > most ? cnt[l] : most;
  for (size_t l = 0; l < LIST_LANES; l++)
    for (size_t k = l < n ? cnt[l] : 0; k < most; k++) c->nb[np + LIST_LANES * k + l] = 0;
  for (size_t l = 0; l < n; l++) {
    c->nb_beg[i + l] = (int32_t)(np + l);
    c->nb_cnt[i + l] = (int32_t)cnt[l];
  }
  return np + LIST_LANES * most;
}

/* The lists of slots i .. i + n - 1 (as for close_four), lane[l][0 ..
** cnt[l]), written to nb from np interleaved: entry k of slot i + l at np +
** LIST_LANES k + l. nb has room for LIST_LANES times the longest list, and
** lane[] lies after that. Returns the new end. */
static size_t interleave(td_crowd *c, size_t i, size_t n, size_t np, const int32_t *const lane[],
                         const size_t cnt[]) {
  for (size_t l = 0; l < n; l++)
    for (size_t k = 0; k < cnt[l]; k++) c->nb[np + LIST_LANES * k + l] = lane[l][k];
  return close_four(c, i, n, np, cnt);
}

/* Agent i's list, its region g: appended to nb from *np. Returns 0, or -1
** out of memory. */
static HOT_INLINE int list_agent(td_crowd *c, const shape *h, size_t i, const region *g,
                                 size_t *np) {
  cellbox box = region_box(c, h, g);
  region_test rt;
  region_test_of(h, g, (int32_t)i, &rt);
  for (int32_t row = box.y0; row <= box.y1; row++) {
    int32_t lo, hi;
    row_run(c, &box, row, &lo, &hi);
    if (nb_room(c, *np, (size_t)(hi - lo) + 4) != 0) return -1;
    *np = list_run(c, h, g, &rt, (int32_t)i, lo, hi, c->nb, *np);
  }
  return 0;
}

#if SIMD4
#define FOUR_ROWS 16 /* the rows of a box that list_four takes at most */

/* The lists of agents i .. i + 3, walkers whose regions g[] are a window
** along one direction and the tick's disc (the common case), made at once:
** each agent of the grid under the four boxes is tested against the four
** regions in the lanes of a vector (the same operations as list_run's on
** each lane), and appended to the lists of those whose region holds it.
** The boxes of agents in a row of a wave nearly coincide: the row runs are
** found once for four agents, and the loops run a quarter as often.
**
** Each list starts with the agents in its window without the skin (shape
** h0), then the rest. The ones in the window now are the ones likely to be
** there in the next few ticks, when scan_four does the follow test for
** every lane of a step in which any lane's candidate is in its window: so
** the four lists' window agents mostly meet in the first steps. In cell
** order they met in different steps, and there were about 2.5 such steps
** for four agents instead of about 1.
**
** Returns 1 when made, 0 when the boxes span too many rows (then nothing
** is written), -1 out of memory. */
static HOT_INLINE int list_four(td_crowd *c, const shape *h, const shape *h0, size_t i,
                                const region g[4], size_t *np) {
  /* the union of the four boxes, then its cells (cell_col and cell_row are
  ** monotone: the cells of the union are the union of the cells) */
  float e[4];
  region_extent(h, &g[0], e);
  for (int l = 1; l < 4; l++) {
    float b[4];
    region_extent(h, &g[l], b);
    e[0] = b[0] < e[0] ? b[0] : e[0];
    e[1] = b[1] < e[1] ? b[1] : e[1];
    e[2] = b[2] > e[2] ? b[2] : e[2];
    e[3] = b[3] > e[3] ? b[3] : e[3];
  }
  cellbox u = cell_box(c, e[0], e[1], e[2], e[3]);
  if (u.y1 - u.y0 >= FOUR_ROWS) return 0;
  int32_t lo[FOUR_ROWS], hi[FOUR_ROWS];
  int nr = u.y1 - u.y0 + 1;
  size_t total = 0;
  for (int r = 0; r < nr; r++) {
    row_run(c, &u, u.y0 + r, &lo[r], &hi[r]);
    total += (size_t)(hi[r] - lo[r]);
  }
  /* interleaved as they are found: lane l's window agents at np + 4 k + l,
  ** the others to rest[] (lane l's from l total), moved after them below */
  if (nb_room(c, *np, 8 * total + 8) != 0) return -1;
  int32_t *out = c->nb + *np, *rest = out + 4 * total + 4;
  const float *sx = c->s_x, *sy = c->s_y;
  const int32_t *order = c->order;
  const __m128 gx = _mm_setr_ps(g[0].x, g[1].x, g[2].x, g[3].x);
  const __m128 gy = _mm_setr_ps(g[0].y, g[1].y, g[2].y, g[3].y);
  const __m128 dx = _mm_setr_ps(g[0].dx[0], g[1].dx[0], g[2].dx[0], g[3].dx[0]);
  const __m128 dy = _mm_setr_ps(g[0].dy[0], g[1].dy[0], g[2].dy[0], g[3].dy[0]);
  const __m128 rc2 = _mm_set1_ps(h->rc2), mid = _mm_set1_ps(h->mid);
  const __m128 half = _mm_set1_ps(h->half), side = _mm_set1_ps(h->side);
  const __m128 half0 = _mm_set1_ps(h0->half), side0 = _mm_set1_ps(h0->side);
  const __m128i self = _mm_setr_epi32((int32_t)i, (int32_t)i + 1, (int32_t)i + 2, (int32_t)i + 3);
  size_t n0 = 0, n1 = 0, n2 = 0, n3 = 0, r0 = 0, r1 = total, r2 = 2 * total, r3 = 3 * total;
  for (int r = 0; r < nr; r++)
    for (int32_t k = lo[r]; k < hi[r]; k++) {
      __m128 rx = _mm_sub_ps(_mm_set1_ps(sx[k]), gx);
      __m128 ry = _mm_sub_ps(_mm_set1_ps(sy[k]), gy);
      __m128 in = _mm_cmplt_ps(_mm_add_ps(_mm_mul_ps(rx, rx), _mm_mul_ps(ry, ry)), rc2);
      __m128 a = _mm_sub_ps(_mm_add_ps(_mm_mul_ps(rx, dx), _mm_mul_ps(ry, dy)), mid);
      __m128 s = _mm_sub_ps(_mm_mul_ps(ry, dx), _mm_mul_ps(rx, dy));
      in = _mm_or_ps(in, _mm_and_ps(_mm_cmple_ps(abs4(a), half), _mm_cmplt_ps(abs4(s), side)));
      __m128 core = _mm_and_ps(_mm_cmple_ps(abs4(a), half0), _mm_cmplt_ps(abs4(s), side0));
      int32_t j = order[k];
      unsigned m = (unsigned)_mm_movemask_ps(in) &
                   ~(unsigned)_mm_movemask_ps(
                       _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_set1_epi32(j), self)));
      unsigned mc = m & (unsigned)_mm_movemask_ps(core), mr = m & ~mc;
      out[4 * n0] = j; /* (written before the test: no branch) */
      out[4 * n1 + 1] = j;
      out[4 * n2 + 2] = j;
      out[4 * n3 + 3] = j;
      rest[r0] = j;
      rest[r1] = j;
      rest[r2] = j;
      rest[r3] = j;
      n0 += mc & 1u;
      n1 += (mc >> 1) & 1u;
      n2 += (mc >> 2) & 1u;
      n3 += mc >> 3;
      r0 += mr & 1u;
      r1 += (mr >> 1) & 1u;
      r2 += (mr >> 2) & 1u;
      r3 += mr >> 3;
    }
  /* the rest after the window's agents */
  const size_t nw[4] = {n0, n1, n2, n3}, nr4[4] = {r0, r1 - total, r2 - 2 * total, r3 - 3 * total};
  for (size_t l = 0; l < 4; l++)
    for (size_t q = 0; q < nr4[l]; q++) out[4 * (nw[l] + q) + l] = rest[l * total + q];
  const size_t cnt[4] = {n0 + nr4[0], n1 + nr4[1], n2 + nr4[2], n3 + nr4[3]};
  *np = close_four(c, i, 4, *np, cnt);
  return 1;
}
#endif

/* Makes the neighbour lists (Verlet lists): for each agent, every agent in
** its region grown by the skin (agent_region), from the grid as sorted
** now. While no agent has moved more than half the skin since, the region
** holds every agent that can pass one of its tests: the lists replace the
** grid, and the grid is sorted only when they are made again. The lists
** hold slots, in an order that changes no result (sums over them do not
** depend on it), only speed (see list_four); the lists of four
** consecutive slots are interleaved (LIST_LANES), so that scan_four reads
** one entry of each with one load, and 16 readable slots follow the last.
** Four agents in a row whose regions have one direction are listed at once
** where SIMD allows (list_four). Returns 0, or -1 out of memory (no lists: the scan uses the
** grid). */
static int make_lists(td_crowd *c) {
  size_t np = 0;
  bounds b = bounds_of(c);
  shape h = shape_of(&b, c->skin);
#if SIMD4
  shape h0 = shape_of(&b, 0.0f); /* without the skin (see list_four) */
#endif
  c->nb_ok = false;
  for (size_t i = 0; i < c->used;) {
    region g[4];
    size_t n = c->used - i < 4 ? c->used - i : 4;
    bool four = SIMD4 && n == 4;
    for (size_t l = 0; l < n; l++) {
      size_t q = i + l;
      c->nb_beg[q] = (int32_t)np;
      c->nb_cnt[q] = 0;
      if (c->state[q] == TD_AGENT_FREE || c->state[q] == TD_AGENT_WAITING) { /* no layer */
        g[l].nd = -1;
        four = false;
        continue;
      }
      c->x0[q] = c->x[q];
      c->y0[q] = c->y[q];
      agent_region(c, q, &h, true, &g[l]);
      four &= g[l].nd == 1 && g[l].rc2 == h.rc2;
    }
#if SIMD4
    if (four) {
      int got = list_four(c, &h, &h0, i, g, &np);
      if (got < 0) return -1;
      if (got > 0) {
        i += 4;
        continue;
      }
    }
#endif
    /* one at a time, one after the other; then moved up past the room
    ** of their interleaving (at most four times the longest: the sum) */
    size_t at = np, cnt[4] = {0, 0, 0, 0}, most = 0;
    for (size_t l = 0; l < n; l++) {
      size_t q = i + l, from = at;
      if (g[l].nd >= 0 && list_agent(c, &h, q, &g[l], &at) != 0) return -1;
      cnt[l] = at - from;
      most = cnt[l] > most ? cnt[l] : most;
    }
    size_t sum = at - np;
    const int32_t *lane[4] = {NULL, NULL, NULL, NULL};
    if (sum > 0) { /* (else nb may not exist yet) */
      if (nb_room(c, np, LIST_LANES * most + sum) != 0) return -1;
      int32_t *moved = c->nb + np + LIST_LANES * most;
      memmove(moved, c->nb + np, sum * sizeof *moved);
      for (size_t l = 0, off = 0; l < 4; off += cnt[l++]) lane[l] = moved + off;
    }
    np = interleave(c, i, n, np, lane, cnt);
    i += n;
  }
  /* scan_list reads four entries of a list at a time */
  if (nb_room(c, np, LIST_PAD) != 0) return -1;
  memset(c->nb + np, 0, LIST_PAD * sizeof *c->nb); /* slot 0 exists: there are agents */
  c->nb_len = np;
  c->nb_ok = true;
  c->nb_stale = false;
  c->disp = 0.0f;
  c->nb_made++;
  return 0;
}

/* Where a walker is on the route, as it stands (the start of the tick): the
** route from its segment's end to a goal, and what it has left of its
** segment (projected on it). Ordered by the first, then the second, then
** the slot (further), it is a strict total order of the walkers: agents on
** a later segment come first, agents on one segment in the order they
** walk it. */
typedef struct route_pos {
  float left, rest;
} route_pos;

static route_pos route_of(const corner *k, float x, float y) {
  return (route_pos){k->left, k->len - ((x - k->ax) * k->dx + (y - k->ay) * k->dy)};
}

/* Without the corner table (out of memory), the corner is computed. */
static route_pos route_uncached(const td_crowd *c, size_t i) {
  corner k;
  td_crowd_corner_fill(c, c->from[i], c->to[i], &k);
  return route_of(&k, c->x[i], c->y[i]);
}

static inline route_pos route_at(const td_crowd *c, size_t i) {
  uint32_t q = c->ktab[i];
  return q != KC_NONE ? route_of(&c->kc[q], c->x[i], c->y[i]) : route_uncached(c, i);
}

/* Whether walker j (at pj) is further along the route than walker i. */
static inline bool further(route_pos pj, int32_t j, route_pos pi, int32_t i) {
  return pj.left < pi.left ||
         (pj.left == pi.left && (pj.rest < pi.rest || (pj.rest == pi.rest && j < i)));
}

/* An agent's scan of its neighbours, in locals. */
typedef struct scan {
  float xi, yi, ri, dx, dy, ms9, margin;
  int32_t group, from, to, self;
  route_pos at;           /* where a walker is on the route, once at_known */
  bool at_known;
  int layer;
  bool walk;
  bool ghost;             /* breaking a jam (crowd_stall.c) */
  float pl2;              /* close pairs: d2 < pl2 go to pl (0: none listed) */
  int32_t *pl;
  size_t np;
  float follow;           /* the speed cap of following */
  float left, right;      /* the largest shifts to the left and to the right that passing asks */
  float behind;           /* the speed cap of waiting behind the slower ones to pass (used
                             when the room does not let the lane shift enough) */
  int64_t px, py;         /* the push, in units of 1 / PUSH_ONE */
} scan;

/* The layer of an agent as the scan sees it: the steering pass that runs
** with it marks flyers that arrive LEAKED, and every agent sees them as
** they were at the start of the tick (no agent was LEAKED then: the slots
** of last tick's were freed). */
static inline int scan_layer(uint8_t s) { return s == TD_AGENT_LEAKED ? 1 : layer(s); }

/* Walker s meets agent j at (ahead, side) in the walker's frame: a
** wave-mate of the same kind ahead in the way is followed (our speed capped
** so the gap does not close), anyone slower by nature (another kind, or a
** stunned one) is passed: our lane shifts aside. Each slower agent asks
** for a shift to one side; the lane takes the largest to the left plus the
** largest to the right (a max, so the order of visits does not matter).
** Taking the one nearest ahead instead made a walker behind two slower
** agents abreast switch between them from tick to tick, and zig-zag.
** Where the road is too narrow for the shift (scan_agent clamps it to the
** lane's room), the walker waits behind the slower ones in its way instead:
** on a one-tile road, runners that kept pushing into the slow wave ahead
** pressed the whole queue into the next corner, and it stuck there. */
static HOT_INLINE void walk_pair(const td_crowd *c, scan *s, int32_t j, float ahead, float side) {
  uint8_t sj = c->state[j];
  if (sj != TD_AGENT_WALK && sj != TD_AGENT_STUNNED) return;
  float reach = s->ri + c->radius[j];
  /* outside the window of passing, which holds the one of following */
  if (ahead <= -reach || ahead > PASS_AHEAD * reach || fabsf(side) >= 1.3f * reach) return;
  float vxj = c->vx[j], vyj = c->vy[j];
  float vj = vxj * s->dx + vyj * s->dy;
  /* A mate is followed when it travels our way, moves away from us, or
  ** walks the segment after ours (it turned the corner ahead of us; passed,
  ** it made its followers zig-zag through every corner), and it is further
  ** along the route than we are (see further). The last makes following an
  ** order: at a sharp corner, two agents each ahead of the other in its own
  ** direction of travel followed each other and both stopped for good. One
  ** meeting us head-on or across a junction is passed instead. */
  bool mate = c->group[j] == s->group && sj == TD_AGENT_WALK && c->max_speed[j] >= s->ms9;
  if (mate && (c->from[j] != s->from || c->to[j] != s->to)) {
    /* on another segment: also further along the route (on ours, the
    ** follow window's ahead > 0 orders them: it is antisymmetric) */
    mate = (c->dirx[j] * s->dx + c->diry[j] * s->dy > 0.5f ||
            vj * ahead + (vxj * -s->dy + vyj * s->dx) * side > 0.0f ||
            (c->from[j] == s->to && c->to[j] != s->from));
    if (mate && !s->at_known) {
      s->at = route_at(c, (size_t)s->self);
      s->at_known = true;
    }
    mate = mate && further(route_at(c, (size_t)j), j, s->at, s->self);
  }
  if (mate) {
    if (ahead <= 0.0f || ahead > FOLLOW_AHEAD * reach || fabsf(side) >= reach) return;
    /* close at most to 1.25 reach, at the speed that gets there in 1/4 s */
    float cap = vj + (ahead - 1.25f * reach) * 4.0f;
    if (cap < s->follow) s->follow = cap < 0.0f ? 0.0f : cap;
    return;
  }
  /* pass: from PASS_AHEAD reach before until it is a reach behind us; the
  ** shift fades in over the first PASS_FADE and out over the last half, and
  ** goes to 0 at the sides of the window (|side| = 1.3 reach): a neighbour
  ** that enters or leaves the window moves our lane smoothly, with no step
  ** that the steering would chase back and forth */
  if (vj > s->ms9) return; /* not slower: no need to pass */
  /* in the way and going our way (one that meets us head-on is passed:
  ** both step aside), the cap of waiting behind it */
  if (ahead > 0.0f && fabsf(side) < reach && c->dirx[j] * s->dx + c->diry[j] * s->dy > 0.0f) {
    float cap = vj + (ahead - 1.25f * reach) * 4.0f;
    if (cap < s->behind) s->behind = cap < 0.0f ? 0.0f : cap;
  }
  float fade = ahead > (PASS_AHEAD - PASS_FADE) * reach
                   ? (PASS_AHEAD * reach - ahead) / (PASS_FADE * reach)
               : ahead < -0.5f * reach ? (ahead + reach) / (0.5f * reach)
                                       : 1.0f;
  /* pass on the side we already lean to (ties: the left) */
  float want = fade * (side > 0.0f ? -(1.3f * reach - side) : 1.3f * reach + side);
  if (want > s->left) s->left = want;
  if (want < s->right) s->right = want;
}

/* Agent s meets agent j (not itself): the close pair is listed, a walker
** follows or passes, the soft push. Each exact test first rejects on a
** bound that is looser (bounds_of), which changes no result. pl has room
** for one more (the store comes before the test: no branch). */
static HOT_INLINE void scan_hit(const td_crowd *c, scan *s, const bounds *b, int32_t j, float rx,
                                float ry, float d2, float ahead, float side) {
  s->pl[s->np] = j;
  s->np += d2 < s->pl2;
  /* a ghost (crowd_stall.c) follows and passes no one and pushes no one;
  ** the others follow and pass it as they would (scan_four's way) */
  if (s->walk && !s->ghost && fabsf(side) < b->side && ahead > b->back && ahead <= b->ahead)
    walk_pair(c, s, j, ahead, side);
  if (d2 <= b->sep2) { /* soft separation: keep a margin within the layer */
    if (scan_layer(c->state[j]) != s->layer || s->ghost || c->ghost[j]) return;
    float ux = -rx, uy = -ry, d = len2(ux, uy); /* from the neighbour to us */
    float want = s->ri + c->radius[j] + s->margin + 0.2f * s->ri;
    if (d >= want || d < 1e-6f) return;
    float push = (want - d) / want;
    s->px += fixed(ux / d * push * PUSH_ONE);
    s->py += fixed(uy / d * push * PUSH_ONE);
  }
}

static HOT_INLINE void scan_pair(const td_crowd *c, scan *s, const bounds *b, int32_t j) {
  float rx = c->x[j] - s->xi, ry = c->y[j] - s->yi;
  scan_hit(c, s, b, j, rx, ry, rx * rx + ry * ry, rx * s->dx + ry * s->dy,
           rx * -s->dy + ry * s->dx);
}

/* Agent s meets the agents of its list nb[LIST_LANES k], k < cnt (readable
** up to the next multiple of four). With SIMD4, the loose tests of
** scan_pair run four at a time first, and only the agents that pass one go
** to scan_pair. */
static HOT_INLINE void scan_list(const td_crowd *c, scan *s, const bounds *b, const int32_t *nb,
                                 int32_t cnt) {
#if SIMD4
  const float *x = c->x, *y = c->y;
  const __m128 xi = _mm_set1_ps(s->xi), yi = _mm_set1_ps(s->yi);
  const __m128 dx = _mm_set1_ps(s->dx), dy = _mm_set1_ps(s->dy), ndy = _mm_set1_ps(-s->dy);
  const __m128 side = s->walk ? b->v_side : b->v_noside, back = b->v_back, ahead = b->v_ahead;
  const __m128 sep2 = b->v_sep2, pl2 = s->pl2 > 0.0f ? b->v_pl2 : b->v_noside;
  for (int32_t q = 0; q < cnt; q += 4) {
    const int32_t *e = nb + (ptrdiff_t)q * LIST_LANES;
    int32_t j0 = e[0], j1 = e[LIST_LANES], j2 = e[(ptrdiff_t)2 * LIST_LANES],
            j3 = e[(ptrdiff_t)3 * LIST_LANES];
    __m128 rx = _mm_sub_ps(_mm_setr_ps(x[j0], x[j1], x[j2], x[j3]), xi);
    __m128 ry = _mm_sub_ps(_mm_setr_ps(y[j0], y[j1], y[j2], y[j3]), yi);
    __m128 d2 = _mm_add_ps(_mm_mul_ps(rx, rx), _mm_mul_ps(ry, ry));
    __m128 a = _mm_add_ps(_mm_mul_ps(rx, dx), _mm_mul_ps(ry, dy));
    __m128 sd = _mm_add_ps(_mm_mul_ps(rx, ndy), _mm_mul_ps(ry, dx));
    __m128 win = _mm_and_ps(_mm_cmplt_ps(abs4(sd), side),
                            _mm_and_ps(_mm_cmpgt_ps(a, back), _mm_cmple_ps(a, ahead)));
    __m128 in = _mm_or_ps(win, _mm_or_ps(_mm_cmple_ps(d2, sep2), _mm_cmplt_ps(d2, pl2)));
    unsigned m = (unsigned)_mm_movemask_ps(in);
    int32_t left = cnt - q;
    m &= left >= 4 ? 15u : (1u << left) - 1u;
    if (!m) continue;
    float lx[4], ly[4], ld[4], la[4], ls[4]; /* the same values scan_pair computes */
    _mm_storeu_ps(lx, rx);
    _mm_storeu_ps(ly, ry);
    _mm_storeu_ps(ld, d2);
    _mm_storeu_ps(la, a);
    _mm_storeu_ps(ls, sd);
    do {
      int l = __builtin_ctz(m);
      scan_hit(c, s, b, e[(ptrdiff_t)l * LIST_LANES], lx[l], ly[l], ld[l], la[l], ls[l]);
      m &= m - 1;
    } while (m);
  }
#else
  for (int32_t q = 0; q < cnt; q++) scan_pair(c, s, b, nb[(ptrdiff_t)q * LIST_LANES]);
#endif
}

/* Room in the close-pair list for `more` pairs and the branchless store;
** out of memory, the listing stops for the tick (the projection then looks
** elsewhere: see project). */
static inline void pl_room(td_crowd *c, scan *s, size_t more, int32_t *sink) {
  if (s->pl2 <= 0.0f || s->np + more + 1 <= c->pl_cap) return;
  int32_t *p = td_mem_grow(c->pl, &c->pl_cap, s->np + more + 1, sizeof *p);
  if (p) {
    c->pl = s->pl = p;
    return;
  }
  c->pl_ok = false;
  s->pl2 = 0.0f;
  s->pl = sink;
  s->np = 0;
}

/* The close pairs and the agents that have some, as the steering pass
** finds them (see scan_agent). */
typedef struct pairs {
  size_t np, na;
  int32_t sink[1];        /* where the listing writes when it stopped */
} pairs;

/* Agent i's scan of its neighbours: from its list (`lists`) or from the
** grid (the cells under its region: the same agents pass the tests); it
** reads every other agent as it was at the start of the tick. Its close
** pairs go to pl, and it to `active` if it has some. */
static HOT_INLINE nbres scan_agent(td_crowd *c, size_t i, const bounds *b, const shape *h,
                                   bool lists, pairs *pp) {
  uint8_t st = c->state[i];
  scan s;
  s.xi = c->x[i];
  s.yi = c->y[i];
  s.ri = c->radius[i];
  s.dx = c->dirx[i];
  s.dy = c->diry[i];
  s.ms9 = 0.9f * c->max_speed[i];
  s.margin = c->p.margin;
  s.group = c->group[i];
  s.from = c->from[i];
  s.self = (int32_t)i;
  s.to = c->to[i];
  s.layer = layer(st);
  s.walk = st == TD_AGENT_WALK;
  s.ghost = c->ghost[i] != 0;
  s.at = (route_pos){0.0f, 0.0f};
  s.at_known = false;
  s.follow = INFINITY;
  s.behind = INFINITY;
  s.left = s.right = 0.0f;
  s.px = s.py = 0;
  s.pl2 = c->pl_ok ? b->pl2 : 0.0f;
  s.pl = c->pl_ok && c->pl ? c->pl : pp->sink;
  s.np = c->pl_ok ? pp->np : 0;
  if (lists) { /* pl has room for every list (see td_crowd_step) */
    scan_list(c, &s, b, c->nb + c->nb_beg[i], c->nb_cnt[i]);
  } else if (s.walk || b->sep2 > 0.0f || s.pl2 > 0.0f) {
    region g;
    agent_region(c, i, h, false, &g);
    cellbox box = region_box(c, h, &g);
    for (int32_t row = box.y0; row <= box.y1; row++) {
      int32_t lo, hi;
      row_run(c, &box, row, &lo, &hi);
      pl_room(c, &s, (size_t)(hi - lo), pp->sink);
      for (int32_t kk = lo; kk < hi; kk++) {
        int32_t j = c->order[kk];
        if (j != (int32_t)i) scan_pair(c, &s, b, j);
      }
    }
  }
  if (c->pl_ok && s.np > pp->np) {
    c->active[pp->na] = (int32_t)i;
    c->pl_end[pp->na++] = (int32_t)s.np;
    pp->np = s.np;
  }
  /* passing keeps to the room the lane has (crowd_road.c); INFINITY: open */
  float shift = s.left + s.right, to = c->lane[i] + shift;
  if (fabsf(to) > c->lane_max[i]) { /* too narrow to pass here: wait behind instead */
    shift = copysignf(c->lane_max[i], to) - c->lane[i];
    if (s.behind < s.follow) s.follow = s.behind;
  }
  return (nbres){.follow = s.follow, .shift = shift, .px = (float)s.px * (1.0f / PUSH_ONE),
                 .py = (float)s.py * (1.0f / PUSH_ONE)};
}

#if SIMD4
/* Four walkers' scans at once, slots i .. i + 3 (i a multiple of
** LIST_LANES) from their interleaved lists: lane l scans agent i + l, one
** candidate of each list a step. This is the common case only:
** candidates outside every test, and wave-mates on the same segment to
** follow. An agent that meets anything else (a close pair, a
** push, an agent to pass, a mate on another segment) is marked, and the
** caller scans it again with scan_agent, in slot order: the others list no
** close pairs, so the pairs keep their order. The vector steps are
** scan_list's and walk_pair's tests, term by term in the same order, so the
** follow caps have the same bits. Returns the mask of the agents marked;
** the others' results go to out[0 .. 4).
**
** One agent at a time, a scan is a chain of dependent loads, tests and
** arithmetic that the steering then waits on; four in the lanes of one
** vector take the time of about one. */
static HOT_INLINE unsigned scan_four(const td_crowd *c, size_t i, const bounds *b, nbres *out) {
  const float *x = c->x, *y = c->y;
  const __m128 xi = _mm_loadu_ps(x + i), yi = _mm_loadu_ps(y + i);
  const __m128 dx = _mm_loadu_ps(c->dirx + i), dy = _mm_loadu_ps(c->diry + i);
  const __m128 zero = _mm_setzero_ps(), ndy = _mm_sub_ps(zero, dy);
  const __m128 ri = _mm_loadu_ps(c->radius + i);
  const __m128 ms9 = _mm_mul_ps(_mm_set1_ps(0.9f), _mm_loadu_ps(c->max_speed + i));
  const __m128i grp = _mm_loadu_si128((const __m128i *)(const void *)(c->group + i));
  const __m128i from = _mm_loadu_si128((const __m128i *)(const void *)(c->from + i));
  const __m128i to = _mm_loadu_si128((const __m128i *)(const void *)(c->to + i));
  const __m128i walk = _mm_set1_epi32(TD_AGENT_WALK), stun = _mm_set1_epi32(TD_AGENT_STUNNED);
  const __m128 pl2 = c->pl_ok ? b->v_pl2 : b->v_noside;
  const __m128 three = _mm_set1_ps(3.0f), side13 = _mm_set1_ps(1.3f);
  const __m128 near = _mm_set1_ps(1.25f), four = _mm_set1_ps(4.0f);
  int32_t cnt[4];
  memcpy(cnt, c->nb_cnt + i, sizeof cnt);
  const __m128i cnt4 = _mm_loadu_si128((const __m128i *)(const void *)cnt);
  int32_t most = cnt[0] > cnt[1] ? cnt[0] : cnt[1], most2 = cnt[2] > cnt[3] ? cnt[2] : cnt[3];
  most = most > most2 ? most : most2;
  const int32_t *nb = c->nb + c->nb_beg[i]; /* the four lists, interleaved */
  __m128 follow = _mm_set1_ps(INFINITY), marked = zero;
  for (int32_t k = 0; k < most; k++, nb += LIST_LANES) {
    /* a lane past its list's end reads slot 0 (it exists) and tests nothing */
    __m128 valid = _mm_castsi128_ps(_mm_cmpgt_epi32(cnt4, _mm_set1_epi32(k)));
    int32_t j0 = nb[0], j1 = nb[1], j2 = nb[2], j3 = nb[3];
    __m128 rx = _mm_sub_ps(_mm_setr_ps(x[j0], x[j1], x[j2], x[j3]), xi);
    __m128 ry = _mm_sub_ps(_mm_setr_ps(y[j0], y[j1], y[j2], y[j3]), yi);
    __m128 d2 = _mm_add_ps(_mm_mul_ps(rx, rx), _mm_mul_ps(ry, ry));
    __m128 a = _mm_add_ps(_mm_mul_ps(rx, dx), _mm_mul_ps(ry, dy));
    __m128 sd = _mm_add_ps(_mm_mul_ps(rx, ndy), _mm_mul_ps(ry, dx)), asd = abs4(sd);
    __m128 win = _mm_and_ps(_mm_and_ps(_mm_cmplt_ps(asd, b->v_side), valid),
                            _mm_and_ps(_mm_cmpgt_ps(a, b->v_back), _mm_cmple_ps(a, b->v_ahead)));
    __m128 close = _mm_or_ps(_mm_cmple_ps(d2, b->v_sep2), _mm_cmplt_ps(d2, pl2));
    marked = _mm_or_ps(marked, _mm_and_ps(close, valid));
    if (!_mm_movemask_ps(win)) continue;
    /* walk_pair, in the lanes of the window */
    __m128i st = _mm_setr_epi32(c->state[j0], c->state[j1], c->state[j2], c->state[j3]);
    __m128 reach = _mm_add_ps(ri, _mm_setr_ps(c->radius[j0], c->radius[j1], c->radius[j2],
                                                c->radius[j3]));
    __m128 stwalk = _mm_castsi128_ps(_mm_cmpeq_epi32(st, walk));
    __m128 onfoot = _mm_or_ps(stwalk, _mm_castsi128_ps(_mm_cmpeq_epi32(st, stun)));
    __m128 far = _mm_mul_ps(three, reach);
    __m128 inpass = _mm_and_ps(_mm_and_ps(_mm_cmpgt_ps(a, _mm_sub_ps(zero, reach)),
                                          _mm_cmple_ps(a, far)),
                               _mm_cmplt_ps(asd, _mm_mul_ps(side13, reach)));
    __m128 w = _mm_and_ps(win, _mm_and_ps(onfoot, inpass));
    __m128 vj = _mm_add_ps(
        _mm_mul_ps(_mm_setr_ps(c->vx[j0], c->vx[j1], c->vx[j2], c->vx[j3]), dx),
        _mm_mul_ps(_mm_setr_ps(c->vy[j0], c->vy[j1], c->vy[j2], c->vy[j3]), dy));
    __m128i gj = _mm_setr_epi32(c->group[j0], c->group[j1], c->group[j2], c->group[j3]);
    __m128 msj = _mm_setr_ps(c->max_speed[j0], c->max_speed[j1], c->max_speed[j2],
                             c->max_speed[j3]);
    __m128 mate = _mm_and_ps(_mm_and_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(gj, grp)), stwalk),
                             _mm_cmpge_ps(msj, ms9));
    __m128i fj = _mm_setr_epi32(c->from[j0], c->from[j1], c->from[j2], c->from[j3]);
    __m128i tj = _mm_setr_epi32(c->to[j0], c->to[j1], c->to[j2], c->to[j3]);
    __m128 same = _mm_castsi128_ps(
        _mm_and_si128(_mm_cmpeq_epi32(fj, from), _mm_cmpeq_epi32(tj, to)));
    /* a mate on another segment, or an agent to pass (not faster): scalar */
    __m128 other = _mm_or_ps(_mm_andnot_ps(same, mate),
                             _mm_andnot_ps(_mm_or_ps(mate, _mm_cmpgt_ps(vj, ms9)), w));
    marked = _mm_or_ps(marked, _mm_and_ps(w, other));
    /* follow: a mate on our segment, in the window of following */
    __m128 fol = _mm_and_ps(_mm_and_ps(w, _mm_and_ps(mate, same)),
                            _mm_and_ps(_mm_and_ps(_mm_cmpgt_ps(a, zero), _mm_cmple_ps(a, far)),
                                       _mm_cmplt_ps(asd, reach)));
    __m128 cap = _mm_add_ps(vj, _mm_mul_ps(_mm_sub_ps(a, _mm_mul_ps(near, reach)), four));
    __m128 take = _mm_and_ps(fol, _mm_cmplt_ps(cap, follow));
    cap = _mm_andnot_ps(_mm_cmplt_ps(cap, zero), cap); /* below 0: 0 */
    follow = _mm_or_ps(_mm_and_ps(take, cap), _mm_andnot_ps(take, follow));
  }
  float f[4];
  _mm_storeu_ps(f, follow);
  for (int l = 0; l < 4; l++) out[l] = (nbres){.follow = f[l], .shift = 0.0f, .px = 0.0f, .py = 0.0f};
  return (unsigned)_mm_movemask_ps(marked);
}
#endif

/* ---- the passes ---------------------------------------------------------- */

/* Pass 2 (td_crowd_step): lays the grid out, sets the tick's close-pair
** reach and the lists' skin, and makes the neighbour lists again (from the
** grid, sorted now) when they do not hold any more. Returns whether the
** scans can use the lists (else they look in the grid). */
bool td_crowd_lists_pass(td_crowd *c) {
  size_grid(c);
  /* close pairs: anything that could overlap after a normal move */
  float overlap = 2.0f * c->max_radius * 1.02f;
  c->pl_slack = 0.5f * c->max_radius + 3.0f * c->max_speed_all * c->dt;
  c->pl_reach2 = c->p.separation ? (overlap + c->pl_slack) * (overlap + c->pl_slack) : 0.0f;
  c->skin = SKIN_RADII * c->max_radius;
  /* the lists hold while no agent moved half the skin since they were made */
  bool lists = c->nb_ok && !c->nb_stale && 2.0f * c->disp * 1.001f + 1e-4f < c->skin;
  if (!lists) {
    td_crowd_grid_sort(c);
    c->grid_tick = c->tick;
    lists = make_lists(c) == 0;
  }
  return lists;
}

/* Pass 3, the scans: in slot order, each agent scans its list (`lists`) or
** the grid, four walkers at a time where SIMD allows, into nb_res; the
** close pairs go to pl (and the agents that have some to active), which
** the projection reads. */
void td_crowd_scan_pass(td_crowd *c, bool lists) {
  bounds b = bounds_of(c);
  shape h = shape_of(&b, 0.0f); /* the grid's, without lists */
  pairs pp = {.np = 0, .na = 0};
  c->pl_ok = c->p.separation;
  if (lists && c->pl_ok && c->nb_len + 1 > c->pl_cap) { /* room for every list's pairs */
    int32_t *p = td_mem_grow(c->pl, &c->pl_cap, c->nb_len + 1, sizeof *p);
    if (p) c->pl = p;
    else c->pl_ok = false; /* the projection looks elsewhere */
  }
  for (size_t i = 0; i < c->used;) {
#if SIMD4
    if (lists && i % LIST_LANES == 0 && i + 4 <= c->used && walk4(c, i) && !ghost4(c, i)) {
      unsigned again = scan_four(c, i, &b, c->nb_res + i);
      for (; again; again &= again - 1) {
        size_t q = i + (size_t)__builtin_ctz(again);
        c->nb_res[q] = scan_agent(c, q, &b, &h, lists, &pp);
      }
      i += 4;
      continue;
    }
#endif
    /* a waiting agent is in no layer: nothing to scan (the steering keeps it) */
    if (c->state[i] != TD_AGENT_FREE && c->state[i] != TD_AGENT_WAITING)
      c->nb_res[i] = scan_agent(c, i, &b, &h, lists, &pp);
    i++;
  }
  c->pl_len = c->pl_ok ? pp.np : 0;
  c->n_active = c->pl_ok ? pp.na : 0;
}

/* ---- access -------------------------------------------------------------- */

bool td_crowd_grid_info(const td_crowd *c, td_crowd_grid *out) {
  if (!(c->cell > 0.0f)) return false;
  *out = (td_crowd_grid){.x0 = c->gx0, .y0 = c->gy0, .cell = c->cell, .cols = c->gw,
                         .rows = c->gh};
  return true;
}
