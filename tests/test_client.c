/*
** test_client.c: td_client_mouse_to_output (client.h), the mapping td play
** gives every mouse event from the window's coordinates to the renderer's
** output pixels. SDL's dummy driver cannot make the two sizes differ, so
** the mapping is checked here: fullscreen at 1600x900 without a window
** manager on a 1920x1080 output (clicks landed ~180 px from what was
** drawn while the position was taken as it came), a smaller output, the
** same size, and sizes that are not there.
*/
#define SDL_MAIN_HANDLED
#include "support.h"

#include "render/client.h"

static void map(int ww, int wh, int ow, int oh, int x, int y, int want_x, int want_y) {
  int ox = -12345, oy = -12345;
  td_client_mouse_to_output(ww, wh, ow, oh, x, y, &ox, &oy);
  if (ox != want_x || oy != want_y)
    fail_msg("%dx%d window, %dx%d output: (%d,%d) mapped to (%d,%d), expected (%d,%d)", ww, wh, ow,
             oh, x, y, ox, oy, want_x, want_y);
}

static void test_larger_output(void **state) {
  (void)state;
  /* the window's centre is the output's centre, its corners the output's */
  map(1600, 900, 1920, 1080, 800, 450, 960, 540);
  map(1600, 900, 1920, 1080, 100, 100, 120, 120);
  map(1600, 900, 1920, 1080, 0, 0, 0, 0);
  map(1600, 900, 1920, 1080, 1599, 899, 1918, 1078);
  /* the bug's ~180 px: a click at x 900 is drawn at 1080 */
  map(1600, 900, 1920, 1080, 900, 500, 1080, 600);
  /* a high-DPI display: twice the pixels */
  map(1280, 720, 2560, 1440, 640, 360, 1280, 720);
}

static void test_smaller_output(void **state) {
  (void)state;
  map(1600, 900, 1280, 720, 800, 450, 640, 360);
  map(1600, 900, 1280, 720, 100, 100, 80, 80);
  map(1600, 900, 1280, 720, 1599, 899, 1279, 719);
  /* the axes scale separately */
  map(1600, 900, 1280, 1080, 1000, 300, 800, 360);
}

static void test_every_position_lands_in_the_output(void **state) {
  (void)state;
  static const int sizes[][4] = {{1600, 900, 1920, 1080}, {1600, 900, 1280, 720},
                                 {1366, 768, 1920, 1080}, {1024, 640, 3840, 2160}};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    const int *s = sizes[i];
    int last_x = -1;
    for (int x = 0; x < s[0]; x++) {
      int ox, oy;
      td_client_mouse_to_output(s[0], s[1], s[2], s[3], x, x % s[1], &ox, &oy);
      assert_true(ox >= 0 && ox < s[2] && oy >= 0 && oy < s[3]);
      assert_true(ox >= last_x); /* never backwards */
      last_x = ox;
    }
  }
}

static void test_same_size_and_no_size(void **state) {
  (void)state;
  map(1280, 720, 1280, 720, 17, 700, 17, 700);
  /* no size known: the position as it came */
  map(0, 0, 1920, 1080, 300, 200, 300, 200);
  map(1600, 900, 0, 0, 300, 200, 300, 200);
  map(-5, 900, 1920, 1080, 300, 200, 300, 200);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_larger_output),
    cmocka_unit_test(test_smaller_output),
    cmocka_unit_test(test_every_position_lands_in_the_output),
    cmocka_unit_test(test_same_size_and_no_size),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
