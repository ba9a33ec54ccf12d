/*
** unit.c: the tables of unit.h.
*/
#include "sim/unit.h"

#define E(s) TD_ENEMY_##s
#define S(s) TD_SOLDIER_##s

static const td_unit_arrow enemy_arrows[] = {
    {E(FREE), E(WALK), "spawned (a wave, a split, a script)"},
    {E(WALK), E(STUNNED), "a stun"},
    {E(WALK), E(BLOCKED), "a soldier engages it"},
    {E(WALK), E(ATTACK), "a sapper: a damageable tower within its reach"},
    {E(WALK), E(DYING), "killed"},
    {E(WALK), E(LEAKED), "reached a goal"},
    {E(STUNNED), E(WALK), "the stun ends, nothing holds it"},
    {E(STUNNED), E(BLOCKED), "the stun ends, a soldier holds it (not at hand yet)"},
    {E(STUNNED), E(ATTACK), "the stun ends, its soldier at hand or a tower in reach"},
    {E(STUNNED), E(DYING), "killed"},
    {E(BLOCKED), E(ATTACK), "its soldier reaches it"},
    {E(BLOCKED), E(WALK), "its soldier dies or leaves it"},
    {E(BLOCKED), E(STUNNED), "a stun"},
    {E(BLOCKED), E(DYING), "killed"},
    {E(ATTACK), E(WALK), "its soldier or its tower is gone (dead, sold, fallen)"},
    {E(ATTACK), E(BLOCKED), "a sapper at a tower is engaged by a soldier"},
    {E(ATTACK), E(STUNNED), "a stun"},
    {E(ATTACK), E(DYING), "killed"},
    {E(DYING), E(FREE), "removed at the end of the step"},
    {E(LEAKED), E(FREE), "removed at the end of the step"},
};

static const td_unit_arrow soldier_arrows[] = {
    {S(FREE), S(MOVE), "its barracks is built or upgraded to more soldiers"},
    {S(MOVE), S(IDLE), "at its post"},
    {S(MOVE), S(ENGAGE), "an enemy within its sight, free to engage"},
    {S(IDLE), S(MOVE), "the rally point moved, or it stands off its post"},
    {S(IDLE), S(ENGAGE), "an enemy within its sight, free to engage"},
    {S(ENGAGE), S(ATTACK), "at hand: its body touches the enemy's"},
    {S(ENGAGE), S(MOVE), "its enemy is gone, out of its sight or out of its reach, "
                         "or the rally point moved"},
    {S(ATTACK), S(MOVE), "its enemy is gone, or the rally point moved"},
    {S(ATTACK), S(DIE), "its health reached 0"},
    {S(DIE), S(RESPAWN), "its body has fallen"},
    {S(RESPAWN), S(MOVE), "its respawn time is over: it leaves the barracks"},
    {S(IDLE), S(FREE), "its barracks is sold or destroyed"},
    {S(MOVE), S(FREE), "its barracks is sold or destroyed"},
    {S(ENGAGE), S(FREE), "its barracks is sold or destroyed"},
    {S(ATTACK), S(FREE), "its barracks is sold or destroyed"},
    {S(DIE), S(FREE), "its barracks is sold or destroyed"},
    {S(RESPAWN), S(FREE), "its barracks is sold or destroyed"},
};

static const char *const enemy_names[TD_ENEMY_STATE_COUNT] = {
    "free", "walk", "stunned", "dying", "leaked", "blocked", "attack"};
static const char *const soldier_names[TD_SOLDIER_STATE_COUNT] = {
    "free", "idle", "move", "engage", "attack", "die", "respawn"};

const td_unit_arrow *td_unit_arrows(td_unit_kind k, size_t *n) {
  switch (k) {
  case TD_UNIT_ENEMY: *n = sizeof enemy_arrows / sizeof *enemy_arrows; return enemy_arrows;
  case TD_UNIT_SOLDIER: *n = sizeof soldier_arrows / sizeof *soldier_arrows; return soldier_arrows;
  case TD_UNIT_KIND_COUNT: break;
  }
  *n = 0;
  return NULL;
}

bool td_unit_arrow_ok(td_unit_kind k, int from, int to) {
  size_t n;
  const td_unit_arrow *a = td_unit_arrows(k, &n);
  for (size_t i = 0; i < n; i++)
    if (a[i].from == from && a[i].to == to) return true;
  return false;
}

int td_unit_state_count(td_unit_kind k) {
  return k == TD_UNIT_ENEMY ? TD_ENEMY_STATE_COUNT : k == TD_UNIT_SOLDIER ? TD_SOLDIER_STATE_COUNT : 0;
}

const char *td_unit_state_name(td_unit_kind k, int state) {
  if (state < 0 || state >= td_unit_state_count(k)) return NULL;
  return k == TD_UNIT_ENEMY ? enemy_names[state] : soldier_names[state];
}
