-- Damage types: towers deal one, enemies resist them by name.
td.damage_type "physical"
td.damage_type "fire"
td.damage_type "magic"
