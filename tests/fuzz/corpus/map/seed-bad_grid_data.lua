-- error: layer 'floor': data has 5 entries, expected 6 (3x2)
return {
  orientation = "orthogonal", width = 3, height = 2, tilewidth = 32, tileheight = 32,
  tilesets = {
    { name = "maze", firstgid = 1, tiles = {
      { id = 0, properties = { ["walkable"] = true } },
      { id = 1, properties = { ["walkable"] = false } } } }
  },
  layers = {
    { type = "tilelayer", name = "floor", width = 3, height = 2, encoding = "lua",
      data = { 1, 1, 1, 1, 1 } }
  }
}
