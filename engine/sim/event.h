/*
** event.h: what the world tells its listeners (Lua handlers, the renderer,
** sound, tests): one flat record per event, in the order they happened.
**
** The world emits events during a tick into a list that lives until the
** next tick; listeners read them in order. Handles are the world's (index +
** generation, 0: none); `type` is an enemy type or a tower level index of
** the rules, as the kind says.
**
** Memory: plain data. Determinism: the order of events is part of the
** world's state (same inputs, same events in the same order).
*/
#ifndef TD_EVENT_H
#define TD_EVENT_H

#include <stdint.h>

typedef enum td_event_kind {
  TD_EVENT_SPAWNED = 0,  /* enemy, type, x, y */
  TD_EVENT_FIRED,        /* tower, enemy (its target), type (level), x, y (the tower) */
  TD_EVENT_HIT,          /* enemy, tower, type (enemy type), level, source, amount
                            (health taken), x, y */
  TD_EVENT_KILLED,       /* enemy, tower (0: not a tower), type, amount (bounty), x, y */
  TD_EVENT_LEAKED,       /* enemy, type, amount (lives lost) */
  TD_EVENT_WAVE_STARTED, /* wave, amount (gold of the early bonus, 0 when on time) */
  TD_EVENT_WAVE_ENDED,   /* wave (its last enemy killed or leaked) */
  TD_EVENT_PLACED,       /* tower, type (level), base, amount (cost) */
  TD_EVENT_UPGRADED,     /* tower, type (new level), amount (cost) */
  TD_EVENT_SOLD,         /* tower, type (level), base, amount (refund) */
  TD_EVENT_REFUSED,      /* reason, base, type: a command the world refused */
  TD_EVENT_WON,          /* wave */
  TD_EVENT_LOST,         /* wave */
  /* soldiers and sappers (unit.h) */
  TD_EVENT_ENGAGED,      /* soldier, tower (its barracks), enemy, type (enemy type), x, y
                            (the enemy) */
  TD_EVENT_SOLDIER_DIED, /* soldier, tower (its barracks, 0: gone), enemy (that killed it,
                            0: none), type (soldier type), x, y */
  TD_EVENT_TOWER_DAMAGED,/* tower, type (level), base, enemy (the sapper, 0: a script),
                            amount (health taken), x, y (the tower) */
  TD_EVENT_TOWER_DESTROYED, /* tower, type (level), base, enemy (the sapper, 0: a
                            script), x, y: its base is free again */
  TD_EVENT_REPAIRED,     /* tower, type (level), base, amount (gold paid) */
  TD_EVENT_RALLIED,      /* tower, base, x, y (the new rally point) */
  TD_EVENT_KIND_COUNT
} td_event_kind;

typedef enum td_refusal {
  TD_REFUSAL_NONE = 0,
  TD_REFUSAL_NO_BASE,       /* no tower base with that id */
  TD_REFUSAL_OCCUPIED,      /* the base already has a tower */
  TD_REFUSAL_NO_TOWER,      /* no tower there, or no such tower type */
  TD_REFUSAL_GOLD,          /* not enough gold */
  TD_REFUSAL_CUTS_ROUTE,    /* a spawn would have no route to a goal */
  TD_REFUSAL_NO_UPGRADE,    /* the level has no such upgrade */
  TD_REFUSAL_NO_WAVE,       /* no wave left to call */
  TD_REFUSAL_GAME_OVER,     /* the game is won or lost */
  TD_REFUSAL_BAD_COMMAND,   /* malformed (unknown kind or mode) */
  TD_REFUSAL_NO_SOLDIERS,   /* a rally point for a tower that keeps no soldiers */
  TD_REFUSAL_RALLY_RANGE,   /* a rally point out of the barracks' range */
  TD_REFUSAL_RALLY_GROUND,  /* a rally point where soldiers cannot stand */
  TD_REFUSAL_NOT_DAMAGED,   /* a repair of a tower at full health (or that cannot be hurt) */
  TD_REFUSAL_COUNT
} td_refusal;

/* Who dealt a hit: a tower's shot (or its damage over time), or a script's
** td_world_damage (a Lua handler's td.damage), which may name a tower to
** credit. A handler that answers hits with damage tells its own apart. A
** soldier's hit (TD_HIT_SOLDIER) names the soldier and credits its barracks. */
typedef enum td_hit_source { TD_HIT_TOWER, TD_HIT_SCRIPT, TD_HIT_SOLDIER } td_hit_source;

typedef struct td_event {
  td_event_kind kind;
  uint64_t tick;
  uint32_t enemy;        /* enemy handle, 0: none */
  uint32_t tower;        /* tower handle, 0: none */
  uint32_t soldier;      /* soldier handle, 0: none */
  int32_t type;          /* enemy type or tower level, -1: none */
  int32_t base;          /* tower base index in the map, -1: none */
  int32_t wave;          /* wave number, 0: none */
  td_refusal reason;
  int32_t level;         /* hit: the crediting tower's level index, -1: none */
  td_hit_source source;  /* hit */
  float amount;
  float x, y;            /* map units */
} td_event;

/* "spawned", "fired", ...; "killed"; NULL for a bad kind. */
const char *td_event_name(td_event_kind k);
/* "not enough gold", "would cut spawn off from every goal", ... */
const char *td_refusal_text(td_refusal r);

#endif
