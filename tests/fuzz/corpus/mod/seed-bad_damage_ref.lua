api_version = 1
td.damage_type "physical"
td.damage_type "fire"
td.enemy { name = "runner", health = 30, speed = 2 }
td.tower {
  name = "torch",
  levels = {
    { name = "torch", cost = 50, range = 3, damage = 5, damage_type = "fier" },
  },
}
td.wave { { enemy = "runner", count = 5 } }
