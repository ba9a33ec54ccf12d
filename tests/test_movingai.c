/*
** test_movingai.c: MovingAI map and scenario readers, on files in
** tests/data and on malformed text built here; A* lengths on the maps
** against the optimal lengths the scenarios give.
*/
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nav/astar.h"
#include "nav/movingai.h"

/* ---- helpers ------------------------------------------------------------- */

static td_grid *load_map(const char *rel) {
  td_err err;
  td_grid *grid = td_movingai_load_map(td_test_path(rel), &err);
  if (!grid) fail_msg("%s", err.msg);
  return grid;
}

/* Loading rel fails with an error containing want (and the file name). */
static void map_fails(const char *rel, const char *want) {
  td_err err = {{0}};
  const char *path = td_test_path(rel);
  assert_null(td_movingai_load_map(path, &err));
  if (!strstr(err.msg, want) || !strstr(err.msg, rel))
    fail_msg("%s: got '%s', want '%s'", rel, err.msg, want);
}

static void scen_fails(const char *rel, const char *want) {
  td_err err = {{0}};
  td_movingai_scen sc;
  assert_int_equal(td_movingai_load_scen(td_test_path(rel), &sc, &err), -1);
  assert_int_equal(sc.count, 0);
  if (!strstr(err.msg, want) || !strstr(err.msg, rel))
    fail_msg("%s: got '%s', want '%s'", rel, err.msg, want);
}

/* Parsing text fails with an error containing want. */
static void text_map_fails(const char *text, const char *want) {
  td_err err = {{0}};
  td_grid *grid = td_movingai_parse_map(text, strlen(text), "m.map", &err);
  if (grid) {
    td_grid_destroy(grid);
    fail_msg("parsed, want '%s': %s", want, text);
  }
  if (!strstr(err.msg, want)) fail_msg("got '%s', want '%s'", err.msg, want);
}

static void text_scen_fails(const char *text, const char *want) {
  td_err err = {{0}};
  td_movingai_scen sc;
  if (td_movingai_parse_scen(text, strlen(text), "s.scen", &sc, &err) == 0) {
    td_movingai_scen_free(&sc);
    fail_msg("parsed, want '%s': %s", want, text);
  }
  if (!strstr(err.msg, want)) fail_msg("got '%s', want '%s'", err.msg, want);
}

/* Length of the A* path in cells, summed along the path; -1: no path. */
static double astar_length(const td_grid *grid, const td_graph *g, td_astar *s,
                           const td_movingai_query *q) {
  td_err err;
  int32_t a = td_grid_node_at(grid, q->start_x, q->start_y);
  int32_t b = td_grid_node_at(grid, q->goal_x, q->goal_y);
  if (a == TD_NONE || b == TD_NONE) return -1.0;
  if (td_astar_find(s, g, a, b, &err) != TD_ASTAR_FOUND) return -1.0;
  size_t n = td_astar_path(s, NULL, 0, NULL);
  int32_t *p = malloc(n * sizeof *p);
  td_astar_path(s, p, n, NULL);
  double len = 0.0;
  for (size_t i = 0; i + 1 < n; i++)
    len += hypot(g->x[p[i + 1]] - g->x[p[i]], g->y[p[i + 1]] - g->y[p[i]]);
  free(p);
  return len;
}

/* ---- files --------------------------------------------------------------- */

static void test_load_small_map(void **state) {
  (void)state;
  td_grid *grid = load_map("tests/data/path8.map");
  assert_int_equal(grid->width, 8);
  assert_int_equal(grid->height, 8);
  assert_true(grid->cell == 1.0 && grid->origin_x == 0.0 && grid->origin_y == 0.0);
  static const char *const rows[] = {
      "........", "..@@@@..", ".....@..", ".@@..@T.",
      ".@...@..", ".@@@@@..", "......W.", "O@@.....",
  };
  for (int y = 0; y < 8; y++)
    for (int x = 0; x < 8; x++)
      assert_int_equal(td_grid_walkable(grid, x, y), rows[y][x] == '.');
  td_grid_destroy(grid);
}

static void test_load_scenario(void **state) {
  (void)state;
  td_err err;
  td_movingai_scen sc;
  assert_int_equal(td_movingai_load_scen(td_test_path("tests/data/path8.scen"), &sc, &err), 0);
  assert_int_equal(sc.count, 5);
  const td_movingai_query *q = &sc.queries[1];
  assert_int_equal(q->line, 3);
  assert_int_equal(q->bucket, 0);
  assert_string_equal(q->map, "path8.map");
  assert_int_equal(q->width, 8);
  assert_int_equal(q->height, 8);
  assert_int_equal(q->start_x, 3);
  assert_int_equal(q->start_y, 4);
  assert_int_equal(q->goal_x, 3);
  assert_int_equal(q->goal_y, 6);
  assert_true(q->optimal == 12.0);
  assert_true(fabs(sc.queries[0].optimal - (12.0 + sqrt(2.0))) < 1e-8);
  assert_true(sc.queries[4].map == sc.queries[0].map); /* one copy of the name */
  td_movingai_scen_free(&sc);
  assert_null(sc.queries);
}

/* Every query's A* length equals the optimal length in the file. Those
** were computed by an independent Dijkstra; path8.scen's second query
** (12, where corner cutting would give 9 + 2 sqrt 2) and several of
** path32.scen need detours around walls with diagonal steps. */
static void check_scenarios(const char *map, const char *scen, size_t count) {
  td_err err;
  td_grid *grid = load_map(map);
  td_graph *g = td_grid_build_graph(grid, &err);
  assert_non_null(g);
  td_movingai_scen sc;
  assert_int_equal(td_movingai_load_scen(td_test_path(scen), &sc, &err), 0);
  assert_int_equal(sc.count, count);
  td_astar *s = td_astar_create(&err);
  for (size_t i = 0; i < sc.count; i++) {
    const td_movingai_query *q = &sc.queries[i];
    assert_int_equal(q->width, grid->width);
    assert_int_equal(q->height, grid->height);
    double len = astar_length(grid, g, s, q);
    if (!(fabs(len - q->optimal) < 1e-6))
      fail_msg("%s:%d: A* %.8f, optimal %.8f", scen, q->line, len, q->optimal);
  }
  td_astar_destroy(s);
  td_movingai_scen_free(&sc);
  td_graph_destroy(g);
  td_grid_destroy(grid);
}

static void test_scenarios_solved_optimally(void **state) {
  (void)state;
  check_scenarios("tests/data/path8.map", "tests/data/path8.scen", 5);
  check_scenarios("tests/data/path32.map", "tests/data/path32.scen", 24);
}

static void test_malformed_files(void **state) {
  (void)state;
  map_fails("tests/data/bad_row.map", ":7: row 2 has 7 cells, expected 8");
  map_fails("tests/data/bad_cell.map", ":7: row 2, column 6: unknown cell 'x'");
  map_fails("tests/data/bad_truncated.map", "file ends after 3 of 8 rows");
  map_fails("tests/data/bad_huge.map", ":5: row 0 has 4 cells, expected 4096");
  map_fails("tests/data/bad_number.map", ":3: width '8x' is not a whole number");
  map_fails("tests/data/no_such_file.map", "cannot open");
  scen_fails("tests/data/bad_version.scen", ":1: expected 'version 1'");
  scen_fails("tests/data/bad_fields.scen", ":2: 8 fields, expected 9");
  scen_fails("tests/data/bad_number.scen", ":3: start y 'zero' is not a whole number");
  scen_fails("tests/data/bad_range.scen", ":2: goal x 8 is outside the map (width 8)");
  scen_fails("tests/data/no_such_file.scen", "cannot open");
}

/* ---- text ---------------------------------------------------------------- */

static void test_map_variants_accepted(void **state) {
  (void)state;
  td_err err;
  /* CRLF, width before height, spaces, blank lines after the rows, every
  ** terrain letter */
  const char *text = "type octile\r\nwidth 4\r\nheight  2 \r\nmap\r\n.GS@\r\nOTW.\r\n\r\n\n";
  td_grid *grid = td_movingai_parse_map(text, strlen(text), "m.map", &err);
  if (!grid) fail_msg("%s", err.msg);
  assert_int_equal(grid->width, 4);
  assert_int_equal(grid->height, 2);
  const bool want[8] = {1, 1, 1, 0, 0, 0, 0, 1};
  for (int i = 0; i < 8; i++) assert_int_equal(td_grid_walkable(grid, i % 4, i / 4), want[i]);
  td_grid_destroy(grid);
  /* no final newline */
  text = "type octile\nheight 1\nwidth 1\nmap\n.";
  grid = td_movingai_parse_map(text, strlen(text), "m.map", &err);
  assert_non_null(grid);
  td_grid_destroy(grid);
}

static void test_map_errors(void **state) {
  (void)state;
  text_map_fails("", "m.map:1: file ends before the 'map' line");
  text_map_fails("type octile\nheight 2\nwidth 2\n", "file ends before the 'map' line");
  text_map_fails("type grid\nheight 2\nwidth 2\nmap\n..\n..\n", ":1: map type 'grid'");
  text_map_fails("height 2\nwidth 2\nmap\n..\n..\n", ":3: no 'type octile' line");
  text_map_fails("type octile\nwidth 2\nmap\n..\n..\n", ":3: no 'height' line");
  text_map_fails("type octile\nheight 2\nmap\n..\n..\n", ":3: no 'width' line");
  text_map_fails("type octile\nheight 2\nheight 2\nwidth 2\nmap\n", ":3: second 'height'");
  text_map_fails("type octile\ntype octile\n", ":2: second 'type' line");
  text_map_fails("type octile\nheight 0\nwidth 2\nmap\n", ":2: height '0' is not a whole");
  text_map_fails("type octile\nheight -3\nwidth 2\nmap\n", "height '-3'");
  text_map_fails("type octile\nheight 99999999999999999999\nwidth 2\nmap\n",
                 "height '99999999999999999999'");
  text_map_fails("type octile\nheight 65537\nwidth 2\nmap\n", "from 1 to 65536");
  text_map_fails("type octile\nheight 65536\nwidth 65536\nmap\n", "is too large");
  text_map_fails("type octile\nheight\nwidth 2\nmap\n", "height '' is not");
  text_map_fails("type octile\nheight 2\nwidth 2\nmap extra\n", "unexpected 'extra'");
  text_map_fails("type octile\nheight 2\nwidth 2\ncolour red\nmap\n",
                 ":4: unknown header line 'colour'");
  text_map_fails("type octile\n\nheight 2\n", ":2: empty line in the header");
  text_map_fails("type octile\nheight 2\nwidth 2\nmap\n..\n", ":5: file ends after 1 of 2");
  text_map_fails("type octile\nheight 2\nwidth 2\nmap\n..\n...\n", ":6: row 1 has 3 cells");
  text_map_fails("type octile\nheight 2\nwidth 2\nmap\n..\n\n", ":6: row 1 has 0 cells");
  text_map_fails("type octile\nheight 1\nwidth 2\nmap\n..\n..\n", ":6: text after the map");
  text_map_fails("type octile\nheight 1\nwidth 2\nmap\n.\t\n", "unknown cell '\\x09'");
  /* an embedded NUL is just an unknown cell */
  td_err err;
  const char nul[] = "type octile\nheight 1\nwidth 2\nmap\n.\0\n";
  assert_null(td_movingai_parse_map(nul, sizeof nul - 1, "m.map", &err));
  assert_non_null(strstr(err.msg, "unknown cell '\\x00'"));
}

static void test_scen_variants_and_errors(void **state) {
  (void)state;
  td_err err;
  td_movingai_scen sc;
  /* version 1.0, CRLF, spaces instead of tabs, blank lines, no queries */
  const char *ok = "version 1.0\r\n\r\n3 maps/a b.map\t5\t4\t0\t0\t4\t3\t5.5\r\n"
                   "7 a.map 5 4 1 2 3 3 2.41421356\n\n";
  /* the first line has tabs: its fields are split on tabs only */
  assert_int_equal(td_movingai_parse_scen(ok, strlen(ok), "s.scen", &sc, &err), -1);
  assert_non_null(strstr(err.msg, "s.scen:3: 8 fields"));
  ok = "version 1.0\r\n\r\n3\tmaps/a b.map\t5\t4\t0\t0\t4\t3\t5.5\r\n"
       "7 a.map 5 4 1 2 3 3 2.41421356\n\n";
  if (td_movingai_parse_scen(ok, strlen(ok), "s.scen", &sc, &err)) fail_msg("%s", err.msg);
  assert_int_equal(sc.count, 2);
  assert_string_equal(sc.queries[0].map, "maps/a b.map");
  assert_string_equal(sc.queries[1].map, "a.map");
  assert_int_equal(sc.queries[1].bucket, 7);
  assert_int_equal(sc.queries[1].line, 4);
  assert_true(sc.queries[0].optimal == 5.5);
  td_movingai_scen_free(&sc);
  ok = "version 1\n";
  assert_int_equal(td_movingai_parse_scen(ok, strlen(ok), "s.scen", &sc, &err), 0);
  assert_int_equal(sc.count, 0);
  td_movingai_scen_free(&sc);

  text_scen_fails("", "s.scen:1: empty file");
  text_scen_fails("0\ta.map\t5\t4\t0\t0\t4\t3\t5.5\n", ":1: expected 'version 1'");
  text_scen_fails("version 1\n0\ta.map\t5\t4\t0\t0\t4\t3\t5.5\t9\n", ":2: more than 9 fields");
  text_scen_fails("version 1\n0\t\t5\t4\t0\t0\t4\t3\t5.5\n", ":2: the map name is empty");
  text_scen_fails("version 1\n-1\ta.map\t5\t4\t0\t0\t4\t3\t5.5\n", "bucket '-1'");
  text_scen_fails("version 1\n0\ta.map\t0\t4\t0\t0\t4\t3\t5.5\n", "map width '0'");
  text_scen_fails("version 1\n0\ta.map\t5\t4\t0\t4\t4\t3\t5.5\n",
                  "start y 4 is outside the map (height 4)");
  text_scen_fails("version 1\n0\ta.map\t5\t4\t0\t0\t4\t3\tnan\n", "optimal length 'nan'");
  text_scen_fails("version 1\n0\ta.map\t5\t4\t0\t0\t4\t3\tinf\n", "optimal length 'inf'");
  text_scen_fails("version 1\n0\ta.map\t5\t4\t0\t0\t4\t3\t-2\n", "optimal length '-2'");
  text_scen_fails("version 1\n0\ta.map\t5\t4\t0\t0\t4\t3\t1e999\n", "optimal length '1e999'");
  text_scen_fails("version 1\n0\ta.map\t5\t4\t0\t0\t4\t3\t\n", "optimal length ''");
  text_scen_fails("version 1\n0\ta.map\t5\t4\t0\t0\t4x\t3\t1\n", "goal x '4x'");
  text_scen_fails("version 1\n0\ta.map\t5\t4\t0\t0\t99999999999999999999\t3\t1\n",
                  "goal x '99999999999999999999'");
}

/* Every prefix of the good files, and many mutations of them, parse or fail
** cleanly (run under the sanitizers, this is a small fuzzer). */
static char *slurp(const char *rel, size_t *len) {
  FILE *f = fopen(td_test_path(rel), "rb");
  assert_non_null(f);
  char *buf = malloc(1 << 16);
  *len = fread(buf, 1, 1 << 16, f);
  fclose(f);
  return buf;
}

static void test_truncations_and_mutations(void **state) {
  (void)state;
  const char *files[] = {"tests/data/path8.map", "tests/data/path8.scen",
                         "tests/data/path32.scen"};
  td_test_rng rng = {77};
  for (int fi = 0; fi < 3; fi++) {
    bool is_map = strstr(files[fi], ".map") != NULL;
    size_t len;
    char *text = slurp(files[fi], &len);
    char *copy = malloc(len + 1);
    int accepted = 0;
    for (size_t cut = 0; cut <= len + 2000; cut++) {
      size_t n = cut <= len ? cut : len;
      memcpy(copy, text, n);
      if (cut > len) { /* mutate a few bytes */
        for (int k = 0; k < 3; k++) {
          size_t at = td_test_below(&rng, (uint32_t)len);
          const char pool[] = ".@\n\r\t 0123456789-eTSx\0";
          copy[at] = pool[td_test_below(&rng, sizeof pool)];
        }
      }
      td_err err = {{0}};
      if (is_map) {
        td_grid *grid = td_movingai_parse_map(copy, n, "f", &err);
        if (grid) {
          accepted++;
          assert_true(grid->width >= 1 && grid->height >= 1);
          td_grid_destroy(grid);
        } else {
          assert_true(strncmp(err.msg, "f:", 2) == 0);
        }
      } else {
        td_movingai_scen sc;
        if (td_movingai_parse_scen(copy, n, "f", &sc, &err) == 0) {
          accepted++;
          for (size_t i = 0; i < sc.count; i++) {
            const td_movingai_query *q = &sc.queries[i];
            assert_true(q->start_x < q->width && q->goal_y < q->height);
            assert_true(q->map && q->map[0]);
          }
          td_movingai_scen_free(&sc);
        } else {
          assert_true(strncmp(err.msg, "f:", 2) == 0);
        }
      }
    }
    assert_true(accepted >= 1);
    free(copy);
    free(text);
  }
}

/* ---- allocation failures ------------------------------------------------- */

static void test_allocation_failures(void **state) {
  (void)state;
  bool map_ok = false, scen_ok = false;
  for (long k = 0; k < 60 && !(map_ok && scen_ok); k++) {
    td_test_alloc f = {.fail_at = k + 1, .fail_rest = true};
    td_test_alloc_install(&f);
    td_err err;
    td_grid *grid = td_movingai_load_map(td_test_path("tests/data/path32.map"), &err);
    if (grid) map_ok = true;
    else assert_non_null(strstr(err.msg, "memory"));
    td_grid_destroy(grid);
    f.calls = 0; /* number the scenario's allocations from 1 again */
    td_movingai_scen sc;
    if (td_movingai_load_scen(td_test_path("tests/data/path32.scen"), &sc, &err) == 0) {
      scen_ok = true;
      assert_int_equal(sc.count, 24);
    } else {
      assert_non_null(strstr(err.msg, "memory"));
    }
    td_movingai_scen_free(&sc);
    td_test_alloc_remove();
    td_test_alloc_assert_clean(&f);
  }
  assert_true(map_ok && scen_ok);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_load_small_map),
    cmocka_unit_test(test_load_scenario),
    cmocka_unit_test(test_scenarios_solved_optimally),
    cmocka_unit_test(test_malformed_files),
    cmocka_unit_test(test_map_variants_accepted),
    cmocka_unit_test(test_map_errors),
    cmocka_unit_test(test_scen_variants_and_errors),
    cmocka_unit_test(test_truncations_and_mutations),
    cmocka_unit_test(test_allocation_failures),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
