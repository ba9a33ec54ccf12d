/*
** sim.h: the pieces of `td sim` (docs/cli.md#td-sim). sim_spec.c parses
** and checks the waves (--spawn SPEC) and the timed events (--block-edge,
** --tower); cmd_sim.c runs the crowd; sim_out.c reports (text, JSON,
** trace, picture).
**
** Memory: a sim_run owns its agents' records and trails, the map, the
** route and the crowd; sim_run_free releases them. Strings in waves and
** events point into argv.
** Determinism: the run depends only on the map, the specs, the events and
** the seed; nothing reads a clock.
*/
#ifndef TD_APP_SIM_H
#define TD_APP_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "crowd/crowd.h"
#include "game/file.h"
#include "nav/walk.h"
#include "nav/route.h"
#include "sim/map.h"

#define SIM_TICK_HZ 60
#define SIM_MAX_TICK ((uint64_t)1 << 40) /* largest tick an option may name */
#define SIM_PNG_LONG_SIDE 1200          /* pixels */

/* The keys of a SPEC, in the order of the docs. */
typedef enum sim_key {
  SIM_COUNT, SIM_PER_ROW, SIM_WIDTH, SIM_SPACING, SIM_SPEED, SIM_RADIUS, SIM_ACCEL, SIM_TURN,
  SIM_SPAWN, SIM_TICK, SIM_FLY, SIM_GROUP, SIM_KEYS
} sim_key;

/* One --spawn SPEC: a wave. */
typedef struct sim_wave {
  const char *text;          /* as given */
  double val[SIM_KEYS];
  bool set[SIM_KEYS];
  bool tiles[SIM_KEYS];      /* the value had the `t` suffix */
  /* filled by sim_wave_resolve, in map units */
  td_agent_desc desc;
  td_formation form;
  int32_t spawn;             /* index into map.spawns */
  uint64_t tick;
} sim_wave;

typedef enum sim_event_kind { SIM_BLOCK_EDGE, SIM_TOWER } sim_event_kind;

/* One --block-edge I,J@TICK or --tower ID@TICK. */
typedef struct sim_event {
  sim_event_kind kind;
  const char *text;          /* as given */
  size_t order;              /* position among the events on the command line */
  uint64_t tick;
  int32_t a, b;              /* block: the nodes */
  long id;                   /* tower: the base's object id */
  int32_t edge;              /* resolved: the edge (block) */
  size_t base;               /* resolved: index into map.bases (tower) */
  bool done, refused;        /* tower: applied or refused */
  int32_t cut_node;          /* refused: the node it would cut off */
  int32_t cut_spawn;         /* refused: that node's spawn object id, or -1 */
} sim_event;

/* What became of an agent. */
typedef enum sim_end { SIM_OUT = 0, SIM_LEAKED, SIM_STRANDED } sim_end;

typedef struct sim_agent {
  int32_t wave, group;
  float lane;                /* assigned at spawn, + left of travel */
  float lane_t;              /* 0 leftmost .. 1 rightmost of its wave */
  float radius;
  bool fly;
  sim_end end;
  uint64_t spawn_tick, leak_tick;
  float x, y, travelled;     /* last seen */
  float *trail;              /* trail_n points (x, y), when pictures are on */
  size_t trail_n, trail_cap;
} sim_agent;

typedef struct sim_run {
  const char *map_path;
  td_map map;
  td_route *route;
  td_crowd *crowd;
  sim_wave *waves;
  size_t wave_count;
  sim_event *events;         /* sorted by tick, stable */
  size_t event_count;
  uint64_t max_ticks, seed, rng;
  FILE *trace;               /* NULL: no trace; else trace_file.f */
  td_file_out trace_file;
  const char *trace_path;
  float trail_step;          /* map units between trail points; 0: no trails */
  sim_agent *agents;
  size_t agent_count, agent_cap;
  int32_t *slot_agent;       /* crowd slot -> agent index */
  size_t slot_cap;
  uint8_t *tower;            /* per map base: a tower stands */
  int32_t *must;             /* scratch: nodes that must keep a route */
  size_t must_cap;
  float *obstacles;          /* scratch: rectangles for flyers */
  td_walk *walk;             /* the walkable area (NULL: open ground) */
  uint64_t ticks;            /* ticks run */
  const char *ended;         /* "arrived", "stranded" or "tick_limit" */
} sim_run;

/* Parses SPEC (index: its position among the --spawn options, the default
** group). 0 ok; -1 with msg set ("<what is wrong>"). */
/* A whole number in [0, SIM_MAX_TICK], the whole of s[0 .. len). 0 ok, -1. */
int sim_parse_uint(const char *s, size_t len, uint64_t *out);

int sim_wave_parse(const char *spec, int index, sim_wave *w, char *msg, size_t cap);
/* Applies the defaults (from the map's tile size) and checks the wave
** against the map. 0 ok; -1 with msg set. */
int sim_wave_resolve(sim_wave *w, const td_map *map, char *msg, size_t cap);

/* Parses "I,J@TICK" (block) or "ID@TICK" (tower); @TICK may be left out
** (tick 0). 0 ok; -1 with msg set. */
int sim_event_parse(sim_event_kind kind, const char *text, sim_event *e, char *msg, size_t cap);
/* Finds the edge or base on the map; refuses a second tower on one base.
** 0 ok; -1 with msg set. */
int sim_event_resolve(sim_event *e, const sim_event *earlier, size_t n_earlier,
                      const td_map *map, char *msg, size_t cap);

/* Reports (sim_out.c). */
void sim_print_text(const sim_run *r);
void sim_print_json(const sim_run *r);
const char *sim_state_name(td_agent_state s);
int sim_write_png(const sim_run *r, const char *path, td_err *err);

void sim_run_free(sim_run *r);

/* sim_game.c: `td sim` with --auto, --idle, --replay or --load: a whole
** game (engine/game). Same exit statuses as the commands (cmds.h). */
int td_sim_game(int argc, char **argv);

#endif
