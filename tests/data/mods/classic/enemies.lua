-- Enemy types. Sizes in tiles, speeds in tiles per second.
td.enemy {
  name = "runner",
  health = 30, speed = 2.5, radius = 0.25,
  bounty = 2, lives = 1,
}

td.enemy {
  name = "grunt",
  health = 80, speed = 1.5,
  bounty = 4, lives = 1,
}

td.enemy {
  name = "tank",
  health = 400, speed = 0.8, radius = 0.45, armour = 4,
  resist = { physical = 0.4, fire = -0.25 },
  bounty = 12, lives = 3,
}

td.enemy {
  name = "wisp",
  health = 60, speed = 2, flying = true,
  resist = { physical = 0.5, magic = -0.5 },
  bounty = 5, lives = 1,
}

td.enemy {
  name = "splitter",
  health = 150, speed = 1.2, radius = 0.4,
  split_into = "runner", split_count = 3,
  bounty = 6, lives = 2,
}

td.enemy {
  name = "warlord",
  health = 3000, speed = 0.6, radius = 0.6, armour = 8, boss = true,
  resist = { physical = 0.3, fire = 0.3, magic = 0.3 },
  regen = 5, heal_radius = 3, heal_rate = 10,
  bounty = 100, lives = 10,
}
