/*
** crowd_stall.c: jams. A walker that has been stopped for a while, though
** it was trying to move, passes through the other agents until it is out.
**
** Lanes, following and the overlap projection keep bodies apart, and the
** walkable area's walls keep them on the road. Where the road is one body
** wide beside a wall's corner, that can lock for good: on 06-expanse a tank
** that its lane pressed into the corner of a wall could only slide towards
** a grunt, which waited behind the tank; neither moved again, and the
** escorts that the boss behind them calls piled up at the gate for the
** rest of the game (found by `td sweep`, sweeps/full.lua: easy and hard
** games that never ended). So a walker whose steering asked for at least a
** quarter of its top speed but that moved less than a tenth of what it
** asked, every tick for STALL_SECONDS, becomes a ghost for GHOST_SECONDS:
** no overlap projection, no push and no following or passing between it
** and any other agent (ghost_pair, crowd_int.h); the walkable area still
** holds it. Then it is solid again, and the projection parts it from
** whoever it stands on. A walker held up by others that are themselves
** moving, or waiting behind a slower one (its steering asks for little),
** is not stopped in this sense and stays solid.
**
** Memory: nothing of its own. Determinism: an agent's counters depend on
** its own state only (what its steering asked, where it started the tick
** and where it ended it); the pass writes only them. The counters are
** saved; the checksum takes a ghost's (crowd_save.c).
*/
#include "crowd/crowd_int.h"

/* How long a walker is stopped, or a flyer comes no closer, before it
** becomes a ghost, and for how long (-D...=0x1p30f turns one off: to see a
** jam or a trap the tests must break). */
#ifndef STALL_SECONDS
#define STALL_SECONDS 2.0f
#endif
#ifndef TRAP_SECONDS
#define TRAP_SECONDS 4.0f
#endif
#define GHOST_SECONDS 1.5f

/* A duration in ticks: at least 1, at most a billion. */
static int32_t ticks_of(float seconds, float dt) {
  float t = seconds / dt + 0.5f;
  return !(t >= 1.0f) ? 1 : t >= 1e9f ? 1000000000 : (int32_t)t;
}

void td_crowd_stall_ticks(const td_crowd *c, int32_t *stall, int32_t *ghost) {
  int32_t walker = ticks_of(STALL_SECONDS, c->dt), flyer = ticks_of(TRAP_SECONDS, c->dt);
  *stall = walker > flyer ? walker : flyer;
  *ghost = ticks_of(GHOST_SECONDS, c->dt);
}

/* Walker i: stopped though it tries to move, stall_ticks in a row. */
static void stall_walker(td_crowd *c, size_t i, int32_t stall_ticks, int32_t ghost_ticks) {
  float ask = c->speed[i] * c->dt, mx = c->x[i] - c->xn[i], my = c->y[i] - c->yn[i];
  bool stopped = c->speed[i] > 0.0f && c->speed[i] >= 0.25f * c->max_speed[i] &&
                 mx * mx + my * my < 0.01f * ask * ask;
  if (!stopped) {
    c->stall[i] = 0;
  } else if (++c->stall[i] >= stall_ticks) {
    c->stall[i] = 0;
    c->ghost[i] = ghost_ticks;
  }
}

/* Flyer i: no radius closer to its goal in trap_ticks. */
static void stall_flyer(td_crowd *c, size_t i, int32_t trap_ticks, int32_t ghost_ticks) {
  float gx, gy, gd = fly_goal(c, i, &gx, &gy);
  if (c->hold[i] || gd < c->best[i] - c->radius[i]) { /* hovering, or closer */
    c->best[i] = gd;
    c->stall[i] = 0;
  } else if (++c->stall[i] >= trap_ticks) {
    c->stall[i] = 0;
    c->ghost[i] = ghost_ticks;
  }
}

/* After the waypoint pass (xn, yn: where each agent started the tick). */
void td_crowd_stall_pass(td_crowd *c) {
  int32_t stall_ticks = ticks_of(STALL_SECONDS, c->dt), trap_ticks = ticks_of(TRAP_SECONDS, c->dt);
  int32_t ghost_ticks = ticks_of(GHOST_SECONDS, c->dt);
  for (size_t i = 0; i < c->used; i++) {
    uint8_t s = c->state[i];
    if (s != TD_AGENT_WALK && s != TD_AGENT_FLY) {
      c->stall[i] = c->ghost[i] = 0;
      c->best[i] = INFINITY;
    } else if (c->ghost[i] > 0) {
      if (--c->ghost[i] == 0) c->best[i] = INFINITY; /* a fresh start */
    } else if (s == TD_AGENT_WALK) {
      stall_walker(c, i, stall_ticks, ghost_ticks);
    } else {
      stall_flyer(c, i, trap_ticks, ghost_ticks);
    }
  }
}
