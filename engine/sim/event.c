/*
** event.c: names of events and texts of refusals (see event.h).
*/
#include "sim/event.h"

#include <stddef.h>

const char *td_event_name(td_event_kind k) {
  static const char *const names[TD_EVENT_KIND_COUNT] = {
    "spawned", "fired", "hit", "killed", "leaked", "wave_started", "wave_ended",
    "placed", "upgraded", "sold", "refused", "won", "lost", "engage", "soldier_death",
    "tower_damaged", "tower_destroyed", "repaired", "rallied"};
  return (unsigned)k < TD_EVENT_KIND_COUNT ? names[k] : NULL;
}

const char *td_refusal_text(td_refusal r) {
  static const char *const texts[TD_REFUSAL_COUNT] = {
    "accepted",
    "no tower base there",
    "the base already has a tower",
    "no such tower",
    "not enough gold",
    "would cut spawn off from every goal",
    "no such upgrade",
    "no wave left to call",
    "the game is over",
    "malformed command",
    "that tower keeps no soldiers",
    "out of the barracks' reach",
    "soldiers cannot stand there",
    "the tower is not damaged"};
  return (unsigned)r < TD_REFUSAL_COUNT ? texts[r] : NULL;
}
