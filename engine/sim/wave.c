/*
** wave.c: the wave clock, spawn batches and the end of waves.
**
** The clock counts unpaused ticks. Wave n + 1 starts when the clock reaches
** next_wave_at (or when called early); starting a wave pays the income,
** queues one spawn batch per group and spawn point at start + delay, and
** sets next_wave_at to start + wave_interval. A batch spawns as one
** formation, in a crowd group of its own. With rules->first_wave_waits,
** wave 1 stays first_wave_delay away until the world is armed (the first
** tower placed, or a call).
*/
#include "sim/world_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t ticks_of(float seconds) {
  return (uint64_t)llroundf(seconds * (float)TD_WORLD_TICK_HZ);
}

bool waves_left(const td_world *w) {
  return w->game == TD_GAME_PLAYING && (w->endless || w->wave < w->rules->wave_count);
}

wave_rec *wave_find(td_world *w, int32_t n) {
  for (size_t i = 0; i < w->wave_len; i++)
    if (w->waves[i].wave == n) return &w->waves[i];
  return NULL;
}

static int push_pending(td_world *w, const pending *p) {
  if (w->pend_len == w->pend_cap) {
    pending *q = td_mem_grow(w->pend, &w->pend_cap, w->pend_len + 1, sizeof *q);
    if (!q) return -1;
    w->pend = q;
  }
  w->pend[w->pend_len++] = *p;
  return 0;
}

/* Starts the next wave at clock tick `now`, paying bonus gold on top. */
static void start_wave(td_world *w, uint64_t now, int32_t bonus) {
  const td_rules *r = w->rules;
  int32_t n = ++w->wave;
  w->next_wave_at = now + ticks_of(r->wave_interval);
  td_world_give_gold(w, r->wave_income);
  td_world_give_gold(w, bonus);
  if (w->wave_len == w->wave_cap) {
    wave_rec *q = td_mem_grow(w->waves, &w->wave_cap, w->wave_len + 1, sizeof *q);
    if (!q) {
      world_fail(w, "waves");
      return;
    }
    w->waves = q;
  }
  wave_rec *rec = &w->waves[w->wave_len++];
  *rec = (wave_rec){.wave = n};
  if (wave_scripted(w, n)) rec->pending++; /* its script lets it go */
  for (size_t i = 0; i < r->group_count; i++) {
    const td_spawn_group *g = &r->groups[i];
    /* rules.h's membership rule (td_rules_wave_groups without a buffer) */
    if (n < g->begin || (g->end != 0 && n > g->end) || (n - g->begin) % g->every != 0) continue;
    size_t s0 = g->spawn >= 0 ? (size_t)g->spawn : 0;
    size_t s1 = g->spawn >= 0 ? s0 + 1 : w->map->spawn_count;
    for (size_t s = s0; s < s1; s++) {
      pending p = {.at = now + ticks_of(g->delay), .wave = n, .group = (int32_t)i,
                   .spawn = (int32_t)s, .count = td_rules_group_count(r, g, n),
                   .health = td_rules_group_health(r, g, n)};
      if (push_pending(w, &p) != 0) {
        world_fail(w, "spawn batches");
        return;
      }
      rec->pending++;
    }
  }
  td_event e = world_event(w, TD_EVENT_WAVE_STARTED);
  e.wave = n;
  e.amount = (float)bonus;
  world_emit(w, &e);
}

static void spawn_batch(td_world *w, const pending *p) {
  const td_rules *r = w->rules;
  const td_spawn_group *g = &r->groups[p->group];
  int32_t node = w->spawn_nodes[p->spawn];
  int32_t group = group_take(w);
  td_formation f = {.count = p->count, .per_row = g->per_row, .width = g->width * w->tile,
                    .spacing = g->spacing * w->tile};
  float scale = p->health / r->enemies[g->enemy].health;
  for (int32_t k = 0; k < p->count && !w->broken; k++) {
    float lane, slot;
    td_formation_place(&f, k, &lane, &slot);
    enemy_add(w, g->enemy, node, p->health, scale, p->wave, group, lane, slot, NULL);
  }
}

void waves_update(td_world *w) {
  /* waiting for the player: wave 1 stays first_wave_delay away */
  if (!w->armed && w->wave == 0) w->next_wave_at = w->clock + ticks_of(w->rules->first_wave_delay);
  while (waves_left(w) && w->clock >= w->next_wave_at && !w->broken)
    start_wave(w, w->clock, 0);
  /* due batches spawn in the order they were queued */
  size_t keep = 0;
  for (size_t i = 0; i < w->pend_len; i++) {
    pending p = w->pend[i];
    if (p.at > w->clock || w->broken) {
      w->pend[keep++] = p;
      continue;
    }
    spawn_batch(w, &p);
    wave_rec *rec = wave_find(w, p.wave);
    if (rec) rec->pending--;
  }
  w->pend_len = keep;
}

/* The CALL_WAVE command: the next wave starts at the tick being run (clock
** + 1), and the seconds it skipped pay early_bonus each. */
td_refusal wave_call(td_world *w) {
  if (!waves_left(w)) return TD_REFUSAL_NO_WAVE;
  w->armed = true;
  uint64_t now = w->clock + 1;
  uint64_t skipped = w->next_wave_at > now ? w->next_wave_at - now : 0;
  double bonus = floor((double)w->rules->early_bonus * (double)skipped / TD_WORLD_TICK_HZ);
  start_wave(w, now, bonus > 1e9 ? 1000000000 : (int32_t)bonus);
  return TD_REFUSAL_NONE;
}

static int cmp_i32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

int td_world_set_scripted_waves(td_world *w, const int32_t *waves, size_t n, td_err *err) {
  for (size_t i = 0; i < n; i++)
    if (waves[i] < 1) return td_err_set(err, "world: scripted wave %d is not >= 1", (int)waves[i]);
  int32_t *p = n ? td_mem_alloc(n * sizeof *p) : NULL;
  if (n && !p) return td_err_set(err, "world: out of memory");
  if (n) memcpy(p, waves, n * sizeof *p);
  if (n) qsort(p, n, sizeof *p, cmp_i32);
  td_mem_free(w->scripted, w->nscripted * sizeof *w->scripted);
  w->scripted = p;
  w->nscripted = n;
  return 0;
}

bool wave_scripted(const td_world *w, int32_t n) {
  return w->nscripted && bsearch(&n, w->scripted, w->nscripted, sizeof n, cmp_i32) != NULL;
}

bool td_world_wave_hold(td_world *w, int32_t wave, int delta) {
  wave_rec *rec = wave_find(w, wave);
  if (!rec || (delta < 0 && rec->pending + delta < 0)) return false;
  rec->pending += delta;
  return true;
}

/* Waves whose batches have all spawned and whose enemies are all gone end,
** oldest first. */
void waves_settle(td_world *w) {
  size_t keep = 0;
  for (size_t i = 0; i < w->wave_len; i++) {
    wave_rec rec = w->waves[i];
    if (rec.pending == 0 && rec.alive <= 0) {
      td_event e = world_event(w, TD_EVENT_WAVE_ENDED);
      e.wave = rec.wave;
      world_emit(w, &e);
    } else {
      w->waves[keep++] = rec;
    }
  }
  w->wave_len = keep;
}
