/*
** route.c: reverse multi-source Dijkstra and its incremental upkeep.
**
** Design note.
** The state is (dist, next) for every node, where next is canonical (the
** smallest-id neighbour on a shortest route, see route.h). Canonical next
** makes the state a function of the graph alone, which is what lets the
** incremental paths below be checked against a full recompute exactly.
**
** Full recompute. Relaxation keeps next canonical on the fly: when node u
** is settled every neighbour with a smaller dist has been settled before it
** (weights are >= 1), so "nd < dist[v] || (nd == dist[v] && u < next[v])"
** sees every candidate ("u < next[v]" in the graph's ids: see the cache
** order in route.h and td_route below). Graphs whose edges take at most FIFO_CLASSES
** distinct weights (every grid: 1 and sqrt 2 times the cell) use one FIFO
** per weight instead of a heap: nodes are settled in nondecreasing dist, so
** the keys pushed through one weight class arrive in nondecreasing order and
** each FIFO stays sorted. A FIFO entry is just a node id; its key is read
** from dist[] when it reaches the head. The entry may be stale (the node
** improved later through another class), but its current dist is then a
** live key of the same node, so the smallest head key is still the smallest
** tentative distance: see pick_fifo(). Other graphs use a lazy 4-ary heap
** of (key, node) pairs.
**
** Blocking (dist can only grow). Phase 1 finds the affected set A: the
** nodes whose canonical route crosses a newly blocked edge or node, minus
** those that have another neighbour at the same distance outside A. It
** pops candidates in increasing (old) dist, so every neighbour with a
** smaller dist is already decided when a node is examined. Phase 2 gives
** each node of A its best offer from the unaffected boundary and runs
** Dijkstra inside A.
**
** Unblocking (dist can only shrink). Newly opened edges and nodes seed a
** Dijkstra that only follows strict improvements (and fixes ties in next).
**
** Cost factors (TD_CHANGE_SET_FACTOR). A heavier edge is a partial block:
** it takes its new weight before the raise phase, and the nodes whose
** canonical route crossed it are candidates as for a blocked edge (dist
** only grows there). A lighter edge keeps its old weight through the raise
** phase, takes the new one after it, and seeds the lower phase like a
** reopened edge (dist only shrinks). So a batch of blocks, unblocks,
** increases and decreases is one raise phase then one lower phase, and the
** result is again the full recompute's, bit for bit. FIFO mode needs every
** weight to have a class: a new weight takes a free class (a class is
** never given back: one no edge uses any more costs nothing), and when all
** FIFO_CLASSES are taken the route switches to heap mode for good. The
** queues' sizes follow the half-edges per class (class_count), kept as
** weights change.
**
** Every dist/next overwritten by an update is first saved in an undo log
** (once per node per update, by stamp), which makes td_route_try_apply an
** exact transaction and tells the caller which nodes changed.
*/
#include "nav/route.h"

#include <float.h>
#include <string.h>

#include "nav/order.h"

#define FIFO_CLASSES 8

/* Packed half-edge of the FIFO mode: neighbour id in the low 28 bits,
** weight class in the high 4; class HP_CLOSED marks a blocked half-edge. */
#define HP_SHIFT 28
#define HP_MASK ((1u << HP_SHIFT) - 1)
#define HP_CLOSED 15u
#define HP_MAX_NODES ((int32_t)HP_MASK)

/* How many queue entries ahead the full recompute prefetches adjacency. */
#define PREFETCH_AHEAD 16
#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif

/* One flag a batch touches: its value before the batch and its net value
** after it. before && !after is an unblock, !before && after a block. */
typedef struct flag_undo {
  uint8_t is_node;   /* 1: node flag, 0: edge flag */
  uint8_t before;
  uint8_t after;
  int32_t id;
} flag_undo;

/* One edge weight a batch changes: its values before the batch and its net
** values after it. */
typedef struct weight_undo {
  int32_t id;
  td_cost w_before, w_after;
  double f_before, f_after;
} weight_undo;

typedef struct heap_item {
  td_cost key;
  int32_t node;
} heap_item;

struct td_route {
  td_graph *g;
  int32_t n;
  td_cost *dist;
  int32_t *next;
  int32_t *goals;
  size_t goal_count;
  uint8_t *is_goal;

  /* lazy 4-ary min-heap of (key, node): a node is pushed again when its
  ** dist decreases, and an entry whose key is no longer dist[node] is stale
  ** and skipped when popped. Keys are inline so that sifting reads the heap
  ** alone. Capacity n + 1: when full, compacting the stale entries leaves at
  ** most one per node (pushes happen on strict decreases only). */
  heap_item *heap;
  int32_t heap_len;

  /* per-update stamps: seen (pushed as a candidate), aff (in A) */
  uint32_t *seen;
  uint32_t *aff;
  uint32_t epoch;
  int32_t *affected;
  int32_t affected_len;

  /* undo log of dist/next, at most one entry per node per update */
  uint32_t *logged;
  uint32_t log_epoch;
  int32_t *log_node;
  td_cost *log_dist;
  int32_t *log_next;
  int32_t log_len;
  bool log_all;       /* the update was a full recompute */

  /* flags of the current batch: first value seen of each item */
  uint32_t *edge_touch;
  uint32_t *node_touch;
  flag_undo *undo;
  size_t undo_cap;
  uint8_t *reach_before;
  size_t reach_cap;

  /* weights of the current batch (TD_CHANGE_SET_FACTOR), one record per
  ** edge; weight_touch (per edge, allocated at the first factor change)
  ** stamps them. The graph's weight_sum and min_factor before the batch. */
  uint32_t *weight_touch;
  weight_undo *wundo;
  size_t wundo_cap, wundo_len;
  td_cost sum_before, sum_after;
  double min_factor_before;

  /* A mirror of the flags kept by sync_edge(), so that the hot loops read
  ** the adjacency sequentially and never the edge records. Heap mode:
  ** hw[k] is the weight of half-edge k (as laid out by the graph's
  ** adjacency) or TD_COST_INF when the edge or either endpoint is blocked.
  ** FIFO mode: hp[k] packs neighbour and class (see HP_SHIFT). */
  td_cost *hw;
  uint32_t *hp;

  /* FIFO classes for the full recompute, or fifo_classes == 0 for heap */
  int fifo_classes;
  td_cost class_w[FIFO_CLASSES];
  size_t class_count[FIFO_CLASSES];  /* half-edges of each class (blocked too) */
  int32_t *fifo;                     /* one buffer for every queue */
  size_t fifo_base[FIFO_CLASSES + 2];/* queue q is fifo[base[q] .. base[q+1]) */
  size_t fifo_head[FIFO_CLASSES + 1];
  size_t fifo_tail[FIFO_CLASSES + 1];
  size_t fifo_total;
  uint8_t *settled;

  /* Cache order (order.h): internal node i is the graph's node ext[i], and
  ** the graph's node x is internal node in_of[x]. Everything in this file
  ** works on internal ids and the route's own adjacency (adj_*: the
  ** graph's, with each node's run in the same order, ascending graph ids,
  ** and neighbours renamed), so that a search near a node reads memory near
  ** it. ext == NULL: the order is the graph's (and adj_* are its arrays).
  ** xdist/xnext/xlog/xgoals are what the API hands out, in graph ids, kept
  ** by publish() after every update. */
  int32_t *ext, *in_of;
  int32_t *adj_start, *adj_to, *adj_edge;
  uint8_t *nblk;          /* node_blocked by internal id (sync_item keeps it) */
  td_cost *xdist;
  int32_t *xnext, *xlog, *xgoals;

  double fallback;
  td_route_stats stats;
};

/* Internal id of graph node x, and graph id of internal node v. */
static inline int32_t in_id(const td_route *r, int32_t x) { return r->ext ? r->in_of[x] : x; }
static inline int32_t ext_id(const td_route *r, int32_t v) { return r->ext ? r->ext[v] : v; }

static inline bool node_blocked(const td_route *r, int32_t v) {
  return r->ext ? r->nblk[v] != 0 : r->g->node_blocked[v] != 0;
}

/* u comes before v in the graph's ids (the canonical tie rule), ext being
** the route's (NULL: the graph's order); false when v is TD_NONE, as
** u < TD_NONE is. */
static inline bool ext_before(const int32_t *ext, int32_t u, int32_t v) {
  if (!ext) return u < v;
  return v >= 0 && ext[u] < ext[v];
}

static inline bool id_before(const td_route *r, int32_t u, int32_t v) {
  return ext_before(r->ext, u, v);
}

/* Weight of half-edge k, TD_COST_INF when closed. */
static inline td_cost half_w(const td_route *r, int32_t k) {
  if (r->hw) return r->hw[k];
  uint32_t c = r->hp[k] >> HP_SHIFT;
  return c == HP_CLOSED ? TD_COST_INF : r->class_w[c];
}

/* ---- lazy 4-ary heap ----------------------------------------------------- */

static inline bool heap_less(heap_item a, heap_item b) {
  return a.key < b.key || (a.key == b.key && a.node < b.node);
}

static void heap_sift_up(heap_item *h, int32_t i) {
  heap_item it = h[i];
  while (i > 0) {
    int32_t p = (i - 1) / 4;
    if (!heap_less(it, h[p])) break;
    h[i] = h[p];
    i = p;
  }
  h[i] = it;
}

static void heap_sift_down(heap_item *h, int32_t len, int32_t i) {
  heap_item it = h[i];
  for (;;) {
    int32_t c = 4 * i + 1;
    if (c >= len) break;
    int32_t best = c, end = c + 4 < len ? c + 4 : len;
    for (int32_t j = c + 1; j < end; j++)
      if (heap_less(h[j], h[best])) best = j;
    if (!heap_less(h[best], it)) break;
    h[i] = h[best];
    i = best;
  }
  h[i] = it;
}

/* Drops stale entries and rebuilds the heap (O(n)); see heap_item. */
static void heap_compact(td_route *r) {
  int32_t k = 0;
  for (int32_t i = 0; i < r->heap_len; i++)
    if (r->heap[i].key == r->dist[r->heap[i].node]) r->heap[k++] = r->heap[i];
  r->heap_len = k;
  for (int32_t i = k / 4; i >= 0; i--) heap_sift_down(r->heap, k, i);
}

/* Pushes v with key dist[v]. */
static inline void heap_push(td_route *r, int32_t v) {
  if (r->heap_len > r->n) heap_compact(r);
  r->heap[r->heap_len] = (heap_item){r->dist[v], v};
  heap_sift_up(r->heap, r->heap_len++);
}

/* Pops the smallest live entry; TD_NONE when the heap is empty. */
static int32_t heap_pop(td_route *r) {
  while (r->heap_len > 0) {
    heap_item top = r->heap[0];
    if (--r->heap_len > 0) {
      r->heap[0] = r->heap[r->heap_len];
      heap_sift_down(r->heap, r->heap_len, 0);
    }
    if (top.key == r->dist[top.node]) return top.node;
  }
  return TD_NONE;
}

static void heap_clear(td_route *r) { r->heap_len = 0; }

/* ---- undo log ------------------------------------------------------------ */

static void log_begin(td_route *r) {
  if (++r->log_epoch == 0) {  /* wrapped: clear stamps once in 2^32 updates */
    memset(r->logged, 0, (size_t)r->n * sizeof *r->logged);
    r->log_epoch = 1;
  }
  r->log_len = 0;
  r->log_all = false;
}

static inline void log_node(td_route *r, int32_t v) {
  if (r->log_all || r->logged[v] == r->log_epoch) return;
  r->logged[v] = r->log_epoch;
  int32_t i = r->log_len++;
  r->log_node[i] = v;
  r->log_dist[i] = r->dist[v];
  r->log_next[i] = r->next[v];
}

/* ---- the API's view, in the graph's ids ----------------------------------- */

/* Copies internal node v's dist and next to the API's arrays. */
static inline void publish_node(td_route *r, int32_t v) {
  int32_t x = r->ext[v], nx = r->next[v];
  r->xdist[x] = r->dist[v];
  r->xnext[x] = nx < 0 ? TD_NONE : r->ext[nx];
}

static void publish_all(td_route *r) {
  if (!r->ext) return;
  for (int32_t x = 0; x < r->n; x++) { /* in graph order: writes in sequence */
    int32_t v = r->in_of[x], nx = r->next[v];
    r->xdist[x] = r->dist[v];
    r->xnext[x] = nx < 0 ? TD_NONE : r->ext[nx];
  }
}

/* After an update: what the log says changed (every node after a full
** recompute), and the changed list in graph ids. */
static void publish(td_route *r) {
  if (!r->ext) return;
  if (r->log_all) publish_all(r);
  for (int32_t i = 0; i < r->log_len; i++) {
    int32_t v = r->log_node[i];
    if (!r->log_all) publish_node(r, v);
    r->xlog[i] = r->ext[v];
  }
}

/* Restores what the update overwrote. The changed list becomes empty; the
** stamps are forgotten at the next log_begin. */
static void log_rollback(td_route *r) {
  if (r->log_all) { /* a snapshot of every node, indexed by node */
    memcpy(r->dist, r->log_dist, (size_t)r->n * sizeof *r->dist);
    memcpy(r->next, r->log_next, (size_t)r->n * sizeof *r->next);
    publish_all(r);
  } else {
    for (int32_t i = 0; i < r->log_len; i++) {
      int32_t v = r->log_node[i];
      r->dist[v] = r->log_dist[i];
      r->next[v] = r->log_next[i];
      if (r->ext) publish_node(r, v);
    }
  }
  r->log_len = 0;
  r->log_all = false;
}

/* Turns the log into a snapshot of every node before a full recompute:
** undoes what the update wrote so far, then copies dist and next whole
** (two memcpy, much faster than logging node by node). */
static void log_snapshot(td_route *r) {
  if (!r->log_all) log_rollback(r);
  memcpy(r->log_dist, r->dist, (size_t)r->n * sizeof *r->dist);
  memcpy(r->log_next, r->next, (size_t)r->n * sizeof *r->next);
  for (int32_t v = 0; v < r->n; v++) r->log_node[v] = v;
  r->log_len = r->n;
  r->log_all = true;
}

/* Every array stamped with epoch is cleared when it wraps (once in 2^32
** updates), so that an old stamp never passes for a current one. */
static void next_epoch(td_route *r) {
  if (++r->epoch == 0) {
    memset(r->seen, 0, (size_t)r->n * sizeof *r->seen);
    memset(r->aff, 0, (size_t)r->n * sizeof *r->aff);
    memset(r->node_touch, 0, (size_t)r->n * sizeof *r->node_touch);
    memset(r->edge_touch, 0, (size_t)r->g->edge_count * sizeof *r->edge_touch);
    if (r->weight_touch)
      memset(r->weight_touch, 0, (size_t)r->g->edge_count * sizeof *r->weight_touch);
    r->epoch = 1;
  }
}

/* ---- the half-edge mirror of the flags ----------------------------------- */

/* The class of weight w, which must have one: every edge's weight has a
** class in FIFO mode (classify_weights, then prepare_weights before a
** factor change). */
static int weight_class(const td_route *r, td_cost w) {
  int c = 0;
  while (r->class_w[c] != w) c++;
  return c;
}

static void set_half(td_route *r, int32_t k, int32_t e, bool open) {
  const td_graph *g = r->g;
  if (r->hw) {
    r->hw[k] = open ? g->edges[e].w : TD_COST_INF;
  } else {
    uint32_t c = open ? (uint32_t)weight_class(r, g->edges[e].w) : HP_CLOSED;
    r->hp[k] = (c << HP_SHIFT) | (uint32_t)r->adj_to[k];
  }
}

/* The route's half-edge a->b (graph ids): the graph's, at the same place
** in a's run. */
static int32_t half_of(const td_route *r, int32_t a, int32_t b) {
  const td_graph *g = r->g;
  int32_t k = td_graph_find_half(g, a, b);
  return r->ext ? r->adj_start[r->in_of[a]] + (k - g->adj_start[a]) : k;
}

static void sync_edge(td_route *r, int32_t e) {
  const td_graph *g = r->g;
  bool open = td_graph_edge_open(g, e);
  set_half(r, half_of(r, g->edges[e].a, g->edges[e].b), e, open);
  set_half(r, half_of(r, g->edges[e].b, g->edges[e].a), e, open);
}

static void sync_item(td_route *r, bool is_node, int32_t id) {
  if (!is_node) {
    sync_edge(r, id);
    return;
  }
  const td_graph *g = r->g;
  if (r->ext) r->nblk[r->in_of[id]] = g->node_blocked[id];
  for (int32_t k = g->adj_start[id], end = g->adj_start[id + 1]; k < end; k++)
    sync_edge(r, g->adj_edge[k]);
}

static void sync_all(td_route *r) {
  const td_graph *g = r->g;
  for (int32_t k = 0; k < 2 * g->edge_count; k++)
    set_half(r, k, r->adj_edge[k], td_graph_edge_open(g, r->adj_edge[k]));
}

/* Gives edge e weight w (its mirror and, in FIFO mode, the class counts
** follow). */
static void set_weight(td_route *r, int32_t e, td_cost w) {
  td_edge *ed = &r->g->edges[e];
  if (ed->w == w) return;
  if (r->fifo_classes > 0) {
    r->class_count[weight_class(r, ed->w)] -= 2;
    r->class_count[weight_class(r, w)] += 2;
  }
  ed->w = w;
  sync_edge(r, e);
}

/* Offers v the route through u (edge weight w): a strict improvement
** updates dist and next and queues v; an equal cost through a smaller id
** fixes next (canonical). Logs v before writing it. */
static inline void relax(td_route *r, int32_t u, int32_t v, td_cost w) {
  if (r->dist[u] == TD_COST_INF) return;
  td_cost nd = r->dist[u] + w;
  if (nd < r->dist[v]) {
    log_node(r, v);
    r->dist[v] = nd;
    r->next[v] = u;
    heap_push(r, v);
  } else if (nd == r->dist[v] && id_before(r, u, r->next[v])) {
    log_node(r, v);
    r->next[v] = u;
  }
}

/* ---- full recompute ------------------------------------------------------ */

static inline void fifo_push(td_route *r, int q, int32_t v) {
  r->fifo[r->fifo_base[q] + r->fifo_tail[q]++] = v;
}

/* Index of the queue whose head has the smallest current dist, after
** dropping settled heads; -1 when every queue is empty. */
static int pick_fifo(td_route *r) {
  int best = -1;
  td_cost bk = TD_COST_INF;
  for (int q = 0; q <= r->fifo_classes; q++) {
    const int32_t *base = r->fifo + r->fifo_base[q];
    while (r->fifo_head[q] < r->fifo_tail[q] && r->settled[base[r->fifo_head[q]]])
      r->fifo_head[q]++;
    if (r->fifo_head[q] == r->fifo_tail[q]) continue;
    td_cost k = r->dist[base[r->fifo_head[q]]];
    if (best < 0 || k < bk) {
      best = q;
      bk = k;
    }
  }
  return best;
}

static void full_fifo(td_route *r) {
  /* queue q gets room for one push per half-edge of its class, at most */
  size_t room = 0;
  for (int q = 0; q < r->fifo_classes; q++) {
    r->fifo_base[q] = room;
    room += r->class_count[q];
  }
  r->fifo_base[r->fifo_classes] = room;
  r->fifo_base[r->fifo_classes + 1] = room + r->goal_count;
  memset(r->settled, 0, (size_t)r->n);
  for (int q = 0; q <= r->fifo_classes; q++) r->fifo_head[q] = r->fifo_tail[q] = 0;
  /* queue fifo_classes holds the sources */
  for (size_t i = 0; i < r->goal_count; i++)
    if (r->dist[r->goals[i]] == 0) fifo_push(r, r->fifo_classes, r->goals[i]);
  const uint32_t *hp = r->hp;
  const int32_t *adj_start = r->adj_start;
  td_cost *dist = r->dist;
  int32_t *next = r->next;
  const int32_t *ext = r->ext;
  td_cost cw[HP_CLOSED + 1];
  for (int c = 0; c < r->fifo_classes; c++) cw[c] = r->class_w[c];
  for (;;) {
    int q = pick_fifo(r);
    if (q < 0) break;
    const int32_t *queue = r->fifo + r->fifo_base[q];
    size_t at = r->fifo_head[q]++;
    int32_t u = queue[at];
    /* The pop order follows the wavefront, not memory: fetch the adjacency
    ** of entries a few pops ahead (first where it starts, then itself). */
    if (at + PREFETCH_AHEAD < r->fifo_tail[q]) {
      int32_t w = queue[at + PREFETCH_AHEAD];
      PREFETCH(&adj_start[w]);
      PREFETCH(&r->settled[w]);
    }
    if (at + PREFETCH_AHEAD / 2 < r->fifo_tail[q]) {
      int32_t w = queue[at + PREFETCH_AHEAD / 2];
      PREFETCH(&hp[adj_start[w]]);
      PREFETCH(&dist[w]);
    }
    r->settled[u] = 1;
    td_cost du = dist[u];
    /* no settled test: a settled v has dist[v] <= du < du + w */
    for (int32_t k = adj_start[u], end = adj_start[u + 1]; k < end; k++) {
      uint32_t c = hp[k] >> HP_SHIFT;
      if (c == HP_CLOSED) continue;
      int32_t v = (int32_t)(hp[k] & HP_MASK);
      td_cost nd = du + cw[c];
      if (nd < dist[v]) {
        dist[v] = nd;
        next[v] = u;
        fifo_push(r, (int)c, v);
      } else if (nd == dist[v] && ext_before(ext, u, next[v])) {
        next[v] = u;
      }
    }
  }
}

static void full_heap(td_route *r) {
  heap_clear(r);
  for (size_t i = 0; i < r->goal_count; i++)
    if (r->dist[r->goals[i]] == 0 && r->next[r->goals[i]] == TD_NONE) {
      r->next[r->goals[i]] = r->goals[i]; /* marks a goal listed twice */
      heap_push(r, r->goals[i]);
    }
  for (size_t i = 0; i < r->goal_count; i++) r->next[r->goals[i]] = TD_NONE;
  /* relax() without the undo log, which a full recompute does not keep
  ** (log_all: a snapshot was taken), on the weight mirror directly */
  const int32_t *adj_start = r->adj_start, *adj_to = r->adj_to;
  const td_cost *hw = r->hw;
  td_cost *dist = r->dist;
  int32_t *next = r->next;
  const int32_t *ext = r->ext;
  for (int32_t u; (u = heap_pop(r)) != TD_NONE;) {
    td_cost du = dist[u];
    for (int32_t k = adj_start[u], end = adj_start[u + 1]; k < end; k++) {
      td_cost w = hw[k];
      if (w == TD_COST_INF) continue;
      int32_t v = adj_to[k];
      td_cost nd = du + w;
      if (nd < dist[v]) {
        dist[v] = nd;
        next[v] = u;
        heap_push(r, v);
      } else if (nd == dist[v] && ext_before(ext, u, next[v])) {
        next[v] = u;
      }
    }
  }
}

static void full_recompute(td_route *r) {
  for (int32_t v = 0; v < r->n; v++) {
    r->dist[v] = TD_COST_INF;
    r->next[v] = TD_NONE;
  }
  for (size_t i = 0; i < r->goal_count; i++)
    if (!node_blocked(r, r->goals[i])) r->dist[r->goals[i]] = 0;
  if (r->fifo_classes > 0) full_fifo(r);
  else full_heap(r);
  r->stats.full_count++;
  r->stats.last_full = true;
  r->stats.last_affected = (size_t)r->n;
}

/* Full recompute inside an update, after a snapshot for the undo log. */
static void fallback_full(td_route *r) {
  heap_clear(r);
  log_snapshot(r);
  r->stats.fallback_count++;
  full_recompute(r);
}

void td_route_full(td_route *r) {
  log_begin(r);
  heap_clear(r);
  log_snapshot(r);
  full_recompute(r);
  publish(r);
}

/* ---- creation ------------------------------------------------------------ */

/* Sorts the distinct edge weights into at most FIFO_CLASSES classes; leaves
** fifo_classes at 0 when there are more. */
static void classify_weights(td_route *r) {
  const td_graph *g = r->g;
  int k = 0;
  for (int32_t e = 0; e < g->edge_count; e++) {
    td_cost w = g->edges[e].w;
    int c = 0;
    while (c < k && r->class_w[c] != w) c++;
    if (c == k) {
      if (k == FIFO_CLASSES) {
        r->fifo_classes = 0;
        return;
      }
      r->class_w[k++] = w;
    }
  }
  r->fifo_classes = k;
}

/* The route's arrays of the cache order (see ext in td_route). */
typedef struct order_arrays {
  int32_t *ext, *in_of, *adj_start, *adj_to, *adj_edge, *xnext, *xlog, *xgoals;
  td_cost *xdist;
  uint8_t *nblk;
} order_arrays;

static void free_order(order_arrays *o, size_t n1, size_t h1, size_t goals1) {
  td_mem_free(o->ext, n1 * sizeof *o->ext);
  td_mem_free(o->in_of, n1 * sizeof *o->in_of);
  td_mem_free(o->adj_start, (n1 + 1) * sizeof *o->adj_start);
  td_mem_free(o->adj_to, h1 * sizeof *o->adj_to);
  td_mem_free(o->adj_edge, h1 * sizeof *o->adj_edge);
  td_mem_free(o->xdist, n1 * sizeof *o->xdist);
  td_mem_free(o->xnext, n1 * sizeof *o->xnext);
  td_mem_free(o->xlog, n1 * sizeof *o->xlog);
  td_mem_free(o->xgoals, goals1 * sizeof *o->xgoals);
  td_mem_free(o->nblk, n1);
}

static bool wants_order(const td_graph *g, td_route_order order) {
  if (order == TD_ROUTE_ORDER_NONE || g->node_count < 2) return false;
  if (order == TD_ROUTE_ORDER_HILBERT) return true;
  return !(g->grid_cell > 0.0) && g->node_count >= TD_ROUTE_ORDER_MIN;
}

/* Numbers the nodes along the Hilbert curve and builds the route's own
** adjacency in that numbering (each run keeps the graph's order of
** neighbours, ascending graph ids, which best_outside's tie rule needs).
** -1 when out of memory, with nothing left allocated. */
static int build_order(td_route *r, td_route_order order) {
  const td_graph *g = r->g;
  r->adj_start = g->adj_start;
  r->adj_to = g->adj_to;
  r->adj_edge = g->adj_edge;
  if (!wants_order(g, order)) return 0;
  size_t n1 = (size_t)r->n, h1 = 2 * (size_t)g->edge_count, goals1 = r->goal_count;
  if (h1 == 0) h1 = 1;
  if (goals1 == 0) goals1 = 1;
  order_arrays o = {
      .ext = td_mem_alloc(n1 * sizeof *o.ext),
      .in_of = td_mem_alloc(n1 * sizeof *o.in_of),
      .adj_start = td_mem_alloc((n1 + 1) * sizeof *o.adj_start),
      .adj_to = td_mem_alloc(h1 * sizeof *o.adj_to),
      .adj_edge = td_mem_alloc(h1 * sizeof *o.adj_edge),
      .xdist = td_mem_alloc(n1 * sizeof *o.xdist),
      .xnext = td_mem_alloc(n1 * sizeof *o.xnext),
      .xlog = td_mem_alloc(n1 * sizeof *o.xlog),
      .xgoals = td_mem_alloc(goals1 * sizeof *o.xgoals),
      .nblk = td_mem_alloc(n1)};
  if (!o.ext || !o.in_of || !o.adj_start || !o.adj_to || !o.adj_edge || !o.xdist || !o.xnext ||
      !o.xlog || !o.xgoals || !o.nblk || td_order_hilbert(g->x, g->y, r->n, o.ext, NULL) != 0) {
    free_order(&o, n1, h1, goals1);
    return -1;
  }
  for (int32_t v = 0; v < r->n; v++) {
    o.in_of[o.ext[v]] = v;
    o.nblk[v] = g->node_blocked[o.ext[v]];
  }
  int32_t at = 0;
  for (int32_t v = 0; v < r->n; v++) {
    int32_t x = o.ext[v];
    o.adj_start[v] = at;
    for (int32_t k = g->adj_start[x], end = g->adj_start[x + 1]; k < end; k++, at++) {
      o.adj_to[at] = o.in_of[g->adj_to[k]];
      o.adj_edge[at] = g->adj_edge[k];
    }
  }
  o.adj_start[r->n] = at;
  r->ext = o.ext;
  r->in_of = o.in_of;
  r->adj_start = o.adj_start;
  r->adj_to = o.adj_to;
  r->adj_edge = o.adj_edge;
  r->xdist = o.xdist;
  r->xnext = o.xnext;
  r->xlog = o.xlog;
  r->xgoals = o.xgoals;
  r->nblk = o.nblk;
  return 0;
}

td_route *td_route_create(td_graph *g, const int32_t *goals, size_t goal_count,
                          td_err *err) {
  return td_route_create_ordered(g, goals, goal_count, TD_ROUTE_ORDER_AUTO, err);
}

td_route *td_route_create_ordered(td_graph *g, const int32_t *goals, size_t goal_count,
                                  td_route_order order, td_err *err) {
  if (!g->finalized) {
    td_err_set(err, "route: graph is not finalized");
    return NULL;
  }
  for (size_t i = 0; i < goal_count; i++)
    if (goals[i] < 0 || goals[i] >= g->node_count) {
      td_err_set(err, "route: goal %zu names unknown node %d", i, goals[i]);
      return NULL;
    }
  td_route *r = td_mem_calloc(1, sizeof *r);
  if (!r) {
    td_err_set(err, "route: out of memory");
    return NULL;
  }
  size_t n = (size_t)g->node_count, ne = (size_t)g->edge_count;
  size_t n1 = n ? n : 1, ne1 = ne ? ne : 1;
  r->g = g;
  r->n = g->node_count;
  r->fallback = 0.0625;
  r->goal_count = goal_count;
  r->dist = td_mem_alloc(n1 * sizeof *r->dist);
  r->next = td_mem_alloc(n1 * sizeof *r->next);
  r->goals = td_mem_alloc((goal_count ? goal_count : 1) * sizeof *r->goals);
  r->is_goal = td_mem_calloc(n1, 1);
  r->heap = td_mem_alloc((n1 + 1) * sizeof *r->heap);
  r->seen = td_mem_calloc(n1, sizeof *r->seen);
  r->aff = td_mem_calloc(n1, sizeof *r->aff);
  r->affected = td_mem_alloc(n1 * sizeof *r->affected);
  r->logged = td_mem_calloc(n1, sizeof *r->logged);
  r->log_node = td_mem_alloc(n1 * sizeof *r->log_node);
  r->log_dist = td_mem_alloc(n1 * sizeof *r->log_dist);
  r->log_next = td_mem_alloc(n1 * sizeof *r->log_next);
  r->edge_touch = td_mem_calloc(ne1, sizeof *r->edge_touch);
  r->node_touch = td_mem_calloc(n1, sizeof *r->node_touch);
  r->settled = td_mem_alloc(n1);
  if (!r->dist || !r->next || !r->goals || !r->is_goal || !r->heap ||
      !r->seen || !r->aff || !r->affected || !r->logged || !r->log_node ||
      !r->log_dist || !r->log_next || !r->edge_touch || !r->node_touch || !r->settled ||
      build_order(r, order) != 0)
    goto oom;
  for (size_t i = 0; i < goal_count; i++) {
    r->goals[i] = in_id(r, goals[i]);
    r->is_goal[r->goals[i]] = 1;
    if (r->ext) r->xgoals[i] = goals[i];
  }
  classify_weights(r);
  if (g->node_count > HP_MAX_NODES) r->fifo_classes = 0;
  if (r->fifo_classes == 0) {
    r->hw = td_mem_alloc(2 * ne1 * sizeof *r->hw);
    if (!r->hw) goto oom;
  } else {
    r->hp = td_mem_alloc(2 * ne1 * sizeof *r->hp);
    if (!r->hp) goto oom;
  }
  sync_all(r);
  if (r->fifo_classes > 0) {
    for (int32_t e = 0; e < g->edge_count; e++)
      r->class_count[weight_class(r, g->edges[e].w)] += 2; /* one push each, at most */
    size_t at = 2 * ne + goal_count;  /* full_fifo lays the queues out */
    r->fifo_total = at ? at : 1;
    r->fifo = td_mem_alloc(r->fifo_total * sizeof *r->fifo);
    if (!r->fifo) goto oom;
  }
  r->log_all = true; /* nothing to undo: every node is new */
  full_recompute(r);
  publish(r);
  r->stats.full_count = 1;
  return r;
oom:
  td_route_destroy(r);
  td_err_set(err, "route: out of memory");
  return NULL;
}

void td_route_destroy(td_route *r) {
  if (!r) return;
  size_t n = (size_t)(r->n ? r->n : 1), ne = (size_t)(r->g->edge_count ? r->g->edge_count : 1);
  td_mem_free(r->dist, n * sizeof *r->dist);
  td_mem_free(r->next, n * sizeof *r->next);
  td_mem_free(r->goals, (r->goal_count ? r->goal_count : 1) * sizeof *r->goals);
  td_mem_free(r->is_goal, n);
  td_mem_free(r->heap, (n + 1) * sizeof *r->heap);
  td_mem_free(r->seen, n * sizeof *r->seen);
  td_mem_free(r->aff, n * sizeof *r->aff);
  td_mem_free(r->affected, n * sizeof *r->affected);
  td_mem_free(r->logged, n * sizeof *r->logged);
  td_mem_free(r->log_node, n * sizeof *r->log_node);
  td_mem_free(r->log_dist, n * sizeof *r->log_dist);
  td_mem_free(r->log_next, n * sizeof *r->log_next);
  td_mem_free(r->edge_touch, ne * sizeof *r->edge_touch);
  td_mem_free(r->node_touch, n * sizeof *r->node_touch);
  td_mem_free(r->settled, n);
  td_mem_free(r->hw, 2 * ne * sizeof *r->hw);
  td_mem_free(r->hp, 2 * ne * sizeof *r->hp);
  td_mem_free(r->fifo, r->fifo_total * sizeof *r->fifo);
  td_mem_free(r->undo, r->undo_cap * sizeof *r->undo);
  td_mem_free(r->reach_before, r->reach_cap);
  td_mem_free(r->weight_touch, r->weight_touch ? ne * sizeof *r->weight_touch : 0);
  td_mem_free(r->wundo, r->wundo_cap * sizeof *r->wundo);
  if (r->ext) {
    size_t h1 = r->g->edge_count ? 2 * ne : 1, goals1 = r->goal_count ? r->goal_count : 1;
    order_arrays o = {r->ext, r->in_of, r->adj_start, r->adj_to, r->adj_edge,
                      r->xnext, r->xlog, r->xgoals, r->xdist, r->nblk};
    free_order(&o, n, h1, goals1);
  }
  td_mem_free(r, sizeof *r);
}

/* ---- accessors ----------------------------------------------------------- */

const td_graph *td_route_graph(const td_route *r) { return r->g; }
const td_cost *td_route_dist(const td_route *r) { return r->ext ? r->xdist : r->dist; }
const int32_t *td_route_next(const td_route *r) { return r->ext ? r->xnext : r->next; }
bool td_route_reordered(const td_route *r) { return r->ext != NULL; }

size_t td_route_goals(const td_route *r, const int32_t **goals) {
  if (goals) *goals = r->ext ? r->xgoals : r->goals;
  return r->goal_count;
}

bool td_route_is_goal(const td_route *r, int32_t node) {
  return node >= 0 && node < r->n && r->is_goal[in_id(r, node)];
}

void td_route_set_fallback(td_route *r, double fraction) {
  r->fallback = fraction > 0.0 ? (fraction < 1.0 ? fraction : 1.0) : 0.0; /* NaN: 0 */
}

/* The most nodes an update may visit before it falls back. An update
** visits a node through a heap and scans its neighbours twice; a FIFO-mode
** recompute settles one for about a quarter of that, so there the limit is
** a quarter of the fraction. */
static int32_t fallback_limit(const td_route *r) {
  if (r->fallback >= 1.0) return r->n;
  double f = r->fifo_classes > 0 ? r->fallback / 4.0 : r->fallback;
  return (int32_t)(f * (double)r->n);
}

const td_route_stats *td_route_get_stats(const td_route *r) { return &r->stats; }

size_t td_route_changed(const td_route *r, const int32_t **nodes, bool *all) {
  if (nodes) *nodes = r->ext ? r->xlog : r->log_node;
  if (all) *all = r->log_all;
  return (size_t)r->log_len;
}

/* ---- incremental: blocking ----------------------------------------------- */

static inline void push_candidate(td_route *r, int32_t v) {
  if (r->seen[v] == r->epoch) return;
  r->seen[v] = r->epoch;
  heap_push(r, v);
}

/* The canonical best offer to v from open neighbours outside A:
** returns the neighbour (smallest id among the cheapest) or TD_NONE. */
static int32_t best_outside(const td_route *r, int32_t v, td_cost *best) {
  int32_t arg = TD_NONE;
  td_cost bd = TD_COST_INF;
  for (int32_t k = r->adj_start[v], end = r->adj_start[v + 1]; k < end; k++) {
    int32_t m = r->adj_to[k];
    td_cost w = half_w(r, k);
    if (w == TD_COST_INF || r->aff[m] == r->epoch || r->dist[m] == TD_COST_INF) continue;
    td_cost nd = r->dist[m] + w;
    if (nd < bd) { /* ascending ids: strict < keeps the smallest on ties */
      bd = nd;
      arg = m;
    }
  }
  *best = bd;
  return arg;
}

/* Returns false when the affected set outgrew the fallback limit; the
** caller then recomputes everything (only next[] was touched, and logged). */
static bool raise_phase(td_route *r, const flag_undo *items, size_t count) {
  const td_graph *g = r->g;
  next_epoch(r);
  heap_clear(r);
  r->affected_len = 0;
  int32_t limit = fallback_limit(r);

  for (size_t i = 0; i < count; i++) {
    int32_t id = items[i].id;
    if (items[i].before || !items[i].after) continue; /* not a block */
    if (items[i].is_node) {
      if (r->dist[in_id(r, id)] != TD_COST_INF) push_candidate(r, in_id(r, id));
    } else {
      int32_t a = in_id(r, g->edges[id].a), b = in_id(r, g->edges[id].b);
      if (r->next[a] == b) push_candidate(r, a);
      if (r->next[b] == a) push_candidate(r, b);
    }
  }
  /* a heavier edge (already at its new weight): as a block, for the nodes
  ** whose route crossed it (so it was open) */
  for (size_t i = 0; i < r->wundo_len; i++) {
    const weight_undo *u = &r->wundo[i];
    if (u->w_after <= u->w_before) continue;
    int32_t a = in_id(r, g->edges[u->id].a), b = in_id(r, g->edges[u->id].b);
    if (r->next[a] == b) push_candidate(r, a);
    if (r->next[b] == a) push_candidate(r, b);
  }

  /* Phase 1: decide, in increasing old dist, who is affected (keys are
  ** the old dists, unchanged in this phase: no entry goes stale). */
  for (int32_t u; (u = heap_pop(r)) != TD_NONE;) {
    if (!node_blocked(r, u)) {
      td_cost bd;
      int32_t alt = best_outside(r, u, &bd);
      if (alt != TD_NONE && bd == r->dist[u]) {
        if (r->next[u] != alt) {
          log_node(r, u);
          r->next[u] = alt;
        }
        continue;
      }
    }
    r->aff[u] = r->epoch;
    r->affected[r->affected_len++] = u;
    if (r->affected_len > limit) {
      heap_clear(r);
      return false;
    }
    for (int32_t k = r->adj_start[u], end = r->adj_start[u + 1]; k < end; k++) {
      int32_t c = r->adj_to[k];
      if (r->next[c] == u) push_candidate(r, c);
    }
  }

  /* Phase 2: new values for A, from the boundary inwards. */
  for (int32_t i = 0; i < r->affected_len; i++) {
    int32_t u = r->affected[i];
    log_node(r, u);
    r->dist[u] = TD_COST_INF;
    r->next[u] = TD_NONE;
  }
  for (int32_t i = 0; i < r->affected_len; i++) {
    int32_t u = r->affected[i];
    if (node_blocked(r, u)) continue;
    td_cost bd;
    int32_t alt = best_outside(r, u, &bd);
    if (alt == TD_NONE) continue;
    r->dist[u] = bd;
    r->next[u] = alt;
    heap_push(r, u);
  }
  for (int32_t u; (u = heap_pop(r)) != TD_NONE;)
    for (int32_t k = r->adj_start[u], end = r->adj_start[u + 1]; k < end; k++)
      if (r->aff[r->adj_to[k]] == r->epoch && half_w(r, k) != TD_COST_INF)
        relax(r, u, r->adj_to[k], half_w(r, k)); /* A is logged already */
  r->stats.last_affected = (size_t)r->affected_len;
  return true;
}

/* ---- incremental: unblocking --------------------------------------------- */


static void lower_phase(td_route *r, const flag_undo *items, size_t count) {
  const td_graph *g = r->g;
  heap_clear(r);
  int32_t limit = fallback_limit(r);
  for (size_t i = 0; i < count; i++) {
    int32_t id = items[i].id;
    if (!items[i].before || items[i].after) continue; /* not an unblock */
    if (items[i].is_node) {
      int32_t v = in_id(r, id);
      if (r->is_goal[v]) {
        log_node(r, v);
        r->dist[v] = 0;
        r->next[v] = TD_NONE;
        heap_push(r, v);
        continue;
      }
      for (int32_t k = r->adj_start[v], end = r->adj_start[v + 1]; k < end; k++)
        if (half_w(r, k) != TD_COST_INF) relax(r, r->adj_to[k], v, half_w(r, k));
    } else if (td_graph_edge_open(g, id)) {
      const td_edge *e = &g->edges[id];
      relax(r, in_id(r, e->a), in_id(r, e->b), e->w);
      relax(r, in_id(r, e->b), in_id(r, e->a), e->w);
    }
  }
  /* a lighter edge (at its new weight now): as a reopened one */
  for (size_t i = 0; i < r->wundo_len; i++) {
    const weight_undo *u = &r->wundo[i];
    if (u->w_after >= u->w_before || !td_graph_edge_open(g, u->id)) continue;
    const td_edge *e = &g->edges[u->id];
    relax(r, in_id(r, e->a), in_id(r, e->b), e->w);
    relax(r, in_id(r, e->b), in_id(r, e->a), e->w);
  }
  int32_t popped = 0;
  for (int32_t u; (u = heap_pop(r)) != TD_NONE;) {
    if (++popped > limit) {
      fallback_full(r);
      return;
    }
    for (int32_t k = r->adj_start[u], end = r->adj_start[u + 1]; k < end; k++)
      if (half_w(r, k) != TD_COST_INF) relax(r, u, r->adj_to[k], half_w(r, k));
  }
  r->stats.last_affected += (size_t)popped;
}

/* ---- batches ------------------------------------------------------------- */

static bool names_node(td_change_kind k) {
  return k == TD_CHANGE_BLOCK_NODE || k == TD_CHANGE_UNBLOCK_NODE;
}

static bool blocks(td_change_kind k) {
  return k == TD_CHANGE_BLOCK_NODE || k == TD_CHANGE_BLOCK_EDGE;
}

static int check_batch(const td_route *r, const td_graph_change *c, size_t n,
                       td_err *err) {
  for (size_t i = 0; i < n; i++) {
    bool node = names_node(c[i].kind);
    if (!node && c[i].kind != TD_CHANGE_BLOCK_EDGE && c[i].kind != TD_CHANGE_UNBLOCK_EDGE &&
        c[i].kind != TD_CHANGE_SET_FACTOR)
      return td_err_set(err, "route: change %zu has an unknown kind", i);
    int32_t limit = node ? r->n : r->g->edge_count;
    if (c[i].id < 0 || c[i].id >= limit)
      return td_err_set(err, "route: change %zu names unknown %s %d", i,
                        node ? "node" : "edge", c[i].id);
    if (c[i].kind == TD_CHANGE_SET_FACTOR && !(c[i].factor > 0.0 && c[i].factor <= DBL_MAX))
      return td_err_set(err, "route: change %zu: cost factor %g is not a positive number", i,
                        c[i].factor);
  }
  return 0;
}

/* Heap mode for good: the weights outgrew the FIFO classes. -1 when out of
** memory (then nothing changed). */
static int use_heap(td_route *r) {
  size_t ne1 = r->g->edge_count ? (size_t)r->g->edge_count : 1;
  td_cost *hw = td_mem_alloc(2 * ne1 * sizeof *hw);
  if (!hw) return -1;
  td_mem_free(r->hp, 2 * ne1 * sizeof *r->hp);
  td_mem_free(r->fifo, r->fifo_total * sizeof *r->fifo);
  r->hp = NULL;
  r->fifo = NULL;
  r->fifo_total = 0;
  r->fifo_classes = 0;
  r->hw = hw;
  sync_all(r);
  return 0;
}

/* The factor changes of a batch, before anything changes: one record per
** edge in r->wundo (its last change in the batch wins), the weight sum
** checked, and in FIFO mode a class for every new weight. 0, or -1 with
** err set (the weights would add up to TD_COST_MAX or more, or out of
** memory); the graph is untouched either way. */
static int prepare_weights(td_route *r, const td_graph_change *c, size_t n, size_t nw,
                           td_err *err) {
  td_graph *g = r->g;
  r->wundo_len = 0;
  r->sum_before = r->sum_after = g->weight_sum;
  if (nw == 0) return 0;
  if (!r->weight_touch) {
    size_t ne1 = g->edge_count ? (size_t)g->edge_count : 1;
    r->weight_touch = td_mem_calloc(ne1, sizeof *r->weight_touch);
    if (!r->weight_touch) return td_err_set(err, "route: out of memory");
  }
  void *p = td_mem_grow(r->wundo, &r->wundo_cap, nw, sizeof *r->wundo);
  if (!p) return td_err_set(err, "route: out of memory");
  r->wundo = p;
  next_epoch(r);
  for (size_t i = n; i-- > 0;) { /* backwards: the first seen is the last */
    if (c[i].kind != TD_CHANGE_SET_FACTOR || r->weight_touch[c[i].id] == r->epoch) continue;
    r->weight_touch[c[i].id] = r->epoch;
    const td_edge *e = &g->edges[c[i].id];
    r->wundo[r->wundo_len++] = (weight_undo){
        .id = c[i].id, .w_before = e->w, .f_before = e->factor, .f_after = c[i].factor,
        .w_after = td_graph_cost(td_graph_edge_length(g, c[i].id), c[i].factor)};
  }
  /* the new sum: the old weights out (they are part of it), the new in,
  ** each at most TD_COST_MAX, checked before every add so nothing wraps */
  td_cost sum = g->weight_sum;
  for (size_t i = 0; i < r->wundo_len; i++) sum -= r->wundo[i].w_before;
  for (size_t i = 0; i < r->wundo_len; i++) {
    if (r->wundo[i].w_after >= TD_COST_MAX - sum) {
      r->wundo_len = 0;
      return td_err_set(err, "route: edge %d: cost factor %g makes the edges too long in all "
                        "(more than %.3g map units of weighted length)", r->wundo[i].id,
                        r->wundo[i].f_after, td_graph_cost_to_units(TD_COST_MAX));
    }
    sum += r->wundo[i].w_after;
  }
  r->sum_after = sum;
  for (size_t i = 0; i < r->wundo_len && r->fifo_classes > 0; i++) {
    td_cost w = r->wundo[i].w_after;
    int k = 0;
    while (k < r->fifo_classes && r->class_w[k] != w) k++;
    if (k < r->fifo_classes) continue;
    if (k < FIFO_CLASSES) {
      r->class_w[k] = w;
      r->class_count[k] = 0;
      r->fifo_classes++;
    } else if (use_heap(r) != 0) {
      r->wundo_len = 0;
      return td_err_set(err, "route: out of memory");
    }
  }
  return 0;
}

/* Sets the new factors, and the weights that grow (the raise phase sees
** them); the lighter ones wait for lighten(). */
static bool weigh(td_route *r) {
  td_graph *g = r->g;
  bool heavier = false;
  r->min_factor_before = g->min_factor;
  g->weight_sum = r->sum_after;
  for (size_t i = 0; i < r->wundo_len; i++) {
    const weight_undo *u = &r->wundo[i];
    g->edges[u->id].factor = u->f_after;
    if (u->f_after < g->min_factor) g->min_factor = u->f_after;
    if (u->w_after > u->w_before) {
      set_weight(r, u->id, u->w_after);
      heavier = true;
    }
  }
  return heavier;
}

static bool lighten(td_route *r) {
  bool lighter = false;
  for (size_t i = 0; i < r->wundo_len; i++) {
    const weight_undo *u = &r->wundo[i];
    if (u->w_after < u->w_before) {
      set_weight(r, u->id, u->w_after);
      lighter = true;
    }
  }
  return lighter;
}

static void restore_weights(td_route *r) {
  td_graph *g = r->g;
  for (size_t i = r->wundo_len; i-- > 0;) {
    const weight_undo *u = &r->wundo[i];
    g->edges[u->id].factor = u->f_before;
    set_weight(r, u->id, u->w_before);
  }
  g->weight_sum = r->sum_before;
  g->min_factor = r->min_factor_before;
}

static uint8_t *flag_of(td_route *r, const flag_undo *u) {
  return u->is_node ? &r->g->node_blocked[u->id] : &r->g->edges[u->id].blocked;
}

/* Records the first value of every flag the batch touches into r->undo
** (returns how many), then sets the flags to the batch's net result. */
static size_t set_flags(td_route *r, const td_graph_change *c, size_t n) {
  size_t count = 0;
  next_epoch(r);
  for (size_t i = 0; i < n; i++) {
    if (c[i].kind == TD_CHANGE_SET_FACTOR) continue;
    bool node = names_node(c[i].kind);
    uint32_t *touch = node ? &r->node_touch[c[i].id] : &r->edge_touch[c[i].id];
    flag_undo u = {.is_node = node, .id = c[i].id};
    if (*touch != r->epoch) {
      *touch = r->epoch;
      u.before = *flag_of(r, &u) ? 1 : 0;
      r->undo[count++] = u;
    }
    *flag_of(r, &u) = blocks(c[i].kind);
  }
  return count;
}

static void restore_flags(td_route *r, size_t count) {
  for (size_t i = 0; i < count; i++) *flag_of(r, &r->undo[i]) = r->undo[i].before;
  for (size_t i = 0; i < count; i++) sync_item(r, r->undo[i].is_node, r->undo[i].id);
}

/* Applies the batch; leaves the flag records in r->undo[0 .. *undo_count)
** and the weight records in r->wundo[0 .. wundo_len). */
static int update(td_route *r, const td_graph_change *c, size_t n, size_t *undo_count,
                  td_err *err) {
  r->wundo_len = 0;
  if (check_batch(r, c, n, err) != 0) return -1;
  void *p = td_mem_grow(r->undo, &r->undo_cap, n, sizeof *r->undo);
  if (!p && n > 0) return td_err_set(err, "route: out of memory");
  if (p) r->undo = p;
  size_t nw = 0;
  for (size_t i = 0; i < n; i++) nw += c[i].kind == TD_CHANGE_SET_FACTOR;
  if (prepare_weights(r, c, n, nw, err) != 0) return -1;
  log_begin(r);
  r->stats.last_full = false;
  r->stats.last_affected = 0;
  r->stats.incremental_count++;

  size_t count = set_flags(r, c, n);
  *undo_count = count;
  bool any_block = false, any_unblock = false;
  for (size_t i = 0; i < count; i++) {
    flag_undo *u = &r->undo[i];
    u->after = *flag_of(r, u) ? 1 : 0;
    if (!u->before && u->after) any_block = true;
    if (u->before && !u->after) {
      any_unblock = true;
      *flag_of(r, u) = 1; /* hidden until the raise phase is done */
    }
  }
  /* dist only grows in the raise phase, which sees the blocks and the
  ** heavier edges alone; then the unblocks open, the lighter edges take
  ** their weight, and dist only shrinks */
  for (size_t i = 0; i < count; i++)
    if (!r->undo[i].before && r->undo[i].after) sync_item(r, r->undo[i].is_node, r->undo[i].id);
  if (weigh(r)) any_block = true;
  bool incremental = !any_block || raise_phase(r, r->undo, count);
  for (size_t i = 0; i < count; i++) {
    *flag_of(r, &r->undo[i]) = r->undo[i].after;
    if (r->undo[i].before && !r->undo[i].after) sync_item(r, r->undo[i].is_node, r->undo[i].id);
  }
  if (lighten(r)) any_unblock = true;
  if (!incremental) fallback_full(r);
  else if (any_unblock) lower_phase(r, r->undo, count);
  publish(r);
  return 0;
}

/* The batch just applied (flag records undo[0 .. count), weight records
** wundo) changed a flag or an edge's weight or factor. */
static bool batch_changed(const td_route *r, size_t count) {
  for (size_t i = 0; i < count; i++)
    if (r->undo[i].before != r->undo[i].after) return true;
  for (size_t i = 0; i < r->wundo_len; i++)
    if (r->wundo[i].w_before != r->wundo[i].w_after ||
        r->wundo[i].f_before != r->wundo[i].f_after)
      return true;
  return false;
}

int td_route_apply(td_route *r, const td_graph_change *changes, size_t n, td_err *err) {
  size_t count;
  if (update(r, changes, n, &count, err) != 0) return -1;
  if (batch_changed(r, count)) r->stats.applied_count++;
  return 0;
}

static int transaction(td_route *r, const td_graph_change *changes, size_t n,
                       const int32_t *must_reach, size_t m, td_route_verdict *verdict,
                       bool keep_if_ok, td_err *err) {
  td_route_verdict v = {.ok = true, .cut_index = 0, .cut_node = TD_NONE};
  for (size_t i = 0; i < m; i++)
    if (must_reach[i] < 0 || must_reach[i] >= r->n)
      return td_err_set(err, "route: must_reach[%zu] names unknown node %d", i, must_reach[i]);
  void *p = td_mem_grow(r->reach_before, &r->reach_cap, m, 1);
  if (!p && m > 0) return td_err_set(err, "route: out of memory");
  if (p) r->reach_before = p;
  for (size_t i = 0; i < m; i++)
    r->reach_before[i] = r->dist[in_id(r, must_reach[i])] != TD_COST_INF;
  size_t count = 0; /* set by update() when it returns 0 */
  if (update(r, changes, n, &count, err) != 0) return -1;
  for (size_t i = 0; i < m; i++)
    if (r->reach_before[i] && r->dist[in_id(r, must_reach[i])] == TD_COST_INF) {
      v.ok = false;
      v.cut_index = i;
      v.cut_node = must_reach[i];
      break;
    }
  if (!v.ok || !keep_if_ok) {
    log_rollback(r);
    restore_flags(r, count);
    restore_weights(r);
  } else if (batch_changed(r, count)) {
    r->stats.applied_count++;
  }
  if (verdict) *verdict = v;
  return 0;
}

int td_route_try_apply(td_route *r, const td_graph_change *changes, size_t n,
                       const int32_t *must_reach, size_t m,
                       td_route_verdict *verdict, td_err *err) {
  return transaction(r, changes, n, must_reach, m, verdict, true, err);
}

int td_route_check(td_route *r, const td_graph_change *changes, size_t n,
                   const int32_t *must_reach, size_t m,
                   td_route_verdict *verdict, td_err *err) {
  return transaction(r, changes, n, must_reach, m, verdict, false, err);
}

/* ---- validation ---------------------------------------------------------- */

int td_route_validate(const td_route *r, td_err *err) {
  const td_graph *g = r->g;
  for (int32_t v = 0; v < r->n; v++) {
    td_cost want = TD_COST_INF;
    int32_t arg = TD_NONE, x = ext_id(r, v);
    if (r->ext && r->nblk[v] != g->node_blocked[x])
      return td_err_set(err, "route: node %d's blocked flag mirror is stale", x);
    if (g->node_blocked[x]) {
      /* impassable: unreachable */
    } else if (r->is_goal[v]) {
      want = 0;
    } else {
      /* the run is in ascending graph ids: strict < keeps the smallest */
      for (int32_t k = r->adj_start[v], end = r->adj_start[v + 1]; k < end; k++) {
        int32_t m = r->adj_to[k], e = r->adj_edge[k];
        td_cost hw = td_graph_edge_open(g, e) ? g->edges[e].w : TD_COST_INF;
        if (td_graph_other(g, e, x) != ext_id(r, m))
          return td_err_set(err, "route: half-edge %d->%d names the wrong edge", x, ext_id(r, m));
        if (k > r->adj_start[v] && ext_id(r, r->adj_to[k - 1]) >= ext_id(r, m))
          return td_err_set(err, "route: node %d's neighbours are out of order", x);
        if (half_w(r, k) != hw)
          return td_err_set(err, "route: half-edge %d->%d weight mirror is stale", x,
                            ext_id(r, m));
        if (r->dist[m] == TD_COST_INF || hw == TD_COST_INF) continue;
        td_cost nd = r->dist[m] + g->edges[e].w;
        if (nd < want) {
          want = nd;
          arg = m;
        }
      }
    }
    if (r->dist[v] != want || r->next[v] != arg)
      return td_err_set(err, "route: node %d has dist %llu next %d, expected dist %llu next %d",
                        x, (unsigned long long)r->dist[v],
                        r->next[v] < 0 ? TD_NONE : ext_id(r, r->next[v]),
                        (unsigned long long)want, arg < 0 ? TD_NONE : ext_id(r, arg));
    if (r->ext) {
      const td_cost *xd = td_route_dist(r);
      const int32_t *xn = td_route_next(r);
      if (xd[x] != r->dist[v] || xn[x] != (r->next[v] < 0 ? TD_NONE : ext_id(r, r->next[v])))
        return td_err_set(err, "route: node %d's published dist or next is stale", x);
    }
  }
  return 0;
}
