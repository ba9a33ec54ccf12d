return { orientation = "orthogonal", width = 2, height = 1, tilewidth = 32, tileheight = 32,
  tilesets = { { name = "t", firstgid = 1, tiles = { { id = 0, properties = { walkable = true } } } } },
  layers = {
    { type = "tilelayer", name = "a\nb", width = 2, height = 1, encoding = "lua", data = { 1, 1 } },
    { type = "tilelayer", name = "c\27[31m", width = 2, height = 1, encoding = "lua", data = { 1, 1 } },
  } }
