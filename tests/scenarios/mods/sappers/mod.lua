-- Sappers, then grunts, on maps/shortcut.lua (tests/scenarios/soldiers.lua):
-- a wall with health closes the shortcut; the sappers stop at it and blow
-- it up unless a guard on the pad beside the approach shoots them first.
-- The guard has no health (sappers cannot hurt it), and its bolts kill a
-- sapper at a shot but barely scratch a grunt, so the grunts reach the goal
-- either way: by the shortcut when the wall fell, the long way when not.
api_version = 1

td.damage_type "physical"

td.enemy {
  name = "sapper", health = 30, speed = 1.5, radius = 0.3, bounty = 3,
  siege = { damage = 10, rate = 1, range = 0.5 },
}
td.enemy { name = "grunt", health = 2000, speed = 1.5, radius = 0.3, bounty = 2 }

td.tower { name = "wall", levels = { { name = "wall", cost = 20, range = 1, rate = 0, health = 100 } } }
td.tower {
  name = "guard",
  levels = { { name = "guard", cost = 60, range = 4, rate = 2, damage = 40 } },
}

td.wave { { enemy = "sapper", count = 3, spacing = 1.5 } }
td.wave { { enemy = "grunt", count = 4, spacing = 1.5 } }

td.rules {
  wave_count = 2, start_gold = 200, start_lives = 100,
  first_wave_delay = 2, wave_interval = 20,
}
