-- The walkable area (issue 16): waves keep to the road and to a grid's open
-- cells. A wave five abreast meets roads of several widths, one of them a
-- single tile: it narrows, walks in single file and widens again; runners
-- catch up with it in the narrow lane and cannot pass there; a tower closes
-- a one-cell corridor mid-wave. Nobody's disc ever leaves the walkable area
-- (off_road counts the agent-ticks that reach out by more than 5% of the
-- radius). Lengths in map units (32 px tiles).

scenario {
  name = "a wide wave on roads of several widths keeps to them",
  map = "maps/widths.lua",
  mod = "mods/road",
  ticks = 60 * 120,
  expect = {
    result = "won",
    spawned = "== 21",
    leaks = "== 21",
    off_road = "== 0",
    off_road_depth = "== 0",
    min_gap = "> 0",
    orbits = "== 0",
  },
}

scenario {
  name = "a tower closes a one-cell corridor mid-wave: the wave turns round it, on the floor",
  map = "maps/corridors.lua",
  mod = "mods/road",
  ticks = 60 * 120,
  towers = {
    { tick = 240, base = 3, tower = "wall" },
  },
  expect = {
    result = "won",
    refused = "== 0",
    leaks = "== 21",
    off_road = "== 0",
    min_gap = "> 0",
    orbits = "== 0",
  },
}
