/*
** tutorial.c: the first map's tutorial (see tutorial.h): its steps, the pad
** it suggests, then the client's side: when it runs, what it records, how
** it is laid out and drawn.
*/
#include "render/tutorial.h"

#include "nav/route.h"
#include "render/client_int.h"

/* ---- the steps -------------------------------------------------------------- */

bool td_tutorial_start(td_tutorial *t, td_world *w, double now) {
  const td_route *rt = td_world_route(w);
  size_t n = (size_t)td_route_graph(rt)->node_count;
  td_tutorial_free(t);
  if (n > t->old_cap) {
    int32_t *p = malloc((n ? n : 1) * sizeof *p);
    if (!p) return false;
    t->old_next = p;
    t->old_cap = n;
  }
  memcpy(t->old_next, td_route_next(rt), n * sizeof *t->old_next);
  t->old_n = n;
  t->pad = td_tutorial_pick_pad(w, 0);
  t->built = -1;
  t->route_changed = false;
  t->step = TD_TUTORIAL_ROUTE;
  t->since = now;
  return true;
}

void td_tutorial_free(td_tutorial *t) {
  free(t->old_next);
  memset(t, 0, sizeof *t);
  t->pad = t->built = -1;
}

static void go(td_tutorial *t, td_tutorial_step s, double now) {
  t->step = s;
  t->since = now;
}

bool td_tutorial_event(td_tutorial *t, const td_world *w, const td_event *e, double now) {
  td_tutorial_step was = t->step;
  if (t->step == TD_TUTORIAL_OFF || t->step == TD_TUTORIAL_DONE) return false;
  switch (e->kind) {
  case TD_EVENT_PLACED:
    if (t->step == TD_TUTORIAL_ROUTE || t->step == TD_TUTORIAL_BUILD) {
      /* the route is already the new one: compare it with the one kept */
      const td_route *rt = td_world_route(w);
      const int32_t *next = td_route_next(rt);
      size_t n = (size_t)td_route_graph(rt)->node_count;
      t->route_changed = false;
      for (size_t i = 0; i < n && i < t->old_n; i++)
        if (next[i] != t->old_next[i] && next[i] >= 0) t->route_changed = true;
      t->built = e->base;
      go(t, TD_TUTORIAL_CHANGED, now);
    }
    break;
  case TD_EVENT_WAVE_STARTED:
    if (t->step == TD_TUTORIAL_TIPS)
      go(t, TD_TUTORIAL_DONE, now);
    else if (t->step < TD_TUTORIAL_FIGHT)
      go(t, TD_TUTORIAL_FIGHT, now);
    break;
  case TD_EVENT_KILLED:
  case TD_EVENT_WAVE_ENDED:
    if (t->step == TD_TUTORIAL_FIGHT) go(t, TD_TUTORIAL_TIPS, now);
    break;
  case TD_EVENT_UPGRADED:
    if (t->step == TD_TUTORIAL_TIPS) go(t, TD_TUTORIAL_DONE, now);
    break;
  case TD_EVENT_WON:
  case TD_EVENT_LOST:
    go(t, TD_TUTORIAL_DONE, now);
    break;
  default:
    break;
  }
  return t->step != was;
}

bool td_tutorial_update(td_tutorial *t, double now, bool picking) {
  td_tutorial_step was = t->step;
  double in = now - t->since;
  if (t->step == TD_TUTORIAL_ROUTE && (picking || in >= TD_TUTORIAL_ROUTE_S))
    go(t, TD_TUTORIAL_BUILD, now);
  else if (t->step == TD_TUTORIAL_CHANGED && in >= TD_TUTORIAL_CHANGED_S)
    go(t, TD_TUTORIAL_CALL, now);
  else if (t->step == TD_TUTORIAL_TIPS && in >= TD_TUTORIAL_TIPS_S)
    go(t, TD_TUTORIAL_DONE, now);
  return t->step != was;
}

void td_tutorial_next(td_tutorial *t, double now) {
  if (t->step == TD_TUTORIAL_ROUTE)
    go(t, TD_TUTORIAL_BUILD, now);
  else if (t->step == TD_TUTORIAL_CHANGED)
    go(t, TD_TUTORIAL_CALL, now);
  else if (t->step == TD_TUTORIAL_TIPS)
    go(t, TD_TUTORIAL_DONE, now);
}

void td_tutorial_skip(td_tutorial *t) {
  if (t->step != TD_TUTORIAL_OFF) t->step = TD_TUTORIAL_DONE;
}

bool td_tutorial_showing(const td_tutorial *t) {
  return t->step != TD_TUTORIAL_OFF && t->step != TD_TUTORIAL_FIGHT && t->step != TD_TUTORIAL_DONE;
}

bool td_tutorial_has_next(const td_tutorial *t) {
  return t->step == TD_TUTORIAL_ROUTE || t->step == TD_TUTORIAL_CHANGED ||
         t->step == TD_TUTORIAL_TIPS;
}

void td_tutorial_text(const td_tutorial *t, const char *type_title, const char **title, char *body,
                      size_t cap, char *sub, size_t sub_cap) {
  int k = 0;
  *title = "";
  body[0] = '\0';
  switch (t->step) {
  case TD_TUTORIAL_ROUTE:
    k = 1;
    *title = "The enemies' route";
    snprintf(body, cap,
             "This is the route enemies take to your gate (the blue ring): they come "
             "in at red and follow the golden arrows. Each one that gets through "
             "costs lives.");
    break;
  case TD_TUTORIAL_BUILD:
    k = 2;
    *title = "Build a tower here";
    snprintf(body, cap,
             "Pick %s (key 1, or its button below), then click the ringed pad. "
             "Wave 1 waits until your first tower stands.",
             type_title);
    break;
  case TD_TUTORIAL_CHANGED:
    k = 3;
    if (t->route_changed) {
      *title = "A tower changes the route";
      snprintf(body, cap,
               "Enemies cannot walk through towers: they go round. See the arrows: "
               "the cyan lines mark the new way. With a tower picked, a pad shows "
               "the route it would make before you build.");
    } else {
      *title = "Your first tower";
      snprintf(body, cap,
               "It shoots what passes within its ring. On a maze, a tower in the way "
               "changes the route: see the arrows turn round it.");
    }
    break;
  case TD_TUTORIAL_CALL:
    k = 4;
    *title = "Call the first wave";
    snprintf(body, cap,
             "The countdown runs now. Call the first wave (N, or Call wave) when "
             "ready: calling early pays bonus gold.");
    break;
  case TD_TUTORIAL_TIPS:
    k = 5;
    *title = "Well done";
    snprintf(body, cap,
             "Each kill pays gold. Upgrade towers (click one, then U) and call "
             "waves early (N) for gold. H shows every control.");
    break;
  default:
    break;
  }
  if (k)
    snprintf(sub, sub_cap, "Tutorial %d/5", k);
  else if (sub_cap)
    sub[0] = '\0';
}

/* ---- the pad -------------------------------------------------------------------- */

/* The distance from (px, py) to the segment a-b, and where along it (0..1). */
static double seg_dist(double px, double py, double ax, double ay, double bx, double by,
                       double *at) {
  double dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy, u = 0;
  if (l2 > 0) u = ((px - ax) * dx + (py - ay) * dy) / l2;
  u = u < 0 ? 0 : u > 1 ? 1 : u;
  *at = u;
  double ex = ax + u * dx - px, ey = ay + u * dy - py;
  return sqrt(ex * ex + ey * ey);
}

int32_t td_tutorial_pick_pad(td_world *w, int32_t type) {
  const td_map *m = td_world_map(w);
  const td_route *rt = td_world_route(w);
  const td_graph *g = td_route_graph(rt);
  const int32_t *next = td_route_next(rt);
  size_t nn = (size_t)g->node_count;
  if (m->spawn_count == 0 || m->base_count == 0 || nn == 0) return -1;
  /* the way from the first spawn, as node ids, and its length */
  int32_t *way = malloc(nn * sizeof *way), *pv = malloc(nn * sizeof *pv);
  double *along = malloc(nn * sizeof *along);
  int32_t best = -1;
  if (!way || !pv || !along) goto done;
  size_t k = 0;
  for (int32_t n = m->spawns[0].node; n >= 0 && k < nn; n = next[n]) {
    way[k] = n;
    along[k] = k ? along[k - 1] + hypot(g->x[n] - g->x[way[k - 1]], g->y[n] - g->y[way[k - 1]]) : 0;
    k++;
    if (td_route_is_goal(rt, n)) break;
  }
  double total = k ? along[k - 1] : 0, tile = m->tile_w > 0 ? (double)m->tile_w : 32, score = 1e30;
  for (size_t i = 0; i < m->base_count; i++) {
    td_place_check pc;
    td_world_check_place(w, (int32_t)i, type, &pc);
    if (pc.reason != TD_REFUSAL_NONE && pc.reason != TD_REFUSAL_GOLD) continue;
    const td_tower_base *b = &m->bases[i];
    double cx = b->x + b->w / 2, cy = b->y + b->h / 2, d = 1e30, frac = 0;
    for (size_t j = 0; j + 1 < k; j++) {
      double at,
          e = seg_dist(cx, cy, g->x[way[j]], g->y[way[j]], g->x[way[j + 1]], g->y[way[j + 1]], &at);
      if (e < d) {
        d = e;
        frac = total > 0 ? (along[j] + at * (along[j + 1] - along[j])) / total : 0;
      }
    }
    bool changes = false;
    if (td_world_preview_next(w, (int32_t)i, type, pv))
      for (size_t j = 0; j < nn && !changes; j++)
        changes = pv[j] != next[j];
    /* near the way (in tiles), early along it, and one that changes the route */
    double s = d / tile + 2.0 * fabs(frac - 0.35) - (changes ? 1.5 : 0);
    if (s < score) {
      score = s;
      best = (int32_t)i;
    }
  }
done:
  free(way);
  free(pv);
  free(along);
  return best;
}

/* ---- the client's side --------------------------------------------------------- */

/* The menu's first map (the lowest `order`) has the tutorial. */
static bool tutorial_map(const td_client *c) {
  char name[64];
  if (c->maplist.count == 0) return false;
  td_game_map_name_of(c->map_path, name, sizeof name);
  return !strcmp(name, c->maplist.e[0].name);
}

void client_tutorial_begin(td_client *c) {
  td_tutorial_free(&c->tut);
  if (!c->game || !c->data_dir[0] || !c->progress_ok || c->progress.tutorial_done ||
      !tutorial_map(c))
    return;
  td_tutorial_start(&c->tut, td_game_world(c->game), c->anim);
}

/* DONE: kept in the progress file, so that it is not shown again. */
static void finished(td_client *c) {
  if (c->tut.step != TD_TUTORIAL_DONE) return;
  td_tutorial_free(&c->tut);
  client_progress_tutorial_done(c);
}

void client_tutorial_events(td_client *c) {
  if (c->tut.step == TD_TUTORIAL_OFF) return;
  size_t n;
  const td_event *ev = td_world_events(client_world(c), &n);
  for (size_t i = 0; i < n; i++)
    td_tutorial_event(&c->tut, client_world(c), &ev[i], c->anim);
  td_tutorial_update(&c->tut, c->anim, c->build_type >= 0);
  finished(c);
}

void client_tutorial_next(td_client *c) {
  td_tutorial_next(&c->tut, c->anim);
  finished(c);
}

bool client_tutorial_skip(td_client *c) {
  if (!td_tutorial_showing(&c->tut)) return false;
  td_tutorial_skip(&c->tut);
  finished(c);
  client_toast(c, false, "Tutorial skipped: H shows the controls");
  return true;
}

/* The step's words: title, body wrapped to the panel, sub; raw: the body unwrapped. */
static void texts(const td_client *c, const char **title, char *body, size_t cap, char *sub,
                  size_t sub_cap, char raw[600]) {
  char tb[TD_RULES_TITLE_MAX];
  const td_rules *r = td_game_rules(c->game);
  td_tutorial_text(&c->tut, r->tower_count ? td_cards_tower_title(r, 0, tb) : "a tower", title, raw,
                   600, sub, sub_cap);
  td_cards_wrap(raw, 50, body, cap);
}

void client_tutorial_layout(td_client *c) {
  c->tut.r_panel = (SDL_Rect){0, 0, 0, 0};
  c->t_tutorial[0] = '\0';
  if (!c->game || !td_tutorial_showing(&c->tut) || c->pause_menu || c->confirm != A_NONE || c->help)
    return;
  const char *title;
  char body[700], sub[32], raw[600];
  texts(c, &title, body, sizeof body, sub, sizeof sub, raw);
  snprintf(c->t_tutorial, sizeof c->t_tutorial, "%s: %s. %s", sub, title, raw);
  SDL_Rect r = td_cards_measure(8, TOP_H + 8, title, sub, body);
  if (r.w < 316) r.w = 316;
  r.h += 36;
  c->tut.r_panel = r;
  td_ui_button *b = NULL;
  if (td_tutorial_has_next(&c->tut)) {
    b = client_add_button(c, r.x + 10, r.y + r.h - 34, 90, 26, A_TUTORIAL_NEXT, 0, "Next");
    if (b) b->scale = 1;
  }
  b = client_add_button(c, r.x + r.w - 130, r.y + r.h - 34, 120, 26, A_TUTORIAL_SKIP, 0,
                        "Skip tutorial");
  if (b) {
    b->scale = 1;
    snprintf(b->key, sizeof b->key, "Esc");
  }
}

/* An arrow in UI units from (x0, y0) to (x1, y1), its head at the end. */
static void pointer(td_batch *b, float x0, float y0, float x1, float y1, SDL_Color col) {
  float dx = x1 - x0, dy = y1 - y0, l = sqrtf(dx * dx + dy * dy);
  if (l < 20) return;
  dx /= l;
  dy /= l;
  x1 -= dx * 6; /* stop short of what it points at */
  y1 -= dy * 6;
  td_batch_line(b, x0, y0, x1, y1, 3, col);
  float px = -dy, py = dx;
  td_batch_tri(b, x1 + dx * 4, y1 + dy * 4, x1 - dx * 12 + px * 8, y1 - dy * 12 + py * 8,
               x1 - dx * 12 - px * 8, y1 - dy * 12 - py * 8, col);
}

/* The route from every spawn to its goal, bright over the map (pixels). */
static void draw_way(td_client *c, SDL_Color col) {
  const td_world *w = client_world(c);
  const td_map *m = td_game_map(c->game);
  const td_route *rt = td_world_route(w);
  const td_graph *g = td_route_graph(rt);
  const int32_t *next = td_route_next(rt);
  float width = fmaxf(3.0f, (float)m->tile_w * 0.18f * c->cam.zoom);
  for (size_t i = 0; i < m->spawn_count; i++) {
    int32_t n = m->spawns[i].node;
    for (int32_t s = 0; n >= 0 && s < g->node_count && next[n] >= 0; s++, n = next[n])
      td_batch_line(&c->batch, td_camera_sx(&c->cam, (float)g->x[n]),
                    td_camera_sy(&c->cam, (float)g->y[n]),
                    td_camera_sx(&c->cam, (float)g->x[next[n]]),
                    td_camera_sy(&c->cam, (float)g->y[next[n]]), width, col);
  }
}

/* The steps of the route that the first tower changed, in cyan (pixels). */
static void draw_changed(td_client *c) {
  const td_route *rt = td_world_route(client_world(c));
  const td_graph *g = td_route_graph(rt);
  const int32_t *next = td_route_next(rt);
  SDL_Color cyan = td_color(90, 230, 255, 230);
  float width = fmaxf(3.0f, 4.0f * c->cam.zoom);
  for (int32_t n = 0; n < g->node_count && (size_t)n < c->tut.old_n; n++) {
    int32_t t = next[n];
    if (t < 0 || t == c->tut.old_next[n]) continue;
    float ax = td_camera_sx(&c->cam, (float)g->x[n]), ay = td_camera_sy(&c->cam, (float)g->y[n]);
    float bx = td_camera_sx(&c->cam, (float)g->x[t]), by = td_camera_sy(&c->cam, (float)g->y[t]);
    td_batch_line(&c->batch, ax, ay, bx, by, width, cyan);
  }
}

/* The screen position (UI units) of the base's centre; false: none. */
static bool base_ui(const td_client *c, int32_t base, float *x, float *y) {
  int px, py;
  if (base < 0 || !td_client_base_screen(c, base, &px, &py)) return false;
  *x = (float)px / c->ui;
  *y = (float)py / c->ui;
  return true;
}

void client_tutorial_draw(td_client *c) {
  td_tutorial *t = &c->tut;
  SDL_Rect r = t->r_panel;
  if (r.w <= 0) return;
  td_batch *b = &c->batch;
  const td_map *m = td_game_map(c->game);
  float pulse = 0.5f + 0.5f * sinf((float)c->time * 5.0f);
  SDL_Color gold = td_color(255, 220, 90, 255),
            ring = td_color(255, 240, 140, (Uint8)(150 + 100 * pulse));
  float tx = -1, ty = -1; /* what the arrow points at (UI units) */
  float cell = (float)m->tile_w * c->cam.zoom; /* a tile in pixels */
  /* on the map, in pixels */
  td_batch_set_scale(b, 1);
  if (t->step == TD_TUTORIAL_ROUTE) {
    draw_way(c, td_color(255, 235, 150, (Uint8)(90 + 80 * pulse)));
    const td_graph *g = td_route_graph(td_world_route(client_world(c)));
    for (size_t i = 0; i < m->goal_count; i++) {
      float gx = (float)g->x[m->goals[i].node], gy = (float)g->y[m->goals[i].node];
      td_batch_ring(b, td_camera_sx(&c->cam, gx), td_camera_sy(&c->cam, gy),
                    cell * (0.7f + 0.2f * pulse), 3, td_color(110, 170, 255, 255));
      if (i == 0) tx = td_camera_sx(&c->cam, gx) / c->ui, ty = td_camera_sy(&c->cam, gy) / c->ui;
    }
    for (size_t i = 0; i < m->spawn_count; i++)
      td_batch_ring(b, td_camera_sx(&c->cam, (float)g->x[m->spawns[i].node]),
                    td_camera_sy(&c->cam, (float)g->y[m->spawns[i].node]), cell * 0.7f, 3,
                    td_color(255, 90, 80, 255));
  } else if (t->step == TD_TUTORIAL_CHANGED && t->route_changed) {
    draw_changed(c);
  }
  int32_t at = t->step == TD_TUTORIAL_BUILD                                    ? t->pad
               : t->step == TD_TUTORIAL_CHANGED || t->step == TD_TUTORIAL_TIPS ? t->built
                                                                               : -1;
  float bx, by;
  if (at >= 0 && base_ui(c, at, &bx, &by)) {
    td_batch_ring(b, bx * c->ui, by * c->ui, cell * (0.75f + 0.25f * pulse), 3, ring);
    tx = bx, ty = by;
  }
  td_batch_set_scale(b, c->ui);
  if (t->step == TD_TUTORIAL_CALL && c->r_call.w > 0) {
    SDL_Rect k = c->r_call;
    td_batch_rect_outline(b, (float)k.x - 3, (float)k.y - 3, (float)k.w + 6, (float)k.h + 6, 2,
                          ring);
    tx = (float)k.x + (float)k.w / 2, ty = (float)(k.y + k.h) + 4;
  }
  if (t->step == TD_TUTORIAL_BUILD) /* the first build button */
    for (int i = 0; i < c->nbtn; i++)
      if (c->btn[i].action == A_BUILD && c->btn[i].arg == 0) {
        SDL_Rect k = c->btn[i].r;
        td_batch_rect_outline(b, (float)k.x - 3, (float)k.y - 3, (float)k.w + 6, (float)k.h + 6, 2,
                              ring);
      }
  /* the panel, its buttons, and the arrow from it */
  const char *title;
  char body[700], sub[32], raw[600];
  texts(c, &title, body, sizeof body, sub, sizeof sub, raw);
  td_cards_draw(b, r, title, sub, body, gold);
  for (int i = 0; i < c->nbtn; i++)
    if (c->btn[i].action == A_TUTORIAL_NEXT || c->btn[i].action == A_TUTORIAL_SKIP)
      td_ui_button_draw(b, &c->btn[i], td_ui_hit(&c->btn[i].r, c->ux, c->uy));
  if (tx >= 0) { /* from the panel's nearest point; none when the panel covers it */
    float sx = fminf(fmaxf(tx, (float)r.x), (float)(r.x + r.w));
    float sy = fminf(fmaxf(ty, (float)r.y), (float)(r.y + r.h));
    if (sx != tx || sy != ty) pointer(b, sx, sy, tx, ty, gold);
  }
}

bool client_tutorial_region(const td_client *c, SDL_Rect *out) {
  if (c->tut.r_panel.w <= 0) return false;
  *out = c->tut.r_panel;
  return true;
}
