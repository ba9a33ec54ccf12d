/*
** modout.c: a mod's print log and handler errors, streamed for headless
** runs and written as JSON (modout.h).
*/
#include "script/modout.h"

#include <inttypes.h>
#include <string.h>

uint64_t td_modout_errors(const td_mod *m) {
  return (uint64_t)td_mod_error_count(m) + td_mod_errors_dropped(m);
}

/* Writes s[0 .. len) with its control characters as \xHH (bytes below
** 0x20 but a tab, 0x7f, the C1 controls U+0080..U+009F): a mod's text
** never sends a terminal an escape sequence. */
static void put_escaped(FILE *f, const char *s, size_t len) {
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if ((c < 0x20 && c != '\t') || c == 0x7f) {
      fprintf(f, "\\x%02x", c);
    } else if (c == 0xc2 && i + 1 < len && (unsigned char)s[i + 1] >= 0x80 &&
               (unsigned char)s[i + 1] <= 0x9f) {
      fprintf(f, "\\xc2\\x%02x", (unsigned char)s[++i]);
    } else {
      fputc(c, f);
    }
  }
}

/* One line: prefix, then text escaped. */
static void put_line(FILE *f, const char *prefix, const char *text, size_t len) {
  fputs(prefix, f);
  put_escaped(f, text, len);
  fputc('\n', f);
}

/* Writes text line by line, each after prefix (a traceback is several). */
static void put_lines(FILE *f, const char *prefix, const char *text) {
  const char *p = text;
  do {
    const char *nl = strchr(p, '\n');
    put_line(f, prefix, p, nl ? (size_t)(nl - p) : strlen(p));
    p = nl ? nl + 1 : NULL;
  } while (p && *p);
}

size_t td_modout_flush(td_modout *o, const td_mod *m, FILE *f, const char *prefix) {
  if (!prefix) prefix = "";
  uint64_t total = td_modout_errors(m);
  if (total < o->errors_seen) o->errors_seen = 0; /* the errors were cleared */
  size_t kept = td_mod_error_count(m), fresh = (size_t)(total - o->errors_seen);
  for (size_t i = (size_t)o->errors_seen; i < kept; i++) {
    const td_mod_error *e = td_mod_error_at(m, i);
    /* the message names its file:line already when Lua's error did */
    bool placed = e->where[0] && strncmp(e->message, e->where, strlen(e->where)) == 0;
    char head[1024];
    snprintf(head, sizeof head, "lua error: mod '%s', %s, tick %" PRIu64 ": %s%s%s", e->mod,
             e->handler, e->tick, placed || !e->where[0] ? "" : e->where,
             placed || !e->where[0] ? "" : ": ", e->message);
    put_line(f, prefix, head, strlen(head));
    if (e->traceback[0]) put_lines(f, prefix, e->traceback);
  }
  uint64_t first_dropped = o->errors_seen > kept ? o->errors_seen : kept;
  if (total > first_dropped)
    fprintf(f, "%slua error: %" PRIu64 " more not kept (the first %d are)\n", prefix,
            total - first_dropped, TD_MOD_MAX_ERRORS);
  o->errors_seen = total;
  uint64_t lines = td_mod_log_total(m);
  if (!o->quiet && lines > o->lines_seen) {
    uint64_t fresh_lines = lines - o->lines_seen;
    size_t have = td_mod_log_count(m);
    if (fresh_lines > have) {
      fprintf(f, "%s(%" PRIu64 " log lines not kept)\n", prefix, fresh_lines - have);
      fresh_lines = have;
    }
    for (size_t i = have - (size_t)fresh_lines; i < have; i++)
    {
      const char *line = td_mod_log_line(m, i);
      fprintf(f, "%sprint: ", prefix);
      put_escaped(f, line, strlen(line));
      fputc('\n', f);
    }
  }
  o->lines_seen = lines;
  return fresh;
}

void td_modout_json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c < 0x20 || c == 0x7f) fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
  fputc('"', f);
}

void td_modout_json(const td_mod *m, FILE *f) {
  fputs("\"script_errors\":[", f);
  for (size_t i = 0; i < td_mod_error_count(m); i++) {
    const td_mod_error *e = td_mod_error_at(m, i);
    fputs(i ? ",{\"mod\":" : "{\"mod\":", f);
    td_modout_json_str(f, e->mod);
    fputs(",\"handler\":", f);
    td_modout_json_str(f, e->handler);
    fprintf(f, ",\"tick\":%" PRIu64 ",\"where\":", e->tick);
    td_modout_json_str(f, e->where);
    fputs(",\"message\":", f);
    td_modout_json_str(f, e->message);
    fputs(",\"traceback\":", f);
    td_modout_json_str(f, e->traceback);
    fputc('}', f);
  }
  fprintf(f, "],\"script_errors_dropped\":%zu,\"log\":[", td_mod_errors_dropped(m));
  for (size_t i = 0; i < td_mod_log_count(m); i++) {
    if (i) fputc(',', f);
    td_modout_json_str(f, td_mod_log_line(m, i));
  }
  fputc(']', f);
}
