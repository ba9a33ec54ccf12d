api_version = 1
;(function()
td.enemy {
  name = "runner",
  health = 30,
  speed = 2,
}

end)()td.damage_type "physical"
td.tower { name = "arrow", levels = { { name = "arrow", cost = 50, range = 3, damage = 5 } } }
td.wave { { enemy = "runner", count = 5 } }
td.wave { { enemy = "runner", count = 5 }, { enemy = "runer", count = 2 } }
