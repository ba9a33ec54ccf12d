-- forgot api_version
td.damage_type "physical"
