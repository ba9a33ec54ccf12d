-- Seed 004's wave: three walkers side by side, lanes -1.5, 0 and +1.5
-- tiles, one wave, no towers worth the name. For tests/scenarios/lanes.lua.
api_version = 1

td.damage_type "physical"

td.enemy { name = "walker", health = 50, speed = 2, radius = 0.5 }

td.tower { name = "post", levels = { { name = "post", cost = 10, range = 1, damage = 0 } } }

td.wave { { enemy = "walker", count = 3, per_row = 3, width = 3 } }

td.rules { wave_count = 1, start_gold = 100, start_lives = 10, first_wave_delay = 0 }
