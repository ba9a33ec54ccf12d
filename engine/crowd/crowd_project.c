/*
** crowd_project.c: the overlap projection (pass 4 of td_crowd_step).
**
** After the steering moved the agents, the pairs of one layer that overlap
** are pushed apart by positions, not forces, until nothing overlaps. Its
** one entry, td_crowd_project_pass, runs once a tick, after the steering and
** before the waypoints. A body it pushes out of the walkable area goes back
** inside at once (crowd_road.c), so the boundary acts in every iteration
** as a wall the pair is pushed against.
**
** Memory: nothing of its own (the corrections go to s_cxy, a column); it
** reads the close pairs the scans listed (crowd_nb.c), the neighbour lists,
** or the grid. Determinism: Jacobi iterations (every correction from the
** positions before the iteration), summed in fixed point: the same result
** whichever of the three finds the pairs, in any order.
*/
#include "crowd/crowd_int.h"

#include <math.h>

#define PROJECT_ITERATIONS 64 /* at most; they stop when nothing overlaps */
/* where the pairs that can overlap are found (see td_crowd_project_pass) */
#define BY_PAIRS 0
#define BY_LISTS 1
#define BY_GRID 2

/* Agent i (layer li, at xi, yi, radius ri) meets agent j: the correction
** that moves i out of j (half the overlap, plus the skin) is added to
** (*cx, *cy), in units of 1 / unit. A ghost (crowd_stall.c) overlaps
** anyone. */
static HOT_INLINE void overlap_pair(const td_crowd *c, size_t i, int li, float xi, float yi,
                                    float ri, int32_t j, float unit, int64_t *cx, int64_t *cy) {
  if (j == (int32_t)i || layer(c->state[j]) != li || ghost_pair(c, i, (size_t)j)) return;
  float rx = xi - c->x[j], ry = yi - c->y[j], d = len2(rx, ry);
  /* a skin of 2% of the radii: resolved pairs end slightly apart */
  float want = (ri + c->radius[j]) * 1.02f;
  if (d >= want) return;
  if (d < 1e-6f) { /* coincident: split along y, by slot order */
    *cy += fixed((j > (int32_t)i ? -0.5f : 0.5f) * want * unit);
    return;
  }
  float corr = (want - d) * 0.5f;
  *cx += fixed(rx / d * corr * unit);
  *cy += fixed(ry / d * corr * unit);
}

/* Pushes overlapping agents of a layer apart by half the overlap each (plus
** a thin skin), from the positions before the iteration (Jacobi), until
** nothing overlaps (at most PROJECT_ITERATIONS times). Coincident agents
** split along the y axis, the lower slot upwards.
**
** The pairs that can overlap are found, in order of preference: among the
** close pairs the scan listed (pairs closer than pl_reach before the move:
** only the agents that have one are visited), while agents moved (and were
** corrected) by less than pl_slack in all; else among the neighbour lists,
** while they hold (see make_lists); else in the grid, sorted again. The
** corrections are summed in fixed point, so that all three give the same
** result. Returns the largest correction of any agent, in all (|dx| +
** |dy|, summed over the iterations). */
float td_crowd_project_pass(td_crowd *c) {
  float shifted = c->moved, total = 0.0f; /* largest |dx| + |dy| since the scan, and of corrections */
  /* fixed point: a power of two that keeps the largest correction (2.04
  ** max_radius) below 2^40 */
  int e;
  frexpf(2.04f * c->max_radius + 1e-30f, &e);
  float unit = ldexpf(1.0f, 40 - e < 100 ? 40 - e : 100), inv = 1.0f / unit;
  float over = 2.04f * c->max_radius * 1.001f + 1e-4f; /* the widest overlap */
  /* how far agents moved since the grid was sorted (at the start of the
  ** tick, when it was) */
  float age = c->grid_tick == c->tick ? c->moved : INFINITY;
  for (int iter = 0; iter < PROJECT_ITERATIONS; iter++) {
    int how = c->pl_ok && 2.0f * shifted * 1.001f + 1e-4f < c->pl_slack ? BY_PAIRS
              : c->nb_ok && 2.0f * (c->disp + shifted) * 1.001f + 1e-4f < c->skin ? BY_LISTS
                                                                                   : BY_GRID;
    if (how == BY_GRID && !(age < c->cell)) { /* the grid is too old (or of another time) */
      td_crowd_grid_sort(c);
      age = 0.0f;
    }
    float reach = over + age * 1.001f; /* the grid holds agents where they were `age` ago */
    size_t visits = how == BY_PAIRS ? c->n_active : c->used;
    for (size_t a = 0; a < visits; a++) {
      size_t i = how == BY_PAIRS ? (size_t)c->active[a] : a;
      int li = layer(c->state[i]);
      int64_t cx = 0, cy = 0;
      float xi = c->x[i], yi = c->y[i], ri = c->radius[i];
      if (li >= 0 && how == BY_PAIRS) {
        for (int32_t q = a > 0 ? c->pl_end[a - 1] : 0; q < c->pl_end[a]; q++)
          overlap_pair(c, i, li, xi, yi, ri, c->pl[q], unit, &cx, &cy);
      } else if (li >= 0 && how == BY_LISTS) {
        const int32_t *nb = c->nb + c->nb_beg[i];
        for (int32_t q = 0; q < c->nb_cnt[i]; q++)
          overlap_pair(c, i, li, xi, yi, ri, nb[(ptrdiff_t)q * LIST_LANES], unit, &cx, &cy);
      } else if (li >= 0) {
        cellbox box = cell_box(c, xi - reach, yi - reach, xi + reach, yi + reach);
        for (int32_t row = box.y0; row <= box.y1; row++) {
          int32_t lo, hi;
          row_run(c, &box, row, &lo, &hi);
          for (int32_t kk = lo; kk < hi; kk++)
            overlap_pair(c, i, li, xi, yi, ri, c->order[kk], unit, &cx, &cy);
        }
      }
      c->s_cxy[2 * a] = (float)cx * inv;
      c->s_cxy[2 * a + 1] = (float)cy * inv;
    }
    float most = 0.0f;
    for (size_t a = 0; a < visits; a++) {
      size_t i = how == BY_PAIRS ? (size_t)c->active[a] : a;
      float ox = c->x[i], oy = c->y[i];
      c->x[i] += c->s_cxy[2 * a];
      c->y[i] += c->s_cxy[2 * a + 1];
      /* the walkable area's boundary is a constraint too: a body pushed
      ** against it stays inside, and the next iteration pushes the other */
      if (c->walk && (c->x[i] != ox || c->y[i] != oy)) td_crowd_road_hold(c, i);
      float m = fabsf(c->x[i] - ox) + fabsf(c->y[i] - oy);
      if (m > most) most = m;
      if (m > 0.0f && c->state[i] != TD_AGENT_FREE) c->wp[i] = 1; /* the waypoint pass looks again */
    }
    /* nothing overlaps any more; against the walkable area's walls, a file
    ** that closed up can pass corrections back and forth at 1e-7 to 1e-3
    ** for ever: there, less than a thousandth of the largest radius is
    ** done (the 2% skin keeps the pairs apart) */
    if (most == 0.0f || (c->walk && most < 1e-3f * c->max_radius)) break;
    shifted += most;
    total += most;
    age += most;
  }
  return total;
}
