-- error: bad_orientation.lua: orientation 'hexagonal' is not supported (only orthogonal maps)
return {
  version = "1.10", luaversion = "5.1", tiledversion = "1.10.2",
  orientation = "hexagonal", renderorder = "right-down",
  width = 10, height = 10, tilewidth = 32, tileheight = 28, hexsidelength = 14,
  staggeraxis = "y", staggerindex = "odd",
  layers = {}
}
