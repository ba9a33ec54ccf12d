/*
** auto.h: a simple built-in player (`td sim --auto`), enough to show that
** a map can be won and to prove the bundled content's balance headlessly,
** with strategies a balance sweep plays against each other (`td sim
** --strategy NAME`, `td sweep`).
**
** Every TD_AUTO_PERIOD ticks while the game is on, whatever the strategy:
**   0. Soldiers and repairs, before anything else (one command a
**      decision): a barracks whose rally point is off the ground path (a
**      new one's stands on its pad) gets the path point within its range
**      that the most firing towers cover (ties: the nearest to it) where
**      its soldiers can stand, and none within 4 tiles of a spawn (an enemy
**      held at the gate, healed by its wave, could stand forever and keep
**      the rest of the wave off the map); else the most damaged tower below half
**      health is repaired when that costs at most half the gold in hand.
**   1. Where enemies go: points every half tile along the route from each
**      spawn (following each node's next) and along the straight line from
**      each spawn to its nearest goal (the flyers' way). A tower's cover
**      is the number of those points within its range: ground points if
**      it hits ground, air points if it hits air; air points count fully
**      when a flyer is alive or in the next wave's preview, a fifth
**      otherwise. A base that closes part of the route is scored on the
**      route as it would become (the first AUTO_PREVIEWS such bases), and
**      that route's length is noted.
** Then the strategy's turn.
**
** "default" (TD_AUTO_DEFAULT, td_auto_create):
**   2. Build: the tower type built least so far (ties: the rules' order)
**      that covers something from some free base, at the free base where
**      its cover is largest (ties: the lower base index) and the world
**      would accept it (td_world_check_place). A barracks covers the
**      ground points within its range (where its soldiers can stand),
**      none when it would stand within 6 tiles plus its range of a spawn.
**      Support towers (rate 0, no soldiers) go
**      where their aura covers the most towers, and only once two towers
**      stand. When that type is not affordable the player saves for it,
**      for at most TD_AUTO_PATIENCE seconds, then builds what it can.
**   3. Upgrade: when no free base covers anything, or while saving has
**      timed out, the tower with the largest cover gets its first
**      affordable upgrade (children in turn: the tower's depth picks
**      which).
** "maze": builds on the base whose tower lengthens the route from the
**   spawns to the goals most (the world refuses one that cuts every
**   route), the affordable type covering most there, else the cheapest (a
**   wall), saving for it up to TD_AUTO_PATIENCE seconds; when no base
**   lengthens the route (most waypoint maps, or a finished maze), the
**   default turn.
** "economy": estimates, for walkers and flyers, what the towers would
**   deal to one enemy passing alone against the coming enemies' mean
**   health (the next wave's preview and those on the map) x a margin that
**   grows after every wave that cost lives. Short (or losing lives now):
**   the build or upgrade that closes most of the shortfall per gold, saving
**   for it. Safe: calls the next wave early (for the early bonus) while the
**   map is clear and the defence has half again to spare; past a third of
**   the waves, buys the best upgrade per gold.
** "random": a seeded random builder: half its decisions build a random
**   affordable type at a random free base where it covers something, a
**   fifth buy a random affordable upgrade. It draws from its own generator
**   (splitmix64, seeded from the game's seed at its first decision), never
**   the world's RNG.
** The strategies other than default call a first wave that waits for the
** player when they have not built within 20 s (none stalls a game).
** The route is followed afresh at every decision, so a maze the player's
** own towers make is seen as it is.
**
** Commands go through td_game_command (so they are recorded for a
** replay: a replay needs no strategy), stamped with the current tick.
** Memory: a td_auto owns its scratch arrays (td_mem). Determinism: it reads
** only the game's state and its own memory and decides in fixed orders;
** same game, same strategy, same memory: same commands.
*/
#ifndef TD_AUTO_H
#define TD_AUTO_H

#include "game/game.h"
#include "nav/blob.h"

#define TD_AUTO_PERIOD 30       /* ticks between decisions */
#define TD_AUTO_PATIENCE 20.0f  /* seconds of saving for one tower type */

typedef struct td_auto td_auto;

/* The strategies the built-in player can follow, by name (td sim
** --strategy, td sweep), described above. */
enum { TD_AUTO_DEFAULT, TD_AUTO_MAZE, TD_AUTO_ECONOMY, TD_AUTO_RANDOM, TD_AUTO_STRATEGIES };
const char *td_auto_strategy_name(int strategy); /* NULL when out of range */
int td_auto_strategy_find(const char *name);     /* its index, or -1 */

/* A player following strategy (TD_AUTO_DEFAULT ..); td_auto_create is
** td_auto_create_strategy(TD_AUTO_DEFAULT). NULL with err set when out of
** memory or the strategy is out of range. */
td_auto *td_auto_create_strategy(int strategy, td_err *err);
td_auto *td_auto_create(td_err *err);
int td_auto_strategy(const td_auto *a); /* the one it follows (a load may change it) */
void td_auto_destroy(td_auto *a);      /* NULL is a no-op */

/* Decides before a step of g (call it once per tick, before td_game_step).
** 0, or -1 with err set when out of memory. */
int td_auto_play(td_auto *a, td_game *g, td_err *err);

/* Towers built and upgrades bought so far. */
void td_auto_counts(const td_auto *a, int32_t *built, int32_t *upgraded);

/* The player's memory (its strategy, what it built of each type, the type
** it saves for and since when, the random strategy's generator, the
** economy's margin), for saves (td_game_set_player_state): td_auto_save
** appends it to b; td_auto_load takes it back (len 0: a fresh player).
** The saved strategy replaces the one the player was made with; a memory
** of version 1 (before strategies: the default player's) names none, and
** the player keeps its own. A game saved and loaded with its player's
** memory plays on exactly as the one that was saved. 0, or -1 with err set
** and the player unchanged (bad data, out of memory). */
void td_auto_save(const td_auto *a, td_blob *b);
int td_auto_load(td_auto *a, const void *data, size_t len, td_err *err);

#endif
