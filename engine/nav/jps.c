/*
** jps.c: Jump Point Search over word-packed open cells.
**
** Design note.
** The mirror. rows holds (height + 2) lines of width + 2 bits, cols
** (width + 2) lines of height + 2 bits: bit x + 1 of row line y + 1 and
** bit y + 1 of column line x + 1 say cell (x, y) is open. The border lines
** and bits are 0 (blocked), so no scan needs a bounds test: every scan
** stops at the border at the latest. A column line is a row line of the
** transposed grid, so one lineset type and one pair of scans (forward,
** backward) serve the four straight directions.
**
** A straight scan along line L (neighbour lines A and B, on either side)
** from position p stops at the first q past p that is blocked in L, or has
** a forced neighbour: open in A (or B) while the cell of A (or B) one step
** back (q - 1 going forward) is blocked. A word of those stops is
** (~L | (A & ~(A << 1)) | (B & ~(B << 1))) going forward, the shifts
** carrying a bit over from the previous word; each line keeps its stop
** words for both directions (fwd, bwd) and a summary bit per word that is
** not 0, so a scan is a count of trailing (leading) zeros in its word and,
** past it, in the summary: O(1) however far the stop. A cell that changes
** rewrites the stop words of the bits next to it in its own line and the
** two beside (ls_changed). A stop that is open in L is a jump point; a
** blocked one ends the scan with none. The goal on the line before the
** stop is a jump point too.
**
** Diagonal jump points. A diagonal scan stops at the first cell c whose
** straight scans find a jump point. When no search step has reached c
** yet, c is expanded on the spot, without going through the heap: its
** record gets its cost and parent and counts as expanded (closed), the
** jump points of its straight scans are relaxed with c as their parent,
** and the diagonal scan goes on from c. This is A* expanding a node out of
** f order, which stays exact because a node reached later at a strictly
** smaller cost is reopened (relax): every cost is that of a real path, the
** parent links never add up to more than a node's cost, and the goal is
** taken off the heap at the least cost. It saves a heap push and pop, and
** the second scan of c's lines, per diagonal jump point. A c already
** reached goes through relax as any jump point.
**
** Search state per cell (g, parent, heap position, stamp) is as astar.c's:
** a generation stamp makes a new search O(1). The parent of a jump point is
** the jump point it was scanned from, so the direction of arrival, which
** decides the pruned directions, is the sign of their difference.
*/
#include "nav/jps.h"

#include <string.h>

#include "nav/fheap.h"

#define CLOSED TD_FHEAP_CLOSED

/* A cell's search state: reached by this search when stamp == gen. */
typedef struct cell_rec {
  td_cost g;               /* best cost so far */
  int32_t parent;          /* the jump point it was scanned from, or TD_NONE */
  uint32_t stamp;
} cell_rec;

/* A set of parallel lines of cells (the rows, or the columns): words
** words of bits a line; see the design note. */
typedef struct lineset {
  int32_t lines, words, sums;  /* lines; words a line; summary words a line */
  uint64_t *open;              /* lines * words: 1 = open */
  uint64_t *fwd, *bwd;         /* lines * words: the stops of scans going forward, backward */
  uint64_t *sum_fwd, *sum_bwd; /* lines * sums: bit k set when word k of fwd/bwd is not 0 */
} lineset;

struct td_jps {
  const td_grid *grid;
  const td_graph *graph;
  int32_t w, h;
  size_t cells;            /* w * h: the search arrays' length */
  lineset rows, cols;
  uint8_t *seen;           /* the node flags the mirror reflects */
  size_t seen_n;           /* bytes allocated for seen */
  int32_t nodes;
  td_cost w1, w2;
  td_cost uniform_sum;     /* the graph's weight_sum when every edge weighs its grid weight */

  cell_rec *node;          /* per cell: 16 bytes, four a cache line */
  td_fheap open;           /* pos per cell: index in the heap, or CLOSED (dense:
                           ** the heap's moves write it) */
  uint32_t gen;

  int32_t goal, gx, gy;    /* the goal cell */
  td_astar_status status;
  uint64_t expanded;
  size_t path_len;         /* cells on the path, when FOUND */
};

/* ---- the mirror ---------------------------------------------------------- */

static size_t ls_words(const lineset *ls) { return (size_t)ls->lines * (size_t)ls->words; }
static size_t ls_sums(const lineset *ls) { return (size_t)ls->lines * (size_t)ls->sums; }

static void ls_free(lineset *ls) {
  size_t n = ls_words(ls) * sizeof(uint64_t), m = ls_sums(ls) * sizeof(uint64_t);
  td_mem_free(ls->open, n);
  td_mem_free(ls->fwd, n);
  td_mem_free(ls->bwd, n);
  td_mem_free(ls->sum_fwd, m);
  td_mem_free(ls->sum_bwd, m);
  memset(ls, 0, sizeof *ls);
}

/* lines of `bits` cells each (the border included). 0, or -1 (OOM, freed). */
static int ls_alloc(lineset *ls, int32_t lines, int32_t bits) {
  ls->lines = lines;
  ls->words = (bits + 63) / 64;
  ls->sums = (ls->words + 63) / 64;
  size_t n = ls_words(ls), m = ls_sums(ls);
  ls->open = td_mem_calloc(n, sizeof(uint64_t));
  ls->fwd = td_mem_calloc(n, sizeof(uint64_t));
  ls->bwd = td_mem_calloc(n, sizeof(uint64_t));
  ls->sum_fwd = td_mem_calloc(m, sizeof(uint64_t));
  ls->sum_bwd = td_mem_calloc(m, sizeof(uint64_t));
  if (ls->open && ls->fwd && ls->bwd && ls->sum_fwd && ls->sum_bwd) return 0;
  ls_free(ls);
  return -1;
}

static void put_bit(uint64_t *line, size_t b, bool on) {
  uint64_t m = (uint64_t)1 << (b & 63);
  if (on) line[b >> 6] |= m;
  else line[b >> 6] &= ~m;
}

/* Recomputes word k of the stops of line l (an inner line: l - 1 and l + 1
** exist). Going forward, q stops a scan when it is blocked, or open beside
** (line l - 1 or l + 1) while the cell beside one step back (q - 1) is
** blocked: a forced neighbour; going backward the same with q + 1. */
static void ls_stops(lineset *ls, int32_t l, int32_t k) {
  size_t W = (size_t)ls->words;
  const uint64_t *L = ls->open + (size_t)l * W, *A = L - W, *B = L + W;
  uint64_t a = A[k], b = B[k], nl = ~L[k];
  uint64_t ap = k > 0 ? A[k - 1] >> 63 : 0, bp = k > 0 ? B[k - 1] >> 63 : 0;
  uint64_t an = (size_t)k + 1 < W ? A[k + 1] << 63 : 0;
  uint64_t bn = (size_t)k + 1 < W ? B[k + 1] << 63 : 0;
  uint64_t f = nl | (a & ~((a << 1) | ap)) | (b & ~((b << 1) | bp));
  uint64_t r = nl | (a & ~((a >> 1) | an)) | (b & ~((b >> 1) | bn));
  ls->fwd[(size_t)l * W + (size_t)k] = f;
  ls->bwd[(size_t)l * W + (size_t)k] = r;
  size_t S = (size_t)ls->sums;
  put_bit(ls->sum_fwd + (size_t)l * S, (size_t)k, f != 0);
  put_bit(ls->sum_bwd + (size_t)l * S, (size_t)k, r != 0);
}

/* Cell p of line l changed: the stops it takes part in. */
static void ls_changed(lineset *ls, int32_t l, int32_t p) {
  for (int32_t m = l - 1; m <= l + 1; m++) {
    if (m < 1 || m > ls->lines - 2) continue;
    for (int32_t k = (p - 1) >> 6; k <= (p + 1) >> 6 && k < ls->words; k++) ls_stops(ls, m, k);
  }
}

static void ls_all_stops(lineset *ls) {
  for (int32_t l = 1; l < ls->lines - 1; l++)
    for (int32_t k = 0; k < ls->words; k++) ls_stops(ls, l, k);
}

/* The first stop past p going forward in a line whose stop words are F and
** summary words S. There is one: the border cell at the end is blocked. */
static inline int32_t stop_next(const uint64_t *F, const uint64_t *S, int32_t p) {
  int32_t k = (p + 1) >> 6;
  uint64_t w = F[k] & (~(uint64_t)0 << ((p + 1) & 63));
  if (!w) { /* the summary finds the next word with a stop */
    int32_t j = (k + 1) >> 6;
    uint64_t m = S[j] & (~(uint64_t)0 << ((k + 1) & 63));
    while (!m) m = S[++j];
    k = j * 64 + __builtin_ctzll(m);
    w = F[k];
  }
  return k * 64 + __builtin_ctzll(w);
}

/* The first stop before p going backward (the border cell at 0 is one). */
static inline int32_t stop_prev(const uint64_t *R, const uint64_t *S, int32_t p) {
  int32_t k = (p - 1) >> 6;
  uint64_t w = R[k] & (~(uint64_t)0 >> (63 - ((p - 1) & 63)));
  if (!w) {
    int32_t j = (k - 1) >> 6;
    uint64_t m = S[j] & (~(uint64_t)0 >> (63 - ((k - 1) & 63)));
    while (!m) m = S[--j];
    k = j * 64 + 63 - __builtin_clzll(m);
    w = R[k];
  }
  return k * 64 + 63 - __builtin_clzll(w);
}

static inline bool bit_at(const uint64_t *line, int32_t p) {
  return (line[p >> 6] >> (p & 63)) & 1u;
}

/* A line's arrays for scans in one direction. */
typedef struct scan_line {
  const uint64_t *open, *stops, *sum;
} scan_line;

static scan_line line_of(const lineset *ls, int32_t l, bool forward) {
  size_t w = (size_t)l * (size_t)ls->words, m = (size_t)l * (size_t)ls->sums;
  return (scan_line){.open = ls->open + w,
                     .stops = (forward ? ls->fwd : ls->bwd) + w,
                     .sum = (forward ? ls->sum_fwd : ls->sum_bwd) + m};
}

static bool ls_open(const lineset *ls, int32_t l, int32_t p) {
  return (ls->open[(size_t)l * (size_t)ls->words + ((size_t)p >> 6)] >> (p & 63)) & 1u;
}

static bool open_at(const td_jps *s, int32_t x, int32_t y) {
  return ls_open(&s->rows, y + 1, x + 1);
}

static bool graph_open(const td_jps *s, int32_t cell) {
  int32_t n = s->grid->cell_node[cell];
  return n != TD_NONE && !s->graph->node_blocked[n];
}

static void put_cell(td_jps *s, int32_t x, int32_t y, bool on) {
  put_bit(s->rows.open + (size_t)(y + 1) * (size_t)s->rows.words, (size_t)x + 1, on);
  put_bit(s->cols.open + (size_t)(x + 1) * (size_t)s->cols.words, (size_t)y + 1, on);
}

static void set_cell(td_jps *s, int32_t cell, bool on) {
  int32_t x = cell % s->w, y = cell / s->w;
  if (open_at(s, x, y) == on) return;
  put_cell(s, x, y, on);
  ls_changed(&s->rows, y + 1, x + 1);
  ls_changed(&s->cols, x + 1, y + 1);
}

void td_jps_cell_changed(td_jps *s, int32_t cell) {
  if (!s->graph || cell < 0 || (size_t)cell >= s->cells) return;
  set_cell(s, cell, graph_open(s, cell));
  int32_t n = s->grid->cell_node[cell];
  if (n != TD_NONE) s->seen[n] = s->graph->node_blocked[n];
}

size_t td_jps_sync(td_jps *s) {
  if (!s->graph) return 0;
  const uint8_t *now = s->graph->node_blocked;
  size_t n = (size_t)s->nodes, changed = 0;
  for (size_t i = 0; i < n; i += 8) {
    size_t len = n - i < 8 ? n - i : 8;
    uint64_t a = 0, b = 0;
    memcpy(&a, s->seen + i, len);
    memcpy(&b, now + i, len);
    if (a == b) continue;
    for (size_t k = i; k < i + len; k++) {
      if (s->seen[k] == now[k]) continue;
      s->seen[k] = now[k];
      set_cell(s, s->grid->node_cell[k], now[k] == 0);
      changed++;
    }
  }
  if (changed && s->status == TD_ASTAR_RUNNING) s->status = TD_ASTAR_ERROR;
  return changed;
}

/* ---- lifetime ------------------------------------------------------------ */

td_jps *td_jps_create(td_err *err) {
  td_jps *s = td_mem_calloc(1, sizeof *s);
  if (!s) {
    td_err_set(err, "jps: out of memory");
    return NULL;
  }
  s->status = TD_ASTAR_ERROR;
  s->goal = TD_NONE;
  return s;
}

static void free_all(td_jps *s) {
  size_t c = s->cells;
  ls_free(&s->rows);
  ls_free(&s->cols);
  td_mem_free(s->seen, s->seen_n);
  td_mem_free(s->node, c * sizeof *s->node);
  td_mem_free(s->open.pos, c * sizeof *s->open.pos);
  td_mem_free(s->open.item, c * sizeof *s->open.item);
  s->seen = NULL;
  s->node = NULL;
  s->open.pos = NULL;
  s->open.item = NULL;
  s->cells = s->seen_n = 0;
  s->nodes = 0;
  s->graph = NULL;
  s->grid = NULL;
}

void td_jps_destroy(td_jps *s) {
  if (!s) return;
  free_all(s);
  td_mem_free(s, sizeof *s);
}

int td_jps_bind(td_jps *s, const td_grid *grid, const td_graph *g, td_err *err) {
  free_all(s);
  s->status = TD_ASTAR_ERROR;
  if (!g->finalized || !grid->cell_node || g->node_count != grid->node_count ||
      !(g->grid_cell > 0.0) || g->grid_cell != grid->cell)
    return td_err_set(err, "jps: the graph is not the one last built from the grid");
  size_t cells = (size_t)grid->width * (size_t)grid->height;
  size_t nodes = g->node_count > 0 ? (size_t)g->node_count : 0;
  int rc = ls_alloc(&s->rows, grid->height + 2, grid->width + 2);
  if (rc == 0) rc = ls_alloc(&s->cols, grid->width + 2, grid->height + 2);
  s->seen = td_mem_alloc(nodes ? nodes : 1);
  s->node = td_mem_calloc(cells, sizeof *s->node);
  s->open.pos = td_mem_alloc(cells * sizeof *s->open.pos);
  s->open.item = td_mem_alloc(cells * sizeof *s->open.item);
  s->cells = cells;
  s->seen_n = nodes ? nodes : 1;
  if (rc != 0 || !s->seen || !s->node || !s->open.pos || !s->open.item) {
    free_all(s);
    return td_err_set(err, "jps: out of memory for a %dx%d grid", grid->width, grid->height);
  }
  s->nodes = (int32_t)nodes;
  s->grid = grid;
  s->graph = g;
  s->w = grid->width;
  s->h = grid->height;
  s->gen = 0;
  s->open.len = 0;
  td_graph_grid_weights(grid->cell, &s->w1, &s->w2);
  s->uniform_sum = 0;
  for (int32_t e = 0; e < g->edge_count; e++) {
    int32_t ca = grid->node_cell[g->edges[e].a], cb = grid->node_cell[g->edges[e].b];
    bool diag = ca % s->w != cb % s->w && ca / s->w != cb / s->w;
    s->uniform_sum += diag ? s->w2 : s->w1;
  }
  for (size_t n = 0; n < nodes; n++) {
    s->seen[n] = g->node_blocked[n];
    int32_t c = grid->node_cell[n];
    if (!g->node_blocked[n]) put_cell(s, c % s->w, c / s->w, true);
  }
  ls_all_stops(&s->rows);
  ls_all_stops(&s->cols);
  return 0;
}

bool td_jps_uniform(const td_jps *s) {
  return s->graph && s->graph->min_factor >= 1.0 && s->graph->weight_sum == s->uniform_sum;
}

/* ---- scans --------------------------------------------------------------- */

/* Whether a jump point is scanned from (x, y) in the straight direction
** (dx, dy); it goes to (*jx, *jy). */
static bool jump_straight(const td_jps *s, int32_t x, int32_t y, int dx, int dy, int32_t *jx,
                          int32_t *jy) {
  int32_t p, gp = -1;
  int d = dx + dy;
  scan_line ln;
  if (dy == 0) {
    ln = line_of(&s->rows, y + 1, d > 0);
    p = x + 1;
    if (s->gy == y) gp = s->gx + 1;
  } else {
    ln = line_of(&s->cols, x + 1, d > 0);
    p = y + 1;
    if (s->gx == x) gp = s->gy + 1;
  }
  int32_t q = d > 0 ? stop_next(ln.stops, ln.sum, p) : stop_prev(ln.stops, ln.sum, p);
  if (gp >= 0 && (d > 0 ? gp > p && gp <= q : gp < p && gp >= q)) q = gp;
  else if (!bit_at(ln.open, q)) return false;
  *jx = dy == 0 ? q - 1 : x;
  *jy = dy == 0 ? y : q - 1;
  return true;
}

/* Whether the straight scan from p on line ln (forward or not) finds a jump
** point: an open stop, or the goal (at gp, or -1) before the stop. */
static inline bool finds(scan_line ln, bool forward, int32_t p, int32_t gp) {
  if (forward) {
    int32_t q = stop_next(ln.stops, ln.sum, p);
    return bit_at(ln.open, q) || (gp > p && gp <= q);
  }
  int32_t q = stop_prev(ln.stops, ln.sum, p);
  return bit_at(ln.open, q) || (gp >= 0 && gp < p && gp >= q);
}

/* Whether a jump point is scanned from (x, y) in the diagonal direction
** (dx, dy): the goal, or the first cell whose straight scans find one; it
** goes to (*jx, *jy). The row and the column of the cell move by one line
** a step. */
static bool jump_diag(const td_jps *s, int32_t x, int32_t y, int dx, int dy, int32_t *jx,
                      int32_t *jy) {
  const lineset *R = &s->rows, *C = &s->cols;
  scan_line row = line_of(R, y + 1, dx > 0), col = line_of(C, x + 1, dy > 0);
  ptrdiff_t rstep = dy * (ptrdiff_t)R->words, rsum = dy * (ptrdiff_t)R->sums;
  ptrdiff_t cstep = dx * (ptrdiff_t)C->words, csum = dx * (ptrdiff_t)C->sums;
  int32_t px = x + 1, py = y + 1, gpx = s->gx + 1, gpy = s->gy + 1;
  for (;;) {
    int32_t nx = px + dx, ny = py + dy;
    /* (nx, py) open in the row, (px, ny) in the column, then (nx, ny) */
    if (!bit_at(row.open, nx) || !bit_at(col.open, ny)) return false;
    row.open += rstep;
    row.stops += rstep;
    row.sum += rsum;
    col.open += cstep;
    col.stops += cstep;
    col.sum += csum;
    if (!bit_at(row.open, nx)) return false;
    px = nx;
    py = ny;
    if ((px == gpx && py == gpy) || finds(row, dx > 0, px, py == gpy ? gpx : -1) ||
        finds(col, dy > 0, py, px == gpx ? gpy : -1)) {
      *jx = px - 1;
      *jy = py - 1;
      return true;
    }
  }
}

/* ---- search -------------------------------------------------------------- */

static td_cost octile(const td_jps *s, int32_t dx, int32_t dy) {
  if (dx < 0) dx = -dx;
  if (dy < 0) dy = -dy;
  int32_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
  return (td_cost)lo * s->w2 + (td_cost)(hi - lo) * s->w1;
}

static td_cost h_of(const td_jps *s, int32_t x, int32_t y) {
  return octile(s, x - s->gx, y - s->gy);
}

/* Cell v = (vx, vy) reached from u at cost nd. */
static void relax(td_jps *s, int32_t v, int32_t vx, int32_t vy, td_cost nd, int32_t u) {
  if (s->node[v].stamp != s->gen) {
    s->node[v].stamp = s->gen;
    s->node[v].g = nd;
    s->node[v].parent = u;
    td_cost h = h_of(s, vx, vy);
    td_fheap_push(&s->open, v, nd + h, h);
  } else if (nd < s->node[v].g) {
    s->node[v].g = nd;
    s->node[v].parent = u;
    if (s->open.pos[v] == CLOSED) {
      td_cost h = h_of(s, vx, vy);
      td_fheap_push(&s->open, v, nd + h, h);
    } else {
      td_fheap_lower(&s->open, v, nd + td_fheap_h(&s->open, v));
    }
  }
}

static int sign(int32_t v) { return (v > 0) - (v < 0); }

static void try_dir(td_jps *s, int32_t u, int32_t x, int32_t y, int dx, int dy) {
  int32_t jx, jy;
  if (!dx || !dy) {
    if (jump_straight(s, x, y, dx, dy, &jx, &jy))
      relax(s, jy * s->w + jx, jx, jy, s->node[u].g + octile(s, jx - x, jy - y), u);
    return;
  }
  /* A diagonal: each jump point on it that no search step reached yet is
  ** expanded here at once (its two straight scans, then on along the
  ** diagonal) instead of going through the heap; see the design note. */
  while (jump_diag(s, x, y, dx, dy, &jx, &jy)) {
    int32_t c = jy * s->w + jx;
    td_cost gc = s->node[u].g + octile(s, jx - x, jy - y);
    if (c == s->goal || s->node[c].stamp == s->gen) {
      relax(s, c, jx, jy, gc, u);
      return;
    }
    s->node[c] = (cell_rec){.g = gc, .parent = u, .stamp = s->gen};
    s->open.pos[c] = CLOSED;
    try_dir(s, c, jx, jy, dx, 0);
    try_dir(s, c, jx, jy, 0, dy);
    u = c;
    x = jx;
    y = jy;
  }
}

static void expand(td_jps *s, int32_t u) {
  int32_t x = u % s->w, y = u / s->w;
  int32_t p = s->node[u].parent;
  if (p == TD_NONE) {
    static const int8_t dirs[8][2] = {{1, 0},  {0, 1},  {-1, 0}, {0, -1},
                                      {1, 1},  {-1, 1}, {-1, -1}, {1, -1}};
    for (int i = 0; i < 8; i++) try_dir(s, u, x, y, dirs[i][0], dirs[i][1]);
    return;
  }
  int dx = sign(x - p % s->w), dy = sign(y - p / s->w);
  if (dx && dy) {
    try_dir(s, u, x, y, dx, 0);
    try_dir(s, u, x, y, 0, dy);
    try_dir(s, u, x, y, dx, dy);
  } else if (dx) {
    try_dir(s, u, x, y, dx, 0);
    for (int side = -1; side <= 1; side += 2)
      if (open_at(s, x, y + side) && !open_at(s, x - dx, y + side)) {
        try_dir(s, u, x, y, 0, side);
        try_dir(s, u, x, y, dx, side);
      }
  } else {
    try_dir(s, u, x, y, 0, dy);
    for (int side = -1; side <= 1; side += 2)
      if (open_at(s, x + side, y) && !open_at(s, x + side, y - dy)) {
        try_dir(s, u, x, y, side, 0);
        try_dir(s, u, x, y, side, dy);
      }
  }
}

td_astar_status td_jps_begin(td_jps *s, int32_t start, int32_t goal, td_err *err) {
  s->status = TD_ASTAR_ERROR;
  s->expanded = 0;
  s->open.len = 0;
  s->path_len = 0;
  const td_graph *g = s->graph;
  if (!g) {
    td_err_set(err, "jps: no grid bound");
    return TD_ASTAR_ERROR;
  }
  if (start < 0 || start >= g->node_count || goal < 0 || goal >= g->node_count) {
    td_err_set(err, "jps: path %d -> %d names an unknown node (graph has %d)", start, goal,
               g->node_count);
    return TD_ASTAR_ERROR;
  }
  if (++s->gen == 0) {
    for (size_t i = 0; i < s->cells; i++) s->node[i].stamp = 0;
    s->gen = 1;
  }
  int32_t a = s->grid->node_cell[start], b = s->grid->node_cell[goal];
  s->goal = b;
  s->gx = b % s->w;
  s->gy = b / s->w;
  s->node[a].stamp = s->gen;
  s->node[a].g = 0;
  s->node[a].parent = TD_NONE;
  if (g->node_blocked[start] || g->node_blocked[goal]) {
    s->status = TD_ASTAR_NO_PATH;
  } else if (a == b) {
    s->path_len = 1;
    s->status = TD_ASTAR_FOUND;
  } else {
    td_cost h = h_of(s, a % s->w, a / s->w);
    td_fheap_push(&s->open, a, h, h);
    s->status = TD_ASTAR_RUNNING;
  }
  return s->status;
}

static size_t steps(const td_jps *s, int32_t a, int32_t b) {
  int32_t dx = a % s->w - b % s->w, dy = a / s->w - b / s->w;
  if (dx < 0) dx = -dx;
  if (dy < 0) dy = -dy;
  return (size_t)(dx > dy ? dx : dy);
}

td_astar_status td_jps_step(td_jps *s, uint64_t budget) {
  if (s->status != TD_ASTAR_RUNNING) return s->status;
  while (budget > 0 && s->open.len > 0) {
    int32_t u = td_fheap_pop(&s->open);
    budget--;
    s->expanded++;
    if (u == s->goal) {
      size_t len = 1;
      for (int32_t n = u; s->node[n].parent != TD_NONE; n = s->node[n].parent)
        len += steps(s, n, s->node[n].parent);
      s->path_len = len;
      s->status = TD_ASTAR_FOUND;
      return s->status;
    }
    expand(s, u);
  }
  if (s->open.len == 0) s->status = TD_ASTAR_NO_PATH;
  return s->status;
}

td_astar_status td_jps_status_get(const td_jps *s) { return s->status; }

uint64_t td_jps_expanded(const td_jps *s) { return s->expanded; }

size_t td_jps_path(const td_jps *s, int32_t *out, size_t cap, td_cost *cost) {
  if (s->status != TD_ASTAR_FOUND) {
    if (cost) *cost = TD_COST_INF;
    return 0;
  }
  if (cost) *cost = s->node[s->goal].g;
  if (cap == 0) return s->path_len;
  const int32_t *cell_node = s->grid->cell_node;
  size_t i = s->path_len;
  int32_t n = s->goal;
  for (;;) {
    int32_t p = s->node[n].parent;
    if (p == TD_NONE) break;
    int32_t dx = sign(n % s->w - p % s->w), dy = sign(n / s->w - p / s->w);
    int32_t step = dy * s->w + dx;
    /* the cells from n back to (not including) p */
    for (int32_t c = n; c != p; c -= step) {
      i--;
      if (i < cap) out[i] = cell_node[c];
    }
    n = p;
  }
  i--;
  if (i < cap) out[i] = cell_node[n];
  return s->path_len;
}

td_astar_status td_jps_find(td_jps *s, int32_t start, int32_t goal, td_err *err) {
  td_astar_status st = td_jps_begin(s, start, goal, err);
  while (st == TD_ASTAR_RUNNING) st = td_jps_step(s, UINT64_MAX);
  return st;
}
