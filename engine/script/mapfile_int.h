/*
** mapfile_int.h: what the parts of the map loader share (not a public header).
**   mapfile.c        the entry points: read the file, run it in the sandbox,
**                    extract, build
**   mapfile_lua.c    phase 1: the Lua table Tiled's Lua export returns ->
**                    `extract` (checked reads, inside the sandbox's
**                    protected call)
**   mapfile_build.c  phase 2: `extract` -> td_map, in plain C once the
**                    sandbox is closed
**   mapfile_sniff.c  which reader a file needs: its name and its first byte
**   mapfile_xml.c    an XML file -> a small C tree (expat)
**   mapfile_tiled.c  Tiled's own files -> the table of the Lua export: the
**                    protected entry, messages, external files (tilesets,
**                    templates) under the map's folder, properties
**   mapfile_tmx.c    the XML tree of a .tmx/.tsx/.tx -> Lua tables
**   mapfile_tmj.c    the cJSON tree of a .tmj/.tsj/.tj -> Lua tables
**   mapfile_data.c   a tile layer's data (CSV, base64, zlib, gzip, zstd) ->
**                    a userdata of uint32 gids
** Tiled's XML and JSON files become, in the sandbox, a table of the very
** shape Tiled's Lua export returns (a tile layer's data a userdata of gids
** instead of a Lua array: a Lua file cannot make one), and phase 1 reads it
** like any other: every check and message is shared.
** Memory: `extract` owns its arrays (mapfile_extract_free); the build writes
** into the td_map as it goes (td_map_free undoes it). All through td_mem.
*/
#ifndef TD_MAPFILE_INT_H
#define TD_MAPFILE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <lua.h>

#include "script/mapfile.h"

#if defined(__GNUC__)
#define NORETURN_PRINTF(f, a) __attribute__((noreturn, format(printf, f, a)))
#else
#define NORETURN_PRINTF(f, a)
#endif

#define GID_MAX 0x0FFFFFFFu /* gids without Tiled's flip/rotation flags */

/* ---- extracted data ---------------------------------------------------- */

enum { CLASS_PATH, CLASS_SPAWN, CLASS_GOAL, CLASS_BASE, CLASS_COUNT };
extern const char *const mapfile_class_names[CLASS_COUNT]; /* "path", ... */

typedef struct vertex {
  double x, y;               /* absolute map position */
} vertex;

typedef struct object {
  int32_t id;
  int cls;
  char name[64];
  double x, y, w, h;         /* spawn/goal: the point; base: the rectangle */
  double cost;               /* path: cost factor of its edges */
  double road_width;         /* path: the road's width along its edges */
  size_t v0, vn;             /* path: its vertices, verts[v0 .. v0+vn) */
  bool closed;               /* path drawn as a polygon */
  bool pad;                  /* base: property blocking = false (blocks nothing) */
  uint32_t index;            /* its place in its layer's objects (from 1) */
  char layer[72];            /* its layer, as messages name it */
} object;

typedef struct walk_tile {
  uint32_t gid;
  uint8_t walkable;
  uint32_t seq;              /* declaration order: the first one wins */
} walk_tile;

typedef struct extract {
  lua_State *L;
  char where[192];           /* context prefix of messages */
  int32_t width, height, tile_w, tile_h;
  double road_width;         /* default width of a path's road */
  char title[64], description[160]; /* the menu's words (map properties) */
  int32_t order;             /* the menu's order (map property; 0: none) */
  walk_tile *tiles;
  size_t tile_count, tile_cap;
  td_map_layer *layers;
  size_t layer_count, layer_cap;
  object *objs;
  size_t obj_count, obj_cap;
  size_t base_count;
  vertex *verts;
  size_t vert_count, vert_cap;
  const void **data_of;      /* per tile layer: its Lua data table (identity only) */
  size_t data_cap;
  /* the C-side budgets (mapfile.h): every listing of a table counts */
  size_t layers_seen, cells_seen, objects_seen, tileset_tiles_seen;
  size_t spawn_count, goal_count;
  size_t bytes;              /* C bytes of the arrays above, capacity included */
} extract;

/* ---- Tiled's XML and JSON files -------------------------------------- */

#define MAPFILE_XML_MAX_NODES (1 << 22)        /* elements of one XML file */
#define MAPFILE_XML_MAX_DEPTH 64               /* elements nested */
#define MAPFILE_XML_MAX_POOL ((size_t)64 << 20) /* bytes of names, values, text */

typedef struct mapfile_xnode {
  uint32_t name;             /* pool offset of the element's name */
  uint32_t attr, nattr;      /* attrs[attr .. attr + 2 * nattr): name, value offsets */
  uint32_t text;             /* pool offset of its text (<data>, <property>; else "") */
  int32_t child, next;       /* first child, next sibling: node index, or -1 */
  uint32_t line;             /* where it starts */
} mapfile_xnode;

typedef struct mapfile_xml {  /* node 0 is the root element */
  mapfile_xnode *nodes;
  size_t node_count, node_cap;
  uint32_t *attrs;
  size_t attr_count, attr_cap;
  char *pool;
  size_t pool_len, pool_cap;
} mapfile_xml;

/* Parses len bytes into *d (zeroed on error). 0, or -1 with msg set to
** "LINE: what is wrong" (expat's words for syntax errors). */
int mapfile_xml_parse(mapfile_xml *d, const char *data, size_t len, char *msg, size_t size);
void mapfile_xml_free(mapfile_xml *d);
const char *mapfile_xml_name(const mapfile_xml *d, int32_t node);
/* The value of attribute key, or NULL. */
const char *mapfile_xml_attr(const mapfile_xml *d, int32_t node, const char *key);
/* The first child element called name, or -1. */
int32_t mapfile_xml_child(const mapfile_xml *d, int32_t node, const char *name);

/* What a file is, by its name and by its content. */
typedef enum mapfile_kind {
  MAPFILE_LUA, MAPFILE_XML, MAPFILE_JSON
} mapfile_kind;

/* The reader for a file named name whose content is data (BOM already
** skipped): by the extension (.lua, .tmx, .tmj, .json; for an external
** file `ext` lists its own: ".tsx" and ".tsj", or ".tx" and ".tj"), else
** by the first byte that is not white space. 0 with *kind set, or -1 with
** msg set to why the name and the content disagree (no file name in it). */
int mapfile_sniff(const char *name, const char *data, size_t len, const char *xml_ext,
                  const char *json_ext, mapfile_kind *kind, char *msg, size_t size);

typedef struct cJSON cJSON;

/* Parses JSON under the C-side byte budget. NULL with msg set to "LINE:
** what" on error. Free with cJSON_Delete. */
cJSON *mapfile_json_parse(const char *data, size_t len, char *msg, size_t size);

typedef struct mapfile_ext {  /* an external file read (a tileset, a template) */
  char *path;                /* its real path (td_mem, path_size bytes) */
  size_t path_size;
  char *shown;               /* as messages name it (td_mem, shown_size bytes) */
  size_t shown_size;
  mapfile_kind kind;         /* MAPFILE_XML or MAPFILE_JSON */
  mapfile_xml xml;
  cJSON *json;
  int busy;                  /* a template being converted (a loop of templates) */
  bool tileset;              /* read as a tileset (else as a template) */
} mapfile_ext;

typedef struct mapfile_tiled {
  lua_State *L;
  const char *name;          /* the map, as messages name it */
  const td_mapfile_options *opts;
  mapfile_kind kind;         /* MAPFILE_XML or MAPFILE_JSON */
  mapfile_xml xml;           /* the map's tree */
  cJSON *json;
  char *root;                /* the map's folder, real path (td_mem, root_size bytes) */
  size_t root_size;
  mapfile_ext *ext;          /* external files, in the order first read */
  size_t ext_count, ext_cap;
  size_t ext_bytes;          /* their bytes */
  uint64_t deps_hash;        /* of their names and bytes; 0: none */
  int cache;                 /* stack index of a table: ext index -> converted table */
  int depth;                 /* templates nested */
  char where[192];           /* context prefix of messages */
} mapfile_tiled;

/* Protected (td_lsandbox_call): [mapfile_tiled ud] -> [map table]. */
int mapfile_tiled_table(lua_State *L);
/* Frees what t holds (trees, external files). */
void mapfile_tiled_free(mapfile_tiled *t);
/* Raises "<where>: <message>". */
void mapfile_tiled_fail(mapfile_tiled *t, const char *fmt, ...) NORETURN_PRINTF(2, 3);
void mapfile_tiled_where(mapfile_tiled *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Room for n more stack slots, or raises. */
void mapfile_tiled_stack(mapfile_tiled *t, int n);
/* Opens the external file ref (a tileset when tileset, else a template)
** named by ext file `from` (-1: the map), checked to lie under the map's
** folder or an allowed root; read and parsed once. Its index in t->ext. */
size_t mapfile_tiled_open(mapfile_tiled *t, int from, const char *ref, bool tileset);
/* Pushes the string s as the value type (Tiled's property types: "bool",
** "int", "float", "object", else a string) says; a value that does not
** parse as its type stays a string (phase 1 then names the type it expected). */
void mapfile_tiled_push_typed(mapfile_tiled *t, const char *s, const char *type);
/* Pushes a shallow copy of the table at index i. [-0, +1] */
void mapfile_tiled_copy(mapfile_tiled *t, int i);
/* Sets every field of the table at src into the table at dst; the
** `properties` tables merge (src's win). [-0, +0] */
void mapfile_tiled_merge(mapfile_tiled *t, int dst, int src);

/* The tree of an XML or JSON file -> tables (mapfile_tmx.c, mapfile_tmj.c):
** the map [-0, +1]; the tileset of ext e (its fields but firstgid) [-0, +1];
** the object of template ext e (no default shape) [-0, +1]. */
void mapfile_tmx_map(mapfile_tiled *t);
void mapfile_tmx_tileset(mapfile_tiled *t, size_t e);
void mapfile_tmx_template(mapfile_tiled *t, size_t e);
void mapfile_tmj_map(mapfile_tiled *t);
void mapfile_tmj_tileset(mapfile_tiled *t, size_t e);
void mapfile_tmj_template(mapfile_tiled *t, size_t e);
/* The object of template ref used by an object of file `from`: pushes a
** copy to merge the instance into. [-0, +1] */
void mapfile_tiled_template(mapfile_tiled *t, int from, const char *ref);
/* The tileset of ref (file `from`): pushes its cached table. [-0, +1] */
void mapfile_tiled_tileset(mapfile_tiled *t, int from, const char *ref);

/* A tile layer's data -> a full userdata of w * h uint32 gids, pushed.
** encoding "csv" or "base64" (compression NULL or "", "zlib", "gzip",
** "zstd"); raises naming t->where otherwise. [-0, +1] */
void mapfile_data_decode(mapfile_tiled *t, const char *text, size_t len, const char *encoding,
                         const char *compression, int32_t w, int32_t h);
/* A new userdata of w * h gids, zeroed, pushed; its array. [-0, +1] */
uint32_t *mapfile_data_new(mapfile_tiled *t, int32_t w, int32_t h);

/* Frees what x holds and zeroes it. */
void mapfile_extract_free(extract *x);

/* Protected body of phase 1 (td_lsandbox_call): [extract ud, map table] -> []. */
int mapfile_extract(lua_State *L);

/* Phase 2: builds *out from x (metered against TD_MAPFILE_MAX_C_BYTES,
** counting from x->bytes); name prefixes messages. 0, or -1 with err set
** (*out then holds what was built so far: td_map_free it). */
int mapfile_build(const char *name, extract *x, td_map *out, td_err *err);

#endif
