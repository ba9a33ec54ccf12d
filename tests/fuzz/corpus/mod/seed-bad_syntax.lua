api_version = 1
td.damage_type "physical"
td.enemy { name = "runner" health = 30 }
