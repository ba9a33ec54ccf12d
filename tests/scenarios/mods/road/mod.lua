-- Waves wider than the road, and fast runners behind slow walkers: for the
-- walkable-area scenarios (tests/scenarios/road.lua). The tower only blocks.
api_version = 1

td.damage_type "physical"

td.enemy { name = "walker", health = 50, speed = 1.5, radius = 0.3 }
td.enemy { name = "runner", health = 50, speed = 3, radius = 0.25 }

td.tower { name = "wall", levels = { { name = "wall", cost = 10, range = 1, rate = 0 } } }

td.wave {
  { enemy = "walker", count = 15, per_row = 5, width = 3, spacing = 1 },
  { enemy = "runner", count = 6, per_row = 3, width = 1.5, spacing = 1, delay = 3 },
}

td.rules { wave_count = 1, start_gold = 100, start_lives = 100, first_wave_delay = 0 }
