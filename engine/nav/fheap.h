/*
** fheap.h: the open list of td's best-first searches (astar.c, jps.c): an
** indexed 4-ary min-heap of (f, h, id), ordered by f, then h, then id (the
** canonical tie rule of docs/routing.md), with each id's place in pos.
**
** The caller owns the arrays: item holds at most as many entries as there
** are ids, pos one int32 per id. pos[id] is the id's index in item while it
** is open, and TD_FHEAP_CLOSED once popped; ids never pushed keep whatever
** pos held (searches tell them apart by their own generation stamps). The
** (f, h) pair lives in the heap, so comparisons touch only item. A 4-ary
** heap halves the depth of a binary one at the same cost per level.
** Inline: the searches' inner loops call it for every push and pop.
*/
#ifndef TD_FHEAP_H
#define TD_FHEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nav/graph.h"

#define TD_FHEAP_CLOSED (-1)
#define TD_FHEAP_ARITY 4

typedef struct td_fheap_item {
  td_cost f, h;
  int32_t id;
} td_fheap_item;

typedef struct td_fheap {
  td_fheap_item *item;   /* the heap, len entries */
  int32_t *pos;          /* per id: its index in item, or TD_FHEAP_CLOSED */
  size_t len;
} td_fheap;

static inline bool td_fheap_less(const td_fheap_item *a, const td_fheap_item *b) {
  if (a->f != b->f) return a->f < b->f;
  if (a->h != b->h) return a->h < b->h;
  return a->id < b->id;
}

static inline void td_fheap_sift_up(td_fheap *q, size_t i) {
  td_fheap_item it = q->item[i];
  while (i > 0) {
    size_t p = (i - 1) / TD_FHEAP_ARITY;
    if (!td_fheap_less(&it, &q->item[p])) break;
    q->item[i] = q->item[p];
    q->pos[q->item[i].id] = (int32_t)i;
    i = p;
  }
  q->item[i] = it;
  q->pos[it.id] = (int32_t)i;
}

static inline void td_fheap_sift_down(td_fheap *q, size_t i) {
  td_fheap_item it = q->item[i];
  for (;;) {
    size_t first = i * TD_FHEAP_ARITY + 1;
    if (first >= q->len) break;
    size_t last = first + TD_FHEAP_ARITY < q->len ? first + TD_FHEAP_ARITY : q->len;
    size_t best = first;
    for (size_t c = first + 1; c < last; c++)
      if (td_fheap_less(&q->item[c], &q->item[best])) best = c;
    if (!td_fheap_less(&q->item[best], &it)) break;
    q->item[i] = q->item[best];
    q->pos[q->item[i].id] = (int32_t)i;
    i = best;
  }
  q->item[i] = it;
  q->pos[it.id] = (int32_t)i;
}

/* Opens id with (f, h); it must not be open already. */
static inline void td_fheap_push(td_fheap *q, int32_t id, td_cost f, td_cost h) {
  q->item[q->len] = (td_fheap_item){.f = f, .h = h, .id = id};
  td_fheap_sift_up(q, q->len++);
}

/* Takes the least entry off (len > 0) and closes its id. */
static inline int32_t td_fheap_pop(td_fheap *q) {
  int32_t top = q->item[0].id;
  q->pos[top] = TD_FHEAP_CLOSED;
  if (--q->len > 0) {
    q->item[0] = q->item[q->len];
    td_fheap_sift_down(q, 0);
  }
  return top;
}

/* The h an open id was pushed with. */
static inline td_cost td_fheap_h(const td_fheap *q, int32_t id) {
  return q->item[q->pos[id]].h;
}

/* An open id's f lowered to f (a better route found to it). */
static inline void td_fheap_lower(td_fheap *q, int32_t id, td_cost f) {
  size_t at = (size_t)q->pos[id];
  q->item[at].f = f;
  td_fheap_sift_up(q, at);
}

#endif
