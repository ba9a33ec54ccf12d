-- error: bad_syntax.lua:6: '}' expected (to close '{' at line 2) near 'layers'
return {
  orientation = "orthogonal",
  width = 10, height = 10,
  tilewidth = 32, tileheight = 32
  layers = {}
}
