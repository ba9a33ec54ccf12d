/*
** grid.c: walkable grids as 8-connected graphs, the batches that block
** and unblock cells, line of sight and path simplification.
**
** Design note.
** Edge weights. A grid graph has exactly two edge weights: W1 =
** td_graph_cost(cell, 1) for orthogonal steps and W2 =
** td_graph_cost(cell * sqrt 2, 1) for diagonal ones. td_graph_add_edge
** measures the length from the node positions, and origin + (c + 0.5) *
** cell differs from cell centre to cell centre by a few ulps of rounding,
** which after the ceil can move a weight by one fixed-point unit. So every
** edge's weight is set to W1 or W2 right after it is added. This is what
** lets A*'s octile heuristic be exact in the open (and admissible
** everywhere), and keeps route.c's per-weight FIFOs to two classes.
**
** Corners. The diagonal between the cells P and Q passes by one corner of
** each of its two side cells (the two cells that are orthogonal neighbours
** of both P and Q). It is built only when both side cells are walkable, and
** at run time it must be blocked while either side cell is blocked: that
** is what td_grid_changes maintains. Seen from a cell c = (x, y), its four
** corners are passed by the diagonals joining two orthogonal neighbours of
** c; the other side cell of such a diagonal is c's diagonal neighbour in
** the same direction.
*/
#include "nav/grid.h"

#include <math.h>
#include <string.h>

/* Cells per grid: node ids are int32 and the graph holds at most
** INT32_MAX / 2 edges, of which a grid needs fewer than 4 per cell. */
#define MAX_CELLS ((int64_t)TD_GRID_MAX_CELLS)

td_grid *td_grid_create(int32_t width, int32_t height, double cell, td_err *err) {
  if (width <= 0 || height <= 0) {
    td_err_set(err, "grid: size %dx%d: width and height must be positive", width, height);
    return NULL;
  }
  if ((int64_t)width * height > MAX_CELLS) {
    td_err_set(err, "grid: size %dx%d: more than %lld cells", width, height,
               (long long)MAX_CELLS);
    return NULL;
  }
  if (!(cell > 0.0) || !isfinite(cell)) {
    td_err_set(err, "grid: cell size must be a positive number");
    return NULL;
  }
  td_grid *grid = td_mem_calloc(1, sizeof *grid);
  if (!grid) {
    td_err_set(err, "grid: out of memory");
    return NULL;
  }
  grid->width = width;
  grid->height = height;
  grid->cell = cell;
  grid->walkable = td_mem_calloc((size_t)width * (size_t)height, 1);
  if (!grid->walkable) {
    td_mem_free(grid, sizeof *grid);
    td_err_set(err, "grid: out of memory");
    return NULL;
  }
  return grid;
}

static size_t cell_count(const td_grid *grid) {
  return (size_t)grid->width * (size_t)grid->height;
}

void td_grid_destroy(td_grid *grid) {
  if (!grid) return;
  td_mem_free(grid->walkable, cell_count(grid));
  td_mem_free(grid->cell_node, cell_count(grid) * sizeof(int32_t));
  td_mem_free(grid->node_cell, (size_t)grid->node_count * sizeof(int32_t));
  td_mem_free(grid, sizeof *grid);
}

static bool inside(const td_grid *grid, int32_t cx, int32_t cy) {
  return cx >= 0 && cy >= 0 && cx < grid->width && cy < grid->height;
}

void td_grid_set_walkable(td_grid *grid, int32_t cx, int32_t cy, bool walkable) {
  if (inside(grid, cx, cy))
    grid->walkable[(size_t)cy * (size_t)grid->width + (size_t)cx] = walkable ? 1 : 0;
}

bool td_grid_walkable(const td_grid *grid, int32_t cx, int32_t cy) {
  return inside(grid, cx, cy) &&
         grid->walkable[(size_t)cy * (size_t)grid->width + (size_t)cx] != 0;
}

/* Adds the edge a-b and pins its weight to the grid's canonical w. */
static int add_grid_edge(td_graph *g, int32_t a, int32_t b, td_cost w, td_err *err) {
  int32_t e = td_graph_add_edge(g, a, b, 1.0, err);
  if (e == TD_NONE) return -1;
  g->edges[e].w = w;
  return 0;
}

td_graph *td_grid_build_graph(td_grid *grid, td_err *err) {
  const int32_t w = grid->width, h = grid->height;
  const size_t cells = cell_count(grid);
  int32_t *cell_node = td_mem_alloc(cells * sizeof *cell_node);
  if (!cell_node) {
    td_err_set(err, "grid: out of memory");
    return NULL;
  }
  /* number the walkable cells and count the edges, to size the graph once */
  int32_t nodes = 0;
  int64_t edges = 0;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      size_t i = (size_t)y * (size_t)w + (size_t)x;
      if (!grid->walkable[i]) {
        cell_node[i] = TD_NONE;
        continue;
      }
      cell_node[i] = nodes++;
      bool e = td_grid_walkable(grid, x + 1, y), s = td_grid_walkable(grid, x, y + 1);
      edges += e + s;
      if (e && s && td_grid_walkable(grid, x + 1, y + 1)) edges++;
      if (s && td_grid_walkable(grid, x - 1, y) && td_grid_walkable(grid, x - 1, y + 1))
        edges++;
    }
  int32_t *node_cell = td_mem_alloc((nodes ? (size_t)nodes : 1) * sizeof *node_cell);
  td_graph *g = node_cell ? td_graph_create(nodes, (int32_t)edges) : NULL;
  if (!g) {
    td_mem_free(node_cell, (nodes ? (size_t)nodes : 1) * sizeof *node_cell);
    td_mem_free(cell_node, cells * sizeof *cell_node);
    td_err_set(err, "grid: out of memory");
    return NULL;
  }
  td_cost w1, w2;
  td_graph_grid_weights(grid->cell, &w1, &w2);
  for (size_t i = 0; i < cells; i++) {
    if (cell_node[i] == TD_NONE) continue;
    double px, py;
    td_grid_cell_center(grid, (int32_t)(i % (size_t)w), (int32_t)(i / (size_t)w), &px, &py);
    node_cell[cell_node[i]] = (int32_t)i;
    if (td_graph_add_node(g, px, py, err) == TD_NONE) goto fail;
  }
  /* edges to the east, south, south-east and south-west: each pair once */
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      size_t i = (size_t)y * (size_t)w + (size_t)x;
      int32_t n = cell_node[i];
      if (n == TD_NONE) continue;
      int32_t e = x + 1 < w ? cell_node[i + 1] : TD_NONE;
      int32_t s = y + 1 < h ? cell_node[i + (size_t)w] : TD_NONE;
      int32_t se = (x + 1 < w && y + 1 < h) ? cell_node[i + (size_t)w + 1] : TD_NONE;
      int32_t wn = x > 0 ? cell_node[i - 1] : TD_NONE;
      int32_t sw = (x > 0 && y + 1 < h) ? cell_node[i + (size_t)w - 1] : TD_NONE;
      if (e != TD_NONE && add_grid_edge(g, n, e, w1, err)) goto fail;
      if (s != TD_NONE && add_grid_edge(g, n, s, w1, err)) goto fail;
      if (se != TD_NONE && e != TD_NONE && s != TD_NONE && add_grid_edge(g, n, se, w2, err))
        goto fail;
      if (sw != TD_NONE && wn != TD_NONE && s != TD_NONE && add_grid_edge(g, n, sw, w2, err))
        goto fail;
    }
  if (td_graph_finalize(g, err)) goto fail;
  g->grid_cell = grid->cell;
  /* success: the maps now describe this graph */
  td_mem_free(grid->cell_node, cells * sizeof(int32_t));
  td_mem_free(grid->node_cell, (size_t)grid->node_count * sizeof(int32_t));
  if (nodes == 0) {
    td_mem_free(node_cell, sizeof *node_cell);
    node_cell = NULL;
  }
  grid->cell_node = cell_node;
  grid->node_cell = node_cell;
  grid->node_count = nodes;
  return g;
fail:
  td_graph_destroy(g);
  td_mem_free(node_cell, (nodes ? (size_t)nodes : 1) * sizeof *node_cell);
  td_mem_free(cell_node, cells * sizeof *cell_node);
  return NULL;
}

/* Clamps one coordinate; NaN goes to 0. */
static int32_t clamp_cell(double v, double origin, double cell, int32_t count) {
  double c = floor((v - origin) / cell);
  if (!(c >= 0.0)) return 0;
  if (c >= (double)count) return count - 1;
  return (int32_t)c;
}

void td_grid_world_to_cell(const td_grid *grid, double x, double y,
                           int32_t *cx, int32_t *cy) {
  *cx = clamp_cell(x, grid->origin_x, grid->cell, grid->width);
  *cy = clamp_cell(y, grid->origin_y, grid->cell, grid->height);
}

void td_grid_cell_center(const td_grid *grid, int32_t cx, int32_t cy,
                         double *x, double *y) {
  *x = grid->origin_x + ((double)cx + 0.5) * grid->cell;
  *y = grid->origin_y + ((double)cy + 0.5) * grid->cell;
}

int32_t td_grid_node_at(const td_grid *grid, int32_t cx, int32_t cy) {
  if (!grid->cell_node || !inside(grid, cx, cy)) return TD_NONE;
  return grid->cell_node[(size_t)cy * (size_t)grid->width + (size_t)cx];
}

/* ------------------------------------------------------------------ */
/* blocking batches */

/* The four corners of a cell, as the diagonal direction (dx, dy) toward
** each. The diagonal passing by corner (dx, dy) joins (x+dx, y) and
** (x, y+dy); its other side cell is (x+dx, y+dy). */
static const int8_t corner_dx[4] = {1, -1, -1, 1};
static const int8_t corner_dy[4] = {1, 1, -1, -1};

/* Index in cells[0..n) of the first occurrence of cell, or n. */
static size_t batch_find(const int32_t *cells, size_t n, int32_t cell) {
  for (size_t i = 0; i < n; i++)
    if (cells[i] == cell) return i;
  return n;
}

static void emit(td_graph_change *out, size_t cap, size_t *k, td_change_kind kind,
                 int32_t id) {
  if (*k < cap) out[*k] = (td_graph_change){.kind = kind, .id = id};
  (*k)++;
}

/* The batch is scanned linearly for duplicates and for the other side cell
** of each diagonal, so this is O(cells^2): meant for tower footprints. */
size_t td_grid_changes(const td_grid *grid, const td_graph *g,
                       const int32_t *cells, size_t cell_count_in, bool block,
                       td_graph_change *out, size_t cap) {
  size_t k = 0;
  const int64_t total = (int64_t)grid->width * grid->height;
  if (!grid->cell_node) return 0;
  for (size_t i = 0; i < cell_count_in; i++) {
    int32_t c = cells[i];
    if (c < 0 || c >= total) continue;
    int32_t node = grid->cell_node[c];
    if (node == TD_NONE || node >= g->node_count) continue;
    if (batch_find(cells, i, c) < i) continue; /* a duplicate: done already */
    emit(out, cap, &k, block ? TD_CHANGE_BLOCK_NODE : TD_CHANGE_UNBLOCK_NODE, node);
    int32_t x = c % grid->width, y = c / grid->width;
    for (int q = 0; q < 4; q++) {
      int32_t a = td_grid_node_at(grid, x + corner_dx[q], y);
      int32_t b = td_grid_node_at(grid, x, y + corner_dy[q]);
      if (a == TD_NONE || b == TD_NONE) continue;
      int32_t e = td_graph_find_edge(g, a, b);
      if (e == TD_NONE) continue;
      /* the other side cell exists (the edge was built) */
      int32_t other = c + corner_dy[q] * grid->width + corner_dx[q];
      int32_t other_node = grid->cell_node[other];
      size_t j = batch_find(cells, cell_count_in, other);
      if (j < i) continue; /* emitted with the other side cell */
      if (!block) {
        bool other_blocked = other_node != TD_NONE && other_node < g->node_count &&
                             g->node_blocked[other_node];
        if (other_blocked && j == cell_count_in) continue; /* still cut by its corner */
      }
      emit(out, cap, &k, block ? TD_CHANGE_BLOCK_EDGE : TD_CHANGE_UNBLOCK_EDGE, e);
    }
  }
  return k;
}

/* ------------------------------------------------------------------ */
/* line of sight */

static bool cell_open(const td_grid *grid, const td_graph *g, int32_t cx, int32_t cy) {
  if (!td_grid_walkable(grid, cx, cy)) return false;
  if (!g || !grid->cell_node) return true;
  int32_t n = td_grid_node_at(grid, cx, cy);
  return n != TD_NONE && n < g->node_count && !g->node_blocked[n];
}

/* Walks the cells the segment between the two centres touches, in order.
** In units of half a cell, centres sit at odd coordinates and grid lines
** at even ones; the segment crosses its i-th vertical line (i = 0..dx-1)
** at parameter (2i+1)/(2dx) and its j-th horizontal line at (2j+1)/(2dy).
** Comparing (2i+1)*dy with (2j+1)*dx in integers says which comes first;
** a tie is a crossing exactly through a corner, where the segment touches
** the two side cells too. */
bool td_grid_line_of_sight(const td_grid *grid, const td_graph *g,
                           int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  if (!cell_open(grid, g, x0, y0) || !cell_open(grid, g, x1, y1)) return false;
  int64_t dx = x1 > x0 ? (int64_t)x1 - x0 : (int64_t)x0 - x1;
  int64_t dy = y1 > y0 ? (int64_t)y1 - y0 : (int64_t)y0 - y1;
  int32_t sx = x1 > x0 ? 1 : -1, sy = y1 > y0 ? 1 : -1;
  int32_t x = x0, y = y0;
  int64_t i = 0, j = 0;
  while (i < dx || j < dy) {
    int64_t tx = i < dx ? (2 * i + 1) * dy : INT64_MAX;
    int64_t ty = j < dy ? (2 * j + 1) * dx : INT64_MAX;
    if (tx < ty) {
      x += sx;
      i++;
    } else if (ty < tx) {
      y += sy;
      j++;
    } else {
      if (!cell_open(grid, g, x + sx, y) || !cell_open(grid, g, x, y + sy)) return false;
      x += sx;
      y += sy;
      i++;
      j++;
    }
    if (!cell_open(grid, g, x, y)) return false;
  }
  return true;
}

/* Greedy: from the last kept node, walk forward while the nodes stay in
** sight and keep the last of that run. A node right after the kept one is
** always taken, even out of sight (an input path that does not respect the
** grid), so the output keeps making progress; when consecutive input nodes
** see each other, so do consecutive output nodes. Looking only at the
** visible run, not at every later node, keeps this O(n * segment length)
** instead of O(n^2 * length). */
size_t td_grid_simplify(const td_grid *grid, const td_graph *g,
                        const int32_t *path, size_t n, int32_t *out) {
  if (n == 0) return 0;
  if (!grid->node_cell || n <= 2) {
    if (out != path) memmove(out, path, n * sizeof *out);
    return n;
  }
  size_t k = 0, i = 0;
  int32_t cur = path[0];
  out[k++] = cur;
  while (i + 1 < n) {
    size_t j = i + 1;
    if (cur >= 0 && cur < grid->node_count) { /* else not this grid's node */
      int32_t cc = grid->node_cell[cur];
      int32_t cx = cc % grid->width, cy = cc / grid->width;
      while (j + 1 < n) {
        int32_t next = path[j + 1];
        if (next < 0 || next >= grid->node_count) break;
        int32_t nc = grid->node_cell[next];
        if (!td_grid_line_of_sight(grid, g, cx, cy, nc % grid->width, nc / grid->width))
          break;
        j++;
      }
    }
    cur = path[j];
    out[k++] = cur; /* k <= j: path[j + 1 ..] is still unread input */
    i = j;
  }
  return k;
}
