/*
** sim_out.c: what `td sim` reports: aligned text, one JSON object, and the
** picture of the trails (engine/render).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cmds.h"
#include "app/sim.h"
#include "render/trails.h"

typedef struct summary {
  size_t leaked, stranded, out;
  double ttg_sum, ttg_max, trav_sum, trav_max;
} summary;

static double seconds(uint64_t ticks) { return (double)ticks / SIM_TICK_HZ; }

static double time_to_goal(const sim_agent *a) { return seconds(a->leak_tick - a->spawn_tick); }

static summary summarize(const sim_run *r) {
  summary s = {0};
  for (size_t i = 0; i < r->agent_count; i++) {
    const sim_agent *a = &r->agents[i];
    if (a->end == SIM_LEAKED) {
      double t = time_to_goal(a);
      s.leaked++;
      s.ttg_sum += t;
      s.ttg_max = fmax(s.ttg_max, t);
    } else if (a->end == SIM_STRANDED) {
      s.stranded++;
    } else {
      s.out++;
    }
    s.trav_sum += (double)a->travelled;
    s.trav_max = fmax(s.trav_max, (double)a->travelled);
  }
  return s;
}

const char *sim_state_name(td_agent_state s) {
  switch (s) {
  case TD_AGENT_WALK: return "walk";
  case TD_AGENT_FLY: return "fly";
  case TD_AGENT_STUNNED: return "stunned";
  case TD_AGENT_STRANDED: return "stranded";
  case TD_AGENT_LEAKED: return "leaked";
  case TD_AGENT_REMOVED: return "removed";
  case TD_AGENT_WAITING: return "waiting";
  case TD_AGENT_FREE: break;
  }
  return "free";
}

static const char *end_name(sim_end e) {
  return e == SIM_LEAKED ? "leaked" : e == SIM_STRANDED ? "stranded" : "out";
}

static const char *ended_text(const char *ended) {
  if (!strcmp(ended, "arrived")) return "every agent arrived";
  if (!strcmp(ended, "stranded")) return "the agents left are cut off from every goal";
  return "stopped at the tick limit";
}

/* ---- text ---------------------------------------------------------------- */

static void event_text(const sim_event *e) {
  printf("%-14s tick %llu: ", "event", (unsigned long long)e->tick);
  if (e->kind == SIM_BLOCK_EDGE) {
    printf("block edge %d,%d%s\n", e->a, e->b, e->done ? "" : ": not reached");
  } else if (!e->done) {
    printf("tower %ld: not reached\n", e->id);
  } else if (!e->refused) {
    printf("tower %ld placed\n", e->id);
  } else if (e->cut_spawn >= 0) {
    printf("tower %ld refused: it would cut spawn object %d (node %d) off\n", e->id,
           e->cut_spawn, e->cut_node);
  } else {
    printf("tower %ld refused: it would cut node %d (an agent walks there) off\n", e->id,
           e->cut_node);
  }
}

void sim_print_text(const sim_run *r) {
  const td_crowd_metrics *m = td_crowd_get_metrics(r->crowd);
  summary s = summarize(r);
  const td_graph *g = r->map.graph;
  char name[1024];
  printf("%-14s %s (%d nodes, %zu spawn%s, %zu goal%s, %zu tower bases%s)\n", "map",
         td_app_escape(r->map_path, name, sizeof name), g->node_count, r->map.spawn_count,
         r->map.spawn_count == 1 ? "" : "s",
         r->map.goal_count, r->map.goal_count == 1 ? "" : "s", r->map.base_count,
         r->map.grid ? ", grid" : "");
  printf("%-14s %zu, seed %llu\n", "waves", r->wave_count, (unsigned long long)r->seed);
  printf("%-14s %llu (%.2f s): %s\n", "ticks", (unsigned long long)r->ticks,
         seconds(r->ticks), ended_text(r->ended));
  printf("%-14s %zu spawned, %zu leaked, %zu stranded, %zu still out\n", "agents",
         r->agent_count, s.leaked, s.stranded, s.out);
  if (isfinite(m->min_gap)) printf("%-14s %.3f\n", "min_gap", m->min_gap);
  else printf("%-14s - (no two agents met)\n", "min_gap");
  printf("%-14s %.4f\n", "lane_error", m->lane_error);
  printf("%-14s %lld\n", "lane_swaps", (long long)m->lane_swaps);
  printf("%-14s %.2f\n", "group_spread", m->group_spread);
  printf("%-14s %lld\n", "jitter", (long long)m->jitter);
  printf("%-14s %lld\n", "orbits", (long long)m->orbits);
  printf("%-14s %lld agent-ticks, deepest %.3f (map units)\n", "off_road", (long long)m->off_road,
         m->off_road_depth);
  if (s.leaked) printf("%-14s mean %.2f s, max %.2f s\n", "time_to_goal", s.ttg_sum / (double)s.leaked, s.ttg_max);
  else printf("%-14s - (nobody arrived)\n", "time_to_goal");
  if (r->agent_count)
    printf("%-14s mean %.1f, max %.1f (map units)\n", "travelled",
           s.trav_sum / (double)r->agent_count, s.trav_max);
  for (size_t i = 0; i < r->event_count; i++) event_text(&r->events[i]);
  printf("%-14s %016llx\n", "checksum", (unsigned long long)td_crowd_checksum(r->crowd));
}

/* ---- JSON ---------------------------------------------------------------- */

static void json_string(const char *s) {
  putchar('"');
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\') printf("\\%c", ch);
    else if (ch < 0x20) printf("\\u%04x", ch);
    else putchar(ch);
  }
  putchar('"');
}

static void json_num(double v) {
  if (isfinite(v)) printf("%.9g", v);
  else fputs("null", stdout);
}

void sim_print_json(const sim_run *r) {
  const td_crowd_metrics *m = td_crowd_get_metrics(r->crowd);
  summary s = summarize(r);
  fputs("{\"map\":", stdout);
  json_string(r->map_path);
  printf(",\"seed\":%llu,\"ticks\":%llu,\"seconds\":", (unsigned long long)r->seed,
         (unsigned long long)r->ticks);
  json_num(seconds(r->ticks));
  printf(",\"ended\":\"%s\",\"spawned\":%zu,\"leaks\":%zu,\"stranded\":%zu,\"out\":%zu", r->ended,
         r->agent_count, s.leaked, s.stranded, s.out);
  fputs(",\"min_gap\":", stdout);
  json_num(m->min_gap);
  fputs(",\"lane_error\":", stdout);
  json_num(m->lane_error);
  printf(",\"lane_swaps\":%lld,\"group_spread\":", (long long)m->lane_swaps);
  json_num(m->group_spread);
  printf(",\"jitter\":%lld,\"orbits\":%lld", (long long)m->jitter, (long long)m->orbits);
  printf(",\"off_road\":%lld,\"off_road_depth\":", (long long)m->off_road);
  json_num(m->off_road_depth);
  fputs(",\"time_to_goal\":{\"mean\":", stdout);
  json_num(s.leaked ? s.ttg_sum / (double)s.leaked : (double)NAN);
  fputs(",\"max\":", stdout);
  json_num(s.leaked ? s.ttg_max : (double)NAN);
  fputs("},\"travelled\":{\"mean\":", stdout);
  json_num(r->agent_count ? s.trav_sum / (double)r->agent_count : (double)NAN);
  fputs(",\"max\":", stdout);
  json_num(r->agent_count ? s.trav_max : (double)NAN);
  fputs("},\"events\":[", stdout);
  for (size_t i = 0; i < r->event_count; i++) {
    const sim_event *e = &r->events[i];
    if (e->kind == SIM_BLOCK_EDGE) {
      printf("%s{\"kind\":\"block_edge\",\"tick\":%llu,\"nodes\":[%d,%d],\"applied\":%s}",
             i ? "," : "", (unsigned long long)e->tick, e->a, e->b, e->done ? "true" : "false");
      continue;
    }
    printf("%s{\"kind\":\"tower\",\"tick\":%llu,\"id\":%ld,\"placed\":%s", i ? "," : "",
           (unsigned long long)e->tick, e->id, e->done && !e->refused ? "true" : "false");
    if (e->refused) {
      printf(",\"cut_node\":%d,\"cut_spawn\":", e->cut_node);
      if (e->cut_spawn >= 0) printf("%d", e->cut_spawn);
      else fputs("null", stdout);
    }
    putchar('}');
  }
  fputs("],\"agents\":[", stdout);
  for (size_t i = 0; i < r->agent_count; i++) {
    const sim_agent *a = &r->agents[i];
    printf("%s{\"id\":%zu,\"wave\":%d,\"group\":%d,\"lane\":", i ? "," : "", i, a->wave, a->group);
    json_num((double)a->lane);
    printf(",\"fly\":%s,\"end\":\"%s\",\"spawn_tick\":%llu,\"time_to_goal\":", a->fly ? "true" : "false",
           end_name(a->end), (unsigned long long)a->spawn_tick);
    json_num(a->end == SIM_LEAKED ? time_to_goal(a) : (double)NAN);
    fputs(",\"travelled\":", stdout);
    json_num((double)a->travelled);
    putchar('}');
  }
  printf("],\"checksum\":\"%016llx\"}\n", (unsigned long long)td_crowd_checksum(r->crowd));
}

/* ---- the picture --------------------------------------------------------- */

int sim_write_png(const sim_run *r, const char *path, td_err *err) {
  td_trail *trails = calloc(r->agent_count + 1, sizeof *trails);
  if (!trails) return td_err_set(err, "%s: out of memory", path);
  for (size_t i = 0; i < r->agent_count; i++) {
    const sim_agent *a = &r->agents[i];
    trails[i] = (td_trail){.xy = a->trail, .n = a->trail_n, .lane_t = a->lane_t,
                           .radius = a->radius, .flying = a->fly,
                           .arrived = a->end == SIM_LEAKED};
  }
  summary s = summarize(r);
  const char *base = strrchr(r->map_path, '/');
  char title[256];
  snprintf(title, sizeof title, "td sim  %s  %zu agents  %llu ticks (%.1f s)  %zu arrived",
           base ? base + 1 : r->map_path, r->agent_count, (unsigned long long)r->ticks,
           seconds(r->ticks), s.leaked);
  td_trails_scene scene = {.map = &r->map, .route = r->route, .tower = r->tower,
                           .trails = trails, .trail_count = r->agent_count, .title = title};
  int rc = td_render_trails_png(&scene, SIM_PNG_LONG_SIDE, path, err);
  free(trails);
  return rc;
}
