-- grid.lua as Tiled exports it when the tile layer format is base64 (zlib
-- compressed).
return {
  orientation = "orthogonal",
  width = 8, height = 6, tilewidth = 32, tileheight = 32,
  tilesets = {
    { name = "floor", firstgid = 1, tiles = {
        { id = 0, properties = { ["walkable"] = true } },
        { id = 1, properties = { ["walkable"] = false } } } }
  },
  layers = {
    { type = "tilelayer", id = 1, name = "floor", width = 8, height = 6, encoding = "base64", compression = "zlib",
      data = "eNpjYmBgYMKDGdEwExY+slom7OINjEToYyJgPjYMAErIAM8=" },
    { type = "objectgroup", id = 2, name = "things", objects = {
        { id = 1, name = "in", type = "spawn", shape = "point", x = 16, y = 48 },
        { id = 2, name = "out", type = "goal", shape = "point", x = 240, y = 144 },
        { id = 3, name = "b", type = "tower_base", shape = "rectangle", x = 96, y = 96,
          width = 32, height = 32 } } }
  }
}
