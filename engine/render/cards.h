/*
** cards.h: what the game tells a player about things, in a player's words:
** display names, refusal reasons, the tooltip of a button, the card of a
** tower before it is bought (and of an upgrade), an enemy's card, and the
** boss health bar.
**
** What. Text builders over the rules (rules.h) and views of the world,
** and the drawing of a card (a panel with a title and wrapped lines) into
** a td_batch. Names a player reads come from the mod's titles (rules.h:
** display names); rules built in C without titles get them made from the
** ids (td_mod_title_from_name), so no id reaches the screen. Refusals are
** worded here for the screen; td_world_refusal_message stays the words of
** logs and the command line.
**
** The client's side (cards.c, through client_int.h) decides when they
** show: a tooltip after the pointer rests TD_CARDS_HOVER_S on a button,
** the enemy card of a clicked enemy while it lives, a short card the first
** time a kind of enemy appears in a game, the boss bar while a boss lives.
** Its state is a td_cards inside the client.
**
** Memory: text goes into the caller's buffers; a td_cards is plain data.
** Determinism: not part of the simulation; everything here only reads.
*/
#ifndef TD_RENDER_CARDS_H
#define TD_RENDER_CARDS_H

#include <SDL.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "render/batch.h"
#include "sim/world.h"

#define TD_CARDS_HOVER_S 0.4    /* seconds on a button before its tooltip shows */
#define TD_CARDS_INTRO_S 6.0    /* seconds a new kind of enemy's card shows */
#define TD_CARDS_MAX_KINDS 512  /* enemy kinds a game remembers seeing (more: no card) */
#define TD_CARDS_INTRO_QUEUE 8  /* new kinds waiting for their card */
#define TD_CARDS_TEXT_MAX 1200  /* a card's body */
#define TD_CARDS_WIDTH 300      /* a card's width in pixels (text at scale 1: 6 px a cell) */

/* The client's information state (cards.c). */
typedef struct td_cards {
  int hover_action, hover_arg; /* the button under the pointer (-1: none) */
  double hover_since;          /* client time it came under the pointer */
  uint32_t enemy;              /* the clicked enemy's handle, 0: none */
  uint64_t seen[TD_CARDS_MAX_KINDS / 64]; /* enemy kinds met this game */
  int32_t intro[TD_CARDS_INTRO_QUEUE];    /* kinds waiting for their card, oldest first */
  int nintro;
  double intro_until;          /* the first's card shows until then (0: not started) */
  SDL_Rect r_tooltip, r_enemy, r_intro, r_boss; /* of the last frame; w 0: not shown */
  bool tooltip_is_card;        /* the tooltip was a tower's or an upgrade's card */
  bool off;                    /* no enemy cards or boss bar (td_client_options.no_cards) */
} td_cards;

/* Display names: the mod's title, or one made from the id into buf. */
const char *td_cards_tower_title(const td_rules *r, int32_t type, char buf[TD_RULES_TITLE_MAX]);
const char *td_cards_level_title(const td_rules *r, int32_t level, char buf[TD_RULES_TITLE_MAX]);
const char *td_cards_enemy_title(const td_rules *r, int32_t type, char buf[TD_RULES_TITLE_MAX]);
const char *td_cards_soldier_title(const td_rules *r, int32_t type, char buf[TD_RULES_TITLE_MAX]);

/* A refusal in a player's words, lower case, no final stop ("it would
** block the last way to the exit"). spawn: a CUTS_ROUTE refusal's spawn
** (-1: it would trap enemies on the road); else unused. */
const char *td_cards_refusal(td_refusal why, int32_t spawn);

/* The lines of a tower level's card: its role, what it targets, damage
** and type, DPS, range, effect, soldiers or aura, and its upgrades; then
** description (NULL or "": none), wrapped to the card. Returns out. */
const char *td_cards_level_text(const td_rules *r, int32_t level, const char *description,
                                char *out, size_t cap);
/* The lines of an enemy's card: health (the live enemy's when ev is not
** NULL), speed, armour, resistances and weaknesses, flying, boss, healing,
** splitting, bounty and lives; then its description. Returns out. */
const char *td_cards_enemy_text(const td_rules *r, int32_t type, const td_enemy_view *ev,
                                char *out, size_t cap);

/* Wraps in to lines of at most cols cells (UTF-8 characters), breaking at
** blanks (a longer word is cut), keeping its '\n's. */
void td_cards_wrap(const char *in, int cols, char *out, size_t cap);

/* The size of a card of this title and (wrapped) body, at x, y. */
SDL_Rect td_cards_measure(int x, int y, const char *title, const char *sub, const char *body);
/* Draws it: a panel, an accent bar, the title (scale 2), sub (scale 1, in
** gold: "50 gold"), the body (scale 1). */
void td_cards_draw(td_batch *b, SDL_Rect r, const char *title, const char *sub, const char *body,
                   SDL_Color accent);
/* A rectangle of w x h moved to stay inside the screen (sw x sh) with a
** margin of 4 pixels, where it can. */
SDL_Rect td_cards_clamp(SDL_Rect r, int sw, int sh);

/* The boss bar, centred at the top of the area from y, sw wide: a name,
** a health bar, "+N more" when several bosses live. Returns its rectangle. */
SDL_Rect td_cards_boss_bar(td_batch *b, int sw, int y, const char *title, float health, float max,
                           int more);

#endif
