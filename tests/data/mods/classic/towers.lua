-- Tower types and their upgrade trees. A level without `from` upgrades the
-- level before it and inherits every field it does not set.
td.tower {
  name = "arrow",
  target = "first",
  levels = {
    { name = "arrow", cost = 50, range = 3.5, rate = 1.5, damage = 8,
      damage_type = "physical", hits_air = true },
    { name = "arrow_2", cost = 40, damage = 14, rate = 1.8 },
    { name = "sniper", from = "arrow_2", cost = 90, range = 6, rate = 0.5, damage = 60,
      aim_time = 0.5 },
    { name = "volley", from = "arrow_2", cost = 90, shot = "pierce", pierce = 3,
      shot_speed = 12, damage = 12 },
  },
}

td.tower {
  name = "cannon",
  target = "strongest",
  levels = {
    { name = "cannon", cost = 80, range = 3, rate = 0.6, damage = 30, damage_type = "fire",
      shot = "ballistic", shot_speed = 6, splash = 1.2, hits_air = false, turn_rate = 3 },
    { name = "cannon_2", cost = 70, damage = 50, splash = 1.5 },
  },
}

td.tower {
  name = "frost",
  target = "closest",
  levels = {
    { name = "frost", cost = 60, range = 2.5, rate = 1, damage = 4, damage_type = "magic",
      shot = "homing", shot_speed = 8,
      effect = { kind = "slow", magnitude = 0.4, duration = 2 } },
    { name = "frost_2", cost = 60, damage = 8,
      effect = { kind = "slow", magnitude = 0.6, duration = 2.5 } },
    { name = "storm", from = "frost", cost = 100, shot = "chain", chain = 3,
      chain_range = 2, chain_falloff = 0.75, damage = 10,
      effect = { kind = "stun", duration = 0.3 } },
  },
}
