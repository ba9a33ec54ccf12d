/*
** mapfile_xml.c: a Tiled XML file (.tmx, .tsx, .tx) -> a small C tree
** (mapfile_xml, mapfile_int.h), parsed with expat.
**
** The callbacks only copy: element names, attributes, and the text of the
** elements whose text Tiled uses (<data>, <property>) go into one string
** pool; nodes and attribute pairs into two arrays, linked by index. No Lua
** call happens here (nothing may longjmp through expat): a limit passed or
** an allocation that fails stops the parser with a message, and the caller
** turns the tree into a Lua table afterwards. Bounded: MAPFILE_XML_MAX_NODES
** elements, MAPFILE_XML_MAX_DEPTH levels, MAPFILE_XML_MAX_POOL bytes of
** strings; a document type declaration (the only way to declare entities)
** is refused, and expat's own amplification guard stays on.
*/
#include "script/mapfile_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <expat.h>

#define NONE_IDX (-1)

typedef struct xml_parse {
  XML_Parser p;
  mapfile_xml *d;
  int32_t stack[MAPFILE_XML_MAX_DEPTH]; /* open elements */
  int32_t last[MAPFILE_XML_MAX_DEPTH];  /* the last child of each open element */
  int depth;
  int32_t text_node;         /* the element whose text is collected, or NONE_IDX */
  char *text;                /* its text so far */
  size_t text_len, text_cap;
  char msg[160];             /* why we stopped the parser ("" for expat's own errors) */
  unsigned long msg_line;
} xml_parse;

static void stop(xml_parse *x, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void stop(xml_parse *x, const char *fmt, ...) {
  if (x->msg[0]) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(x->msg, sizeof x->msg, fmt, ap);
  va_end(ap);
  x->msg_line = (unsigned long)XML_GetCurrentLineNumber(x->p);
  XML_StopParser(x->p, XML_FALSE);
}

/* Appends n bytes and a NUL to the pool; its offset, or UINT32_MAX. */
static uint32_t pool_add(xml_parse *x, const char *s, size_t n) {
  mapfile_xml *d = x->d;
  if (n >= MAPFILE_XML_MAX_POOL - d->pool_len) {
    stop(x, "the file's names and text pass %zu MiB (the loader's limit)",
         (size_t)MAPFILE_XML_MAX_POOL >> 20);
    return UINT32_MAX;
  }
  char *p = td_mem_grow(d->pool, &d->pool_cap, d->pool_len + n + 1, 1);
  if (!p) {
    stop(x, "out of memory");
    return UINT32_MAX;
  }
  d->pool = p;
  memcpy(p + d->pool_len, s, n);
  p[d->pool_len + n] = '\0';
  uint32_t at = (uint32_t)d->pool_len;
  d->pool_len += n + 1;
  return at;
}

static bool keeps_text(const char *name) {
  return strcmp(name, "data") == 0 || strcmp(name, "property") == 0;
}

static void XMLCALL on_start(void *ud, const XML_Char *name, const XML_Char **atts) {
  xml_parse *x = ud;
  mapfile_xml *d = x->d;
  if (x->msg[0]) return;
  if (x->depth == MAPFILE_XML_MAX_DEPTH) {
    stop(x, "elements nested deeper than %d", MAPFILE_XML_MAX_DEPTH);
    return;
  }
  if (d->node_count == MAPFILE_XML_MAX_NODES) {
    stop(x, "more than %d elements (the loader's limit)", MAPFILE_XML_MAX_NODES);
    return;
  }
  size_t na = 0;
  while (atts[2 * na]) na++;
  mapfile_xnode *nodes = td_mem_grow(d->nodes, &d->node_cap, d->node_count + 1, sizeof *nodes);
  if (!nodes) {
    stop(x, "out of memory");
    return;
  }
  d->nodes = nodes;
  if (na) {
    uint32_t *attrs = td_mem_grow(d->attrs, &d->attr_cap, d->attr_count + 2 * na, sizeof *attrs);
    if (!attrs) {
      stop(x, "out of memory");
      return;
    }
    d->attrs = attrs;
  }
  int32_t id = (int32_t)d->node_count;
  mapfile_xnode *n = &nodes[id];
  *n = (mapfile_xnode){.child = NONE_IDX, .next = NONE_IDX, .attr = (uint32_t)d->attr_count,
                       .nattr = (uint32_t)na,
                       .line = (uint32_t)XML_GetCurrentLineNumber(x->p)};
  d->node_count++;
  n->name = pool_add(x, name, strlen(name));
  n->text = 0; /* the pool starts with "" (mapfile_xml_parse) */
  for (size_t i = 0; i < 2 * na && !x->msg[0]; i++)
    d->attrs[d->attr_count++] = pool_add(x, atts[i], strlen(atts[i]));
  if (x->msg[0]) return;
  if (x->depth > 0) {
    int32_t parent = x->stack[x->depth - 1];
    if (x->last[x->depth - 1] == NONE_IDX) d->nodes[parent].child = id;
    else d->nodes[x->last[x->depth - 1]].next = id;
    x->last[x->depth - 1] = id;
  }
  x->stack[x->depth] = id;
  x->last[x->depth] = NONE_IDX;
  x->depth++;
  if (keeps_text(name)) {
    x->text_node = id;
    x->text_len = 0;
  }
}

static void XMLCALL on_end(void *ud, const XML_Char *name) {
  xml_parse *x = ud;
  (void)name;
  if (x->msg[0] || x->depth == 0) return;
  int32_t id = x->stack[--x->depth];
  if (id == x->text_node) {
    x->d->nodes[id].text = pool_add(x, x->text ? x->text : "", x->text_len);
    x->text_node = NONE_IDX;
  }
}

static void XMLCALL on_text(void *ud, const XML_Char *s, int len) {
  xml_parse *x = ud;
  if (x->msg[0] || x->text_node == NONE_IDX || len <= 0) return;
  if ((size_t)len >= MAPFILE_XML_MAX_POOL - x->text_len) {
    stop(x, "an element's text passes %zu MiB (the loader's limit)",
         (size_t)MAPFILE_XML_MAX_POOL >> 20);
    return;
  }
  char *t = td_mem_grow(x->text, &x->text_cap, x->text_len + (size_t)len, 1);
  if (!t) {
    stop(x, "out of memory");
    return;
  }
  x->text = t;
  memcpy(t + x->text_len, s, (size_t)len);
  x->text_len += (size_t)len;
}

static void XMLCALL on_doctype(void *ud, const XML_Char *name, const XML_Char *sysid,
                               const XML_Char *pubid, int has_internal_subset) {
  (void)name;
  (void)sysid;
  (void)pubid;
  (void)has_internal_subset;
  stop(ud, "a document type declaration (<!DOCTYPE>) is not allowed in a Tiled file");
}

int mapfile_xml_parse(mapfile_xml *d, const char *data, size_t len, char *msg, size_t size) {
  memset(d, 0, sizeof *d);
  xml_parse x;
  memset(&x, 0, sizeof x);
  x.d = d;
  x.text_node = NONE_IDX;
  x.p = XML_ParserCreate("UTF-8");
  if (!x.p) {
    snprintf(msg, size, "out of memory");
    return -1;
  }
  XML_SetUserData(x.p, &x);
  XML_SetElementHandler(x.p, on_start, on_end);
  XML_SetCharacterDataHandler(x.p, on_text);
  XML_SetStartDoctypeDeclHandler(x.p, on_doctype);
  XML_SetParamEntityParsing(x.p, XML_PARAM_ENTITY_PARSING_NEVER);
  /* the tree counts against the C-side budget of the loader */
  td_mem_meter meter = {.limit = TD_MAPFILE_MAX_C_BYTES};
  td_mem_meter *outer = td_mem_meter_set(&meter);
  int rc = 0;
  if (pool_add(&x, "", 0) != 0) rc = -1; /* offset 0: "" */
  /* expat takes an int length: feed big files in pieces */
  for (size_t at = 0; rc == 0 && (at < len || at == 0);) {
    size_t n = len - at > (size_t)1 << 30 ? (size_t)1 << 30 : len - at;
    int final = at + n == len;
    if (XML_Parse(x.p, data + at, (int)n, final) != XML_STATUS_OK) rc = -1;
    at += n;
    if (final) break;
  }
  if (rc == 0 && d->node_count == 0) {
    rc = -1;
    snprintf(x.msg, sizeof x.msg, "no element");
    x.msg_line = 1;
  }
  td_mem_meter_set(outer);
  if (rc != 0 && meter.over)
    snprintf(x.msg, sizeof x.msg, "the XML needs more than %zu MiB to read (the loader's limit)",
             TD_MAPFILE_MAX_C_BYTES >> 20);
  if (rc != 0) {
    if (x.msg[0])
      snprintf(msg, size, "%lu: %s", x.msg_line, x.msg);
    else
      snprintf(msg, size, "%lu: %s", (unsigned long)XML_GetCurrentLineNumber(x.p),
               XML_ErrorString(XML_GetErrorCode(x.p)));
    mapfile_xml_free(d);
  }
  td_mem_free(x.text, x.text_cap);
  XML_ParserFree(x.p);
  return rc;
}

void mapfile_xml_free(mapfile_xml *d) {
  td_mem_free(d->nodes, d->node_cap * sizeof *d->nodes);
  td_mem_free(d->attrs, d->attr_cap * sizeof *d->attrs);
  td_mem_free(d->pool, d->pool_cap);
  memset(d, 0, sizeof *d);
}

const char *mapfile_xml_name(const mapfile_xml *d, int32_t node) {
  return d->pool + d->nodes[node].name;
}

const char *mapfile_xml_attr(const mapfile_xml *d, int32_t node, const char *key) {
  const mapfile_xnode *n = &d->nodes[node];
  for (uint32_t i = 0; i < n->nattr; i++)
    if (strcmp(d->pool + d->attrs[n->attr + 2 * i], key) == 0)
      return d->pool + d->attrs[n->attr + 2 * i + 1];
  return NULL;
}

int32_t mapfile_xml_child(const mapfile_xml *d, int32_t node, const char *name) {
  for (int32_t c = d->nodes[node].child; c != NONE_IDX; c = d->nodes[c].next)
    if (strcmp(mapfile_xml_name(d, c), name) == 0) return c;
  return NONE_IDX;
}
