/*
** movingai.h: readers for the MovingAI pathfinding benchmarks
** (movingai.com/benchmarks): octile grid maps and scenario files.
**
** Map:       "type octile", "height H", "width W" (either order), "map",
**            then H rows of W cells: '.' 'G' 'S' passable, '@' 'O' 'T' 'W'
**            not. Read into a td_grid with cell size 1 and origin 0, so cell
**            (x, y) has its centre at (x + 0.5, y + 0.5) and path lengths
**            are in cells.
** Scenario:  "version 1" (or 1.0), then one query a line, tab separated:
**            bucket, map, map width, map height, start x, start y, goal x,
**            goal y, optimal length; x is the column, y the row from the top.
**
** Input is untrusted: every malformed file (truncated, wrong widths, bad
** numbers, unknown cells, absurd sizes) is refused with an error naming the
** file and line ("maps/x.map:7: row 2 has 7 cells, expected 8"); rows are
** numbered from 0 like y. Lines may end in "\n" or "\r\n". Sizes are capped
** at 65536 per side and 2^28 cells, and a map must hold all the rows it
** announces before anything is allocated for them.
**
** Memory: the grid returned belongs to the caller (td_grid_destroy); a
** td_movingai_scen owns its queries and their map names until
** td_movingai_scen_free. All through td_mem_*.
** Determinism: pure functions of the bytes read.
*/
#ifndef TD_MOVINGAI_H
#define TD_MOVINGAI_H

#include <stddef.h>
#include <stdint.h>

#include "nav/grid.h"
#include "nav/mem.h"

typedef struct td_movingai_query {
  int32_t line;              /* line in the scenario file */
  int32_t bucket;
  const char *map;           /* the map named by the line (into the scen) */
  int32_t width, height;     /* map size the query was made for */
  int32_t start_x, start_y, goal_x, goal_y;
  double optimal;            /* optimal path length, in cells */
  size_t map_off;            /* private: offset of the name in the scen */
} td_movingai_query;

typedef struct td_movingai_scen {
  td_movingai_query *queries;
  size_t count;
  /* private */
  size_t cap;
  char *names;
  size_t names_len, names_cap;
} td_movingai_scen;

/* Parses a map held in memory; name is used in errors. NULL with err set. */
td_grid *td_movingai_parse_map(const char *text, size_t len, const char *name,
                               td_err *err);
td_grid *td_movingai_load_map(const char *path, td_err *err);

/* Parses a scenario into *scen (which it initialises). 0 ok, -1 with err
** set, and then *scen holds nothing to free. */
int td_movingai_parse_scen(const char *text, size_t len, const char *name,
                           td_movingai_scen *scen, td_err *err);
int td_movingai_load_scen(const char *path, td_movingai_scen *scen, td_err *err);
void td_movingai_scen_free(td_movingai_scen *scen);

#endif
