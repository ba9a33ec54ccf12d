/*
** crowd_gate.c: waves enter through their spawn's gate (DESIGN.md 5).
**
** A wave is added whole, in formation: its rows are behind its spawn. They
** do not stand there, off the map: an agent whose place at its spawn is
** taken waits (TD_AGENT_WAITING: in no layer, not drawn, no target) until
** it is free, then enters at the spawn, in its lane. A gate is a spawn
** node; its lead is the first agent of the row that entered last. An agent
** may enter when the lead has walked as far as the agent's row is behind
** the lead's (the slot difference: the formation's spacing), or, when it
** is of another group, a body's length (both radii and the margin); or when
** the lead is gone or no longer walks (it leaked, or died). A gate's agents
** enter in the order they came: its queue is a list through the agents'
** columns, and a pass stops at the first that must wait.
**
** Memory: the first GATES_FIRST gates come with the crowd and the queues
** live in the agents' columns, so adding and stepping need no memory of
** their own; past those, a gate that cannot be made lets its agents enter
** at once. Determinism: gates are visited in the order they were made; the
** test reads the lead's distance travelled, which the steps made.
*/
#include "crowd/crowd_int.h"

/* The gate at node `at` (made if new), or NULL when out of memory. */
static gate *gate_at(td_crowd *c, int32_t at) {
  for (size_t g = 0; g < c->n_gates; g++)
    if (c->gates[g].node == at) return &c->gates[g];
  if (c->n_gates == c->gates_cap) {
    gate *p = td_mem_grow(c->gates, &c->gates_cap, c->n_gates + 1, sizeof *p);
    if (!p) return NULL;
    c->gates = p;
  }
  gate *g = &c->gates[c->n_gates++];
  *g = (gate){.node = at, .lead = TD_AGENT_NONE, .head = -1, .tail = -1}; /* recent: NONE (0) */
  return g;
}

static inline bool in_world(uint8_t s) {
  return s == TD_AGENT_WALK || s == TD_AGENT_STUNNED || s == TD_AGENT_STRANDED || s == TD_AGENT_FLY;
}

/* Whether agent i (standing where it will enter) may enter at gate g now:
** the row ahead has walked the spacing, and no agent that entered lately
** stands on its spot (a row wider than the road enters one by one). */
static bool gate_open(const td_crowd *c, const gate *g, size_t i) {
  for (int k = 0; k < GATE_RECENT; k++) {
    int64_t j = td_crowd_slot(c, g->recent[k]);
    if (j < 0 || !in_world(c->state[j]) || layer(c->state[j]) != (c->w_fly[i] ? 1 : 0)) continue;
    float dx = c->x[j] - c->x[i], dy = c->y[j] - c->y[i], want = c->radius[j] + c->radius[i];
    if (dx * dx + dy * dy < want * want) return false;
  }
  int64_t l = td_crowd_slot(c, g->lead);
  if (l < 0 || !in_world(c->state[l])) return true;
  float need = c->group[i] == g->lead_group ? g->lead_slot - c->slot[i]
                                            : c->radius[l] + c->radius[i] + c->p.margin;
  return c->travelled[l] >= need;
}

/* Agent i enters at gate g: it stands at the spawn, in its lane. */
static void gate_enter(td_crowd *c, gate *g, size_t i, bool flying) {
  td_crowd_place(c, i, g->node, flying, true);
  g->recent[g->next_recent] = make_handle(c, i);
  g->next_recent = (g->next_recent + 1) % GATE_RECENT;
  if (g->lead == TD_AGENT_NONE || c->group[i] != g->lead_group || c->slot[i] < g->lead_slot ||
      td_crowd_slot(c, g->lead) < 0) { /* a new row: it leads */
    g->lead = make_handle(c, i);
    g->lead_slot = c->slot[i];
    g->lead_group = c->group[i];
  }
  c->nb_stale = true; /* the neighbour lists are made again */
}

static void unlink_agent(td_crowd *c, gate *g, int32_t i) {
  int32_t p = c->wq_prev[i], n = c->wq_next[i];
  if (p >= 0) c->wq_next[p] = n;
  else g->head = n;
  if (n >= 0) c->wq_prev[n] = p;
  else g->tail = p;
  c->wq_next[i] = c->wq_prev[i] = -1;
}

bool td_crowd_gate_add(td_crowd *c, size_t i, int32_t at, bool flying) {
  gate *g = gate_at(c, at);
  if (!g) return false;
  c->wq_next[i] = c->wq_prev[i] = -1;
  c->w_fly[i] = flying;
  td_crowd_place(c, i, at, flying, true); /* where it will enter */
  if (g->head < 0 && gate_open(c, g, i)) {
    gate_enter(c, g, i, flying);
    return true;
  }
  c->state[i] = TD_AGENT_WAITING;
  c->wq_prev[i] = g->tail;
  if (g->tail >= 0) c->wq_next[g->tail] = (int32_t)i;
  else g->head = (int32_t)i;
  g->tail = (int32_t)i;
  return true;
}

void td_crowd_gate_leave(td_crowd *c, size_t i) {
  for (size_t g = 0; g < c->n_gates; g++)
    if (c->gates[g].node == c->from[i]) {
      unlink_agent(c, &c->gates[g], (int32_t)i);
      return;
    }
}

void td_crowd_gate_pass(td_crowd *c) {
  for (size_t k = 0; k < c->n_gates; k++) {
    gate *g = &c->gates[k];
    while (g->head >= 0) {
      int32_t i = g->head;
      if (c->state[i] != TD_AGENT_WAITING) { /* not one of the queue's (defensive) */
        unlink_agent(c, g, i);
        continue;
      }
      if (!gate_open(c, g, (size_t)i)) break;
      unlink_agent(c, g, i);
      gate_enter(c, g, (size_t)i, c->w_fly[i] != 0);
    }
  }
}
