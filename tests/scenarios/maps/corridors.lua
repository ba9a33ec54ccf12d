-- Two corridors one cell wide round a block, the top one shorter; a tower
-- base on each (32 px cells). For a tower placed mid-wave in a one-cell
-- corridor (tests/scenarios/road.lua).
--
--   ############
--   ##........##      spawn: (1, 3); goal: (10, 3)
--   ##.######.##      bases: (5, 1) and (5, 6)
--   #..######..#
--   ##.######.##
--   ##.######.##
--   ##........##
--   ############
return {
  orientation = "orthogonal", width = 12, height = 8, tilewidth = 32, tileheight = 32,
  tilesets = {
    { name = "maze", firstgid = 1, tiles = {
      { id = 0, properties = { ["walkable"] = true } },
      { id = 1, properties = { ["walkable"] = false } } } }
  },
  layers = {
    { type = "tilelayer", name = "floor", width = 12, height = 8, encoding = "lua",
      data = {
        2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
        2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2,
        2, 2, 1, 2, 2, 2, 2, 2, 2, 1, 2, 2,
        2, 1, 1, 2, 2, 2, 2, 2, 2, 1, 1, 2,
        2, 2, 1, 2, 2, 2, 2, 2, 2, 1, 2, 2,
        2, 2, 1, 2, 2, 2, 2, 2, 2, 1, 2, 2,
        2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2,
        2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2
      } },
    { type = "objectgroup", name = "things", objects = {
      { id = 1, name = "start", type = "spawn", shape = "point", x = 48, y = 112 },
      { id = 2, name = "end", type = "goal", shape = "point", x = 336, y = 112 },
      { id = 3, name = "top", type = "tower_base", shape = "rectangle",
        x = 160, y = 32, width = 32, height = 32 },
      { id = 4, name = "bottom", type = "tower_base", shape = "rectangle",
        x = 160, y = 192, width = 32, height = 32 },
    } },
  },
}
