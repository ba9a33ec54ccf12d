-- Seed 004: three enemies at lateral offsets -1.5, 0 and +1.5 tiles walk a
-- straight, a right turn, a straight, a left turn and a straight; through
-- both corners they keep apart, keep their lanes and never swap. Lengths
-- are in map units (Tiled pixels: 32 to a tile on this map).
scenario {
  name = "three lanes through two corners",
  map = "maps/two-corners.lua",
  mod = "mods/lanes",
  seed = 1,
  ticks = 60 * 60,
  expect = {
    result = "won",
    spawned = "== 3",
    leaks = "== 3",
    min_gap = "> 0",
    lane_swaps = "== 0",
    lane_error = "< 2",            -- map units: 1/16 of a tile (measured 0.22)
    group_spread = "< 200",        -- 3 lanes 1.5 tiles apart, wider in the corners
    jitter = "<= 2",
    orbits = "== 0",
  },
}
