/*
** graph.c: waypoint graph storage and CSR adjacency.
*/
#include "nav/graph.h"

#include <math.h>
#include <string.h>

/* Bytes of the adjacency arrays of h half-edges (never 0: see finalize). */
static size_t adj_bytes(size_t h) { return (h ? h : 1) * sizeof(int32_t); }

td_graph *td_graph_create(int32_t node_hint, int32_t edge_hint) {
  td_graph *g = td_mem_calloc(1, sizeof *g);
  if (!g) return NULL;
  g->min_factor = 1.0;
  size_t nc = node_hint > 0 ? (size_t)node_hint : 16;
  size_t ec = edge_hint > 0 ? (size_t)edge_hint : 16;
  g->x = td_mem_alloc(nc * sizeof *g->x);
  g->y = td_mem_alloc(nc * sizeof *g->y);
  g->node_blocked = td_mem_alloc(nc);
  g->edges = td_mem_alloc(ec * sizeof *g->edges);
  if (!g->x || !g->y || !g->node_blocked || !g->edges) {
    g->node_cap = nc;
    g->edge_cap = ec;
    td_graph_destroy(g);
    return NULL;
  }
  g->node_cap = nc;
  g->edge_cap = ec;
  return g;
}

void td_graph_destroy(td_graph *g) {
  if (!g) return;
  size_t n = g->node_cap, h = 2 * (size_t)g->edge_count;
  td_mem_free(g->x, n * sizeof *g->x);
  td_mem_free(g->y, n * sizeof *g->y);
  td_mem_free(g->node_blocked, n);
  td_mem_free(g->edges, g->edge_cap * sizeof *g->edges);
  if (g->adj_start) {
    td_mem_free(g->adj_start, ((size_t)g->node_count + 1) * sizeof(int32_t));
    td_mem_free(g->adj_to, adj_bytes(h));
    td_mem_free(g->adj_edge, adj_bytes(h));
  }
  td_mem_free(g, sizeof *g);
}

td_graph *td_graph_clone(const td_graph *g, td_err *err) {
  size_t n = (size_t)g->node_count, m = (size_t)g->edge_count, h = 2 * m;
  td_graph *c = td_graph_create(g->node_count, g->edge_count);
  if (!c) goto oom;
  /* td_graph_create sized the arrays for n nodes and m edges (16 when 0) */
  if (n) {
    memcpy(c->x, g->x, n * sizeof *c->x);
    memcpy(c->y, g->y, n * sizeof *c->y);
    memcpy(c->node_blocked, g->node_blocked, n);
  }
  if (m) memcpy(c->edges, g->edges, m * sizeof *c->edges);
  c->node_count = g->node_count;
  c->edge_count = g->edge_count;
  c->grid_cell = g->grid_cell;
  c->min_factor = g->min_factor;
  c->weight_sum = g->weight_sum;
  if (g->finalized) {
    c->adj_start = td_mem_alloc((n + 1) * sizeof(int32_t));
    c->adj_to = td_mem_alloc(adj_bytes(h));
    c->adj_edge = td_mem_alloc(adj_bytes(h));
    if (!c->adj_start || !c->adj_to || !c->adj_edge) {
      td_mem_free(c->adj_start, (n + 1) * sizeof(int32_t));
      td_mem_free(c->adj_to, adj_bytes(h));
      td_mem_free(c->adj_edge, adj_bytes(h));
      c->adj_start = c->adj_to = c->adj_edge = NULL;
      td_graph_destroy(c);
      goto oom;
    }
    memcpy(c->adj_start, g->adj_start, (n + 1) * sizeof(int32_t));
    if (h) {
      memcpy(c->adj_to, g->adj_to, h * sizeof(int32_t));
      memcpy(c->adj_edge, g->adj_edge, h * sizeof(int32_t));
    }
    c->finalized = true;
  }
  return c;
oom:
  td_err_set(err, "graph: out of memory");
  return NULL;
}

/* Grows the three node arrays together: new blocks first, so that a
** failure leaves the old ones, and their one capacity, untouched. */
static int grow_nodes(td_graph *g) {
  size_t ocap = g->node_cap, ncap = ocap * 2;
  double *x = td_mem_alloc(ncap * sizeof *x);
  double *y = td_mem_alloc(ncap * sizeof *y);
  uint8_t *b = td_mem_alloc(ncap);
  if (!x || !y || !b) {
    td_mem_free(x, ncap * sizeof *x);
    td_mem_free(y, ncap * sizeof *y);
    td_mem_free(b, ncap);
    return -1;
  }
  memcpy(x, g->x, ocap * sizeof *x);
  memcpy(y, g->y, ocap * sizeof *y);
  memcpy(b, g->node_blocked, ocap);
  td_mem_free(g->x, ocap * sizeof *x);
  td_mem_free(g->y, ocap * sizeof *y);
  td_mem_free(g->node_blocked, ocap);
  g->x = x;
  g->y = y;
  g->node_blocked = b;
  g->node_cap = ncap;
  return 0;
}

int32_t td_graph_add_node(td_graph *g, double x, double y, td_err *err) {
  if (g->finalized) return td_err_set(err, "graph: add_node after finalize");
  if (!isfinite(x) || !isfinite(y))
    return td_err_set(err, "graph: node position is not a finite number");
  if (g->node_count >= TD_GRAPH_MAX_NODES)
    return td_err_set(err, "graph: too many nodes (at most %d)", TD_GRAPH_MAX_NODES);
  if ((size_t)g->node_count == g->node_cap && grow_nodes(g) != 0)
    return td_err_set(err, "graph: out of memory");
  int32_t id = g->node_count++;
  g->x[id] = x;
  g->y[id] = y;
  g->node_blocked[id] = 0;
  return id;
}

td_cost td_graph_cost(double length, double factor) {
  double c = ceil(length * factor * (double)TD_COST_ONE);
  if (!(c < (double)TD_COST_MAX)) return TD_COST_MAX; /* also NaN */
  if (c < 1.0) return 1;
  return (td_cost)c;
}

void td_graph_grid_weights(double cell, td_cost *w1, td_cost *w2) {
  *w1 = td_graph_cost(cell, 1.0);
  *w2 = td_graph_cost(cell * sqrt(2.0), 1.0);
}

/* Correctly rounded (unlike hypot), so weights are the same bits everywhere. */
static double seg_length(const td_graph *g, int32_t a, int32_t b) {
  double dx = g->x[a] - g->x[b], dy = g->y[a] - g->y[b];
  return sqrt(dx * dx + dy * dy);
}

double td_graph_edge_length(const td_graph *g, int32_t e) {
  const td_edge *ed = &g->edges[e];
  if (g->grid_cell > 0.0) /* grid.c pins its weights to these two lengths */
    return g->x[ed->a] == g->x[ed->b] || g->y[ed->a] == g->y[ed->b] ? g->grid_cell
                                                                     : g->grid_cell * sqrt(2.0);
  return seg_length(g, ed->a, ed->b);
}

double td_graph_cost_to_units(td_cost c) {
  return (double)c / (double)TD_COST_ONE;
}

int32_t td_graph_add_edge(td_graph *g, int32_t a, int32_t b, double factor,
                          td_err *err) {
  if (g->finalized) return td_err_set(err, "graph: add_edge after finalize");
  if (a < 0 || a >= g->node_count || b < 0 || b >= g->node_count)
    return td_err_set(err, "graph: edge %d-%d names an unknown node", a, b);
  if (a == b) return td_err_set(err, "graph: edge %d-%d joins a node to itself", a, b);
  if (!(factor > 0.0) || !isfinite(factor))
    return td_err_set(err, "graph: edge %d-%d: cost factor must be a positive number", a, b);
  if (g->edge_count == INT32_MAX / 2) return td_err_set(err, "graph: too many edges");
  if ((size_t)g->edge_count == g->edge_cap) {
    void *p = td_mem_grow(g->edges, &g->edge_cap, g->edge_cap + 1, sizeof *g->edges);
    if (!p) return td_err_set(err, "graph: out of memory");
    g->edges = p;
  }
  double len = seg_length(g, a, b);
  int32_t id = g->edge_count++;
  g->edges[id] = (td_edge){.a = a, .b = b, .w = td_graph_cost(len, factor),
                           .factor = factor, .blocked = 0};
  if (id == 0 || factor < g->min_factor) g->min_factor = factor;
  return id;
}

int td_graph_finalize(td_graph *g, td_err *err) {
  if (g->finalized) return 0;
  size_t n = (size_t)g->node_count, h = 2 * (size_t)g->edge_count;
  td_cost total = 0;
  for (int32_t e = 0; e < g->edge_count; e++) {
    total += g->edges[e].w; /* each w <= TD_COST_MAX: no wrap before the test */
    if (total >= TD_COST_MAX)
      return td_err_set(err, "graph: the edges are too long in all (more than %.3g map units "
                        "of weighted length)", td_graph_cost_to_units(TD_COST_MAX));
  }
  g->adj_start = td_mem_calloc(n + 1, sizeof(int32_t));
  g->adj_to = td_mem_alloc(adj_bytes(h));
  g->adj_edge = td_mem_alloc(adj_bytes(h));
  if (!g->adj_start || !g->adj_to || !g->adj_edge) {
    td_mem_free(g->adj_start, (n + 1) * sizeof(int32_t));
    td_mem_free(g->adj_to, adj_bytes(h));
    td_mem_free(g->adj_edge, adj_bytes(h));
    g->adj_start = g->adj_to = g->adj_edge = NULL;
    return td_err_set(err, "graph: out of memory");
  }
  g->weight_sum = total;
  if (g->edge_count == 0) g->min_factor = 1.0;
  /* counting sort by source node, then each node's run by neighbour id */
  for (int32_t e = 0; e < g->edge_count; e++) {
    g->adj_start[g->edges[e].a + 1]++;
    g->adj_start[g->edges[e].b + 1]++;
  }
  for (size_t i = 0; i < n; i++) g->adj_start[i + 1] += g->adj_start[i];
  /* fill using adj_to[start..] as a cursor: edges are visited in id order */
  for (int32_t e = 0; e < g->edge_count; e++) {
    int32_t a = g->edges[e].a, b = g->edges[e].b;
    int32_t ia = g->adj_start[a]++, ib = g->adj_start[b]++;
    g->adj_to[ia] = b;
    g->adj_edge[ia] = e;
    g->adj_to[ib] = a;
    g->adj_edge[ib] = e;
  }
  for (size_t i = n; i > 0; i--) g->adj_start[i] = g->adj_start[i - 1];
  g->adj_start[0] = 0;
  /* insertion sort per node: degrees are small */
  for (size_t v = 0; v < n; v++) {
    int32_t s = g->adj_start[v], t = g->adj_start[v + 1];
    for (int32_t i = s + 1; i < t; i++) {
      int32_t to = g->adj_to[i], ed = g->adj_edge[i], j = i - 1;
      while (j >= s && g->adj_to[j] > to) {
        g->adj_to[j + 1] = g->adj_to[j];
        g->adj_edge[j + 1] = g->adj_edge[j];
        j--;
      }
      g->adj_to[j + 1] = to;
      g->adj_edge[j + 1] = ed;
    }
    for (int32_t i = s + 1; i < t; i++)
      if (g->adj_to[i] == g->adj_to[i - 1]) {
        td_err_set(err, "graph: nodes %zu and %d are joined by two edges (%d and %d)",
                   v, g->adj_to[i], g->adj_edge[i - 1], g->adj_edge[i]);
        td_mem_free(g->adj_start, (n + 1) * sizeof(int32_t));
        td_mem_free(g->adj_to, adj_bytes(h));
        td_mem_free(g->adj_edge, adj_bytes(h));
        g->adj_start = g->adj_to = g->adj_edge = NULL;
        return -1;
      }
  }
  g->finalized = true;
  return 0;
}

int32_t td_graph_find_half(const td_graph *g, int32_t a, int32_t b) {
  if (!g->finalized || a < 0 || a >= g->node_count || b < 0 || b >= g->node_count)
    return TD_NONE;
  int32_t lo = g->adj_start[a], hi = g->adj_start[a + 1];
  while (lo < hi) {
    int32_t mid = lo + (hi - lo) / 2;
    if (g->adj_to[mid] < b) lo = mid + 1;
    else hi = mid;
  }
  return (lo < g->adj_start[a + 1] && g->adj_to[lo] == b) ? lo : TD_NONE;
}

int32_t td_graph_find_edge(const td_graph *g, int32_t a, int32_t b) {
  int32_t k = td_graph_find_half(g, a, b);
  return k == TD_NONE ? TD_NONE : g->adj_edge[k];
}
