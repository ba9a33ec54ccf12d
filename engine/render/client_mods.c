/*
** client_mods.c: the player's own mods in the main menu (client.h): the
** mods directory listed once at start (each subdirectory holding a mod.lua,
** by name, at most CLIENT_USER_MODS), a row of toggles, and the mod list a
** game started from the menu loads: the client's mods, then the enabled
** user mods (at most TD_MOD_MAX_MODS in all).
*/
#include <dirent.h>
#include <sys/stat.h>

#include "render/client_int.h"

#define MODS_LABEL_W 60 /* "Your mods", scale 1, left of the toggles */
#define MODS_PER_ROW 4
#define MODS_ROW_H 20
#define MODS_GAP 3

static int by_name(const void *a, const void *b) {
  return strcmp((const char *)a, (const char *)b);
}

/* name is one of on's space-separated words */
static bool named_in(const char *on, const char *name) {
  size_t n = strlen(name);
  for (const char *p = on; p && *p;) {
    while (*p == ' ') p++;
    size_t k = strcspn(p, " ");
    if (k == n && n > 0 && !strncmp(p, name, n)) return true;
    p += k;
  }
  return false;
}

/* c->set.mods: the names turned on that a settings line can hold. */
static void mods_setting(td_client *c) {
  size_t at = 0;
  c->set.mods[0] = '\0';
  for (int i = 0; i < c->numods; i++) {
    const char *name = c->umod_dir[i] + strlen(c->umod_dir[i]) - strlen(c->umod_name[i]);
    bool plain = c->umod_on[i] && strcmp(name, c->umod_name[i]) == 0 && !strchr(name, ' ');
    size_t n = strlen(name);
    if (!plain || at + n + 2 > sizeof c->set.mods) continue;
    if (at) c->set.mods[at++] = ' ';
    memcpy(c->set.mods + at, name, n + 1);
    at += n;
  }
}

void client_mods_init(td_client *c, const char *dir, const char *on) {
  c->numods = 0;
  c->set.mods[0] = '\0';
  if (!dir || !*dir || strlen(dir) > 340) return; /* USER/mods/NAME fits umod_dir */
  DIR *d = opendir(dir);
  if (!d) return;
  char names[64][256];
  int n = 0;
  for (struct dirent *de; (de = readdir(d)) != NULL && n < 64;) {
    if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof names[0]) continue;
    char p[1024];
    struct stat st;
    int k = snprintf(p, sizeof p, "%s/%s/mod.lua", dir, de->d_name);
    if (k <= 0 || (size_t)k >= sizeof p || stat(p, &st) != 0 || !S_ISREG(st.st_mode)) continue;
    snprintf(names[n++], sizeof names[0], "%s", de->d_name);
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof names[0], by_name);
  for (int i = 0; i < n && c->numods < CLIENT_USER_MODS; i++) {
    int k = snprintf(c->umod_dir[c->numods], sizeof c->umod_dir[0], "%.340s/%.255s", dir, names[i]);
    if (k <= 0 || (size_t)k >= sizeof c->umod_dir[0]) continue;
    char *s = c->umod_name[c->numods]; /* printable ASCII for display */
    snprintf(s, sizeof c->umod_name[0], "%.31s", names[i]);
    for (; *s; s++)
      if ((unsigned char)*s < 32 || (unsigned char)*s > 126) *s = '?';
    c->umod_on[c->numods] = named_in(on, names[i]);
    c->numods++;
  }
  mods_setting(c);
}

size_t client_mods_for_game(const td_client *c, const char **mods) {
  size_t n = 0;
  for (size_t i = 0; i < c->mod_count && n < TD_MOD_MAX_MODS; i++) mods[n++] = c->mod_dirs[i];
  for (int i = 0; i < c->numods && n < TD_MOD_MAX_MODS; i++) {
    if (!c->umod_on[i]) continue;
    bool dup = false; /* already given with --mod */
    for (size_t j = 0; j < n; j++) dup |= !strcmp(mods[j], c->umod_dir[i]);
    if (!dup) mods[n++] = c->umod_dir[i];
  }
  return n;
}

void client_mods_toggle(td_client *c, int i) {
  if (i < 0 || i >= c->numods) return;
  c->umod_on[i] = !c->umod_on[i];
  mods_setting(c);
  c->set.changed |= TD_SETTING_MODS;
}

int client_mods_height(const td_client *c) {
  if (c->numods == 0) return 0;
  int rows = (c->numods + MODS_PER_ROW - 1) / MODS_PER_ROW;
  return rows * MODS_ROW_H + (rows - 1) * MODS_GAP;
}

void client_mods_layout(td_client *c, int x, int y, int w) {
  c->mods_x = x;
  c->mods_y = y;
  int bw = (w - MODS_LABEL_W - (MODS_PER_ROW - 1) * MODS_GAP) / MODS_PER_ROW;
  for (int i = 0; i < c->numods; i++) {
    int bx = x + MODS_LABEL_W + (i % MODS_PER_ROW) * (bw + MODS_GAP);
    int by = y + (i / MODS_PER_ROW) * (MODS_ROW_H + MODS_GAP);
    td_ui_button *b = client_add_button(c, bx, by, bw, MODS_ROW_H, A_USER_MOD, i, c->umod_name[i]);
    if (!b) return;
    b->scale = 1;
    b->active = c->umod_on[i];
    size_t len = strlen(b->label); /* cut to the button, the cut marked with '~' */
    while (len > 1 && td_ui_button_need_w(b) > bw) {
      b->label[--len] = '\0';
      b->label[len - 1] = '~';
    }
  }
}

void client_mods_draw(td_client *c) {
  if (c->numods == 0) return;
  td_batch_text(&c->batch, (float)c->mods_x, (float)c->mods_y + (MODS_ROW_H - 7) / 2.0f, 1, "Your mods",
                td_color(140, 210, 160, 255), true);
}
