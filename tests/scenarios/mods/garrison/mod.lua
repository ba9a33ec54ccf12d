-- A wave of grunts that fight back, and a barracks of three footmen that
-- cannot be hurt and hit softly: they hold a gate for a while, then fall
-- one by one and come back only after a minute (tests/scenarios/soldiers.lua,
-- maps/chokepoint.lua). Nothing shoots: only the soldiers stand in the way.
api_version = 1

td.damage_type "physical"

td.soldier {
  name = "footman", health = 120, armour = 0, damage = 4, rate = 1,
  speed = 2, radius = 0.3, respawn = 60, sight = 1.5, regen = 0,
}

td.enemy {
  name = "grunt", health = 150, speed = 1.5, radius = 0.3, bounty = 2,
  melee = { damage = 5, rate = 1 },
}

td.tower {
  name = "barracks",
  levels = { { name = "barracks", cost = 70, range = 2.5, soldier = "footman", soldiers = 3 } },
}

td.wave { { enemy = "grunt", count = 8, per_row = 2, width = 1, spacing = 1 } }

td.rules { wave_count = 1, start_gold = 100, start_lives = 100, first_wave_delay = 0 }
