/*
** mapfile_sniff.c: which reader a map file (or an external tileset or
** template) needs, from its name and its first byte (mapfile_int.h).
**
** The extension chooses; the content must agree: Tiled's XML starts with
** '<', its JSON with '{', and a Lua export with `return` (or a comment).
** When they disagree the message says what the file looks like and what its
** name says, so that a renamed file never meets a Lua syntax error. A name
** with no known extension goes by the content.
*/
#include "script/mapfile_int.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static bool ends_with(const char *s, const char *ext) {
  size_t n = strlen(s), e = strlen(ext);
  return n > e && strcasecmp(s + n - e, ext) == 0;
}

/* What the content looks like, from its first byte that is not white space. */
static mapfile_kind content_kind(const char *data, size_t len, bool *empty) {
  size_t i = 0;
  while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
    i++;
  *empty = i == len;
  if (i < len && data[i] == '<') return MAPFILE_XML;
  if (i < len && data[i] == '{') return MAPFILE_JSON;
  return MAPFILE_LUA;
}

static const char *looks(mapfile_kind k, bool external) {
  if (k == MAPFILE_XML) return external ? "Tiled XML" : "a Tiled XML map (.tmx)";
  if (k == MAPFILE_JSON) return external ? "Tiled JSON" : "a Tiled JSON map (.tmj)";
  return "a Lua map (.lua)";
}

int mapfile_sniff(const char *name, const char *data, size_t len, const char *xml_ext,
                  const char *json_ext, mapfile_kind *kind, char *msg, size_t size) {
  bool empty = false, external = xml_ext != NULL;
  mapfile_kind got = content_kind(data, len, &empty);
  mapfile_kind want;
  const char *ext;
  if (!external && ends_with(name, ".lua")) {
    want = MAPFILE_LUA;
    ext = ".lua";
  } else if (ends_with(name, external ? xml_ext : ".tmx")) {
    want = MAPFILE_XML;
    ext = external ? xml_ext : ".tmx";
  } else if (ends_with(name, external ? json_ext : ".tmj")) {
    want = MAPFILE_JSON;
    ext = external ? json_ext : ".tmj";
  } else if (ends_with(name, ".json")) {
    want = MAPFILE_JSON;
    ext = ".json";
  } else {
    if (external && got == MAPFILE_LUA) {
      snprintf(msg, size, "%s", empty ? "the file is empty"
                                      : "neither Tiled XML ('<') nor Tiled JSON ('{')");
      return -1;
    }
    *kind = got; /* no known extension: the content decides */
    return 0;
  }
  if (empty && want != MAPFILE_LUA) {
    snprintf(msg, size, "the file is empty");
    return -1;
  }
  if (got == want) {
    *kind = want;
    return 0;
  }
  if (got == MAPFILE_LUA && want != MAPFILE_LUA)
    snprintf(msg, size, "the name ends in %s, but the file does not start with '%c' as %s does",
             ext, want == MAPFILE_XML ? '<' : '{', looks(want, external));
  else
    snprintf(msg, size, "looks like %s, but the name ends in %s: rename it", looks(got, external),
             ext);
  return -1;
}
