-- The bundled game's rules: a small but complete example of a td mod.
-- Reference: docs/lua-api.md. Editor annotations: scripts/types/td.lua.
api_version = 1

-- The map being played picks a profile (maps.lua): how many waves, how
-- tough. td.map_name is the game's; loaded on its own (a test, `td api`)
-- the mod plays the default profile.
-- [profile]
local profiles = (function()
-- What changes from map to map: one table per bundled map (keyed by
-- td.map_name()), read by enemies.lua, waves.lua and mod.lua. A map without
-- an entry (a map of your own) plays the `default` profile.
--   waves     waves to clear to win (endless mode goes on past them)
--   hp        every enemy's health at its first wave, times this
--   count     every group's size (and its growth), times this
--   reach     every tower's range, times this
--   growth    health added per wave after a group's first, as a share
--   boss_hp   the warlord's health, times this (on top of hp)
--   boss_spawn the spawn the warlord comes from (nil: every spawn)
--   gold, income, lives, interval, first_delay: td.rules
local profiles = {
  default = {
    waves = 24, hp = 0.3, count = 0.6, growth = 0.10, boss_hp = 1, reach = 1,
    gold = 120, income = 25, lives = 20, interval = 30, first_delay = 8,
  },
}

-- 01: the Defense Grid web: nine bases, a short way (27 tiles).
profiles["01-crossroads"] = {
  waves = 20, hp = 0.18, count = 0.4, growth = 0.06, boss_hp = 0.18, reach = 1.5,
  gold = 150, income = 30, lives = 30, interval = 30, first_delay = 8,
}
-- 02: a small maze on a grid, six bases.
profiles["02-grid"] = {
  waves = 20, hp = 0.22, count = 0.5, growth = 0.09, boss_hp = 0.5, reach = 1.3,
  gold = 150, income = 30, lives = 20, interval = 30, first_delay = 8,
}
-- 03: the classic serpent: a long fixed road (105 tiles) lined with pads.
profiles["03-serpent"] = {
  waves = 25, hp = 0.45, count = 0.8, growth = 0.10, boss_hp = 1, reach = 1,
  gold = 150, income = 25, lives = 20, interval = 30, first_delay = 10,
}
-- 04: an open floor: the towers make the maze.
profiles["04-foundry"] = {
  waves = 25, hp = 0.25, count = 0.6, growth = 0.10, boss_hp = 0.4, reach = 1,
  gold = 150, income = 25, lives = 20, interval = 30, first_delay = 10,
}
-- 05: two gates, two sluices: every group comes through both gates.
profiles["05-twin"] = {
  waves = 24, hp = 0.3, count = 0.5, growth = 0.10, boss_hp = 0.5, reach = 1,
  gold = 180, income = 30, lives = 20, interval = 30, first_delay = 10, boss_spawn = 1,
}
-- 06: 256x256 cells, two gates 127 tiles from the citadel.
profiles["06-expanse"] = {
  waves = 30, hp = 0.2, count = 0.45, growth = 0.10, boss_hp = 0.6, reach = 1,
  gold = 200, income = 30, lives = 30, interval = 35, first_delay = 20, boss_spawn = 1,
}

return profiles

end)()MAP = td.map_name and td.map_name() or "default"
PROFILE = profiles[MAP] or profiles.default
-- [/profile]

;(function()
-- Damage types: towers deal one, enemies resist them by name.
td.damage_type "physical"
td.damage_type "fire"
td.damage_type "magic"

end)();(function()
-- Enemy types. Sizes in tiles, speeds in tiles per second. Health is the
-- health at a group's first wave; PROFILE.hp (maps.lua) scales it per map
-- and the groups in waves.lua make it grow wave by wave.
local hp = PROFILE.hp

-- fast and frail; comes in crowds
td.enemy {
  name = "runner",
  health = 30 * hp, speed = 2.5, radius = 0.25,
  bounty = 2, lives = 1,
}

-- the foot soldier
td.enemy {
  name = "grunt",
  health = 80 * hp, speed = 1.5,
  bounty = 4, lives = 1,
}

-- armoured: flat armour and a physical resist; fire melts it
td.enemy {
  name = "tank",
  health = 400 * hp, speed = 0.8, radius = 0.45, armour = 4,
  resist = { physical = 0.4, fire = -0.25 },
  bounty = 12, lives = 3,
}

-- flying: only towers that hit air reach it; magic tears it
td.enemy {
  name = "wisp",
  health = 60 * hp, speed = 2, flying = true,
  resist = { physical = 0.5, magic = -0.5 },
  bounty = 5, lives = 1,
}

-- splits into three runners when it dies
td.enemy {
  name = "splitter",
  health = 150 * hp, speed = 1.2, radius = 0.4,
  split_into = "runner", split_count = 3,
  bounty = 6, lives = 2,
}

-- the boss of every map (PROFILE.boss_hp scales it): armoured, regenerates,
-- heals its escort; the handler in mod.lua makes it call in grunts
td.enemy {
  name = "warlord",
  health = 3000 * hp * PROFILE.boss_hp, speed = 0.6, radius = 0.6, armour = 5, boss = true,
  resist = { physical = 0.3, fire = 0.3, magic = 0.3 },
  regen = 5, heal_radius = 3, heal_rate = 10,
  bounty = 100, lives = 10,
}

-- healer: mends everyone within 2.5 tiles; kill it first
td.enemy {
  name = "shaman",
  health = 110 * hp, speed = 1.3,
  resist = { magic = 0.3 },
  heal_radius = 2.5, heal_rate = 12,
  bounty = 8, lives = 1,
}

-- resistant to fire (cannons barely scratch it), regenerates
td.enemy {
  name = "salamander",
  health = 160 * hp, speed = 1.6, radius = 0.35,
  resist = { fire = 0.9, magic = -0.25 },
  regen = 4,
  bounty = 7, lives = 1,
}

-- resistant to magic, armoured, slow
td.enemy {
  name = "golem",
  health = 500 * hp, speed = 0.7, radius = 0.5, armour = 3,
  resist = { magic = 0.75, physical = 0.1, fire = -0.2 },
  bounty = 14, lives = 3,
}

-- flying and tough: brings the anti-air towers out
td.enemy {
  name = "drake",
  health = 260 * hp, speed = 1.3, radius = 0.45, flying = true,
  resist = { physical = 0.3, fire = 0.5 },
  bounty = 12, lives = 2,
}

end)();(function()
-- Tower types and their upgrade trees. A level without `from` upgrades the
-- level before it and inherits every field it does not set.
--
--   tower   role            damage    builds
--   arrow   single target   physical  arrow -> arrow_2 -> sniper | volley
--   cannon  splash          fire      cannon -> cannon_2 -> mortar | firebomb
--   frost   slow            magic     frost -> frost_2 -> glacier; frost -> storm
--   tesla   chain           magic     tesla -> tesla_2 -> thunder | arc
--   flak    anti-air        physical  flak -> flak_2 -> skyguard
--   banner  support (buff)  -         banner -> banner_2 -> warhorn | drums

-- Ranges are in tiles, times PROFILE.reach (maps.lua): a map with lanes far
-- apart (01-crossroads) gives its towers longer sight.
local reach = PROFILE.reach

-- single target: cheap, hits ground and air
td.tower {
  name = "arrow",
  target = "first",
  levels = {
    { name = "arrow", cost = 50, range = 3.5 * reach, rate = 1.5, damage = 8,
      damage_type = "physical", hits_air = true },
    { name = "arrow_2", cost = 40, damage = 14, rate = 1.8 },
    { name = "sniper", from = "arrow_2", cost = 90, range = 6 * reach, rate = 0.5, damage = 60,
      aim_time = 0.5 },
    { name = "volley", from = "arrow_2", cost = 90, shot = "pierce", pierce = 3,
      shot_speed = 12, damage = 12 },
  },
}

-- splash: shells land where the target was; ground only
td.tower {
  name = "cannon",
  target = "strongest",
  levels = {
    { name = "cannon", cost = 80, range = 3 * reach, rate = 0.6, damage = 30, damage_type = "fire",
      shot = "ballistic", shot_speed = 6, splash = 1.2, hits_air = false, turn_rate = 3 },
    { name = "cannon_2", cost = 70, damage = 50, splash = 1.5 },
    { name = "mortar", from = "cannon_2", cost = 120, range = 5 * reach, rate = 0.5, damage = 90,
      splash = 1.8, shot_speed = 5 },
    { name = "firebomb", from = "cannon_2", cost = 110, damage = 40,
      effect = { kind = "dot", magnitude = 25, duration = 3 } },
  },
}

-- slow: chills what it hits; storm trades the slow for a chain that stuns
td.tower {
  name = "frost",
  target = "closest",
  levels = {
    { name = "frost", cost = 60, range = 2.5 * reach, rate = 1, damage = 4, damage_type = "magic",
      shot = "homing", shot_speed = 8,
      effect = { kind = "slow", magnitude = 0.4, duration = 2 } },
    { name = "frost_2", cost = 60, damage = 8,
      effect = { kind = "slow", magnitude = 0.6, duration = 2.5 } },
    { name = "storm", from = "frost", cost = 100, shot = "chain", chain = 3,
      chain_range = 2 * reach, chain_falloff = 0.75, damage = 10,
      effect = { kind = "stun", duration = 0.3 } },
    { name = "glacier", from = "frost_2", cost = 110, range = 3 * reach, splash = 1.2, damage = 12,
      effect = { kind = "slow", magnitude = 0.7, duration = 3 } },
  },
}

-- chain: lightning jumps from enemy to enemy, weaker at every jump
td.tower {
  name = "tesla",
  target = "first",
  levels = {
    { name = "tesla", cost = 90, range = 3 * reach, rate = 0.8, damage = 22, damage_type = "magic",
      shot = "chain", chain = 3, chain_range = 1.8 * reach, chain_falloff = 0.8 },
    { name = "tesla_2", cost = 80, damage = 36, chain = 4 },
    { name = "thunder", from = "tesla_2", cost = 140, damage = 55, chain = 6,
      chain_range = 2.2 * reach, effect = { kind = "stun", duration = 0.2 } },
    { name = "arc", from = "tesla_2", cost = 120, rate = 1.6, damage = 30, chain = 2,
      chain_falloff = 0.9 },
  },
}

-- anti-air: fast flak that bursts among flyers; cannot hit the ground
td.tower {
  name = "flak",
  target = "first",
  levels = {
    { name = "flak", cost = 70, range = 4.5 * reach, rate = 1.2, damage = 24,
      damage_type = "physical", shot = "homing", shot_speed = 14, splash = 0.8,
      hits_ground = false, hits_air = true },
    { name = "flak_2", cost = 60, damage = 40 },
    { name = "skyguard", from = "flak_2", cost = 120, range = 5.5 * reach, rate = 2, damage = 50,
      splash = 1 },
  },
}

-- support: fires nothing (rate 0); raises the damage and rate of the
-- towers within its range (the strongest banner in range counts)
td.tower {
  name = "banner",
  levels = {
    { name = "banner", cost = 100, range = 2.5 * reach, rate = 0, buff_damage = 0.2, buff_rate = 0.1 },
    { name = "banner_2", cost = 90, range = 3 * reach, buff_damage = 0.35, buff_rate = 0.15 },
    { name = "warhorn", from = "banner_2", cost = 150, range = 3.5 * reach, buff_damage = 0.6,
      buff_rate = 0.2 },
    { name = "drums", from = "banner_2", cost = 150, range = 3.5 * reach, buff_damage = 0.3,
      buff_rate = 0.45 },
  },
}

end)();(function()
-- Waves as spawn groups that span waves (td.group, after Mindustry's
-- SpawnGroup): each enemy type joins at its `first` wave and comes back
-- every `every` waves, more of them (count_growth) and tougher
-- (health_growth) each time. The map's profile (maps.lua) sets the number
-- of waves and scales sizes and health, so one curve serves every map.
-- Groups have no `last`: past the last wave, endless mode keeps them coming
-- (and rules.endless_health_growth makes them tougher still).
local P = PROFILE
local N = P.waves

-- Declared groups, in order: mod.lua reads them to announce the next wave.
GROUPS = {}

local function group(t)
  t.count = math.max(1, math.floor(t.count * P.count + 0.5))
  t.count_growth = (t.count_growth or 0) * P.count
  t.health_growth = t.health_growth or P.growth
  td.group(t)
  GROUPS[#GROUPS + 1] = t
end

--       enemy             first      every      count      growth             formation / delay
group { enemy = "grunt", first = 1, count = 4, count_growth = 0.6, max_count = 40,
        spacing = 1.2 }
group { enemy = "runner", first = 3, count = 6, count_growth = 0.7, max_count = 60,
        per_row = 2, width = 0.8, spacing = 1, delay = 4 }
group { enemy = "wisp", first = 5, every = 3, count = 3, count_growth = 0.2, max_count = 30,
        spacing = 1.5, delay = 3 }
group { enemy = "tank", first = 6, every = 2, count = 2, count_growth = 0.25, max_count = 16,
        spacing = 2, delay = 9 }
group { enemy = "splitter", first = 7, every = 3, count = 3, count_growth = 0.3, max_count = 20,
        spacing = 2, delay = 7 }
group { enemy = "salamander", first = 8, every = 3, count = 4, count_growth = 0.4,
        max_count = 30, per_row = 2, width = 0.8, spacing = 1.2, delay = 2 }
group { enemy = "shaman", first = 9, every = 2, count = 1, count_growth = 0.15, max_count = 8,
        spacing = 3, delay = 6 }
group { enemy = "golem", first = 11, every = 4, count = 2, count_growth = 0.25, max_count = 12,
        spacing = 2.5, delay = 10 }
group { enemy = "drake", first = 13, every = 4, count = 2, count_growth = 0.2, max_count = 12,
        spacing = 2, delay = 4 }
-- the boss: the last wave, then every fifth wave of endless mode
group { enemy = "warlord", first = N, every = 5, count = 1, health_growth = 0, delay = 12,
        spawn = P.boss_spawn }

end)()td.rules {
  wave_count = PROFILE.waves,
  start_gold = PROFILE.gold,
  start_lives = PROFILE.lives,
  first_wave_delay = PROFILE.first_delay,
  wave_interval = PROFILE.interval,
  wave_income = PROFILE.income,
  sell_refund = 0.75,
  early_bonus = 2,
  endless_health_growth = 0.15,
}

-- Handlers: the mod keeps its own score and writes to the log.
local kills, leaks = 0, 0
local kills_by_type = {}

td.on("kill", function(e)
  kills = kills + 1
  kills_by_type[e.enemy_type] = (kills_by_type[e.enemy_type] or 0) + 1
end)

td.on("leak", function(e)
  leaks = leaks + e.lives
end)

td.on("wave_end", function(e)
  local parts = {}
  for name, n in sorted_pairs(kills_by_type) do
    parts[#parts + 1] = name .. "=" .. n
  end
  print(("wave %d cleared: %d kills (%s), %d lives lost"):format(
    e.wave, kills, table.concat(parts, " "), leaks))
end)

td.every(60 * 60, function(tick)
  print(("minute %d: %d kills"):format(tick // 3600, kills))
end)

-- What comes next, from the groups waves.lua declared (the same formulas
-- as the world's preview: rules.h).
local function announce(n)
  local parts = {}
  for _, g in ipairs(GROUPS) do
    local every = g.every or 1
    if n >= g.first and (n - g.first) % every == 0 then
      local count = math.min(g.count + math.floor(g.count_growth * (n - g.first)),
                             g.max_count or 100000)
      parts[#parts + 1] = count .. " " .. g.enemy
    end
  end
  return table.concat(parts, ", ")
end

td.on("wave_start", function(e)
  if e.wave == PROFILE.waves then
    print(("wave %d: the warlord comes (%s)"):format(e.wave, announce(e.wave)))
  end
  print(("next, wave %d: %s"):format(e.wave + 1, announce(e.wave + 1)))
end)

-- The warlord calls in two grunts every eight seconds while it lives.
td.every(8 * 60, function()
  for _, h in ipairs(td.enemies()) do
    local info = td.enemy_info(h)
    if info and info.boss then
      td.spawn("grunt", { near = h, lane = -0.3 })
      td.spawn("grunt", { near = h, lane = 0.3 })
    end
  end
end)
