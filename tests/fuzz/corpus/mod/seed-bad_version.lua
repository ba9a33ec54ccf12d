api_version = 2
td.damage_type "physical"
