/*
** cost.c: the rules' cost factors (mud, bridges): setting and reading them,
** and putting them back on the graph after a load (see world.h, Costs).
**
** The state is two arrays, edge_cost (each edge's own factor, the map's
** until a rule sets it) and node_cost (1 until set). The graph's factor of
** edge e is always cost_edge_factor(w, e), a pure function of them, so a
** loaded world that applies them afresh has the same weights, bit for
** bit, and (the route being canonical) the same route.
*/
#include "sim/world_int.h"

#include <math.h>

double cost_edge_factor(const td_world *w, int32_t e) {
  const td_edge *ed = &w->graph->edges[e];
  return w->edge_cost[e] * ((w->node_cost[ed->a] + w->node_cost[ed->b]) / 2.0);
}

int grow_batch(td_world *w, size_t need) {
  if (need <= w->batch_cap) return 0;
  td_graph_change *p = td_mem_grow(w->batch, &w->batch_cap, need, sizeof *p);
  if (!p) return -1;
  w->batch = p;
  return 0;
}

/* The batch that gives every edge at the changed ids its factor now. */
static size_t cost_batch(td_world *w, td_cost_target t, const int32_t *ids, size_t n) {
  const td_graph *g = w->graph;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (t == TD_COST_EDGE) {
      w->batch[k++] = (td_graph_change){.kind = TD_CHANGE_SET_FACTOR, .id = ids[i],
                                        .factor = cost_edge_factor(w, ids[i])};
      continue;
    }
    for (int32_t h = g->adj_start[ids[i]]; h < g->adj_start[ids[i] + 1]; h++)
      w->batch[k++] = (td_graph_change){.kind = TD_CHANGE_SET_FACTOR, .id = g->adj_edge[h],
                                        .factor = cost_edge_factor(w, g->adj_edge[h])};
  }
  return k;
}

int td_world_set_cost(td_world *w, td_cost_target t, const int32_t *ids, size_t n,
                      double factor, td_err *err) {
  const td_graph *g = w->graph;
  if (w->broken) return td_err_set(err, "%s", w->fault.msg);
  if (t != TD_COST_EDGE && t != TD_COST_NODE) return td_err_set(err, "world: bad cost target");
  if (!(factor > 0.0 && factor <= TD_WORLD_MAX_COST)) /* NaN fails too */
    return td_err_set(err, "world: cost factor %g is not in (0, %g]", factor, TD_WORLD_MAX_COST);
  int32_t lim = t == TD_COST_EDGE ? g->edge_count : g->node_count;
  size_t need = 0;
  for (size_t i = 0; i < n; i++) {
    if (ids[i] < 0 || ids[i] >= lim)
      return td_err_set(err, "world: no %s %d (the map has %d)",
                        t == TD_COST_EDGE ? "edge" : "node", (int)ids[i], (int)lim);
    need += t == TD_COST_EDGE ? 1 : (size_t)(g->adj_start[ids[i] + 1] - g->adj_start[ids[i]]);
  }
  if (n == 0) return 0;
  double *arr = t == TD_COST_EDGE ? w->edge_cost : w->node_cost;
  double *old = td_mem_alloc(n * sizeof *old);
  if (!old || grow_batch(w, need) != 0) {
    td_mem_free(old, n * sizeof *old);
    return td_err_set(err, "world: out of memory");
  }
  for (size_t i = 0; i < n; i++) {
    old[i] = arr[ids[i]];
    arr[ids[i]] = factor;
  }
  size_t k = cost_batch(w, t, ids, n);
  int rc = 0;
  size_t m = route_must_reach(w);
  td_route_verdict v;
  if (m == SIZE_MAX) rc = td_err_set(err, "world: out of memory");
  else if (td_route_try_apply(w->route, w->batch, k, w->must, m, &v, err) != 0) rc = -1;
  else if (!v.ok) /* a factor is never infinite: not reached, but refused as a tower is */
    rc = td_err_set(err, "world: the cost change would cut node %d off", (int)v.cut_node);
  if (rc != 0) {
    for (size_t i = n; i-- > 0;) arr[ids[i]] = old[i]; /* backwards: repeats get the first */
    td_mem_free(old, n * sizeof *old);
    return -1;
  }
  td_mem_free(old, n * sizeof *old);
  bool all;
  if (td_route_changed(w->route, NULL, &all) > 0 || all) td_crowd_route_changed(w->crowd);
  soldiers_route_changed(w);
  return 0;
}

double td_world_cost(const td_world *w, td_cost_target t, int32_t id) {
  const td_graph *g = w->graph;
  if (t == TD_COST_EDGE) return id >= 0 && id < g->edge_count ? w->edge_cost[id] : -1.0;
  if (t == TD_COST_NODE) return id >= 0 && id < g->node_count ? w->node_cost[id] : -1.0;
  return -1.0;
}

int costs_reapply(td_world *w, td_err *err) {
  const td_graph *g = w->graph;
  size_t k = 0;
  for (int32_t e = 0; e < g->edge_count; e++) k += cost_edge_factor(w, e) != g->edges[e].factor;
  if (k == 0) return 0;
  if (grow_batch(w, k) != 0) return td_err_set(err, "save: out of memory");
  k = 0;
  for (int32_t e = 0; e < g->edge_count; e++) {
    double f = cost_edge_factor(w, e);
    if (f != g->edges[e].factor)
      w->batch[k++] = (td_graph_change){.kind = TD_CHANGE_SET_FACTOR, .id = e, .factor = f};
  }
  if (td_route_apply(w->route, w->batch, k, err) != 0) return -1;
  return 0;
}
