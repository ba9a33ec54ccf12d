/*
** tutorial.h: the first map's tutorial: a few small panels that show a new
** player the route, where to build, how a tower changes the route, how to
** call a wave, and what to do next, each advanced by the game's own events.
**
** What. A td_tutorial is a small state machine over the world's events
** (event.h) and the time played:
**     ROUTE    "this is the route enemies take to your gate" (the route
**              highlighted); next after TD_TUTORIAL_ROUTE_S, when a tower
**              type is picked, or on Next
**     BUILD    "build a tower here" at a pad chosen from the route
**              (td_tutorial_pick_pad); next on the first tower PLACED
**     CHANGED  "a tower changes the route: see the arrows" (the steps
**              whose next differs from the route before it, cyan lines), or,
**              when it did not change, what a tower does; next after
**              TD_TUTORIAL_CHANGED_S or on Next
**     CALL     "call the first wave (N) when ready" at the Call wave button;
**              next on WAVE_STARTED (from any earlier step too)
**     FIGHT    no panel; next on the first KILLED or WAVE_ENDED
**     TIPS     "upgrade towers and call waves early for gold"; done after
**              TD_TUTORIAL_TIPS_S, on UPGRADED, on the next WAVE_STARTED, or
**              on Next
**     DONE     finished; also on Skip, and when the game is won or lost.
** It never blocks the game: nothing waits for it, and the world never
** reads it. The client (tutorial.c's client side, through client_int.h)
** starts it on a new game of the menu's first map (the lowest `order`,
** docs/maps.md) unless the player's progress says `tutorial done`
** (game/progress.h), records that when it reaches DONE, draws the panel
** (top left, under the HUD) with an arrow and a ring at what it speaks of,
** and offers Next and Skip tutorial (Esc skips too).
**
** Memory: a td_tutorial owns a copy of the route's next steps (malloc),
** released by td_tutorial_free. Determinism: not part of the simulation;
** time is what the client passes (seconds of unpaused play).
*/
#ifndef TD_RENDER_TUTORIAL_H
#define TD_RENDER_TUTORIAL_H

#include <SDL.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/world.h"

#define TD_TUTORIAL_ROUTE_S 8.0 /* seconds the route is shown before "build here" */
#define TD_TUTORIAL_CHANGED_S 4.0 /* seconds "the route changed" shows */
#define TD_TUTORIAL_TIPS_S 12.0 /* seconds the closing tips show */

typedef enum td_tutorial_step {
  TD_TUTORIAL_OFF = 0,
  TD_TUTORIAL_ROUTE,
  TD_TUTORIAL_BUILD,
  TD_TUTORIAL_CHANGED,
  TD_TUTORIAL_CALL,
  TD_TUTORIAL_FIGHT,
  TD_TUTORIAL_TIPS,
  TD_TUTORIAL_DONE
} td_tutorial_step;

typedef struct td_tutorial {
  td_tutorial_step step;
  double since; /* the time the step began */
  int32_t pad; /* the base suggested for the first tower, -1: none */
  int32_t built; /* the base of the first tower placed, -1: none yet */
  bool route_changed; /* the first tower changed the route */
  int32_t *old_next; /* the route's next steps before the first tower */
  size_t old_n, old_cap;
  SDL_Rect r_panel; /* the panel of the last frame (UI units); w 0: none */
} td_tutorial;

/* Begins at ROUTE on a new game of w (time now): remembers the route and
** picks the pad for a tower of type 0. false (the tutorial stays OFF) when
** out of memory. */
bool td_tutorial_start(td_tutorial *t, td_world *w, double now);
/* Stops it (OFF) and releases its memory; t may be reused. */
void td_tutorial_free(td_tutorial *t);
/* One event of the last step (w after that step): advances. true when the
** step changed. */
bool td_tutorial_event(td_tutorial *t, const td_world *w, const td_event *e, double now);
/* Time passed, and whether the player has a tower type picked: advances
** the steps that end by time or by picking. true when the step changed. */
bool td_tutorial_update(td_tutorial *t, double now, bool picking);
/* Next (the steps with a Next button), Skip (to DONE). */
void td_tutorial_next(td_tutorial *t, double now);
void td_tutorial_skip(td_tutorial *t);
/* Whether a panel shows now (a step other than OFF, FIGHT, DONE); whether
** Next is offered (ROUTE, CHANGED, TIPS). */
bool td_tutorial_showing(const td_tutorial *t);
bool td_tutorial_has_next(const td_tutorial *t);
/* The step's title and body (wrapped by the caller), and "Tutorial N/5".
** type_title: the title of the tower type to build (type 0). */
void td_tutorial_text(const td_tutorial *t, const char *type_title, const char **title, char *body,
                      size_t cap, char *sub, size_t sub_cap);

/* A good pad for a first tower of type: one it may be built on (gold not
** counted), as near the way from the first spawn to its goal as can be,
** toward the way's first half (enemies pass it for long), a pad that
** changes the route preferred (the next step shows that). -1: none. */
int32_t td_tutorial_pick_pad(td_world *w, int32_t type);

#endif
