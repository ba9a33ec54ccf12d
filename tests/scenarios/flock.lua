-- Crowd behaviour in a whole game: a 60-enemy wave keeps its formation on a
-- winding course, and a wave detours round a tower placed in its way.
-- Lengths are in map units (Tiled pixels; these maps have 32 px tiles).

scenario {
  name = "sixty in formation on a winding course",
  map = "maps/winding.lua",
  mod = "mods/flock",
  ticks = 60 * 120,
  expect = {
    result = "won",
    spawned = "== 60",
    leaks = "== 60",
    min_gap = "> 0",
    lane_swaps = "<= 2",
    lane_error = "< 4",            -- measured 0.11
    group_spread = "< 800",        -- 12 rows 1.2 tiles apart: about 600
    orbits = "== 0",
  },
}

scenario {
  name = "a tower mid-wave: the wave detours, all arrive",
  map = "../../maps/01-crossroads.tmx",
  mod = "mods/flock",
  ticks = 60 * 120,
  towers = {
    { tick = 120, base = 9, tower = "wall" },
  },
  expect = {
    result = "won",
    refused = "== 0",
    leaks = "== 60",
    ticks = "> 1300",              -- the detour: about 1440 (1200 on the straight)
    min_gap = "> 0",
    orbits = "== 0",
  },
}
