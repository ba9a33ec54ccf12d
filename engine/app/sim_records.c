/*
** sim_records.c: the per-game records of `td sim --json` (sim_records.h).
*/
#include "app/sim_records.h"

#include <inttypes.h>
#include <string.h>

#include "script/modout.h"

static void sample(sim_records *s, const td_world *w) {
  if (s->failed) return;
  int32_t *gold = td_mem_grow(s->gold, &s->gcap, s->n + 1, sizeof *gold);
  if (gold) s->gold = gold;
  int32_t *lives = gold ? td_mem_grow(s->lives, &s->lcap, s->n + 1, sizeof *lives) : NULL;
  if (!lives) {
    s->failed = true;
    return;
  }
  s->lives = lives;
  s->gold[s->n] = td_world_gold(w);
  s->lives[s->n] = td_world_lives(w);
  s->n++;
  s->last = td_world_tick(w);
}

void sim_records_init(sim_records *s, const td_game *g) {
  const td_world *w = td_game_world(g);
  const td_rules *r = td_world_rules(w);
  memset(s, 0, sizeof *s);
  s->every = SIM_CURVE_EVERY;
  s->from = td_world_tick(w);
  s->towers = r->tower_count;
  s->enemies = r->enemy_count;
  s->kills = td_mem_calloc(s->towers + 1, sizeof *s->kills);
  s->leaks = td_mem_calloc(s->enemies + 1, sizeof *s->leaks);
  if (!s->kills || !s->leaks) s->failed = true;
  sample(s, w);
}

/* The tower type credited with the kill ev[i] (-1: none). */
static int32_t killer_type(const td_world *w, const td_event *ev, size_t i) {
  const td_rules *r = td_world_rules(w);
  if (ev[i].tower == 0) return -1;
  td_tower_view t;
  if (td_world_tower_get(w, ev[i].tower, &t)) return t.type;
  for (size_t k = i; k-- > 0;)
    if (ev[k].kind == TD_EVENT_HIT && ev[k].enemy == ev[i].enemy && ev[k].tower == ev[i].tower &&
        ev[k].level >= 0 && (size_t)ev[k].level < r->level_count)
      return r->levels[ev[k].level].tower;
  return -1;
}

void sim_records_step(sim_records *s, const td_game *g) {
  const td_world *w = td_game_world(g);
  if (s->failed) return;
  size_t n;
  const td_event *ev = td_world_events(w, &n);
  for (size_t i = 0; i < n; i++) {
    if (ev[i].kind == TD_EVENT_KILLED) {
      int32_t t = killer_type(w, ev, i);
      s->kills[t >= 0 && (size_t)t < s->towers ? (size_t)t : s->towers]++;
    } else if (ev[i].kind == TD_EVENT_LEAKED && ev[i].type >= 0 &&
               (size_t)ev[i].type < s->enemies) {
      s->leaks[ev[i].type]++;
    }
  }
  if ((td_world_tick(w) - s->from) % s->every == 0) sample(s, w);
}

void sim_records_end(sim_records *s, const td_game *g) {
  const td_world *w = td_game_world(g);
  if (s->n == 0 || s->last != td_world_tick(w)) sample(s, w);
}

static void curve(FILE *out, const char *name, const int32_t *v, size_t n) {
  fprintf(out, "\"%s\":[", name);
  for (size_t i = 0; i < n; i++) fprintf(out, "%s%d", i ? "," : "", (int)v[i]);
  fputs("],", out);
}

void sim_records_json(const sim_records *s, const td_game *g, FILE *out) {
  if (s->failed) return;
  const td_rules *r = td_game_rules(g);
  fprintf(out, "\"curve_every\":%" PRIu64 ",\"curve_from\":%" PRIu64 ",", s->every, s->from);
  curve(out, "gold_curve", s->gold, s->n);
  curve(out, "lives_curve", s->lives, s->n);
  fputs("\"kills_by_tower\":{", out);
  for (size_t t = 0; t < s->towers; t++) {
    td_modout_json_str(out, r->towers[t].name);
    fprintf(out, ":%" PRId64 ",", s->kills[t]);
  }
  fprintf(out, "\"none\":%" PRId64 "},\"leaks_by_enemy\":{", s->kills[s->towers]);
  for (size_t e = 0; e < s->enemies; e++) {
    if (e) fputc(',', out);
    td_modout_json_str(out, r->enemies[e].name);
    fprintf(out, ":%" PRId64, s->leaks[e]);
  }
  fputs("},", out);
}

void sim_records_free(sim_records *s) {
  td_mem_free(s->gold, s->gcap * sizeof *s->gold);
  td_mem_free(s->lives, s->lcap * sizeof *s->lives);
  td_mem_free(s->kills, (s->towers + 1) * sizeof *s->kills);
  td_mem_free(s->leaks, (s->enemies + 1) * sizeof *s->leaks);
  memset(s, 0, sizeof *s);
}
