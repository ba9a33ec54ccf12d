/*
** crowd.h: agents that follow a route in lanes, as a flock (seed 004).
**
** Every walking agent is on a segment (from -> to) of the waypoint graph and
** runs in its own lane: a lateral offset from the centre line, like a runner
** in an athletics lane. Its path is the route polyline offset by the lane;
** at a waypoint the offset follows the corner's bisector (a miter, scaled by
** 1/cos(theta/2) and clamped), so that every lane stays parallel to the
** centre line through the turn and lanes neither cross nor bunch. Agents
** steer by pure pursuit of a point a little ahead on their lane, under an
** acceleration and a turn-rate limit. When an agent crosses the bisector of
** the waypoint it is heading to, it takes the route's next[] from there, so
** a route change is followed at the next waypoint without any search.
**
** A wave is a group: agents of one group keep their formation (cohesion: an
** agent ahead of its slot slows, one behind hurries a little) and keep
** apart (separation: neighbour lists kept over ticks, made from a grid,
** find neighbours; a soft push keeps a margin, and a positional projection
** removes overlap). A faster agent that closes on a slower one steps
** sideways around it and returns to its lane. Which agents interact depends
** only on where they are: not on the grid's layout (the map's size), nor
** on when the lists were made.
**
** Flyers ignore the graph: they head for the nearest goal and steer around
** rectangular obstacles with a fan of rays (seed 003): left and right
** sectors and a centre ray, cast from a little behind the agent; a closer hit
** steers harder; the turn rate is limited. While a ray toward the goal is
** blocked they go round on the side they turned to, and slide along a wall.
**
** Ground agents keep to a walkable area when one is set (td_crowd_set_walk,
** nav/walk.h: a road of a given width along the graph's edges, or a grid's
** open cells, less tower footprints). Lanes fit the room where an agent
** walks: a formation that fits keeps its lanes; a wider one walks fewer
** abreast, its lanes mapped in order onto as many as the room holds (one:
** single file), so lateral order is kept and the wave widens again after.
** The passing shift keeps to the same room (too narrow: a walker waits
** behind), and the area's boundary is a constraint in the overlap
** projection and after the move (a collision with it).
**
** A wave enters through its spawn's gate (params.gate): an agent whose
** formation row is behind its spawn waits there, off the map, in no layer
** (TD_AGENT_WAITING), until the row ahead has walked the row spacing and no
** one who entered lately stands on its spot, then enters at the spawn in
** its lane; a gate's agents enter in the order they were added.
**
** Jams and traps. Bodies that keep apart and keep to the road can lock
** where the road is one body wide beside a wall's corner: a big walker
** pressed into the corner and a small one waiting behind it, neither
** moving again. And a flyer can go round the wrong tower for ever. So a
** walker that asks to move (a quarter of its top speed or more) but moves
** less than a tenth of that, every tick for 2 s, and a flyer that comes
** no closer to its goal (by a radius) in 4 s, become ghosts for 1.5 s:
** no push, no overlap projection, no following or passing between a ghost
** and anyone; a ghost flyer heads straight for its goal over the
** obstacles; the walkable area still holds a ghost walker. A game where
** no walker is stopped that long and no flyer comes no closer keeps every
** bit it had before (crowd_stall.c).
**
** Arrival at a goal is a leak: the agent is listed in the tick's leaks and
** leaves the crowd at the end of the tick. Agents are addressed by handles
** (index + generation); removal always happens at the end of a tick, so
** indices stay valid during one.
**
** Memory: the crowd borrows the route (and through it the graph) and the
** walkable area, which must outlive it, and owns everything else. Adding an
** agent may grow the agent arrays (by doubling), the group table and, past
** the first eight spawns, the gates (out of memory there, the agent enters
** at once; the queues live in the agent arrays). A step may grow its scratch
** (the neighbour lists, the cell table, the close-pair list, the corner
** table, the leak list, the metrics keys); when such a growth fails the
** step falls back to a slower way to the same result (the grid instead of
** the lists, binary searches instead of the table, uncached corners), or a
** leak goes unlisted (it still happens).
** Determinism: fixed tick (dt given at creation), no clock, no randomness.
** Each pass visits agents in slot order, writes only the visited agent's
** own state, reads the others as they were at the start of the tick, and
** combines what its neighbours ask so that their order does not matter
** (sums in fixed point, maxima and minima); so the result depends only on
** the inputs (not on the order of visits, the grid, the lists or the
** memory available). Float arithmetic: same binary and inputs, same bits
** (the build disables floating-point contraction).
*/
#ifndef TD_CROWD_H
#define TD_CROWD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nav/route.h"

typedef uint32_t td_agent;          /* handle: slot + 1 in the low 20 bits, generation above */
#define TD_AGENT_NONE 0u
#define TD_CROWD_MAX_AGENTS (1u << 20)

typedef enum td_agent_state {
  TD_AGENT_FREE = 0,   /* slot unused */
  TD_AGENT_WALK,       /* on the graph, in its lane */
  TD_AGENT_FLY,        /* off the graph, steering by rays */
  TD_AGENT_STUNNED,    /* stands still (the sim sets it) */
  TD_AGENT_STRANDED,   /* no route from where it is: waits for one */
  TD_AGENT_WAITING,    /* at its spawn's gate, off the map, until its place there is free */
  TD_AGENT_LEAKED,     /* reached a goal this tick; removed at its end */
  TD_AGENT_REMOVED     /* td_crowd_remove this tick; removed at its end */
} td_agent_state;

typedef struct td_crowd_params {
  double dt;             /* seconds per tick (> 0), e.g. 1.0 / 60 */
  bool separation;       /* agents push apart (default on) */
  float lookahead;       /* pure pursuit distance, in seconds of travel (0.25) */
  float miter_limit;     /* largest corner scale 1/cos(theta/2) (3) */
  float margin;          /* extra gap separation aims for, map units (0.1 x radius) */
  float cohesion;        /* formation gain, 1/s (0.5); 0 disables */
  bool gate;             /* walkers enter at their spawn one row at a time (default on) */
} td_crowd_params;

/* The defaults above for a tick of dt seconds. */
td_crowd_params td_crowd_default_params(double dt);

typedef struct td_agent_desc {
  float radius;          /* > 0 */
  float max_speed;       /* map units per second, > 0 */
  float accel;           /* map units per second^2 (0: 4 x max_speed) */
  float turn_rate;       /* radians per second (0: 4 pi) */
  float lane;            /* lateral offset, + to the left of travel */
  float slot;            /* longitudinal slot in the formation, + ahead */
  int32_t group;         /* wave id, >= 0 */
  bool flying;
} td_agent_desc;

/* A formation: count agents in rows of width (lateral extent, centred),
** rows spacing apart, behind the spawn along the first segment (with
** params.gate, the rows wait at the spawn and enter one after another). */
typedef struct td_formation {
  int32_t count;
  int32_t per_row;       /* agents side by side (>= 1) */
  float width;           /* lateral distance between the outer lanes */
  float spacing;         /* distance between rows */
} td_formation;

/* Per-run behaviour metrics (seed 004; DESIGN.md "Behaviour metrics"). */
typedef struct td_crowd_metrics {
  double min_gap;        /* smallest distance minus radii between two agents */
  double lane_error;     /* RMS of lateral offset - lane, on straight parts */
  int64_t lane_swaps;    /* times two agents of a group swap lateral order */
  double group_spread;   /* largest distance between members of a group */
  int64_t leaks;
  int64_t jitter;        /* sharp turns (> 60 deg/s) reversed within 0.1 s */
  int64_t orbits;        /* whole circles turned one way between two waypoints */
  int64_t samples;       /* agent-ticks that entered lane_error */
  double lane_sq_sum;    /* running sum behind lane_error */
  int64_t off_road;      /* ground agent-ticks whose disc left the walkable area by > 5% r */
  double off_road_depth; /* the farthest such a disc reached out, map units */
} td_crowd_metrics;

typedef struct td_crowd td_crowd;

td_crowd *td_crowd_create(const td_route *route, const td_crowd_params *params,
                          td_err *err);
void td_crowd_destroy(td_crowd *c);

/* Adds an agent standing at node `at` (walking) or at position (x, y)
** (flying agents; walking ones start at the node's position plus their lane
** and slot offsets along the route). Returns its handle, or TD_AGENT_NONE
** with err set. */
td_agent td_crowd_add(td_crowd *c, const td_agent_desc *d, int32_t at, td_err *err);

/* Adds f.count agents of desc's kind at node `at` in formation f; lanes are
** spread evenly over [-width/2, width/2], slots go back by spacing per row.
** Writes the handles to out (may be NULL). Returns how many were added. */
int32_t td_crowd_spawn(td_crowd *c, const td_agent_desc *desc, int32_t at,
                       const td_formation *f, td_agent *out, td_err *err);

/* Where agent k of formation f stands: its lane and its slot (rows go back
** from 0). td_crowd_spawn places agents so. */
void td_formation_place(const td_formation *f, int32_t k, float *lane, float *slot);

/* Marks an agent for removal at the end of the tick (killed). */
void td_crowd_remove(td_crowd *c, td_agent a);
bool td_crowd_alive(const td_crowd *c, td_agent a);
/* The slot of a handle that is not FREE (for td_crowd_view), or -1. */
int64_t td_crowd_slot(const td_crowd *c, td_agent a);

/* Advances one tick. Leaked agents are listed by td_crowd_leaks until the
** next step, then their slots are free. */
void td_crowd_step(td_crowd *c);

/* Call after the route changed (td_route_apply): agents on a segment that
** is now blocked, or heading to a node with no route, turn back to the
** endpoint that is still routed; stranded agents look for a route again.
** With a walkable area, an agent on a segment a tower closed walks on when
** the tower's footprint stands behind it (set the blocks first). */
void td_crowd_route_changed(td_crowd *c);

/* The walkable area ground agents keep to (nav/walk.h; borrowed, NULL:
** open ground, the default). Lanes fit the width that is free where an
** agent walks, and no move leaves a ground agent's disc outside it. */
struct td_walk;
void td_crowd_set_walk(td_crowd *c, struct td_walk *w);

/* Rectangles flyers avoid (tower footprints, walls); copied. */
int td_crowd_set_obstacles(td_crowd *c, const float *rects, size_t n, td_err *err);
                           /* rects: n x {x, y, w, h} */

size_t td_crowd_leaks(const td_crowd *c, const td_agent **agents);
uint64_t td_crowd_tick(const td_crowd *c);

/* Metrics since creation (or the last reset). Costs a neighbour pass per
** tick while enabled (default off). */
void td_crowd_enable_metrics(td_crowd *c, bool on);
const td_crowd_metrics *td_crowd_get_metrics(const td_crowd *c);

/* Read access, by slot index (0 .. td_crowd_capacity - 1). */
typedef struct td_agent_view {
  td_agent_state state;
  float x, y, vx, vy, radius, lane;
  int32_t group, from, to;
  uint64_t spawn_tick;
  float travelled;       /* path length so far */
  bool ghost;            /* passing through the others (and a flyer over obstacles) to get
                            out of a jam or a trap (see Jams above) */
} td_agent_view;

size_t td_crowd_capacity(const td_crowd *c);
size_t td_crowd_count(const td_crowd *c);         /* agents not FREE */
bool td_crowd_view(const td_crowd *c, size_t slot, td_agent_view *out);
td_agent td_crowd_handle(const td_crowd *c, size_t slot);

/* For debug overlays (read-only; they change nothing). */

/* Flyer `slot`'s rays as its next step would cast them (at its current
** position and heading, against the current obstacles): the fan's seven
** (the centre ray first), then the ray toward its goal; each an origin,
** a unit direction, a length, and the distance to the first obstacle hit
** along it (INFINITY: none within the length). Returns TD_CROWD_RAYS, or
** 0 when the slot holds no flyer or the flyer is on its goal. */
#define TD_CROWD_RAYS 8
typedef struct td_crowd_ray {
  float ox, oy, dx, dy, len, hit;
} td_crowd_ray;
int td_crowd_flyer_rays(const td_crowd *c, size_t slot, td_crowd_ray out[TD_CROWD_RAYS]);

/* The neighbour grid as the last step with neighbours laid it out: cell
** (x0 + col cell, y0 + row cell) for col < cols, row < rows; agents outside
** fall into the border cells. false before any such step. */
typedef struct td_crowd_grid {
  float x0, y0, cell;
  int32_t cols, rows;
} td_crowd_grid;
bool td_crowd_grid_info(const td_crowd *c, td_crowd_grid *out);

/* What the simulation changes in an agent (effects). A stunned walker
** stands still and keeps its place; stun and unstun take effect on the next
** step. The speed scale (1: normal; a slow of 30% is 0.7) multiplies the
** agent's own max speed, in (0, 1]. No-ops on dead handles. */
void td_crowd_set_stunned(td_crowd *c, td_agent a, bool stunned);
void td_crowd_set_speed_scale(td_crowd *c, td_agent a, float scale);

/* Saves the crowd's state (every agent, the groups, the tick, the metrics)
** to b (nav/blob.h), and loads it back into a crowd made with the same
** route and params: stepping on gives the same bits as the crowd saved.
** Load returns 0, or -1 with err set ("crowd: truncated at byte N", "crowd:
** bad agent 12: ...") and the crowd as it was. The route must be in the
** state it had at the save (the world re-applies its towers first). */
struct td_blob;
struct td_blob_reader;
void td_crowd_save(const td_crowd *c, struct td_blob *b);
int td_crowd_load(td_crowd *c, struct td_blob_reader *r, td_err *err);

/* A checksum of every agent's state (FNV-1a over the bits), for replays. */
uint64_t td_crowd_checksum(const td_crowd *c);

#endif
