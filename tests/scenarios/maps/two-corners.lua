-- Seed 004's course: a straight, a right turn, a straight, a left turn, a
-- straight (16 tiles each, 32 px tiles), one tower base on the middle leg.
-- The road is 5 tiles wide: the three lanes fit it as they are.
return {
  properties = { ["road_width"] = 160 },
  orientation = "orthogonal", width = 40, height = 24, tilewidth = 32, tileheight = 32,
  layers = {
    { type = "objectgroup", name = "course", objects = {
      { id = 1, name = "course", type = "path", shape = "polyline", x = 48, y = 80,
        polyline = { { x = 0, y = 0 }, { x = 512, y = 0 }, { x = 512, y = 512 },
                     { x = 1024, y = 512 } } },
      { id = 2, name = "start", type = "spawn", shape = "point", x = 48, y = 80 },
      { id = 3, name = "end", type = "goal", shape = "point", x = 1072, y = 592 },
    } },
    { type = "objectgroup", name = "bases", objects = {
      { id = 4, name = "middle", type = "tower_base", shape = "rectangle",
        x = 528, y = 304, width = 64, height = 64 },
    } },
  },
}
