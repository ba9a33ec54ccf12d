-- tests/cli/mods.sh: a mod on top of tests/data/mods/soldiers: its footmen
-- replaced (tougher), a barracks of its own keeping the first mod's
-- knights, a sapper of its own and one more wave.
api_version = 1
depends = { "soldiers" }
td.soldier { name = "footman", replace = true, health = 90, armour = 2, damage = 6, rate = 1.2,
             speed = 1.8 }
td.tower { name = "fort", levels = {
  { name = "fort", cost = 90, range = 3, health = 250, soldier = "knight", soldiers = 2 },
} }
td.enemy { name = "miner", health = 30, speed = 1, siege = { damage = 5, rate = 1, range = 0.3 } }
td.wave { { enemy = "miner", count = 3 } }   -- wave 4: appended
