-- Soldiers and sappers (issue 19), in whole games on small grid maps of
-- their own, each measured against the same game without the thing under
-- test. Figures measured with td check --verbose are in the comments; the
-- thresholds leave room round them.

-- A barracks holds a gate. Eight grunts (150 health, melee 5 a second)
-- walk from a hall through a gate one cell wide to the goal; nothing
-- shoots. Without a barracks the first one arrives at 16.5 s.
scenario {
  name = "no barracks: the wave walks through the gate",
  map = "maps/chokepoint.lua",
  mod = "mods/garrison",
  ticks = 60 * 300,
  expect = {
    result = "won",
    leaks = "== 8",
    first_leak = "<= 25",          -- 16.5
    held = "== 0",
    engaged = "== 0",
  },
}

-- The same wave, and a barracks in the alcove with its rally point on the
-- gate: three footmen (120 health, 4 damage a second, back only after a
-- minute) hold the grunt in the gate while the others queue in the hall
-- behind it, without overlapping, until the footmen have fallen. Measured:
-- the first leak at 63.9 s (47 s later), 70.8 enemy-seconds held, 4
-- engagements, 3 soldiers fallen, 1 grunt killed and 7 through.
scenario {
  name = "a barracks on the gate holds the wave",
  map = "maps/chokepoint.lua",
  mod = "mods/garrison",
  ticks = 60 * 300,
  towers = {
    { tick = 0, base = 3, tower = "barracks" },
    { tick = 0, rally = 3, x = 336, y = 80 },   -- the gate's centre
  },
  expect = {
    result = "won",
    refused = "== 0",
    first_leak = ">= 45",          -- 63.9: at least 20 s later than without
    held = ">= 40",                -- 70.8 enemy-seconds
    engaged = ">= 3",              -- 4
    soldier_deaths = ">= 1",       -- 3: then the wave goes on
    leaks = ">= 5",                -- 7
    min_gap = ">= 0",              -- 0.38: the queue behind does not overlap
  },
}

-- A sapper wave blows up an unguarded tower and the route changes. A wall
-- (100 health) closes the shortcut (11 cells from the junction to the goal;
-- the long way is 27) and stands beside the junction, within the sappers'
-- reach. Wave 1: three sappers (siege 10 a second); wave 2 at 22 s: four
-- grunts too strong for any tower here. Unguarded, the sappers stop at the
-- wall and bring it down; the route opens the shortcut and everyone takes
-- it: the first sapper arrives at 19.8 s, and the game (the last grunt)
-- ends at 34.1 s (2043 ticks, as on the map without the wall).
scenario {
  name = "sappers blow up an unguarded wall: the shortcut opens",
  map = "maps/shortcut.lua",
  mod = "mods/sappers",
  ticks = 60 * 300,
  towers = {
    { tick = 0, base = 3, tower = "wall" },
  },
  expect = {
    result = "won",
    towers_destroyed = "== 1",
    route_updates = "== 2",        -- the wall placed, the wall fallen
    leaks = "== 7",
    first_leak = "<= 25",          -- 19.8: a sapper, by the shortcut
    ticks = "<= 2280",             -- 2043: the grunts took the shortcut (38 s)
  },
}

-- The same with a guard on the pad beside the approach: it shoots each
-- sapper at a shot before the wall falls, the shortcut stays closed and
-- the grunts walk the long way: the first arrives at 41.5 s, the game ends
-- at 44.5 s (2668 ticks, 10 s after the unguarded one).
scenario {
  name = "a guard kills the sappers: the wall stands, the long way",
  map = "maps/shortcut.lua",
  mod = "mods/sappers",
  ticks = 60 * 300,
  towers = {
    { tick = 0, base = 3, tower = "wall" },
    { tick = 0, base = 4, tower = "guard" },
  },
  expect = {
    result = "won",
    towers_destroyed = "== 0",
    route_updates = "== 1",        -- the wall placed; the guard's pad closes nothing
    kills = "== 3",
    leaks = "== 4",
    first_leak = ">= 35",          -- 41.5: a grunt, the long way
    ticks = ">= 2460",             -- 2668 (41 s)
  },
}
