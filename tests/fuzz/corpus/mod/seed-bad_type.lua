api_version = 1
;(function()
-- health is not a number
td.enemy {
  name = "runner",
  health = "lots",
  speed = 2,
}

end)()td.damage_type "physical"
td.tower { name = "arrow", levels = { { name = "arrow", cost = 50, range = 3, damage = 5 } } }
td.wave { { enemy = "runner", count = 5 } }
