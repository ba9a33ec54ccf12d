/*
** jps.c: Jump Point Search over word-packed open cells.
**
** Design note.
** The mirror. rows holds (height + 2) lines of rs words, columns (width +
** 2) lines of cs words: bit x + 1 of row line y + 1 and bit y + 1 of column
** line x + 1 say cell (x, y) is open. The border lines and bits are 0
** (blocked), so no scan needs a bounds test: every scan stops at the border
** at the latest. A column line is a row line of the transposed grid, so one
** pair of scan functions (forward, backward) serves the four straight
** directions.
**
** A straight scan along line L (neighbour lines A and B, on either side)
** from position p stops at the first q past p that is blocked in L, or has
** a forced neighbour: open in A (or B) while the cell of A (or B) one step
** back (q - 1 going forward) is blocked. A word of those stops is
** (~L | (A & ~(A << 1)) | (B & ~(B << 1))) going forward, the shifts
** carrying a bit over from the previous word. A stop that is open in L is
** a jump point; a blocked one ends the scan with none. The goal on the line
** before the stop is a jump point too.
**
** Search state per cell (g, parent, heap position, stamp) is as astar.c's:
** a generation stamp makes a new search O(1). The parent of a jump point is
** the jump point it was scanned from, so the direction of arrival, which
** decides the pruned directions, is the sign of their difference.
*/
#include "nav/jps.h"

#include <string.h>

#define CLOSED (-1)
#define ARITY 4

typedef struct heap_item {
  td_cost f, h;
  int32_t cell;
} heap_item;

struct td_jps {
  const td_grid *grid;
  const td_graph *graph;
  int32_t w, h;
  size_t cells;            /* w * h: the search arrays' length */
  int32_t rs, cs;          /* words per row line, per column line */
  uint64_t *rows, *cols;
  size_t rows_n, cols_n;   /* words */
  uint8_t *seen;           /* the node flags the mirror reflects */
  size_t seen_n;           /* bytes allocated for seen */
  int32_t nodes;
  td_cost w1, w2;
  td_cost uniform_sum;     /* the graph's weight_sum when every edge weighs its grid weight */

  td_cost *g;
  int32_t *parent;
  int32_t *pos;
  uint32_t *stamp;
  heap_item *heap;
  size_t heap_len;
  uint32_t gen;

  int32_t goal, gx, gy;    /* the goal cell */
  td_astar_status status;
  uint64_t expanded;
  size_t path_len;         /* cells on the path, when FOUND */
};

/* ---- the mirror ---------------------------------------------------------- */

static bool open_at(const td_jps *s, int32_t x, int32_t y) {
  size_t b = (size_t)x + 1;
  return (s->rows[(size_t)(y + 1) * (size_t)s->rs + (b >> 6)] >> (b & 63)) & 1u;
}

static void put_bit(uint64_t *line, size_t b, bool on) {
  uint64_t m = (uint64_t)1 << (b & 63);
  if (on) line[b >> 6] |= m;
  else line[b >> 6] &= ~m;
}

static bool graph_open(const td_jps *s, int32_t cell) {
  int32_t n = s->grid->cell_node[cell];
  return n != TD_NONE && !s->graph->node_blocked[n];
}

static void set_cell(td_jps *s, int32_t cell, bool on) {
  int32_t x = cell % s->w, y = cell / s->w;
  put_bit(s->rows + (size_t)(y + 1) * (size_t)s->rs, (size_t)x + 1, on);
  put_bit(s->cols + (size_t)(x + 1) * (size_t)s->cs, (size_t)y + 1, on);
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
  td_mem_free(s->rows, s->rows_n * sizeof *s->rows);
  td_mem_free(s->cols, s->cols_n * sizeof *s->cols);
  td_mem_free(s->seen, s->seen_n);
  td_mem_free(s->g, c * sizeof *s->g);
  td_mem_free(s->parent, c * sizeof *s->parent);
  td_mem_free(s->pos, c * sizeof *s->pos);
  td_mem_free(s->stamp, c * sizeof *s->stamp);
  td_mem_free(s->heap, c * sizeof *s->heap);
  s->rows = s->cols = NULL;
  s->seen = NULL;
  s->g = NULL;
  s->parent = s->pos = NULL;
  s->stamp = NULL;
  s->heap = NULL;
  s->cells = s->rows_n = s->cols_n = s->seen_n = 0;
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
  int32_t rs = (grid->width + 2 + 63) / 64, cs = (grid->height + 2 + 63) / 64;
  size_t rows_n = (size_t)(grid->height + 2) * (size_t)rs;
  size_t cols_n = (size_t)(grid->width + 2) * (size_t)cs;
  size_t nodes = g->node_count > 0 ? (size_t)g->node_count : 0;
  s->rows = td_mem_calloc(rows_n, sizeof *s->rows);
  s->cols = td_mem_calloc(cols_n, sizeof *s->cols);
  s->seen = td_mem_alloc(nodes ? nodes : 1);
  s->g = td_mem_alloc(cells * sizeof *s->g);
  s->parent = td_mem_alloc(cells * sizeof *s->parent);
  s->pos = td_mem_alloc(cells * sizeof *s->pos);
  s->stamp = td_mem_calloc(cells, sizeof *s->stamp);
  s->heap = td_mem_alloc(cells * sizeof *s->heap);
  s->cells = cells;
  s->rows_n = rows_n;
  s->cols_n = cols_n;
  s->seen_n = nodes ? nodes : 1;
  if (!s->rows || !s->cols || !s->seen || !s->g || !s->parent || !s->pos || !s->stamp ||
      !s->heap) {
    free_all(s);
    return td_err_set(err, "jps: out of memory for a %dx%d grid", grid->width, grid->height);
  }
  s->nodes = (int32_t)nodes;
  s->grid = grid;
  s->graph = g;
  s->w = grid->width;
  s->h = grid->height;
  s->rs = rs;
  s->cs = cs;
  s->gen = 0;
  s->heap_len = 0;
  td_graph_grid_weights(grid->cell, &s->w1, &s->w2);
  s->uniform_sum = 0;
  for (int32_t e = 0; e < g->edge_count; e++) {
    int32_t ca = grid->node_cell[g->edges[e].a], cb = grid->node_cell[g->edges[e].b];
    bool diag = ca % s->w != cb % s->w && ca / s->w != cb / s->w;
    s->uniform_sum += diag ? s->w2 : s->w1;
  }
  for (size_t n = 0; n < nodes; n++) {
    s->seen[n] = g->node_blocked[n];
    if (!g->node_blocked[n]) set_cell(s, grid->node_cell[n], true);
  }
  return 0;
}

bool td_jps_uniform(const td_jps *s) {
  return s->graph && s->graph->min_factor >= 1.0 && s->graph->weight_sum == s->uniform_sum;
}

/* ---- scans --------------------------------------------------------------- */

/* The first stop past p on line L (neighbour lines a, b; words 0..) going
** forward; *open says whether it is open in L (a jump point). */
static int32_t scan_fwd(const uint64_t *L, const uint64_t *A, const uint64_t *B, int32_t p,
                        bool *open) {
  int32_t k = (p + 1) >> 6;
  uint64_t mask = ~(uint64_t)0 << ((p + 1) & 63);
  uint64_t ac = k > 0 ? A[k - 1] >> 63 : 0, bc = k > 0 ? B[k - 1] >> 63 : 0;
  for (;; k++) {
    uint64_t a = A[k], b = B[k], l = L[k];
    uint64_t f = (a & ~((a << 1) | ac)) | (b & ~((b << 1) | bc));
    uint64_t stop = (~l | f) & mask;
    if (stop) {
      int32_t q = k * 64 + __builtin_ctzll(stop);
      *open = (l >> (q & 63)) & 1u;
      return q;
    }
    ac = a >> 63;
    bc = b >> 63;
    mask = ~(uint64_t)0;
  }
}

/* The same going backward (words < words_n). */
static int32_t scan_bwd(const uint64_t *L, const uint64_t *A, const uint64_t *B, int32_t p,
                        int32_t words_n, bool *open) {
  int32_t k = (p - 1) >> 6;
  uint64_t mask = ~(uint64_t)0 >> (63 - ((p - 1) & 63));
  uint64_t ac = k + 1 < words_n ? A[k + 1] << 63 : 0;
  uint64_t bc = k + 1 < words_n ? B[k + 1] << 63 : 0;
  for (;; k--) {
    uint64_t a = A[k], b = B[k], l = L[k];
    uint64_t f = (a & ~((a >> 1) | ac)) | (b & ~((b >> 1) | bc));
    uint64_t stop = (~l | f) & mask;
    if (stop) {
      int32_t q = k * 64 + 63 - __builtin_clzll(stop);
      *open = (l >> (q & 63)) & 1u;
      return q;
    }
    ac = a << 63;
    bc = b << 63;
    mask = ~(uint64_t)0;
  }
}

/* The jump point scanned from (x, y) in the straight direction (dx, dy),
** or TD_NONE. */
static int32_t jump_straight(const td_jps *s, int32_t x, int32_t y, int dx, int dy) {
  const uint64_t *L;
  int32_t stride, p, gp = -1, words;
  if (dy == 0) {
    stride = s->rs;
    L = s->rows + (size_t)(y + 1) * (size_t)stride;
    p = x + 1;
    if (s->gy == y) gp = s->gx + 1;
  } else {
    stride = s->cs;
    L = s->cols + (size_t)(x + 1) * (size_t)stride;
    p = y + 1;
    if (s->gx == x) gp = s->gy + 1;
  }
  words = stride;
  bool open;
  int d = dx + dy;
  int32_t q = d > 0 ? scan_fwd(L, L - stride, L + stride, p, &open)
                    : scan_bwd(L, L - stride, L + stride, p, words, &open);
  if (gp >= 0 && (d > 0 ? gp > p && gp <= q : gp < p && gp >= q)) q = gp;
  else if (!open) return TD_NONE;
  return dy == 0 ? y * s->w + (q - 1) : (q - 1) * s->w + x;
}

/* The jump point scanned from (x, y) in the diagonal direction (dx, dy),
** or TD_NONE: the goal, or the first cell whose straight scans find one. */
static int32_t jump_diag(const td_jps *s, int32_t x, int32_t y, int dx, int dy) {
  for (;;) {
    int32_t nx = x + dx, ny = y + dy;
    if (!open_at(s, nx, y) || !open_at(s, x, ny) || !open_at(s, nx, ny)) return TD_NONE;
    x = nx;
    y = ny;
    if ((x == s->gx && y == s->gy) || jump_straight(s, x, y, dx, 0) != TD_NONE ||
        jump_straight(s, x, y, 0, dy) != TD_NONE)
      return y * s->w + x;
  }
}

/* ---- search -------------------------------------------------------------- */

static td_cost octile(const td_jps *s, int32_t dx, int32_t dy) {
  if (dx < 0) dx = -dx;
  if (dy < 0) dy = -dy;
  int32_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
  return (td_cost)lo * s->w2 + (td_cost)(hi - lo) * s->w1;
}

static bool item_less(const heap_item *a, const heap_item *b) {
  if (a->f != b->f) return a->f < b->f;
  if (a->h != b->h) return a->h < b->h;
  return a->cell < b->cell;
}

static void sift_up(td_jps *s, size_t i) {
  heap_item it = s->heap[i];
  while (i > 0) {
    size_t p = (i - 1) / ARITY;
    if (!item_less(&it, &s->heap[p])) break;
    s->heap[i] = s->heap[p];
    s->pos[s->heap[i].cell] = (int32_t)i;
    i = p;
  }
  s->heap[i] = it;
  s->pos[it.cell] = (int32_t)i;
}

static void sift_down(td_jps *s, size_t i) {
  heap_item it = s->heap[i];
  for (;;) {
    size_t first = i * ARITY + 1;
    if (first >= s->heap_len) break;
    size_t last = first + ARITY < s->heap_len ? first + ARITY : s->heap_len;
    size_t best = first;
    for (size_t c = first + 1; c < last; c++)
      if (item_less(&s->heap[c], &s->heap[best])) best = c;
    if (!item_less(&s->heap[best], &it)) break;
    s->heap[i] = s->heap[best];
    s->pos[s->heap[i].cell] = (int32_t)i;
    i = best;
  }
  s->heap[i] = it;
  s->pos[it.cell] = (int32_t)i;
}

static void heap_push(td_jps *s, int32_t cell, td_cost f, td_cost h) {
  s->heap[s->heap_len] = (heap_item){.f = f, .h = h, .cell = cell};
  sift_up(s, s->heap_len++);
}

static int32_t heap_pop(td_jps *s) {
  int32_t top = s->heap[0].cell;
  s->pos[top] = CLOSED;
  if (--s->heap_len > 0) {
    s->heap[0] = s->heap[s->heap_len];
    sift_down(s, 0);
  }
  return top;
}

static td_cost h_of(const td_jps *s, int32_t cell) {
  return octile(s, cell % s->w - s->gx, cell / s->w - s->gy);
}

/* v reached from u at cost nd. */
static void relax(td_jps *s, int32_t v, td_cost nd, int32_t u) {
  if (s->stamp[v] != s->gen) {
    s->stamp[v] = s->gen;
    s->g[v] = nd;
    s->parent[v] = u;
    td_cost h = h_of(s, v);
    heap_push(s, v, nd + h, h);
  } else if (nd < s->g[v]) {
    s->g[v] = nd;
    s->parent[v] = u;
    if (s->pos[v] == CLOSED) {
      td_cost h = h_of(s, v);
      heap_push(s, v, nd + h, h);
    } else {
      size_t at = (size_t)s->pos[v];
      s->heap[at].f = nd + s->heap[at].h;
      sift_up(s, at);
    }
  }
}

static int sign(int32_t v) { return (v > 0) - (v < 0); }

static void try_dir(td_jps *s, int32_t u, int32_t x, int32_t y, int dx, int dy) {
  int32_t j = dx && dy ? jump_diag(s, x, y, dx, dy) : jump_straight(s, x, y, dx, dy);
  if (j == TD_NONE) return;
  relax(s, j, s->g[u] + octile(s, j % s->w - x, j / s->w - y), u);
}

static void expand(td_jps *s, int32_t u) {
  int32_t x = u % s->w, y = u / s->w;
  int32_t p = s->parent[u];
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
  s->heap_len = 0;
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
    memset(s->stamp, 0, s->cells * sizeof *s->stamp);
    s->gen = 1;
  }
  int32_t a = s->grid->node_cell[start], b = s->grid->node_cell[goal];
  s->goal = b;
  s->gx = b % s->w;
  s->gy = b / s->w;
  s->stamp[a] = s->gen;
  s->g[a] = 0;
  s->parent[a] = TD_NONE;
  if (g->node_blocked[start] || g->node_blocked[goal]) {
    s->status = TD_ASTAR_NO_PATH;
  } else if (a == b) {
    s->path_len = 1;
    s->status = TD_ASTAR_FOUND;
  } else {
    td_cost h = h_of(s, a);
    heap_push(s, a, h, h);
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
  while (budget > 0 && s->heap_len > 0) {
    int32_t u = heap_pop(s);
    budget--;
    s->expanded++;
    if (u == s->goal) {
      size_t len = 1;
      for (int32_t n = u; s->parent[n] != TD_NONE; n = s->parent[n])
        len += steps(s, n, s->parent[n]);
      s->path_len = len;
      s->status = TD_ASTAR_FOUND;
      return s->status;
    }
    expand(s, u);
  }
  if (s->heap_len == 0) s->status = TD_ASTAR_NO_PATH;
  return s->status;
}

td_astar_status td_jps_status_get(const td_jps *s) { return s->status; }

uint64_t td_jps_expanded(const td_jps *s) { return s->expanded; }

size_t td_jps_path(const td_jps *s, int32_t *out, size_t cap, td_cost *cost) {
  if (s->status != TD_ASTAR_FOUND) {
    if (cost) *cost = TD_COST_INF;
    return 0;
  }
  if (cost) *cost = s->g[s->goal];
  if (cap == 0) return s->path_len;
  const int32_t *cell_node = s->grid->cell_node;
  size_t i = s->path_len;
  int32_t n = s->goal;
  for (;;) {
    int32_t p = s->parent[n];
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
