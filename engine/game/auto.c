/*
** auto.c: the built-in player (auto.h).
*/
#include "game/auto.h"

#include <math.h>
#include <string.h>

#define AIR_IDLE_WEIGHT 0.2f
#define PLACE_TRIES 8
#define AUTO_PREVIEWS 64  /* placements whose route is previewed, per decision */

struct td_auto {
  float *px, *py;        /* where enemies go (map units) */
  uint8_t *air;          /* 1: a flyer's point */
  size_t np, pcap;
  int32_t *built_of;     /* per tower type */
  size_t built_cap;
  int32_t built, upgraded;
  int32_t want;          /* the type saved for, -1: none */
  uint64_t want_since;
  uint8_t *tried;        /* per base, this decision: refused */
  size_t tried_cap;
  float *cov;            /* per base x tower type, this decision */
  size_t cov_cap;
  int32_t *next;         /* a placement's route (td_world_preview_next) */
  uint8_t *on_path;      /* per node: on the current ground path */
  size_t node_cap;
  size_t ground_end;     /* points [0, ground_end): the ground path's */
  size_t air_end;        /* [ground_end, air_end): the flyers'; then a preview's */
};

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

td_auto *td_auto_create(td_err *err) {
  td_auto *a = td_mem_calloc(1, sizeof *a);
  if (!a) td_err_set(err, "auto: out of memory");
  else a->want = -1;
  return a;
}

void td_auto_destroy(td_auto *a) {
  if (!a) return;
  td_mem_free(a->px, a->pcap * sizeof *a->px);
  td_mem_free(a->py, a->pcap * sizeof *a->py);
  td_mem_free(a->air, a->pcap);
  td_mem_free(a->built_of, a->built_cap * sizeof *a->built_of);
  td_mem_free(a->tried, a->tried_cap);
  td_mem_free(a->cov, a->cov_cap * sizeof *a->cov);
  td_mem_free(a->next, a->node_cap * sizeof *a->next);
  td_mem_free(a->on_path, a->node_cap);
  td_mem_free(a, sizeof *a);
}

#define AUTO_STATE_MAGIC 0x31545541u /* "AUT1" */

void td_auto_save(const td_auto *a, td_blob *b) {
  td_blob_u32(b, AUTO_STATE_MAGIC);
  td_blob_i32(b, a->built);
  td_blob_i32(b, a->upgraded);
  td_blob_i32(b, a->want);
  td_blob_u64(b, a->want_since);
  td_blob_u32(b, (uint32_t)a->built_cap);
  for (size_t t = 0; t < a->built_cap; t++) td_blob_i32(b, a->built_of[t]);
}

int td_auto_load(td_auto *a, const void *data, size_t len, td_err *err) {
  if (len == 0) return 0;
  td_blob_reader r = td_blob_read(data, len);
  uint32_t magic = td_blob_get_u32(&r);
  int32_t built = td_blob_get_i32(&r), upgraded = td_blob_get_i32(&r);
  int32_t want = td_blob_get_i32(&r);
  uint64_t since = td_blob_get_u64(&r);
  uint32_t n = td_blob_get_u32(&r);
  if (r.failed || magic != AUTO_STATE_MAGIC || n > (len - r.pos) / 4 || want < -1 ||
      (want >= 0 && (uint32_t)want >= n))
    return td_err_set(err, "auto: the player's memory in the save is not the built-in player's");
  if (n > a->built_cap) {
    int32_t *p = td_mem_realloc(a->built_of, a->built_cap * sizeof *p, n * sizeof *p);
    if (!p) return td_err_set(err, "auto: out of memory");
    a->built_of = p;
    a->built_cap = n;
  }
  for (size_t t = n; t < a->built_cap; t++) a->built_of[t] = 0;
  for (uint32_t t = 0; t < n; t++) a->built_of[t] = td_blob_get_i32(&r);
  a->built = built;
  a->upgraded = upgraded;
  a->want = want;
  a->want_since = since;
  return 0;
}

void td_auto_counts(const td_auto *a, int32_t *built, int32_t *upgraded) {
  *built = a->built;
  *upgraded = a->upgraded;
}

/* ---- where enemies go ---------------------------------------------------- */

static int add_point(td_auto *a, float x, float y, uint8_t air) {
  if (a->np == a->pcap) {
    size_t cap = a->pcap ? a->pcap * 2 : 256;
    float *px = td_mem_realloc(a->px, a->pcap * sizeof *px, cap * sizeof *px);
    if (!px) return -1;
    a->px = px;
    float *py = td_mem_realloc(a->py, a->pcap * sizeof *py, cap * sizeof *py);
    if (!py) return -1;
    a->py = py;
    uint8_t *ai = td_mem_realloc(a->air, a->pcap, cap);
    if (!ai) return -1;
    a->air = ai;
    a->pcap = cap;
  }
  a->px[a->np] = x;
  a->py[a->np] = y;
  a->air[a->np] = air;
  a->np++;
  return 0;
}

/* Points every `step` along (x0, y0) -> (x1, y1), the start included. */
static int add_segment(td_auto *a, double x0, double y0, double x1, double y1, double step,
                       uint8_t air) {
  double len = hypot(x1 - x0, y1 - y0);
  int n = (int)(len / step);
  if (n > 100000) n = 100000;
  for (int i = 0; i <= n; i++) {
    double t = n ? (double)i / (n + 1) : 0;
    if (add_point(a, (float)(x0 + (x1 - x0) * t), (float)(y0 + (y1 - y0) * t), air) != 0)
      return -1;
  }
  return 0;
}

/* Ground points along next[] from every spawn, appended; marks the nodes
** passed in on_path when given. */
static int collect_ground(td_auto *a, const td_world *w, const int32_t *next, uint8_t *on_path) {
  const td_map *m = td_world_map(w);
  const td_route *rt = td_world_route(w);
  const td_graph *g = td_route_graph(rt);
  double step = m->tile_w * 0.5;
  for (size_t s = 0; s < m->spawn_count; s++) {
    int32_t n = m->spawns[s].node;
    for (int32_t k = 0; k < g->node_count && n >= 0 && !td_route_is_goal(rt, n); k++) {
      if (on_path) on_path[n] = 1;
      int32_t to = next[n];
      if (to < 0) break;
      if (add_segment(a, g->x[n], g->y[n], g->x[to], g->y[to], step, 0) != 0) return -1;
      n = to;
    }
    if (on_path && n >= 0) on_path[n] = 1;
  }
  return 0;
}

/* Flyers: straight from every spawn to its nearest goal. */
static int collect_air(td_auto *a, const td_world *w) {
  const td_map *m = td_world_map(w);
  const td_route *rt = td_world_route(w);
  const td_graph *g = td_route_graph(rt);
  const int32_t *goals;
  size_t ngoals = td_route_goals(rt, &goals);
  for (size_t s = 0; s < m->spawn_count; s++) {
    int32_t sn = m->spawns[s].node, best = -1;
    double bd = 0;
    for (size_t i = 0; i < ngoals; i++) {
      double d = hypot(g->x[goals[i]] - g->x[sn], g->y[goals[i]] - g->y[sn]);
      if (best < 0 || d < bd) best = goals[i], bd = d;
    }
    if (best >= 0 &&
        add_segment(a, g->x[sn], g->y[sn], g->x[best], g->y[best], m->tile_w * 0.5, 1) != 0)
      return -1;
  }
  return 0;
}

static bool flyers_coming(const td_world *w) {
  const td_rules *r = td_world_rules(w);
  size_t cap = td_world_enemy_capacity(w);
  for (size_t s = 0; s < cap; s++) {
    td_enemy_view v;
    if (td_world_enemy(w, s, &v) && v.flying) return true;
  }
  td_wave_entry e[64];
  size_t n = td_world_preview(w, td_world_wave(w) + 1, e, 64);
  if (n > 64) n = 64;
  for (size_t i = 0; i < n; i++)
    if (r->enemies[e[i].enemy].flying) return true;
  return false;
}

/* ---- cover --------------------------------------------------------------- */

static void base_centre(const td_map *m, size_t b, float *x, float *y) {
  *x = (float)(m->bases[b].x + m->bases[b].w * 0.5);
  *y = (float)(m->bases[b].y + m->bases[b].h * 0.5);
}

/* Points [from, to) within the level's range of (x, y), those it can hit. */
static float cover(const td_auto *a, size_t from, size_t to, const td_tower_level *l, float tile,
                   float x, float y, float air_weight) {
  float r = l->range * tile, r2 = r * r, c = 0;
  for (size_t i = from; i < to; i++) {
    if (a->air[i] ? !l->hits_air : !l->hits_ground) continue;
    float dx = a->px[i] - x, dy = a->py[i] - y;
    if (dx * dx + dy * dy <= r2) c += a->air[i] ? air_weight : 1.0f;
  }
  return c;
}

/* A support level: the towers (that fire) its aura would reach. */
static float aura(const td_world *w, const td_tower_level *l, float x, float y) {
  const td_map *m = td_world_map(w);
  const td_rules *r = td_world_rules(w);
  float rad = l->range * (float)m->tile_w, c = 0;
  for (size_t b = 0; b < m->base_count; b++) {
    td_tower_view t;
    if (!td_world_tower(w, b, &t) || r->levels[t.level].rate <= 0) continue;
    float dx = t.x - x, dy = t.y - y;
    if (dx * dx + dy * dy <= rad * rad) c += 1;
  }
  return c;
}

/* Whether (x, y) is within reach of a spawn. */
static bool near_spawn(const td_world *w, float x, float y, float reach) {
  const td_map *m = td_world_map(w);
  const td_graph *g = td_route_graph(td_world_route(w));
  for (size_t s = 0; s < m->spawn_count; s++) {
    float dx = (float)g->x[m->spawns[s].node] - x, dy = (float)g->y[m->spawns[s].node] - y;
    if (dx * dx + dy * dy <= reach * reach) return true;
  }
  return false;
}

/* What a level at (x, y) covers: a support level the towers in its aura; a
** firing one the air points and the ground points [g0, g1). */
static float level_cover(const td_auto *a, const td_world *w, const td_tower_level *l, float x,
                         float y, size_t g0, size_t g1, float air_weight) {
  float tile = (float)td_world_map(w)->tile_w;
  if (l->soldiers > 0) { /* a barracks: the ground its soldiers can hold */
    /* none near a spawn: its soldiers would hold enemies at the gate
    ** (before a rally point is set, they stand round the barracks) */
    if (near_spawn(w, x, y, (6.0f + l->range) * tile)) return 0;
    td_tower_level ground = *l;
    ground.hits_ground = true;
    ground.hits_air = false;
    return cover(a, g0, g1, &ground, tile, x, y, air_weight);
  }
  if (l->rate <= 0) return aura(w, l, x, y);
  return cover(a, g0, g1, l, tile, x, y, air_weight) +
         cover(a, a->ground_end, a->air_end, l, tile, x, y, air_weight);
}

/* Whether a tower on base b would close something the ground path uses. */
static bool blocks_path(const td_auto *a, const td_world *w, size_t b) {
  const td_tower_base *tb = &td_world_map(w)->bases[b];
  const td_graph *g = td_route_graph(td_world_route(w));
  for (size_t k = 0; k < tb->block_count; k++) {
    const td_graph_change *c = &tb->block[k];
    if (c->kind == TD_CHANGE_BLOCK_NODE && a->on_path[c->id]) return true;
    if (c->kind == TD_CHANGE_BLOCK_EDGE && a->on_path[g->edges[c->id].a] &&
        a->on_path[g->edges[c->id].b])
      return true;
  }
  return false;
}

/* cov[b * types + t] for every free base b and type t: on the route as it
** would become when the base closes part of the current path (at most
** AUTO_PREVIEWS such bases a decision, in base order; later ones are
** scored on the current path), else on the current one. -1: occupied, or
** the placement would be refused. */
static int score_bases(td_auto *a, td_world *w, float air_weight) {
  const td_map *m = td_world_map(w);
  const td_rules *r = td_world_rules(w);
  size_t types = r->tower_count, previews = 0;
  for (size_t b = 0; b < m->base_count; b++) {
    float *row = &a->cov[b * types];
    td_tower_view tv;
    if (td_world_tower(w, b, &tv)) {
      for (size_t t = 0; t < types; t++) row[t] = -1;
      continue;
    }
    size_t g0 = 0, g1 = a->ground_end;
    if (previews < AUTO_PREVIEWS && blocks_path(a, w, b)) {
      previews++;
      if (!td_world_preview_next(w, (int32_t)b, 0, a->next)) {
        for (size_t t = 0; t < types; t++) row[t] = -1;
        continue;
      }
      g0 = a->np;
      if (collect_ground(a, w, a->next, NULL) != 0) return -1;
      g1 = a->np;
    }
    float x, y;
    base_centre(m, b, &x, &y);
    for (size_t t = 0; t < types; t++)
      row[t] = level_cover(a, w, &r->levels[r->towers[t].root], x, y, g0, g1, air_weight);
    a->np = a->air_end; /* drop the preview's points */
  }
  return 0;
}

/* The free, untried base where type t covers the most; -1 when none covers
** anything. */
static int32_t best_base(const td_auto *a, const td_world *w, int32_t t, float *best_cover) {
  const td_map *m = td_world_map(w);
  size_t types = td_world_rules(w)->tower_count;
  int32_t best = -1;
  *best_cover = 0;
  for (size_t b = 0; b < m->base_count; b++) {
    float c = a->cov[b * types + (size_t)t];
    if (!a->tried[b] && c > *best_cover) *best_cover = c, best = (int32_t)b;
  }
  return best;
}

/* A support tower: no shots, no soldiers (built once two towers stand). */
static bool is_support(const td_tower_level *l) { return l->rate <= 0 && l->soldiers <= 0; }

/* ---- decisions ----------------------------------------------------------- */

static int command(td_game *g, td_command *c, td_err *err) {
  c->tick = td_world_tick(td_game_world(g));
  return td_game_command(g, c, err);
}

/* Places type t at its best accepted base: 1 placed, 0 not, -1 error. */
static int place(td_auto *a, td_game *g, int32_t t, td_err *err) {
  td_world *w = td_game_world(g);
  for (int k = 0; k < PLACE_TRIES; k++) {
    float c;
    int32_t b = best_base(a, w, t, &c);
    if (b < 0) return 0;
    td_place_check pc;
    if (!td_world_check_place(w, b, t, &pc)) {
      a->tried[b] = 1;
      continue;
    }
    td_command cmd = {.kind = TD_COMMAND_PLACE, .base = b, .tower_type = t};
    if (command(g, &cmd, err) != 0) return -1;
    a->built_of[t]++;
    a->built++;
    a->want = -1;
    return 1;
  }
  return 0;
}

/* Buys the best-covering tower's affordable upgrade: 1, 0 none, -1 error. */
static int upgrade(td_auto *a, td_game *g, float air_weight, td_err *err) {
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
    float c = level_cover(a, w, l, t.x, t.y, 0, a->ground_end, air_weight);
    if (c > best_c) best_c = c, best = (int32_t)b, best_child = child;
  }
  if (best < 0) return 0;
  td_command cmd = {.kind = TD_COMMAND_UPGRADE, .base = best, .upgrade = best_child};
  if (command(g, &cmd, err) != 0) return -1;
  a->upgraded++;
  return 1;
}

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
      if (near_spawn(w, a->px[i], a->py[i], 4.0f * tile)) continue;
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
    return command(g, &cmd, err) != 0 ? -1 : 1;
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
  return command(g, &cmd, err) != 0 ? -1 : 1;
}

int td_auto_play(td_auto *a, td_game *g, td_err *err) {
  td_world *w = td_game_world(g);
  uint64_t tick = td_world_tick(w);
  if (tick % TD_AUTO_PERIOD != 0 || td_world_state(w) != TD_GAME_PLAYING || td_world_paused(w))
    return 0;
  const td_map *m = td_world_map(w);
  const td_rules *r = td_world_rules(w);
  if (r->tower_count > a->built_cap) {
    int32_t *p = td_mem_realloc(a->built_of, a->built_cap * sizeof *p, r->tower_count * sizeof *p);
    if (!p) return td_err_set(err, "auto: out of memory");
    memset(p + a->built_cap, 0, (r->tower_count - a->built_cap) * sizeof *p);
    a->built_of = p;
    a->built_cap = r->tower_count;
  }
  if (m->base_count > a->tried_cap) {
    uint8_t *p = td_mem_realloc(a->tried, a->tried_cap, m->base_count);
    if (!p) return td_err_set(err, "auto: out of memory");
    a->tried = p;
    a->tried_cap = m->base_count;
  }
  if (m->base_count > 0) memset(a->tried, 0, m->base_count); /* no bases: tried may be NULL */
  size_t nodes = (size_t)td_route_graph(td_world_route(w))->node_count, types = r->tower_count;
  if (nodes > a->node_cap) {
    int32_t *nx = td_mem_realloc(a->next, a->node_cap * sizeof *nx, nodes * sizeof *nx);
    if (nx) a->next = nx;
    uint8_t *op = nx ? td_mem_realloc(a->on_path, a->node_cap, nodes) : NULL;
    if (!op) return td_err_set(err, "auto: out of memory");
    a->on_path = op;
    a->node_cap = nodes;
  }
  if (m->base_count * types > a->cov_cap) {
    float *cv = td_mem_realloc(a->cov, a->cov_cap * sizeof *cv, m->base_count * types * sizeof *cv);
    if (!cv) return td_err_set(err, "auto: out of memory");
    a->cov = cv;
    a->cov_cap = m->base_count * types;
  }
  if (nodes > 0) memset(a->on_path, 0, nodes);
  a->np = 0;
  if (collect_ground(a, w, td_route_next(td_world_route(w)), a->on_path) != 0)
    return td_err_set(err, "auto: out of memory");
  a->ground_end = a->np;
  if (collect_air(a, w) != 0) return td_err_set(err, "auto: out of memory");
  a->air_end = a->np;
  float air_weight = flyers_coming(w) ? 1.0f : AIR_IDLE_WEIGHT;
  if (score_bases(a, w, air_weight) != 0) return td_err_set(err, "auto: out of memory");
  int rc = rally(a, g, err);
  if (rc == 0) rc = repair(g, err);
  if (rc != 0) return rc < 0 ? -1 : 0;
  int32_t gold = td_world_gold(w);

  /* the type built least that covers something somewhere */
  int32_t want = -1;
  for (size_t t = 0; t < r->tower_count; t++) {
    const td_tower_level *l = &r->levels[r->towers[t].root];
    if (is_support(l) && a->built < 2) continue;
    float c;
    if (best_base(a, w, (int32_t)t, &c) < 0) continue;
    if (want < 0 || a->built_of[t] < a->built_of[want]) want = (int32_t)t;
  }
  if (want >= 0 && r->levels[r->towers[want].root].cost <= gold)
    return place(a, g, want, err) < 0 ? -1 : 0;
  if (want >= 0 && a->want != want) {
    a->want = want;
    a->want_since = tick;
  }
  bool patient = want >= 0 &&
                 (float)(tick - a->want_since) < TD_AUTO_PATIENCE * (float)TD_WORLD_TICK_HZ;
  if (patient) return 0;
  /* saving took too long, or nothing to build: the best affordable build,
  ** else an upgrade */
  int32_t alt = -1;
  float alt_c = 0;
  for (size_t t = 0; t < r->tower_count; t++) {
    const td_tower_level *l = &r->levels[r->towers[t].root];
    if (l->cost > gold || (is_support(l) && a->built < 2)) continue;
    float c;
    if (best_base(a, w, (int32_t)t, &c) >= 0 && c > alt_c) alt = (int32_t)t, alt_c = c;
  }
  if (alt >= 0) {
    rc = place(a, g, alt, err);
    if (rc != 0) return rc < 0 ? -1 : 0;
  }
  return upgrade(a, g, air_weight, err) < 0 ? -1 : 0;
}
