-- One wave of 60 walkers, 5 lanes x 12 rows, and a tower that only blocks
-- (it never fires): for the crowd scenarios (tests/scenarios/flock.lua).
api_version = 1

td.damage_type "physical"

td.enemy { name = "walker", health = 50, speed = 2, radius = 0.3 }

td.tower { name = "wall", levels = { { name = "wall", cost = 10, range = 1, rate = 0 } } }

td.wave { { enemy = "walker", count = 60, per_row = 5, width = 4, spacing = 1.2 } }

td.rules { wave_count = 1, start_gold = 100, start_lives = 100, first_wave_delay = 0 }
