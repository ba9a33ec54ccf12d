-- A hall three cells high narrows to a gate one cell wide, then a corridor
-- to the goal; an alcove beside the corridor just past the gate holds a
-- tower base (32 px cells). For a barracks that holds the gate
-- (tests/scenarios/soldiers.lua): its rally point (336, 80), the gate's
-- centre, is 1.4 tiles from the barracks.
--
--   spawn: (1, 2); gate: (10, 2); goal: (20, 2); base 3: (11, 3), the alcove
--
--   ######################
--   #.........############
--   #....................#
--   #.........#.##########
--   ######################
return {
  orientation = "orthogonal", width = 22, height = 5, tilewidth = 32, tileheight = 32,
  tilesets = {
    { name = "maze", firstgid = 1, tiles = {
      { id = 0, properties = { ["walkable"] = true } },
      { id = 1, properties = { ["walkable"] = false } } } }
  },
  layers = {
    { type = "tilelayer", name = "floor", width = 22, height = 5, encoding = "lua",
      data = {
        2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
        2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
        2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2,
        2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
        2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2
      } },
    { type = "objectgroup", name = "things", objects = {
      { id = 1, name = "start", type = "spawn", shape = "point", x = 48, y = 80 },
      { id = 2, name = "end", type = "goal", shape = "point", x = 656, y = 80 },
      { id = 3, name = "alcove", type = "tower_base", shape = "rectangle",
        x = 352, y = 96, width = 32, height = 32 },
    } },
  },
}
