-- The reference for way.tmx, way.tmj, way-tpl.tmx and way-tpl.tmj: the same
-- waypoint map as Tiled's Lua export (test_mapfile.c compares them).
return {
  orientation = "orthogonal",
  width = 10, height = 8, tilewidth = 32, tileheight = 32,
  properties = { ["title"] = "Two roads", ["order"] = 7, ["road_width"] = 40 },
  tilesets = {
    { name = "ground", firstgid = 1, tiles = { { id = 0, properties = { ["terrain"] = "grass" } } } }
  },
  layers = {
    {
      type = "tilelayer", id = 1, name = "ground", width = 10, height = 8, encoding = "lua",
      data = {
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        2, 2, 2, 2, 2, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 2, 2, 1, 1, 1, 1,
        1, 1, 1, 1, 2, 1, 2, 1, 1, 1,
        1, 1, 1, 1, 2, 1, 1, 2, 1, 1,
        1, 1, 1, 1, 2, 1, 1, 1, 2, 1,
        1, 1, 1, 1, 2, 2, 2, 2, 2, 2,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1
      }
    },
    {
      type = "objectgroup", id = 2, name = "roads",
      objects = {
        { id = 1, name = "main", type = "path", shape = "polyline", x = 16, y = 48,
          polyline = { { x = 0, y = 0 }, { x = 128, y = 0 }, { x = 128, y = 160 }, { x = 288, y = 160 } },
          properties = { ["cost"] = 1.5 } },
        { id = 2, name = "short", class = "path", shape = "polyline", x = 144, y = 48,
          polyline = { { x = 0, y = 0 }, { x = 160, y = 160 } },
          properties = { ["road_width"] = 24 } },
        { id = 3, name = "west", type = "spawn", shape = "point", x = 16, y = 48 },
        { id = 4, name = "core", type = "goal", shape = "point", x = 304, y = 208 },
        { id = 5, name = "b1", type = "tower_base", shape = "rectangle", x = 112, y = 32,
          width = 32, height = 32 },
        { id = 6, name = "pad", type = "tower_base", shape = "rectangle", x = 200, y = 100,
          width = 32, height = 32, properties = { ["blocking"] = false } },
        { id = 7, name = "tree", type = "decoration", shape = "ellipse", x = 50, y = 200,
          width = 20, height = 20 }
      }
    }
  }
}
