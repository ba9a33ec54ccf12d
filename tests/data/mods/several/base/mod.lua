-- tests/cli/mods.sh: the first mod of a list (a small base game).
api_version = 1
td.damage_type "physical"
td.enemy { name = "grunt", health = 30, speed = 2, bounty = 2 }
td.tower { name = "arrow", levels = {
  { name = "arrow", cost = 50, range = 4, rate = 2, damage = 10 },
} }
td.wave { { enemy = "grunt", count = 5 } }
td.wave { { enemy = "grunt", count = 8 } }
td.rules { start_gold = 200, start_lives = 10, first_wave_delay = 2, wave_interval = 15 }
include "handlers.lua"
