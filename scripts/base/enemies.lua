-- Enemy types. Sizes in tiles, speeds in tiles per second. Health is the
-- health at a group's first wave; PROFILE.hp (maps.lua) scales it per map
-- and the groups in waves.lua make it grow wave by wave.
local hp = PROFILE.hp

-- fast and frail; comes in crowds
td.enemy {
  name = "runner", title = "Runner",
  description = "Fast and frail; comes in crowds.",
  health = 30 * hp, speed = 2.5, radius = 0.25,
  melee = { damage = 2, rate = 1.5 },
  bounty = 2, lives = 1,
}

-- the foot soldier
td.enemy {
  name = "grunt", title = "Grunt",
  description = "The foot soldier: steady, nothing special.",
  health = 80 * hp, speed = 1.5,
  melee = { damage = 5, rate = 1 },
  bounty = 4, lives = 1,
}

-- armoured: flat armour and a physical resist; fire melts it
td.enemy {
  name = "tank", title = "Armoured Tank",
  description = "Thick armour shrugs off small hits and arrows; fire melts it.",
  health = 400 * hp, speed = 0.8, radius = 0.45, armour = 4,
  resist = { physical = 0.4, fire = -0.25 },
  melee = { damage = 14, rate = 0.8 },
  bounty = 12, lives = 3,
}

-- flying: only towers that hit air reach it; magic tears it
td.enemy {
  name = "wisp", title = "Wisp",
  description = "Flies over the road; only anti-air reaches it. Weak to magic.",
  health = 60 * hp, speed = 2, flying = true,
  resist = { physical = 0.5, magic = -0.5 },
  bounty = 5, lives = 1,
}

-- splits into three runners when it dies
td.enemy {
  name = "splitter", title = "Splitter",
  description = "Bursts into three runners when it dies.",
  health = 150 * hp, speed = 1.2, radius = 0.4,
  split_into = "runner", split_count = 3,
  melee = { damage = 6, rate = 1 },
  bounty = 6, lives = 2,
}

-- the sapper: carries a powder keg and stops to blow up the towers it
-- passes (any tower within half a tile of its body); soldiers stop it
td.enemy {
  name = "sapper", title = "Sapper",
  description = "Stops at towers to blow them up; soldiers hold it.",
  health = 90 * hp, speed = 1.4, radius = 0.3,
  melee = { damage = 3, rate = 1 },
  siege = { damage = 12, rate = 1, range = 0.5 },
  bounty = 7, lives = 1,
}

-- Bosses: each map has its own (PROFILE.boss in maps.lua), in its last wave
-- and every fifth wave of endless mode. A ground boss is as wide as the
-- bundled maps' one-tile roads (radius 0.5 tiles) and no wider: enemies keep
-- to the road (docs/maps.md), so a body wider than the road would stick out. PROFILE.boss_hp scales their health.
-- While one lives, the handler in mod.lua calls in its escort (ESCORTS).
local boss_hp = hp * PROFILE.boss_hp

-- the warlord: armoured, regenerates, heals those around it; calls grunts
td.enemy {
  name = "warlord", title = "The Warlord",
  description = "Boss: armoured, regenerates and heals those around it.",
  health = 3000 * boss_hp, speed = 0.6, radius = 0.5, armour = 5, boss = true,
  melee = { damage = 40, rate = 0.8 },
  resist = { physical = 0.3, fire = 0.3, magic = 0.3 },
  regen = 5, heal_radius = 3, heal_rate = 10,
  bounty = 100, lives = 10,
}

-- the hydra: cut it down and four splitters crawl out (and each of those
-- splits into runners); calls runners
td.enemy {
  name = "hydra", title = "The Hydra",
  description = "Boss: cut it down and four splitters crawl out.",
  health = 2400 * boss_hp, speed = 0.7, radius = 0.5, armour = 2, boss = true,
  melee = { damage = 30, rate = 0.8 },
  resist = { magic = 0.3 },
  split_into = "splitter", split_count = 4,
  bounty = 100, lives = 10,
}

-- the wyrm: a flying boss; only towers that hit air reach it; calls wisps
td.enemy {
  name = "wyrm", title = "The Wyrm",
  description = "Flying boss: only anti-air reaches it. Shrugs off fire.",
  health = 2400 * boss_hp, speed = 0.8, radius = 0.6, flying = true, boss = true,
  resist = { physical = 0.2, fire = 0.5, magic = -0.2 },
  regen = 4,
  bounty = 100, lives = 10,
}

-- the juggernaut: so much armour that small hits barely scratch it; fire and
-- chains are the answer; calls runners
td.enemy {
  name = "juggernaut", title = "The Juggernaut",
  description = "Boss: heavy armour that regenerates; chains and fire wear it down.",
  health = 3000 * boss_hp, speed = 0.5, radius = 0.5, armour = 6, boss = true,
  melee = { damage = 50, rate = 0.6 },
  resist = { physical = 0.4, fire = -0.3, magic = 0.1 },
  regen = 5,
  bounty = 100, lives = 10,
}

-- the herald: mends every enemy within four tiles, fast; calls grunts
td.enemy {
  name = "herald", title = "The Herald",
  description = "Boss: mends every enemy within four tiles, fast.",
  health = 2600 * boss_hp, speed = 0.7, radius = 0.5, armour = 3, boss = true,
  melee = { damage = 35, rate = 0.8 },
  resist = { magic = 0.4 },
  heal_radius = 4, heal_rate = 20,
  bounty = 100, lives = 10,
}

-- the titan: slow and enormous; two golems climb off its corpse; calls grunts
td.enemy {
  name = "titan", title = "The Titan",
  description = "Boss: slow and enormous; two golems climb off its corpse.",
  health = 4000 * boss_hp, speed = 0.45, radius = 0.5, armour = 6, boss = true,
  melee = { damage = 60, rate = 0.5 },
  resist = { physical = 0.3, fire = 0.2, magic = 0.2 },
  split_into = "golem", split_count = 2,
  bounty = 150, lives = 15,
}

-- what each boss calls in, two at a time, every eight seconds (mod.lua)
ESCORTS = {
  warlord = "grunt", hydra = "runner", wyrm = "wisp",
  juggernaut = "runner", herald = "grunt", titan = "grunt",
}

-- healer: mends everyone within 2.5 tiles; kill it first
td.enemy {
  name = "shaman", title = "Shaman",
  description = "Heals everyone near it: kill it first.",
  health = 110 * hp, speed = 1.3,
  melee = { damage = 3, rate = 1 },
  resist = { magic = 0.3 },
  heal_radius = 2.5, heal_rate = 12,
  bounty = 8, lives = 1,
}

-- resistant to fire (cannons barely scratch it), regenerates
td.enemy {
  name = "salamander", title = "Salamander",
  description = "Fire barely scratches it, and it regenerates.",
  health = 160 * hp, speed = 1.6, radius = 0.35,
  melee = { damage = 8, rate = 1.2 },
  resist = { fire = 0.9, magic = -0.25 },
  regen = 4,
  bounty = 7, lives = 1,
}

-- resistant to magic, armoured, slow
td.enemy {
  name = "golem", title = "Golem",
  description = "Slow, armoured stone that magic hardly touches.",
  health = 500 * hp, speed = 0.7, radius = 0.5, armour = 3,
  melee = { damage = 25, rate = 0.6 },
  resist = { magic = 0.75, physical = 0.1, fire = -0.2 },
  bounty = 14, lives = 3,
}

-- flying and tough: brings the anti-air towers out
td.enemy {
  name = "drake", title = "Drake",
  description = "A tough flyer: bring anti-air.",
  health = 260 * hp, speed = 1.3, radius = 0.45, flying = true,
  resist = { physical = 0.3, fire = 0.5 },
  bounty = 12, lives = 2,
}
