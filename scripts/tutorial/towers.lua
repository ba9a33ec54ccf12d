-- [dart]
-- A plain tower to start with: cheap darts, good against grubs.
td.tower {
  name = "dart",
  levels = {
    { name = "dart", cost = 40, range = 3, rate = 2, damage = 6 },
    { name = "dart_2", cost = 50, damage = 10 },
  },
}
-- [/dart]

-- [spitter]
-- The new tower: it spits poison that keeps burning (a "dot" effect, which
-- ignores armour), so it is the answer to beetles. Its upgrade tree forks.
td.tower {
  name = "spitter",
  target = "strongest",
  levels = {
    { name = "spitter", cost = 70, range = 3, rate = 0.8, damage = 4,
      damage_type = "poison", shot = "homing", shot_speed = 6,
      effect = { kind = "dot", magnitude = 8, duration = 3 } },
    -- an upgrade inherits everything it does not set
    { name = "spitter_2", cost = 60,
      effect = { kind = "dot", magnitude = 14, duration = 4 } },
    -- two branches from spitter_2: a cloud that splashes, or a long neck
    { name = "cloud", from = "spitter_2", cost = 100, splash = 1.2 },
    { name = "longneck", from = "spitter_2", cost = 90, range = 5, rate = 1.2 },
  },
}
-- [/spitter]
