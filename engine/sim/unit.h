/*
** unit.h: the state machines of the world's units (seed 002), written down
** in one place: enemies and soldiers, their states, and every arrow between
** them. docs/world.md repeats these tables for modders.
**
** Enemies (td_enemy_state). A ground enemy walks its lane; a soldier that
** engages it holds it (BLOCKED: it stands and waits) until the soldier
** reaches it, then the two fight (ATTACK) until one dies. A sapper (an
** enemy type with a siege attack) that comes within reach of a damageable
** tower stops and attacks it (ATTACK) until the tower falls. A stun stops
** everything; when it ends the enemy goes back to what holds it. Flyers
** are never held by soldiers (a flying sapper may still attack towers).
**
**   from      to        when
**   FREE      WALK      spawned (a wave, a split, a script)
**   WALK      STUNNED   a stun
**   WALK      BLOCKED   a soldier engages it
**   WALK      ATTACK    a sapper: a damageable tower within its reach
**   WALK      DYING     killed
**   WALK      LEAKED    reached a goal
**   STUNNED   WALK      the stun ends, nothing holds it
**   STUNNED   BLOCKED   the stun ends, a soldier holds it (not at hand yet)
**   STUNNED   ATTACK    the stun ends, its soldier at hand or a tower in reach
**   STUNNED   DYING     killed
**   BLOCKED   ATTACK    its soldier reaches it
**   BLOCKED   WALK      its soldier dies or leaves it
**   BLOCKED   STUNNED   a stun
**   BLOCKED   DYING     killed
**   ATTACK    WALK      its soldier or its tower is gone (dead, sold, fallen)
**   ATTACK    BLOCKED   a sapper at a tower is engaged by a soldier
**   ATTACK    STUNNED   a stun
**   ATTACK    DYING     killed
**   DYING     FREE      removed at the end of the step
**   LEAKED    FREE      removed at the end of the step
**
** Soldiers (td_soldier_state). A barracks keeps its soldiers near its rally
** point, each on a post of its own around it. A soldier walks to its post
** (MOVE), stands there (IDLE), engages a ground enemy that comes within its
** sight of its post (ENGAGE: it walks to the enemy, which waits), fights it
** when at hand (ATTACK), walks back to its post when the enemy is gone, and
** when it dies (DIE) falls, then waits at the barracks (RESPAWN) to walk
** out again.
**
**   from      to        when
**   FREE      MOVE      its barracks is built or upgraded to more soldiers
**   MOVE      IDLE      at its post
**   MOVE      ENGAGE    an enemy within its sight, free to engage
**   IDLE      MOVE      the rally point moved, or it stands off its post
**   IDLE      ENGAGE    an enemy within its sight, free to engage
**   ENGAGE    ATTACK    at hand: its body touches the enemy's
**   ENGAGE    MOVE      its enemy is gone, out of its sight or out of its
**                       reach (no path), or the rally point moved
**   ATTACK    MOVE      its enemy is gone, or the rally point moved
**   ATTACK    DIE       its health reached 0
**   DIE       RESPAWN   its body has fallen (TD_SOLDIER_FALL_TIME)
**   RESPAWN   MOVE      its respawn time is over: it leaves the barracks
**   any       FREE      its barracks is sold or destroyed
**
** Every change of a unit's state goes through one function of the world
** (enemy.c's enemy_go, soldier.c's soldier_go), which counts the arrows
** taken (td_world_arrows): tests check that every arrow of these tables is
** taken in real games, and no other.
**
** Memory: static tables. Determinism: constant data.
*/
#ifndef TD_UNIT_H
#define TD_UNIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum td_enemy_state {
  TD_ENEMY_FREE = 0,     /* slot unused */
  TD_ENEMY_WALK,         /* walking or flying */
  TD_ENEMY_STUNNED,
  TD_ENEMY_DYING,        /* killed this step; removed at its end */
  TD_ENEMY_LEAKED,       /* reached a goal this step; removed at its end */
  TD_ENEMY_BLOCKED,      /* held by a soldier on its way: stands and waits */
  TD_ENEMY_ATTACK,       /* fights the soldier at hand, or a sapper hits a tower */
  TD_ENEMY_STATE_COUNT
} td_enemy_state;

typedef enum td_soldier_state {
  TD_SOLDIER_FREE = 0,   /* slot unused */
  TD_SOLDIER_IDLE,       /* at its post */
  TD_SOLDIER_MOVE,       /* walking to its post */
  TD_SOLDIER_ENGAGE,     /* walking to the enemy it holds */
  TD_SOLDIER_ATTACK,     /* fighting it */
  TD_SOLDIER_DIE,        /* falling */
  TD_SOLDIER_RESPAWN,    /* waiting at the barracks */
  TD_SOLDIER_STATE_COUNT
} td_soldier_state;

#define TD_SOLDIER_FALL_TIME 0.5f   /* seconds a fallen soldier lies (DIE) */

typedef enum td_unit_kind { TD_UNIT_ENEMY = 0, TD_UNIT_SOLDIER, TD_UNIT_KIND_COUNT } td_unit_kind;

typedef struct td_unit_arrow {
  uint8_t from, to;      /* states of the unit kind */
  const char *when;      /* the table's "when" column */
} td_unit_arrow;

/* The arrows of a kind's table above, in its order; *n gets their count.
** The soldiers' "any -> FREE" is one arrow per state. */
const td_unit_arrow *td_unit_arrows(td_unit_kind k, size_t *n);
/* Whether from -> to is an arrow of the kind's table. */
bool td_unit_arrow_ok(td_unit_kind k, int from, int to);
/* "walk", "blocked", ...; "idle", "engage", ...; NULL out of range. */
const char *td_unit_state_name(td_unit_kind k, int state);
int td_unit_state_count(td_unit_kind k);

#endif
