/*
** auto.c: the built-in player (auto.h): lifetime, the strategies' names,
** the player's memory in saves, the decision loop and the commands every
** strategy gives (auto_int.h says which file holds the rest).
*/
#include "game/auto_int.h"

#include <string.h>

static const char *const strategy_names[TD_AUTO_STRATEGIES] = {"default", "maze", "economy",
                                                               "random"};

const char *td_auto_strategy_name(int strategy) {
  return strategy >= 0 && strategy < TD_AUTO_STRATEGIES ? strategy_names[strategy] : NULL;
}

int td_auto_strategy_find(const char *name) {
  for (int s = 0; s < TD_AUTO_STRATEGIES; s++)
    if (strcmp(name, strategy_names[s]) == 0) return s;
  return -1;
}

td_auto *td_auto_create_strategy(int strategy, td_err *err) {
  if (strategy < 0 || strategy >= TD_AUTO_STRATEGIES) {
    td_err_set(err, "auto: no strategy %d", strategy);
    return NULL;
  }
  td_auto *a = td_mem_calloc(1, sizeof *a);
  if (!a) {
    td_err_set(err, "auto: out of memory");
    return NULL;
  }
  a->strategy = strategy;
  a->want = -1;
  a->eco_margin = 100;
  a->eco_wave = -1;
  return a;
}

td_auto *td_auto_create(td_err *err) { return td_auto_create_strategy(TD_AUTO_DEFAULT, err); }

int td_auto_strategy(const td_auto *a) { return a->strategy; }

void td_auto_destroy(td_auto *a) {
  if (!a) return;
  td_mem_free(a->px, a->pcap * sizeof *a->px);
  td_mem_free(a->py, a->pcap * sizeof *a->py);
  td_mem_free(a->air, a->pcap);
  td_mem_free(a->built_of, a->built_cap * sizeof *a->built_of);
  td_mem_free(a->tried, a->tried_cap);
  td_mem_free(a->cov, a->cov_cap * sizeof *a->cov);
  td_mem_free(a->route_len, a->len_cap * sizeof *a->route_len);
  td_mem_free(a->next, a->node_cap * sizeof *a->next);
  td_mem_free(a->on_path, a->node_cap);
  td_mem_free(a, sizeof *a);
}

/* ---- the memory in a save ------------------------------------------------ */

/* Version 1 ("AUT1", the default player's before there were strategies):
** i32 built, upgraded, want; u64 want_since; u32 n; n x i32 built_of.
** Version 2 ("AUT2"): u32 strategy, then version 1's fields, then u64 rng,
** u8 rng_seeded, i32 eco_margin, eco_wave, eco_lives. */
#define AUTO_STATE_MAGIC_1 0x31545541u /* "AUT1" */
#define AUTO_STATE_MAGIC_2 0x32545541u /* "AUT2" */

void td_auto_save(const td_auto *a, td_blob *b) {
  td_blob_u32(b, AUTO_STATE_MAGIC_2);
  td_blob_u32(b, (uint32_t)a->strategy);
  td_blob_i32(b, a->built);
  td_blob_i32(b, a->upgraded);
  td_blob_i32(b, a->want);
  td_blob_u64(b, a->want_since);
  td_blob_u32(b, (uint32_t)a->built_cap);
  for (size_t t = 0; t < a->built_cap; t++) td_blob_i32(b, a->built_of[t]);
  td_blob_u64(b, a->rng);
  td_blob_u8(b, a->rng_seeded ? 1 : 0);
  td_blob_i32(b, a->eco_margin);
  td_blob_i32(b, a->eco_wave);
  td_blob_i32(b, a->eco_lives);
}

int td_auto_load(td_auto *a, const void *data, size_t len, td_err *err) {
  if (len == 0) return 0;
  static const char bad[] = "auto: the player's memory in the save is not the built-in player's";
  td_blob_reader r = td_blob_read(data, len);
  uint32_t magic = td_blob_get_u32(&r);
  if (magic != AUTO_STATE_MAGIC_1 && magic != AUTO_STATE_MAGIC_2) return td_err_set(err, bad);
  bool v2 = magic == AUTO_STATE_MAGIC_2;
  uint32_t strategy = v2 ? td_blob_get_u32(&r) : (uint32_t)a->strategy;
  int32_t built = td_blob_get_i32(&r), upgraded = td_blob_get_i32(&r);
  int32_t want = td_blob_get_i32(&r);
  uint64_t since = td_blob_get_u64(&r);
  uint32_t n = td_blob_get_u32(&r);
  if (r.failed || n > (len - r.pos) / 4 || want < -1 || (want >= 0 && (uint32_t)want >= n) ||
      strategy >= TD_AUTO_STRATEGIES)
    return td_err_set(err, bad);
  if (n > a->built_cap) {
    int32_t *p = td_mem_realloc(a->built_of, a->built_cap * sizeof *p, n * sizeof *p);
    if (!p) return td_err_set(err, "auto: out of memory");
    a->built_of = p;
    a->built_cap = n;
  }
  int32_t *counts = a->built_of;
  size_t pos = r.pos; /* the counts are read twice: checked first, then kept */
  for (uint32_t t = 0; t < n; t++) (void)td_blob_get_i32(&r);
  uint64_t rng = 0;
  bool seeded = false;
  int32_t margin = 100, eco_wave = -1, eco_lives = 0;
  if (v2) {
    rng = td_blob_get_u64(&r);
    uint8_t s = td_blob_get_u8(&r);
    margin = td_blob_get_i32(&r);
    eco_wave = td_blob_get_i32(&r);
    eco_lives = td_blob_get_i32(&r);
    if (r.failed || s > 1 || margin < 1 || eco_wave < -1) return td_err_set(err, bad);
    seeded = s == 1;
  }
  if (r.failed) return td_err_set(err, bad);
  r.pos = pos;
  for (size_t t = n; t < a->built_cap; t++) counts[t] = 0;
  for (uint32_t t = 0; t < n; t++) counts[t] = td_blob_get_i32(&r);
  a->strategy = (int)strategy;
  a->built = built;
  a->upgraded = upgraded;
  a->want = want;
  a->want_since = since;
  a->rng = rng;
  a->rng_seeded = seeded;
  a->eco_margin = margin;
  a->eco_wave = eco_wave;
  a->eco_lives = eco_lives;
  return 0;
}

void td_auto_counts(const td_auto *a, int32_t *built, int32_t *upgraded) {
  *built = a->built;
  *upgraded = a->upgraded;
}

/* ---- commands ------------------------------------------------------------ */

int auto_command(td_game *g, td_command *c, td_err *err) {
  c->tick = td_world_tick(td_game_world(g));
  return td_game_command(g, c, err);
}

int auto_place_at(td_auto *a, td_game *g, int32_t b, int32_t t, td_err *err) {
  td_place_check pc;
  if (!td_world_check_place(td_game_world(g), b, t, &pc)) {
    a->tried[b] = 1;
    return 0;
  }
  td_command cmd = {.kind = TD_COMMAND_PLACE, .base = b, .tower_type = t};
  if (auto_command(g, &cmd, err) != 0) return -1;
  a->built_of[t]++;
  a->built++;
  a->want = -1;
  return 1;
}

int auto_place(td_auto *a, td_game *g, int32_t t, td_err *err) {
  td_world *w = td_game_world(g);
  for (int k = 0; k < AUTO_PLACE_TRIES; k++) {
    float c;
    int32_t b = auto_best_base(a, w, t, &c);
    if (b < 0) return 0;
    int rc = auto_place_at(a, g, b, t, err);
    if (rc != 0) return rc;
  }
  return 0;
}

int auto_upgrade_at(td_auto *a, td_game *g, int32_t b, int child, td_err *err) {
  td_command cmd = {.kind = TD_COMMAND_UPGRADE, .base = b, .upgrade = child};
  if (auto_command(g, &cmd, err) != 0) return -1;
  a->upgraded++;
  return 1;
}

int auto_upgrade(td_auto *a, td_game *g, td_err *err) {
  td_world *w = td_game_world(g);
  const td_map *m = td_world_map(w);
  const td_rules *r = td_world_rules(w);
  int32_t gold = td_world_gold(w), best = -1, best_child = -1;
  float best_c = -1;
  for (size_t b = 0; b < m->base_count; b++) {
    td_tower_view t;
    if (!td_world_tower(w, b, &t)) continue;
    const td_tower_level *l = &r->levels[t.level];
    int nch = 0;
    while (nch < TD_RULES_MAX_CHILDREN && l->children[nch] >= 0) nch++;
    int child = -1;
    for (int k = 0; k < nch && child < 0; k++) {
      int c = (t.depth + k) % nch;
      if (r->levels[l->children[c]].cost <= gold) child = c;
    }
    if (child < 0) continue;
    float c = auto_level_cover(a, w, l, t.x, t.y, 0, a->ground_end, a->air_weight);
    if (c > best_c) best_c = c, best = (int32_t)b, best_child = child;
  }
  if (best < 0) return 0;
  return auto_upgrade_at(a, g, best, best_child, err) < 0 ? -1 : 1;
}

int auto_call_wave(td_game *g, td_err *err) {
  td_command cmd = {.kind = TD_COMMAND_CALL_WAVE};
  return auto_command(g, &cmd, err) != 0 ? -1 : 1;
}

/* ---- soldiers and repairs ------------------------------------------------ */

/* Soldiers hold best where the towers shoot: a barracks whose rally point
** is off the ground path (a new one's stands on its pad) gets the path
** point within its range that the most firing towers cover (ties: the
** nearest to it, then the first along the path) where its soldiers can
** stand. 1 a command, 0 none, -1 error. */
static int rally(td_auto *a, td_game *g, td_err *err) {
  td_world *w = td_game_world(g);
  const td_map *m = td_world_map(w);
  const td_rules *r = td_world_rules(w);
  float tile = (float)m->tile_w;
  for (size_t b = 0; b < m->base_count; b++) {
    td_tower_view t;
    if (!td_world_tower(w, b, &t) || t.soldiers <= 0) continue;
    bool on_path = false;
    for (size_t i = 0; i < a->ground_end && !on_path; i++) {
      float dx = a->px[i] - t.rally_x, dy = a->py[i] - t.rally_y;
      on_path = dx * dx + dy * dy <= 0.75f * tile * 0.75f * tile;
    }
    if (on_path) continue;
    float reach = r->levels[t.level].range * tile * 0.9f;
    int64_t best = -1;
    float best_c = -1, best_d = 0;
    for (size_t i = 0; i < a->ground_end; i++) {
      float dx = a->px[i] - t.x, dy = a->py[i] - t.y, d = dx * dx + dy * dy;
      if (d > reach * reach) continue;
      float c = 0;
      for (size_t o = 0; o < m->base_count; o++) {
        td_tower_view u;
        if (!td_world_tower(w, o, &u) || r->levels[u.level].rate <= 0) continue;
        float rr = r->levels[u.level].range * tile, ex = a->px[i] - u.x, ey = a->py[i] - u.y;
        if (ex * ex + ey * ey <= rr * rr) c += 1;
      }
      if (c < best_c || (c == best_c && d >= best_d)) continue;
      /* not at a spawn's gate: an enemy held there, healed by its wave,
      ** could stand forever and keep the rest of it off the map */
      if (auto_near_spawn(w, a->px[i], a->py[i], 4.0f * tile)) continue;
      td_refusal why;
      float xy[2 * TD_RULES_MAX_SOLDIERS];
      if (td_world_rally_posts(w, (int32_t)b, t.type, a->px[i], a->py[i], xy, TD_RULES_MAX_SOLDIERS,
                               &why) == 0)
        continue;
      best = (int64_t)i, best_c = c, best_d = d;
    }
    if (best < 0) continue;
    td_command cmd = {.kind = TD_COMMAND_RALLY, .base = (int32_t)b, .x = a->px[best],
                      .y = a->py[best]};
    return auto_command(g, &cmd, err) != 0 ? -1 : 1;
  }
  return 0;
}

/* The most damaged tower below half health, when its repair costs at most
** half the gold in hand. 1 a command, 0 none, -1 error. */
static int repair(td_game *g, td_err *err) {
  td_world *w = td_game_world(g);
  const td_map *m = td_world_map(w);
  int32_t gold = td_world_gold(w), best = -1;
  float worst = 0.5f;
  for (size_t b = 0; b < m->base_count; b++) {
    td_tower_view t;
    if (!td_world_tower(w, b, &t) || t.max_health <= 0) continue;
    float f = t.health / t.max_health;
    int32_t cost = td_world_repair_cost(w, (int32_t)b);
    if (f < worst && cost >= 0 && cost * 2 <= gold) worst = f, best = (int32_t)b;
  }
  if (best < 0) return 0;
  td_command cmd = {.kind = TD_COMMAND_REPAIR, .base = best};
  return auto_command(g, &cmd, err) != 0 ? -1 : 1;
}


/* ---- the decision loop --------------------------------------------------- */

/* The scratch arrays sized for this world: 0, or -1 when out of memory. */
static int grow(td_auto *a, const td_world *w) {
  const td_map *m = td_world_map(w);
  const td_rules *r = td_world_rules(w);
  if (r->tower_count > a->built_cap) {
    int32_t *p = td_mem_realloc(a->built_of, a->built_cap * sizeof *p, r->tower_count * sizeof *p);
    if (!p) return -1;
    memset(p + a->built_cap, 0, (r->tower_count - a->built_cap) * sizeof *p);
    a->built_of = p;
    a->built_cap = r->tower_count;
  }
  if (m->base_count > a->tried_cap) {
    uint8_t *p = td_mem_realloc(a->tried, a->tried_cap, m->base_count);
    if (!p) return -1;
    a->tried = p;
    a->tried_cap = m->base_count;
  }
  if (m->base_count > a->len_cap) {
    double *p = td_mem_realloc(a->route_len, a->len_cap * sizeof *p, m->base_count * sizeof *p);
    if (!p) return -1;
    a->route_len = p;
    a->len_cap = m->base_count;
  }
  if (m->base_count > 0) memset(a->tried, 0, m->base_count); /* no bases: tried may be NULL */
  size_t nodes = (size_t)td_route_graph(td_world_route(w))->node_count, types = r->tower_count;
  if (nodes > a->node_cap) {
    int32_t *nx = td_mem_realloc(a->next, a->node_cap * sizeof *nx, nodes * sizeof *nx);
    if (nx) a->next = nx;
    uint8_t *op = nx ? td_mem_realloc(a->on_path, a->node_cap, nodes) : NULL;
    if (!op) return -1;
    a->on_path = op;
    a->node_cap = nodes;
  }
  if (m->base_count * types > a->cov_cap) {
    float *cv = td_mem_realloc(a->cov, a->cov_cap * sizeof *cv, m->base_count * types * sizeof *cv);
    if (!cv) return -1;
    a->cov = cv;
    a->cov_cap = m->base_count * types;
  }
  return 0;
}

/* A first wave that waits for the player is called when the strategy has
** not built within this many seconds (the default one always builds). */
#define AUTO_FIRST_WAVE_GRACE 20

int td_auto_play(td_auto *a, td_game *g, td_err *err) {
  td_world *w = td_game_world(g);
  uint64_t tick = td_world_tick(w);
  if (tick % TD_AUTO_PERIOD != 0 || td_world_state(w) != TD_GAME_PLAYING || td_world_paused(w))
    return 0;
  if (grow(a, w) != 0 || auto_scan(a, w) != 0) return td_err_set(err, "auto: out of memory");
  int rc = rally(a, g, err);
  if (rc == 0) rc = repair(g, err);
  if (rc != 0) return rc < 0 ? -1 : 0;
  switch (a->strategy) {
  case TD_AUTO_MAZE: rc = auto_maze_turn(a, g, err); break;
  case TD_AUTO_ECONOMY: rc = auto_economy_turn(a, g, err); break;
  case TD_AUTO_RANDOM: rc = auto_random_turn(a, g, err); break;
  default: return auto_default_turn(a, g, err);
  }
  if (rc != 0) return -1;
  if (td_world_first_wave_waiting(w) &&
      tick >= (uint64_t)AUTO_FIRST_WAVE_GRACE * TD_WORLD_TICK_HZ)
    return auto_call_wave(g, err) < 0 ? -1 : 0;
  return 0;
}
