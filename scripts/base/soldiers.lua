-- Soldiers: the units a barracks keeps near its rally point (towers.lua).
-- They walk to the enemies that come within their sight of their post,
-- hold them (the enemy stops and fights back with its melee) and strike at
-- their rate until one of them falls; a fallen soldier walks out of the
-- barracks again after its respawn time. Sizes in tiles, speeds in tiles
-- per second, health regained per second while standing at the post.

-- the barracks' first soldier: cheap, holds a few grunts
td.soldier {
  name = "footman", title = "Footman",
  description = "Light infantry: holds a grunt or two.",
  health = 70, armour = 1, damage = 6, damage_type = "physical", rate = 1,
  speed = 1.8, radius = 0.28, respawn = 8, sight = 1.6, regen = 4,
}

-- upgraded: heavier armour, a harder blow
td.soldier {
  name = "knight", title = "Knight",
  description = "Armoured and strong: holds a tank for a while.",
  health = 150, armour = 3, damage = 12, damage_type = "physical", rate = 1,
  speed = 1.6, radius = 0.32, respawn = 10, sight = 1.8, regen = 6,
}
