/*
** mod_title.c: display names made from identifiers and file names, for
** whatever a mod or a map gives no title (see mod.h). Plain string work:
** no Lua, no locale (ASCII case only; other bytes are kept as they are).
*/
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "script/mod.h"

#define MAX_WORDS 16

static bool separator(char c) { return c == '_' || c == '-' || c == '.' || c == ' ' || c == '\t'; }

static bool all_digits(const char *s, size_t n) {
  if (n == 0) return false;
  for (size_t i = 0; i < n; i++)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

/* n (1 .. 39) in Roman numerals into out (at least 8 bytes). */
static void roman(int n, char *out) {
  static const char *const ones[10] = {"", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"};
  size_t k = 0;
  for (int t = 0; t < n / 10; t++) out[k++] = 'X';
  snprintf(out + k, 8 - k, "%s", ones[n % 10]);
}

void td_mod_title_from_name(const char *name, char *out, size_t cap) {
  if (cap == 0) return;
  out[0] = '\0';
  const char *word[MAX_WORDS];
  size_t len[MAX_WORDS], n = 0;
  for (const char *p = name ? name : ""; *p && n < MAX_WORDS;) {
    while (*p && separator(*p)) p++;
    if (!*p) break;
    word[n] = p;
    while (*p && !separator(*p)) p++;
    len[n] = (size_t)(p - word[n]);
    n++;
  }
  size_t first = n > 1 && all_digits(word[0], len[0]) ? 1 : 0;
  if (n == first) {
    snprintf(out, cap, "Unnamed");
    return;
  }
  size_t k = 0;
  for (size_t i = first; i < n; i++) {
    char w[64], num[8];
    size_t wl = len[i] < sizeof w - 1 ? len[i] : sizeof w - 1;
    memcpy(w, word[i], wl);
    w[wl] = '\0';
    if (i == n - 1 && i > first && all_digits(w, wl) && wl <= 2) {
      int v = (w[0] - '0') * (wl == 2 ? 10 : 1) + (wl == 2 ? w[1] - '0' : 0);
      if (v >= 1 && v <= 39) {
        roman(v, num);
        snprintf(w, sizeof w, "%s", num);
        wl = strlen(w);
      }
    }
    if (w[0] >= 'a' && w[0] <= 'z') w[0] = (char)(w[0] - 'a' + 'A');
    size_t need = wl + (k ? 1 : 0);
    if (k + need >= cap) break; /* a whole word or none */
    if (k) out[k++] = ' ';
    memcpy(out + k, w, wl);
    k += wl;
    out[k] = '\0';
  }
  if (k == 0) snprintf(out, cap, "%.*s", (int)(cap - 1), "Unnamed");
}

void td_mod_title_from_path(const char *path, char *out, size_t cap) {
  const char *base = path ? path : "";
  const char *slash = strrchr(base, '/');
  if (slash) base = slash + 1;
  char stem[256];
  snprintf(stem, sizeof stem, "%s", base);
  char *dot = strrchr(stem, '.');
  if (dot && dot != stem) *dot = '\0';
  td_mod_title_from_name(stem, out, cap);
}
