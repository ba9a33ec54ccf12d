-- tests/cli/sprite.sh: one grunt (round, a 32-pixel cell), then one
-- juggernaut (a boss, a 48-pixel cell), of known radii, walking east
api_version = 1
td.damage_type "physical"
td.enemy { name = "grunt", health = 100, speed = 1, radius = 0.5 }
td.enemy { name = "juggernaut", health = 100, speed = 1, radius = 0.65, boss = true }
td.tower { name = "arrow", levels = { { name = "arrow", cost = 50, range = 3, damage = 5 } } }
td.wave { { enemy = "grunt", count = 1 } }
td.wave { { enemy = "juggernaut", count = 1 } }
td.rules { first_wave_delay = 1, wave_interval = 5 }
