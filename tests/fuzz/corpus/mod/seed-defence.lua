-- Three short waves and a tower that outranges the detours it causes: a
-- game a few towers win (tests/scenarios/games.lua).
api_version = 1

td.damage_type "physical"

td.enemy { name = "runner", health = 40, speed = 2, radius = 0.25, bounty = 5, lives = 1 }
td.enemy { name = "brute", health = 160, speed = 1.2, radius = 0.4, bounty = 15, lives = 3 }

td.tower {
  name = "bolt",
  levels = {
    { name = "bolt", cost = 60, range = 7, rate = 2, damage = 12, damage_type = "physical" },
    { name = "bolt_2", cost = 60, damage = 24 },
  },
}

td.wave { { enemy = "runner", count = 8, spacing = 1.5 } }
td.wave { { enemy = "runner", count = 12, per_row = 2, width = 0.8 } }
td.wave { { enemy = "brute", count = 4, spacing = 2 }, { enemy = "runner", count = 8, delay = 4 } }

td.rules {
  wave_count = 3, start_gold = 150, start_lives = 20,
  first_wave_delay = 5, wave_interval = 25, wave_income = 40,
}
