api_version = 1
td.damage_type "physical"
td.enemy { name = "runner", health = 30, speed = 2 }
td.tower {
  name = "mortar",
  levels = {
    { name = "mortar", cost = 50, range = 3, damage = 5, shot = "ballistic", splash = 1 },
    { name = "mortar_2", cost = 40, splah = 1.5 },
  },
}
td.wave { { enemy = "runner", count = 5 } }
