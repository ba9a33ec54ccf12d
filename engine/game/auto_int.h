/*
** auto_int.h: the inside of the built-in player (auto.h), shared by its
** files. Not a public header.
**
** auto.c         lifetime, strategy names, the memory's save and load, the
**                decision loop (td_auto_play: what every strategy sees
**                first, then the strategy's own turn) and the commands
**                every strategy issues (place, upgrade, rally, repair,
**                call a wave);
** auto_cover.c   where enemies go (points along the route and the flyers'
**                line), what a tower would cover from a base, the route
**                each blocking base would make and its length;
** auto_default.c the default strategy's turn (auto.h's steps 2 and 3);
** auto_maze.c, auto_economy.c, auto_random.c: the other strategies' turns.
**
** Invariants (during a decision, after auto_prepare):
** - points [0, ground_end) follow the current ground route from every
**   spawn, [ground_end, air_end) the flyers' lines; np == air_end between
**   calls (a preview's points are dropped at once);
** - cov[b * types + t] is what type t would cover from base b (-1: taken,
**   or the placement would be refused); route_len[b] the summed length of
**   the routes from the spawns if base b were built (the current length
**   for a base that closes nothing the route uses, or one past the
**   AUTO_PREVIEWS previewed; -1 when refused or taken), cur_len the
**   current one;
** - tried[b]: base b was refused during this decision.
** Determinism: everything is a function of the game's state and the
** player's memory (the counts, the type saved for, the strategy, its RNG
** and the economy's margin: all saved by td_auto_save).
*/
#ifndef TD_AUTO_INT_H
#define TD_AUTO_INT_H

#include "game/auto.h"

#define AUTO_AIR_IDLE_WEIGHT 0.2f
#define AUTO_PLACE_TRIES 8
#define AUTO_PREVIEWS 64  /* placements whose route is previewed, per decision */

struct td_auto {
  int strategy;          /* TD_AUTO_DEFAULT .. */
  float *px, *py;        /* where enemies go (map units) */
  uint8_t *air;          /* 1: a flyer's point */
  size_t np, pcap;
  int32_t *built_of;     /* per tower type */
  size_t built_cap;
  int32_t built, upgraded;
  int32_t want;          /* the type saved for, -1: none */
  uint64_t want_since;
  uint8_t *tried;        /* per base, this decision: refused */
  size_t tried_cap;
  float *cov;            /* per base x tower type, this decision */
  size_t cov_cap;
  double *route_len;     /* per base, this decision */
  size_t len_cap;
  double cur_len;        /* the current route's length (map units) */
  int32_t *next;         /* a placement's route (td_world_preview_next) */
  uint8_t *on_path;      /* per node: on the current ground path */
  size_t node_cap;
  size_t ground_end;     /* points [0, ground_end): the ground path's */
  size_t air_end;        /* [ground_end, air_end): the flyers'; then a preview's */
  float air_weight;      /* this decision's weight of an air point */
  /* random: its own generator (splitmix64), seeded from the game's seed
  ** at its first decision */
  uint64_t rng;
  bool rng_seeded;
  /* economy: the safety margin over the coming wave's health (percent),
  ** grown by every wave that leaked; the wave and lives last seen */
  int32_t eco_margin, eco_wave, eco_lives;
};

/* auto_cover.c */
/* Fills the points of this decision and scores every base (cov,
** route_len); 0, or -1 when out of memory. */
int auto_scan(td_auto *a, td_world *w);
/* What level l at (x, y) covers: a barracks the ground its soldiers can
** hold, a support level the towers in its aura, a firing one the air
** points and the ground points [g0, g1). */
float auto_level_cover(const td_auto *a, const td_world *w, const td_tower_level *l, float x,
                       float y, size_t g0, size_t g1, float air_weight);
/* The free, untried base where type t covers the most; -1 when none
** covers anything. */
int32_t auto_best_base(const td_auto *a, const td_world *w, int32_t t, float *best_cover);
/* Whether (x, y) is within reach of a spawn. */
bool auto_near_spawn(const td_world *w, float x, float y, float reach);
/* A support tower: no shots, no soldiers. */
bool auto_is_support(const td_tower_level *l);

/* auto.c: commands (through td_game_command, stamped with the tick) */
int auto_command(td_game *g, td_command *c, td_err *err);
/* Places type t at base b when the world accepts it there (else marks b
** tried): 1 placed, 0 refused, -1 error. */
int auto_place_at(td_auto *a, td_game *g, int32_t b, int32_t t, td_err *err);
/* Places type t at its best accepted base: 1 placed, 0 not, -1 error. */
int auto_place(td_auto *a, td_game *g, int32_t t, td_err *err);
/* Buys child `child` of the tower on base b: 1, -1 error. */
int auto_upgrade_at(td_auto *a, td_game *g, int32_t b, int child, td_err *err);
/* The best-covering tower's affordable upgrade: 1, 0 none, -1 error. */
int auto_upgrade(td_auto *a, td_game *g, td_err *err);
/* Calls the next wave: 1, -1 error. */
int auto_call_wave(td_game *g, td_err *err);

/* The strategies' turns, after rally and repair found nothing to do:
** 0, or -1 with err set. */
int auto_default_turn(td_auto *a, td_game *g, td_err *err);
int auto_maze_turn(td_auto *a, td_game *g, td_err *err);
int auto_economy_turn(td_auto *a, td_game *g, td_err *err);
int auto_random_turn(td_auto *a, td_game *g, td_err *err);

#endif
