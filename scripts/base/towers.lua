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
--   barracks soldiers       physical  barracks -> barracks_2 -> fortress
--
-- Every tower has health (sappers, enemies.lua, blow towers up); a fallen
-- tower leaves its pad free and the route opens again. Upgrades raise it.

-- Ranges are in tiles, times PROFILE.reach (maps.lua): a map with lanes far
-- apart (01-crossroads) gives its towers longer sight.
local reach = PROFILE.reach

-- single target: cheap, hits ground and air
td.tower {
  name = "arrow", title = "Archers",
  description = "Cheap single-target shots at ground and air.",
  target = "first",
  levels = {
    { name = "arrow", title = "Archer Tower",
      health = 160, cost = 50, range = 3.5 * reach, rate = 1.5, damage = 8,
      damage_type = "physical", hits_air = true },
    { name = "arrow_2", title = "Archer Tower II", description = "Sharper arrows, faster.",
      health = 240, cost = 40, damage = 14, rate = 1.8 },
    { name = "sniper", title = "Sniper Nest", description = "Long range, slow, heavy single shots.",
      from = "arrow_2", cost = 90, range = 6 * reach, rate = 0.5, damage = 60,
      aim_time = 0.5 },
    { name = "volley", title = "Volley Tower", description = "Arrows that pierce up to three enemies.",
      from = "arrow_2", cost = 90, shot = "pierce", pierce = 3,
      shot_speed = 12, damage = 12 },
  },
}

-- splash: shells land where the target was; ground only
td.tower {
  name = "cannon", title = "Cannon",
  description = "Shells that splash where they land; ground only.",
  target = "strongest",
  levels = {
    { name = "cannon", title = "Cannon",
      health = 220, cost = 80, range = 3 * reach, rate = 0.6, damage = 30, damage_type = "fire",
      shot = "ballistic", shot_speed = 6, splash = 1.2, hits_air = false, turn_rate = 3 },
    { name = "cannon_2", title = "Heavy Cannon", description = "Bigger shells, wider splash.",
      health = 330, cost = 70, damage = 50, splash = 1.5 },
    { name = "mortar", title = "Mortar", description = "Lobs huge shells from far away.",
      from = "cannon_2", cost = 120, range = 5 * reach, rate = 0.5, damage = 90,
      splash = 1.8, shot_speed = 5 },
    { name = "firebomb", title = "Firebomb", description = "Sets the ground ablaze: burns for three seconds.",
      from = "cannon_2", cost = 110, damage = 40,
      effect = { kind = "dot", magnitude = 25, duration = 3 } },
  },
}

-- slow: chills what it hits; storm trades the slow for a chain that stuns
td.tower {
  name = "frost", title = "Frost",
  description = "Chills what it hits: enemies walk slower.",
  target = "closest",
  levels = {
    { name = "frost", title = "Frost Tower",
      health = 160, cost = 60, range = 2.5 * reach, rate = 1, damage = 4, damage_type = "magic",
      shot = "homing", shot_speed = 8,
      effect = { kind = "slow", magnitude = 0.4, duration = 2 } },
    { name = "frost_2", title = "Frost Tower II", description = "A deeper chill, for longer.",
      health = 240, cost = 60, damage = 8,
      effect = { kind = "slow", magnitude = 0.6, duration = 2.5 } },
    { name = "storm", title = "Storm Spire", description = "Trades the chill for chain lightning that stuns.",
      from = "frost", cost = 100, shot = "chain", chain = 3,
      chain_range = 2 * reach, chain_falloff = 0.75, damage = 10,
      effect = { kind = "stun", duration = 0.3 } },
    { name = "glacier", title = "Glacier", description = "Freezing blasts that slow everything around the target.",
      from = "frost_2", cost = 110, range = 3 * reach, splash = 1.2, damage = 12,
      effect = { kind = "slow", magnitude = 0.7, duration = 3 } },
  },
}

-- chain: lightning jumps from enemy to enemy, weaker at every jump
td.tower {
  name = "tesla", title = "Tesla Coil",
  description = "Lightning that jumps from enemy to enemy.",
  target = "first",
  levels = {
    { name = "tesla", title = "Tesla Coil",
      health = 200, cost = 90, range = 3 * reach, rate = 0.8, damage = 22, damage_type = "magic",
      shot = "chain", chain = 3, chain_range = 1.8 * reach, chain_falloff = 0.8 },
    { name = "tesla_2", title = "Tesla Coil II", description = "Stronger bolts that jump further.",
      health = 300, cost = 80, damage = 36, chain = 4 },
    { name = "thunder", title = "Thunderhead", description = "Huge chains that stun.",
      from = "tesla_2", cost = 140, damage = 55, chain = 6,
      chain_range = 2.2 * reach, effect = { kind = "stun", duration = 0.2 } },
    { name = "arc", title = "Arc Coil", description = "Twice as fast, with little loss at each jump.",
      from = "tesla_2", cost = 120, rate = 1.6, damage = 30, chain = 2,
      chain_falloff = 0.9 },
  },
}

-- anti-air: fast flak that bursts among flyers; cannot hit the ground
td.tower {
  name = "flak", title = "Flak",
  description = "Fast bursts among flyers; cannot hit the ground.",
  target = "first",
  levels = {
    { name = "flak", title = "Flak Battery",
      health = 180, cost = 70, range = 4.5 * reach, rate = 1.2, damage = 24,
      damage_type = "physical", shot = "homing", shot_speed = 14, splash = 0.8,
      hits_ground = false, hits_air = true },
    { name = "flak_2", title = "Flak Battery II", description = "Harder-hitting bursts.",
      health = 270, cost = 60, damage = 40 },
    { name = "skyguard", title = "Skyguard", description = "Rapid, long-range anti-air.",
      from = "flak_2", cost = 120, range = 5.5 * reach, rate = 2, damage = 50,
      splash = 1 },
  },
}

-- support: fires nothing (rate 0); raises the damage and rate of the
-- towers within its range (the strongest banner in range counts)
td.tower {
  name = "banner", title = "War Banner",
  description = "Fires nothing: towers in its range hit harder and faster.",
  levels = {
    { name = "banner", title = "War Banner",
      health = 140, cost = 100, range = 2.5 * reach, rate = 0, buff_damage = 0.2, buff_rate = 0.1 },
    { name = "banner_2", title = "War Banner II", description = "A wider, stronger boost.",
      health = 210, cost = 90, range = 3 * reach, buff_damage = 0.35, buff_rate = 0.15 },
    { name = "warhorn", title = "Warhorn", description = "Towers in range hit much harder.",
      from = "banner_2", cost = 150, range = 3.5 * reach, buff_damage = 0.6,
      buff_rate = 0.2 },
    { name = "drums", title = "War Drums", description = "Towers in range fire much faster.",
      from = "banner_2", cost = 150, range = 3.5 * reach, buff_damage = 0.3,
      buff_rate = 0.45 },
  },
}

-- soldiers: fires nothing; keeps footmen (then knights) on posts round a
-- rally point the player sets within its range; they stop the enemies that
-- come near and fight them (soldiers.lua)
td.tower {
  name = "barracks", title = "Barracks",
  description = "Soldiers hold the road near its rally flag; sets no arrow flying.",
  levels = {
    { name = "barracks", title = "Barracks", health = 300, cost = 70, range = 2.5 * reach,
      soldier = "footman", soldiers = 3 },
    { name = "barracks_2", title = "Knights' Hall", description = "Knights: armoured, hit harder.",
      health = 420, cost = 80, soldier = "knight" },
    { name = "fortress", title = "Fortress", description = "Four knights and a wider reach.",
      from = "barracks_2", health = 600, cost = 140, soldiers = 4, range = 3 * reach },
  },
}
