/*
** mapfile_build.c: phase 2 of the map loader (mapfile_int.h): `extract` ->
** td_map, in plain C once the sandbox is closed.
**
** Merge path vertices, make the graph or the grid, place spawns, goals and
** bases, and check the route. It writes into the td_map as it goes and
** td_map_free undoes it on error.
*/
#include "script/mapfile_int.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nav/grid.h"
#include "nav/route.h"

/* Path edges by cell of a uniform grid, so that a tower base looks only at
** the edges near it (place_bases on waypoint maps) instead of at every
** edge. An edge is listed in the cells of its segment, walked along its
** major axis one cell at a time and widened by one cell across it (rounding
** can move a point by far less than a cell), so a rectangle finds every
** edge that touches it among the cells it covers. Cells are the mean edge
** length wide (at least one unit): the lists hold about nine entries per
** edge. Buckets by a hash of the cell, in one array (counted, then
** filled): linear in the edges, and no order depends on the hash beyond
** the candidates, which are sorted. */
typedef struct edge_item {
  int32_t cx, cy, edge;
} edge_item;

typedef struct edge_index {
  double size;               /* cell size, map units */
  double x0, y0, x1, y1;     /* the box of every node */
  size_t buckets;            /* power of two */
  size_t *start;             /* buckets + 1: bucket k is items[start[k], start[k+1]) */
  edge_item *items;
  size_t item_count;
  uint32_t *stamp;           /* per edge: the last query that took it (+1) */
  int32_t *cand;             /* candidates of one query */
  int32_t edge_count;
} edge_index;

static void edge_index_free(edge_index *ix) {
  size_t ne = (size_t)ix->edge_count;
  td_mem_free(ix->start, (ix->buckets + 1) * sizeof *ix->start);
  td_mem_free(ix->items, ix->item_count * sizeof *ix->items);
  td_mem_free(ix->stamp, ne * sizeof *ix->stamp);
  td_mem_free(ix->cand, ne * sizeof *ix->cand);
  memset(ix, 0, sizeof *ix);
}

static size_t cell_bucket(const edge_index *ix, int32_t cx, int32_t cy) {
  uint64_t h = (uint64_t)(uint32_t)cx * 0x9E3779B97F4A7C15ull ^
               (uint64_t)(uint32_t)cy * 0xC2B2AE3D27D4EB4Full;
  h ^= h >> 29;
  return (size_t)h & (ix->buckets - 1);
}

/* Walks the cells of edge e (see edge_index): counts them into start[]
** (items NULL), or files them (items set, start[] the next free slot). */
static void swap_d(double *a, double *b) {
  double t = *a;
  *a = *b;
  *b = t;
}

static void edge_cells(edge_index *ix, const td_graph *g, int32_t e) {
  double s = ix->size;
  double x0 = g->x[g->edges[e].a], y0 = g->y[g->edges[e].a];
  double x1 = g->x[g->edges[e].b], y1 = g->y[g->edges[e].b];
  bool steep = fabs(y1 - y0) > fabs(x1 - x0);
  if (steep) { /* walk along y: swap the axes, and back when filing */
    swap_d(&x0, &y0);
    swap_d(&x1, &y1);
  }
  if (x1 < x0) {
    swap_d(&x0, &x1);
    swap_d(&y0, &y1);
  }
  double slope = x1 > x0 ? (y1 - y0) / (x1 - x0) : 0.0; /* |slope| <= 1 */
  int32_t c0 = (int32_t)floor(x0 / s), c1 = (int32_t)floor(x1 / s);
  for (int32_t c = c0; c <= c1; c++) {
    double xa = fmax(x0, c * s), xb = fmin(x1, (c + 1) * s);
    if (xb < xa) xb = xa;
    double ya = y0 + (xa - x0) * slope, yb = y0 + (xb - x0) * slope;
    int32_t r0 = (int32_t)floor(fmin(ya, yb) / s) - 1, r1 = (int32_t)floor(fmax(ya, yb) / s) + 1;
    for (int32_t r = r0; r <= r1; r++) {
      int32_t cx = steep ? r : c, cy = steep ? c : r;
      size_t k = cell_bucket(ix, cx, cy);
      if (ix->items) ix->items[ix->start[k]++] = (edge_item){cx, cy, e};
      else ix->start[k]++;
    }
  }
}

static int edge_index_build(edge_index *ix, const td_graph *g) {
  memset(ix, 0, sizeof *ix);
  size_t ne = (size_t)g->edge_count;
  double total = 0;
  for (size_t e = 0; e < ne; e++) {
    const td_edge *ed = &g->edges[e];
    total += hypot(g->x[ed->b] - g->x[ed->a], g->y[ed->b] - g->y[ed->a]);
  }
  ix->size = fmax(total / (double)(ne ? ne : 1), 1.0);
  ix->x0 = ix->y0 = INFINITY;
  ix->x1 = ix->y1 = -INFINITY;
  for (int32_t n = 0; n < g->node_count; n++) {
    ix->x0 = fmin(ix->x0, g->x[n]);
    ix->y0 = fmin(ix->y0, g->y[n]);
    ix->x1 = fmax(ix->x1, g->x[n]);
    ix->y1 = fmax(ix->y1, g->y[n]);
  }
  ix->buckets = 16;
  while (ix->buckets < 4 * ne) ix->buckets *= 2;
  ix->edge_count = (int32_t)ne;
  ix->start = td_mem_calloc(ix->buckets + 1, sizeof *ix->start);
  ix->stamp = td_mem_calloc(ne ? ne : 1, sizeof *ix->stamp);
  ix->cand = td_mem_alloc((ne ? ne : 1) * sizeof *ix->cand);
  if (!ix->start || !ix->stamp || !ix->cand) return -1;
  for (size_t e = 0; e < ne; e++) edge_cells(ix, g, (int32_t)e);
  size_t at = 0; /* start[k] = the first slot of bucket k */
  for (size_t k = 0; k <= ix->buckets; k++) {
    size_t n = ix->start[k];
    ix->start[k] = at;
    at += n;
  }
  assert(at > 0); /* a waypoint map has edges, and each is in some cell */
  ix->items = td_mem_alloc(at * sizeof *ix->items);
  if (!ix->items) return -1;
  ix->item_count = at;
  for (size_t e = 0; e < ne; e++) edge_cells(ix, g, (int32_t)e); /* start[k]: bucket k+1's */
  for (size_t k = ix->buckets; k > 0; k--) ix->start[k] = ix->start[k - 1];
  ix->start[0] = 0;
  return 0;
}

static int cmp_int32(const void *pa, const void *pb) {
  int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
  return (a > b) - (a < b);
}

/* The edges that may touch the rectangle, ascending, into ix->cand; query
** is this query's number (from 1). Only the part of the rectangle within
** the nodes' box can touch an edge; every edge when that part covers more
** cells than there are edges. */
static size_t edge_index_near(edge_index *ix, uint32_t query, double rx, double ry,
                              double rw, double rh) {
  double s = ix->size;
  double ax = fmax(rx, ix->x0), bx = fmin(rx + rw, ix->x1);
  double ay = fmax(ry, ix->y0), by = fmin(ry + rh, ix->y1);
  if (ax > bx || ay > by) return 0; /* apart from every edge */
  double fx0 = floor(ax / s), fx1 = floor(bx / s);
  double fy0 = floor(ay / s), fy1 = floor(by / s);
  size_t n = 0;
  if ((fx1 - fx0 + 1) * (fy1 - fy0 + 1) > (double)ix->edge_count) {
    for (int32_t e = 0; e < ix->edge_count; e++) ix->cand[n++] = e;
    return n;
  }
  for (int32_t cy = (int32_t)fy0; cy <= (int32_t)fy1; cy++)
    for (int32_t cx = (int32_t)fx0; cx <= (int32_t)fx1; cx++) {
      size_t k = cell_bucket(ix, cx, cy);
      for (size_t i = ix->start[k]; i < ix->start[k + 1]; i++) {
        const edge_item *it = &ix->items[i];
        if (it->cx != cx || it->cy != cy || ix->stamp[it->edge] == query) continue;
        ix->stamp[it->edge] = query;
        ix->cand[n++] = it->edge;
      }
    }
  qsort(ix->cand, n, sizeof *ix->cand, cmp_int32);
  return n;
}

typedef struct build {
  const char *name;
  extract *x;
  td_map *m;
  td_err *err;
  /* waypoint maps: spatial hash of the path vertices */
  struct cell {
    int32_t cx, cy;
    int32_t head;            /* first vertex of the cell's chain */
    int32_t count;           /* 0: free slot */
  } *cells;
  size_t cell_cap;           /* power of two */
  int32_t *next;             /* vertex -> next vertex in its cell */
  int32_t *parent;           /* union-find over vertices; root = smallest */
  int32_t *node_of;          /* vertex -> graph node */
  edge_index eix;            /* waypoint maps with bases: edges by cell */
  const char *making;        /* what is being built, for the byte budget's message */
  char making_buf[128];
} build;

static void build_free(build *b) {
  size_t nv = b->x->vert_count;
  td_mem_free(b->cells, b->cell_cap * sizeof *b->cells);
  td_mem_free(b->next, nv * sizeof *b->next);
  td_mem_free(b->parent, nv * sizeof *b->parent);
  td_mem_free(b->node_of, nv * sizeof *b->node_of);
  edge_index_free(&b->eix);
}

static const char *obj_class(const object *ob) { return mapfile_class_names[ob->cls]; }

/* Merge cells are MERGE_DIST wide: two vertices closer than that lie in
** the same or neighbouring cells. */
static int32_t cell_coord(double v) {
  return (int32_t)floor(v / TD_MAPFILE_MERGE_DIST);
}

static struct cell *cell_slot(build *b, int32_t cx, int32_t cy, bool create) {
  uint64_t h = (uint64_t)(uint32_t)cx * 0x9E3779B97F4A7C15ull ^
               (uint64_t)(uint32_t)cy * 0xC2B2AE3D27D4EB4Full;
  h ^= h >> 31;
  size_t mask = b->cell_cap - 1;
  for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
    struct cell *c = &b->cells[i];
    if (c->count == 0) {
      if (!create) return NULL;
      *c = (struct cell){.cx = cx, .cy = cy, .head = TD_NONE, .count = 0};
      return c;
    }
    if (c->cx == cx && c->cy == cy) return c;
  }
}

static int32_t uf_find(int32_t *parent, int32_t v) {
  int32_t r = v;
  while (parent[r] != r) r = parent[r];
  while (parent[v] != r) {
    int32_t n = parent[v];
    parent[v] = r;
    v = n;
  }
  return r;
}

static double dist2(vertex a, double x, double y) {
  return (a.x - x) * (a.x - x) + (a.y - y) * (a.y - y);
}

typedef struct pedge {
  int32_t lo, hi;            /* endpoints, lo < hi */
  int32_t a, b;              /* endpoints as drawn */
  double factor;
  double width;              /* road width */
  int32_t seq;               /* drawing order */
} pedge;

static int cmp_pedge_key(const void *pa, const void *pb) {
  const pedge *a = pa, *b = pb;
  if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
  if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
  if (a->factor != b->factor) return a->factor < b->factor ? -1 : 1;
  return (a->seq > b->seq) - (a->seq < b->seq);
}

static int cmp_pedge_seq(const void *pa, const void *pb) {
  const pedge *a = pa, *b = pb;
  return (a->seq > b->seq) - (a->seq < b->seq);
}

/* Waypoint graph from the path objects: hash, merge, dedupe, finalize. */
static int build_waypoints(build *b) {
  extract *x = b->x;
  size_t nv = x->vert_count;
  td_err gerr;
  size_t cap = 16;
  while (cap < 2 * nv) cap *= 2;
  b->cells = td_mem_calloc(cap, sizeof *b->cells);
  if (b->cells) b->cell_cap = cap;
  b->next = td_mem_alloc(nv * sizeof *b->next);
  b->parent = td_mem_alloc(nv * sizeof *b->parent);
  b->node_of = td_mem_alloc(nv * sizeof *b->node_of);
  if (!b->cells || !b->next || !b->parent || !b->node_of)
    return td_err_set(b->err, "%s: out of memory", b->name);
  for (size_t oi = 0; oi < x->obj_count; oi++) {
    const object *ob = &x->objs[oi];
    if (ob->cls != CLASS_PATH) continue;
    for (size_t v = ob->v0; v < ob->v0 + ob->vn; v++) {
      struct cell *c = cell_slot(b, cell_coord(x->verts[v].x), cell_coord(x->verts[v].y), true);
      if (c->count == TD_MAPFILE_MAX_CLUSTER)
        return td_err_set(b->err, "%s: object %d (path): more than %d path vertices "
                          "crowd around (%g, %g)", b->name, ob->id,
                          TD_MAPFILE_MAX_CLUSTER, x->verts[v].x, x->verts[v].y);
      b->next[v] = c->head;
      c->head = (int32_t)v;
      c->count++;
      b->parent[v] = (int32_t)v;
    }
  }
  /* single-linkage merge; each pair is looked at once (j > i), and a cell
  ** holds at most MAX_CLUSTER vertices, so this is O(n) */
  double md2 = TD_MAPFILE_MERGE_DIST * TD_MAPFILE_MERGE_DIST;
  for (size_t i = 0; i < nv; i++) {
    vertex p = x->verts[i];
    int32_t cx = cell_coord(p.x), cy = cell_coord(p.y);
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++) {
        struct cell *c = cell_slot(b, cx + dx, cy + dy, false);
        for (int32_t j = c ? c->head : TD_NONE; j != TD_NONE; j = b->next[j]) {
          if ((size_t)j <= i || dist2(x->verts[j], p.x, p.y) >= md2) continue;
          int32_t ra = uf_find(b->parent, (int32_t)i), rb = uf_find(b->parent, j);
          if (ra < rb) b->parent[rb] = ra;
          else if (rb < ra) b->parent[ra] = rb;
        }
      }
  }
  /* nodes in order of their first vertex, at that vertex */
  int32_t nodes = 0;
  for (size_t v = 0; v < nv; v++) {
    int32_t r = uf_find(b->parent, (int32_t)v);
    b->node_of[v] = (size_t)r == v ? nodes++ : b->node_of[r];
  }
  /* edges, one per consecutive pair that did not merge */
  size_t ecap = 0, en = 0;
  pedge *edges = NULL;
  for (size_t oi = 0; oi < x->obj_count; oi++) {
    const object *ob = &x->objs[oi];
    if (ob->cls != CLASS_PATH) continue;
    size_t made = 0, segs = ob->closed ? ob->vn : ob->vn - 1;
    for (size_t k = 0; k < segs; k++) {
      int32_t na = b->node_of[ob->v0 + k], nb = b->node_of[ob->v0 + (k + 1) % ob->vn];
      if (na == nb) continue;
      pedge *p = td_mem_grow(edges, &ecap, en + 1, sizeof *edges);
      if (!p) {
        td_mem_free(edges, ecap * sizeof *edges);
        return td_err_set(b->err, "%s: out of memory", b->name);
      }
      edges = p;
      edges[en] = (pedge){.lo = na < nb ? na : nb, .hi = na < nb ? nb : na, .a = na,
                          .b = nb, .factor = ob->cost, .width = ob->road_width,
                          .seq = (int32_t)en};
      en++;
      made++;
    }
    if (made == 0) {
      td_mem_free(edges, ecap * sizeof *edges);
      return td_err_set(b->err, "%s: object %d (path): all its vertices lie within "
                        "%g units of each other and merge into one node",
                        b->name, ob->id, TD_MAPFILE_MERGE_DIST);
    }
  }
  /* the same edge drawn twice is kept once, with the smaller factor and the
  ** larger road width, at the place where it was first drawn */
  if (en) qsort(edges, en, sizeof *edges, cmp_pedge_key);
  size_t kept = 0;
  for (size_t i = 0; i < en;) {
    size_t j = i;
    pedge best = edges[i]; /* smallest factor */
    int32_t first = edges[i].seq, fa = edges[i].a, fb = edges[i].b;
    double width = edges[i].width;
    for (; j < en && edges[j].lo == edges[i].lo && edges[j].hi == edges[i].hi; j++) {
      if (edges[j].seq < first) {
        first = edges[j].seq;
        fa = edges[j].a;
        fb = edges[j].b;
      }
      if (edges[j].width > width) width = edges[j].width;
    }
    best.width = width;
    best.seq = first;
    best.a = fa;
    best.b = fb;
    edges[kept++] = best;
    i = j;
  }
  if (kept) qsort(edges, kept, sizeof *edges, cmp_pedge_seq);

  td_graph *g = td_graph_create(nodes, (int32_t)kept);
  b->m->graph = g;
  int rc = g ? 0 : -1;
  for (size_t v = 0; rc == 0 && v < nv; v++)
    if ((size_t)uf_find(b->parent, (int32_t)v) == v &&
        td_graph_add_node(g, x->verts[v].x, x->verts[v].y, &gerr) == TD_NONE)
      rc = -1;
  for (size_t e = 0; rc == 0 && e < kept; e++)
    if (td_graph_add_edge(g, edges[e].a, edges[e].b, edges[e].factor, &gerr) == TD_NONE)
      rc = -1;
  if (rc == 0) {
    /* edge e of the graph is edges[e]; td_map_free sizes this by edge_count */
    assert((size_t)g->edge_count == kept && kept > 0);
    b->m->road_width = td_mem_alloc(kept * sizeof *b->m->road_width);
    if (!b->m->road_width) {
      td_mem_free(edges, ecap * sizeof *edges);
      return td_err_set(b->err, "%s: out of memory", b->name);
    }
    for (size_t e = 0; e < kept; e++) b->m->road_width[e] = (float)edges[e].width;
  }
  td_mem_free(edges, ecap * sizeof *edges);
  if (rc == 0 && td_graph_finalize(g, &gerr) != 0) rc = -1;
  if (rc != 0) return td_err_set(b->err, "%s: %s", b->name, g ? gerr.msg : "out of memory");
  return 0;
}

/* map->paths: each path object's edges (ascending, each once), found by
** their nodes in the finished graph. */
static int place_paths(build *b) {
  extract *x = b->x;
  td_map *m = b->m;
  size_t np = 0;
  for (size_t oi = 0; oi < x->obj_count; oi++) np += x->objs[oi].cls == CLASS_PATH;
  m->paths = td_mem_calloc(np, sizeof *m->paths);
  if (!m->paths) return td_err_set(b->err, "%s: out of memory", b->name);
  m->path_count = np; /* the ones not made yet are empty (td_map_free) */
  size_t at = 0;
  for (size_t oi = 0; oi < x->obj_count; oi++) {
    const object *ob = &x->objs[oi];
    if (ob->cls != CLASS_PATH) continue;
    size_t segs = ob->closed ? ob->vn : ob->vn - 1, n = 0;
    int32_t *ids = td_mem_alloc(segs * sizeof *ids);
    if (!ids) return td_err_set(b->err, "%s: out of memory", b->name);
    for (size_t k = 0; k < segs; k++) {
      int32_t na = b->node_of[ob->v0 + k], nb = b->node_of[ob->v0 + (k + 1) % ob->vn];
      if (na != nb) ids[n++] = td_graph_find_edge(m->graph, na, nb); /* build_waypoints made it */
    }
    qsort(ids, n, sizeof *ids, cmp_int32);
    size_t kept = 0;
    for (size_t k = 0; k < n; k++)
      if (kept == 0 || ids[k] != ids[kept - 1]) ids[kept++] = ids[k];
    if (kept < segs) { /* td_map_free frees by count */
      int32_t *p = td_mem_realloc(ids, segs * sizeof *ids, kept * sizeof *ids);
      if (!p) {
        td_mem_free(ids, segs * sizeof *ids);
        return td_err_set(b->err, "%s: out of memory", b->name);
      }
      ids = p;
    }
    td_map_path *pa = &m->paths[at++];
    pa->object_id = ob->id;
    snprintf(pa->name, sizeof pa->name, "%s", ob->name);
    pa->edges = ids;
    pa->edge_count = kept;
  }
  return 0;
}

/* The node of the path vertex nearest to (px, py) within SNAP_DIST (ties:
** the vertex drawn first), or TD_NONE. */
static int32_t snap_to_vertex(build *b, double px, double py) {
  double best = TD_MAPFILE_SNAP_DIST * TD_MAPFILE_SNAP_DIST;
  int32_t found = TD_NONE;
  int32_t cx = cell_coord(px), cy = cell_coord(py);
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) {
      struct cell *c = cell_slot(b, cx + dx, cy + dy, false);
      for (int32_t j = c ? c->head : TD_NONE; j != TD_NONE; j = b->next[j]) {
        double d = dist2(b->x->verts[j], px, py);
        if (d < best || (d == best && (found == TD_NONE || j < found))) {
          best = d;
          found = j;
        }
      }
    }
  return found == TD_NONE ? TD_NONE : b->node_of[found];
}

/* Lookup of a gid's walkable property: -1 none, 0 false, 1 true. tiles is
** sorted by (gid, seq). */
static int tile_walkable(const extract *x, uint32_t gid) {
  size_t lo = 0, hi = x->tile_count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (x->tiles[mid].gid < gid) lo = mid + 1;
    else hi = mid;
  }
  return lo < x->tile_count && x->tiles[lo].gid == gid ? x->tiles[lo].walkable : -1;
}

static int cmp_tile(const void *pa, const void *pb) {
  const walk_tile *a = pa, *b = pb;
  if (a->gid != b->gid) return a->gid < b->gid ? -1 : 1;
  return (a->seq > b->seq) - (a->seq < b->seq);
}

static bool layer_has_walkable(const extract *x, const td_map_layer *ly) {
  size_t cells = (size_t)ly->width * (size_t)ly->height;
  for (size_t k = 0; k < cells; k++) {
    uint32_t gid = ly->gids[k] & ~TD_MAP_GID_FLAGS;
    if (gid && tile_walkable(x, gid) >= 0) return true;
  }
  return false;
}

static int build_grid(build *b, td_map_layer *ly) {
  extract *x = b->x;
  td_err gerr;
  if (x->tile_w != x->tile_h)
    return td_err_set(b->err, "%s: a grid map needs square tiles, has %dx%d", b->name,
                      x->tile_w, x->tile_h);
  if (ly->offset_x != 0.0 || ly->offset_y != 0.0)
    return td_err_set(b->err, "%s: layer '%s': the walkable layer cannot have an offset",
                      b->name, ly->name);
  snprintf(b->making_buf, sizeof b->making_buf, "layer '%s': its grid of %dx%d cells: ",
           ly->name, ly->width, ly->height);
  b->making = b->making_buf;
  b->m->grid = td_grid_create(ly->width, ly->height, (double)x->tile_w, &gerr);
  if (!b->m->grid) return td_err_set(b->err, "%s: %s", b->name, gerr.msg);
  for (int32_t cy = 0; cy < ly->height; cy++)
    for (int32_t cx = 0; cx < ly->width; cx++) {
      uint32_t gid = ly->gids[(size_t)cy * (size_t)ly->width + (size_t)cx] & ~TD_MAP_GID_FLAGS;
      td_grid_set_walkable(b->m->grid, cx, cy, gid != 0 && tile_walkable(x, gid) == 1);
    }
  b->m->graph = td_grid_build_graph(b->m->grid, &gerr);
  if (!b->m->graph) return td_err_set(b->err, "%s: %s", b->name, gerr.msg);
  b->making = NULL;
  if (b->m->graph->node_count == 0)
    return td_err_set(b->err, "%s: layer '%s': no walkable cell", b->name, ly->name);
  return 0;
}

static int cmp_id(const void *pa, const void *pb) {
  const int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
  return (a > b) - (a < b);
}

/* Object ids are unique (among td's classes): sorted (id, order) pairs find
** the duplicates; the one reported is the first object, in file order, whose
** id an earlier object has. */
static int check_ids(build *b) {
  extract *x = b->x;
  size_t n = x->obj_count;
  if (n < 2) return 0;
  int64_t *key = td_mem_alloc(n * sizeof *key); /* id << 32 | order: ids are >= 0 */
  if (!key) return td_err_set(b->err, "%s: out of memory", b->name);
  for (size_t i = 0; i < n; i++) key[i] = (int64_t)x->objs[i].id << 32 | (int64_t)i;
  qsort(key, n, sizeof *key, cmp_id);
  size_t dup = SIZE_MAX, first = 0;
  for (size_t i = 1; i < n; i++)
    if (key[i] >> 32 == key[i - 1] >> 32) {
      size_t later = (size_t)(key[i] & 0xFFFFFFFF);
      if (dup == SIZE_MAX || later < dup) {
        dup = later;
        first = (size_t)(key[i - 1] & 0xFFFFFFFF); /* the run's first: later is its second */
      }
    }
  td_mem_free(key, n * sizeof *key);
  if (dup == SIZE_MAX) return 0;
  const object *a = &x->objs[dup], *o = &x->objs[first];
  return td_err_set(b->err, "%s: object %d (%s) in %s (objects[%u]) has the same id as "
                    "object %d (%s) in %s (objects[%u]); object ids must be unique", b->name,
                    a->id, obj_class(a), a->layer, a->index, o->id, obj_class(o), o->layer,
                    o->index);
}

/* Spawns and goals, in file order. */
static int place_points(build *b) {
  extract *x = b->x;
  td_map *m = b->m;
  size_t ns = 0, ng = 0;
  for (size_t i = 0; i < x->obj_count; i++) {
    ns += x->objs[i].cls == CLASS_SPAWN;
    ng += x->objs[i].cls == CLASS_GOAL;
  }
  if (ng == 0) return td_err_set(b->err, "%s: no goal object (class 'goal')", b->name);
  if (ns == 0) return td_err_set(b->err, "%s: no spawn object (class 'spawn')", b->name);
  m->spawns = td_mem_calloc(ns, sizeof *m->spawns);
  if (m->spawns) m->spawn_count = ns;
  m->goals = td_mem_calloc(ng, sizeof *m->goals);
  if (m->goals) m->goal_count = ng;
  if (!m->spawns || !m->goals) return td_err_set(b->err, "%s: out of memory", b->name);
  ns = ng = 0;
  for (size_t i = 0; i < x->obj_count; i++) {
    const object *ob = &x->objs[i];
    if (ob->cls != CLASS_SPAWN && ob->cls != CLASS_GOAL) continue;
    int32_t node;
    if (m->grid) {
      double gx = floor(ob->x / m->grid->cell), gy = floor(ob->y / m->grid->cell);
      if (gx < 0 || gy < 0 || gx >= m->grid->width || gy >= m->grid->height)
        return td_err_set(b->err, "%s: object %d (%s): at (%g, %g), outside the map",
                          b->name, ob->id, obj_class(ob), ob->x, ob->y);
      node = td_grid_node_at(m->grid, (int32_t)gx, (int32_t)gy);
      if (node == TD_NONE)
        return td_err_set(b->err, "%s: object %d (%s): not on a walkable cell (cell %d,%d)",
                          b->name, ob->id, obj_class(ob), (int)gx, (int)gy);
    } else {
      node = snap_to_vertex(b, ob->x, ob->y);
      if (node == TD_NONE)
        return td_err_set(b->err, "%s: object %d (%s): not on any path vertex (none within "
                          "%g units of (%g, %g))", b->name, ob->id, obj_class(ob),
                          TD_MAPFILE_SNAP_DIST, ob->x, ob->y);
    }
    td_map_point *pt = ob->cls == CLASS_SPAWN ? &m->spawns[ns++] : &m->goals[ng++];
    pt->node = node;
    pt->object_id = ob->id;
    snprintf(pt->name, sizeof pt->name, "%s", ob->name);
  }
  /* a spawn on a goal's node: goals indexed by node (the first goal there) */
  int32_t *goal_at = td_mem_calloc((size_t)m->graph->node_count, sizeof *goal_at);
  if (!goal_at) return td_err_set(b->err, "%s: out of memory", b->name);
  for (size_t k = m->goal_count; k-- > 0;) goal_at[m->goals[k].node] = (int32_t)k + 1;
  int rc = 0;
  for (size_t s = 0; s < m->spawn_count && rc == 0; s++) {
    int32_t k = goal_at[m->spawns[s].node];
    if (k)
      rc = td_err_set(b->err, "%s: object %d (spawn): on the same node as object %d (goal)",
                      b->name, m->spawns[s].object_id, m->goals[k - 1].object_id);
  }
  td_mem_free(goal_at, (size_t)m->graph->node_count * sizeof *goal_at);
  return rc;
}

/* Closed segment against closed rectangle (Liang-Barsky clipping): true
** when some point of the segment lies in the rectangle, including segments
** that start, end or lie entirely inside it. */
static bool segment_hits_rect(double x0, double y0, double x1, double y1, double rx,
                              double ry, double rw, double rh) {
  double p[4] = {-(x1 - x0), x1 - x0, -(y1 - y0), y1 - y0};
  double q[4] = {x0 - rx, rx + rw - x0, y0 - ry, ry + rh - y0};
  double t0 = 0.0, t1 = 1.0;
  for (int k = 0; k < 4; k++) {
    if (p[k] == 0.0) {
      if (q[k] < 0.0) return false; /* parallel and outside this slab */
      continue;
    }
    double t = q[k] / p[k];
    if (p[k] < 0.0) {
      if (t > t1) return false;
      if (t > t0) t0 = t;
    } else {
      if (t < t0) return false;
      if (t < t1) t1 = t;
    }
  }
  return t0 <= t1;
}

/* Cells [*lo, *hi] along one axis whose centres lie in [a, a + len). */
static void centre_range(double a, double len, double cell, int32_t n, int32_t *lo,
                         int32_t *hi) {
  *lo = 0;
  *hi = -1;
  double first = floor(a / cell) - 1.0, last = floor((a + len) / cell) + 1.0;
  if (first < 0) first = 0;
  if (last > n - 1) last = n - 1;
  if (first > last) return; /* also keeps the casts below in range */
  for (int32_t c = (int32_t)first; c <= (int32_t)last; c++) {
    double centre = (c + 0.5) * cell;
    if (centre >= a && centre < a + len) {
      if (*hi < *lo) *lo = c;
      *hi = c;
    }
  }
}

/* The most changes one base applies: a cell blocks its node and at most
** four diagonals; a waypoint base at most TD_MAPFILE_MAX_BASE_EDGES edges. */
#define BASE_BATCH (5 * TD_MAPFILE_MAX_BASE_CELLS > TD_MAPFILE_MAX_BASE_EDGES \
                        ? 5 * TD_MAPFILE_MAX_BASE_CELLS                      \
                        : TD_MAPFILE_MAX_BASE_EDGES)

static int place_bases(build *b) {
  extract *x = b->x;
  td_map *m = b->m;
  const td_graph *g = m->graph;
  td_graph_change batch[BASE_BATCH];
  if (x->base_count == 0) return 0;
  m->bases = td_mem_calloc(x->base_count, sizeof *m->bases);
  if (!m->bases) return td_err_set(b->err, "%s: out of memory", b->name);
  m->base_count = x->base_count;
  if (!m->grid && edge_index_build(&b->eix, g) != 0)
    return td_err_set(b->err, "%s: out of memory", b->name);
  size_t bi = 0;
  for (size_t i = 0; i < x->obj_count; i++) {
    const object *ob = &x->objs[i];
    if (ob->cls != CLASS_BASE) continue;
    td_tower_base *tb = &m->bases[bi++];
    tb->object_id = ob->id;
    snprintf(tb->name, sizeof tb->name, "%s", ob->name);
    tb->x = ob->x;
    tb->y = ob->y;
    tb->w = ob->w;
    tb->h = ob->h;
    size_t need = 0;
    if (ob->pad) {
      /* blocking = false: a pad beside the way; a tower here closes nothing */
      tb->block = NULL;
      tb->block_count = 0;
      continue;
    } else if (m->grid) {
      int32_t x0, x1, y0, y1, cells[TD_MAPFILE_MAX_BASE_CELLS];
      centre_range(ob->x, ob->w, m->grid->cell, m->grid->width, &x0, &x1);
      centre_range(ob->y, ob->h, m->grid->cell, m->grid->height, &y0, &y1);
      int64_t area = (int64_t)(x1 - x0 + 1) * (int64_t)(y1 - y0 + 1);
      if (x1 < x0 || y1 < y0)
        return td_err_set(b->err, "%s: object %d (tower_base): covers no cell centre",
                          b->name, ob->id);
      if (area > TD_MAPFILE_MAX_BASE_CELLS)
        return td_err_set(b->err, "%s: object %d (tower_base): covers %lld cells, at most %d",
                          b->name, ob->id, (long long)area, TD_MAPFILE_MAX_BASE_CELLS);
      size_t nc = 0;
      for (int32_t cy = y0; cy <= y1; cy++)
        for (int32_t cx = x0; cx <= x1; cx++) cells[nc++] = cy * m->grid->width + cx;
      need = td_grid_changes(m->grid, g, cells, nc, true, batch, BASE_BATCH);
      if (need == 0)
        return td_err_set(b->err, "%s: object %d (tower_base): covers no walkable cell",
                          b->name, ob->id);
    } else {
      /* count every edge it touches (for the message), keep the first ones;
      ** the index gives the edges near it, in ascending order */
      size_t nc = edge_index_near(&b->eix, (uint32_t)bi, ob->x, ob->y, ob->w, ob->h);
      for (size_t c = 0; c < nc; c++) {
        int32_t e = b->eix.cand[c];
        const td_edge *ed = &g->edges[e];
        if (!segment_hits_rect(g->x[ed->a], g->y[ed->a], g->x[ed->b], g->y[ed->b], ob->x,
                               ob->y, ob->w, ob->h))
          continue;
        if (need < BASE_BATCH) batch[need] = (td_graph_change){.kind = TD_CHANGE_BLOCK_EDGE, .id = e};
        need++;
      }
      if (need == 0)
        return td_err_set(b->err, "%s: object %d (tower_base): touches no path edge",
                          b->name, ob->id);
      if (need > TD_MAPFILE_MAX_BASE_EDGES)
        return td_err_set(b->err, "%s: object %d (tower_base): touches %zu path edges, at "
                          "most %d", b->name, ob->id, need, TD_MAPFILE_MAX_BASE_EDGES);
    }
    tb->block = td_mem_alloc(need * sizeof *tb->block);
    if (!tb->block) return td_err_set(b->err, "%s: out of memory", b->name);
    memcpy(tb->block, batch, need * sizeof *tb->block);
    tb->block_count = need;
  }
  return 0;
}

/* Every spawn must reach a goal on the open map. */
static int check_route(build *b) {
  td_map *m = b->m;
  td_graph *g = m->graph;
  /* no distance sum can overflow: td_graph_finalize refused such a graph */
  int32_t *goals = td_mem_alloc(m->goal_count * sizeof *goals);
  if (!goals) return td_err_set(b->err, "%s: out of memory", b->name);
  td_map_goal_nodes(m, goals);
  snprintf(b->making_buf, sizeof b->making_buf, "the route over %d nodes: ", g->node_count);
  b->making = b->making_buf;
  td_err rerr;
  td_route *r = td_route_create(g, goals, m->goal_count, &rerr); /* a goal twice is fine */
  td_mem_free(goals, m->goal_count * sizeof *goals);
  if (!r) return td_err_set(b->err, "%s: %s", b->name, rerr.msg);
  b->making = NULL;
  const td_cost *dist = td_route_dist(r);
  int rc = 0;
  for (size_t s = 0; s < m->spawn_count && rc == 0; s++)
    if (dist[m->spawns[s].node] == TD_COST_INF)
      rc = td_err_set(b->err, "%s: object %d (spawn): cannot reach any goal", b->name,
                      m->spawns[s].object_id);
  td_route_destroy(r);
  return rc;
}

static int build_map(build *b) {
  extract *x = b->x;
  td_map *m = b->m;
  if (check_ids(b) != 0) return -1;
  m->width = x->width;
  memcpy(m->title, x->title, sizeof m->title);
  memcpy(m->description, x->description, sizeof m->description);
  m->order = x->order;
  m->height = x->height;
  m->tile_w = x->tile_w;
  m->tile_h = x->tile_h;
  if (x->tile_count) qsort(x->tiles, x->tile_count, sizeof *x->tiles, cmp_tile);
  td_map_layer *walk = NULL;
  for (size_t i = 0; i < x->layer_count; i++) {
    /* a shared layer has what its first layer has: walkable only when that
    ** one is, and then it is `walk` (the first walkable one) */
    const td_map_layer *ly = &x->layers[i];
    if (ly->shared ? !(walk && walk->gids == ly->gids) : !layer_has_walkable(x, ly)) continue;
    if (walk)
      return td_err_set(b->err, "%s: layers '%s' and '%s' both use tiles with the "
                        "'walkable' property; a map has one walkable layer",
                        b->name, walk->name, x->layers[i].name);
    walk = &x->layers[i];
    walk->walkable = 1;
  }
  const object *path = NULL;
  for (size_t i = 0; i < x->obj_count && !path; i++)
    if (x->objs[i].cls == CLASS_PATH) path = &x->objs[i];
  if (path && walk)
    return td_err_set(b->err, "%s: object %d (path) and layer '%s' (walkable tiles): a map "
                      "is either a waypoint map or a grid map, not both",
                      b->name, path->id, walk->name);
  if (!path && !walk)
    return td_err_set(b->err, "%s: no path objects (class 'path') and no tile layer with "
                      "'walkable' tiles: nothing to walk on", b->name);
  if ((walk ? build_grid(b, walk) : build_waypoints(b) || place_paths(b)) != 0) return -1;
  if (place_points(b) != 0 || place_bases(b) != 0 || check_route(b) != 0) return -1;
  /* the tile layers move into the map */
  m->layers = x->layers;
  m->layer_count = x->layer_count;
  if (x->layer_cap > x->layer_count) {
    /* td_map_free frees by count: give back the spare capacity */
    td_map_layer *p = td_mem_realloc(x->layers, x->layer_cap * sizeof *p,
                                     x->layer_count * sizeof *p);
    if (x->layer_count && !p) {
      m->layers = NULL;
      m->layer_count = 0;
      return td_err_set(b->err, "%s: out of memory", b->name);
    }
    m->layers = p;
  }
  x->layers = NULL;
  x->layer_count = x->layer_cap = 0;
  return 0;
}

int mapfile_build(const char *name, extract *x, td_map *out, td_err *err) {
  /* plain C: meter it, counting from what phase 1 holds */
  td_mem_meter meter = {.live = x->bytes, .limit = TD_MAPFILE_MAX_C_BYTES};
  td_mem_meter *outer = td_mem_meter_set(&meter);
  build b = {.name = name, .x = x, .m = out, .err = err};
  int rc = build_map(&b);
  build_free(&b);
  td_mem_meter_set(outer);
  if (rc != 0 && meter.over)
    td_err_set(err, "%s: %sthe map needs more than %zu MiB outside Lua (the loader's limit)",
               name, b.making ? b.making : "", TD_MAPFILE_MAX_C_BYTES >> 20);
  return rc;
}
