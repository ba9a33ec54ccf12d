/*
** auto_cover.c: what the built-in player sees (auto_int.h): where enemies
** go, what a tower would cover from a base, and the route each base would
** make if built.
*/
#include "game/auto_int.h"

#include <math.h>
#include <string.h>

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
bool auto_near_spawn(const td_world *w, float x, float y, float reach) {
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
float auto_level_cover(const td_auto *a, const td_world *w, const td_tower_level *l, float x,
                         float y, size_t g0, size_t g1, float air_weight) {
  float tile = (float)td_world_map(w)->tile_w;
  if (l->soldiers > 0) { /* a barracks: the ground its soldiers can hold */
    /* none near a spawn: its soldiers would hold enemies at the gate
    ** (before a rally point is set, they stand round the barracks) */
    if (auto_near_spawn(w, x, y, (6.0f + l->range) * tile)) return 0;
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

/* The summed length of the routes next[] makes from every spawn to a
** goal (map units; a spawn cut off counts what it walks). */
static double route_length(const td_world *w, const int32_t *next) {
  const td_map *m = td_world_map(w);
  const td_route *rt = td_world_route(w);
  const td_graph *g = td_route_graph(rt);
  double len = 0;
  for (size_t s = 0; s < m->spawn_count; s++) {
    int32_t n = m->spawns[s].node;
    for (int32_t k = 0; k < g->node_count && n >= 0 && !td_route_is_goal(rt, n); k++) {
      int32_t to = next[n];
      if (to < 0) break;
      len += hypot(g->x[to] - g->x[n], g->y[to] - g->y[n]);
      n = to;
    }
  }
  return len;
}

/* cov[b * types + t] for every free base b and type t: on the route as it
** would become when the base closes part of the current path (at most
** AUTO_PREVIEWS such bases a decision, in base order; later ones are
** scored on the current path), else on the current one. -1: occupied, or
** the placement would be refused. route_len[b]: that route's length. */
static int score_bases(td_auto *a, td_world *w, float air_weight) {
  const td_map *m = td_world_map(w);
  const td_rules *r = td_world_rules(w);
  size_t types = r->tower_count, previews = 0;
  for (size_t b = 0; b < m->base_count; b++) {
    float *row = &a->cov[b * types];
    td_tower_view tv;
    a->route_len[b] = -1;
    if (td_world_tower(w, b, &tv)) {
      for (size_t t = 0; t < types; t++) row[t] = -1;
      continue;
    }
    size_t g0 = 0, g1 = a->ground_end;
    a->route_len[b] = a->cur_len;
    if (previews < AUTO_PREVIEWS && blocks_path(a, w, b)) {
      previews++;
      if (!td_world_preview_next(w, (int32_t)b, 0, a->next)) {
        for (size_t t = 0; t < types; t++) row[t] = -1;
        continue;
      }
      a->route_len[b] = route_length(w, a->next);
      g0 = a->np;
      if (collect_ground(a, w, a->next, NULL) != 0) return -1;
      g1 = a->np;
    }
    float x, y;
    base_centre(m, b, &x, &y);
    for (size_t t = 0; t < types; t++)
      row[t] = auto_level_cover(a, w, &r->levels[r->towers[t].root], x, y, g0, g1, air_weight);
    a->np = a->air_end; /* drop the preview's points */
  }
  return 0;
}

/* The free, untried base where type t covers the most; -1 when none covers
** anything. */
int32_t auto_best_base(const td_auto *a, const td_world *w, int32_t t, float *best_cover) {
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
bool auto_is_support(const td_tower_level *l) { return l->rate <= 0 && l->soldiers <= 0; }


int auto_scan(td_auto *a, td_world *w) {
  size_t nodes = (size_t)td_route_graph(td_world_route(w))->node_count;
  if (nodes > 0) memset(a->on_path, 0, nodes);
  a->np = 0;
  const int32_t *next = td_route_next(td_world_route(w));
  if (collect_ground(a, w, next, a->on_path) != 0) return -1;
  a->ground_end = a->np;
  if (collect_air(a, w) != 0) return -1;
  a->air_end = a->np;
  a->cur_len = route_length(w, next);
  a->air_weight = flyers_coming(w) ? 1.0f : AUTO_AIR_IDLE_WEIGHT;
  return score_bases(a, w, a->air_weight);
}
