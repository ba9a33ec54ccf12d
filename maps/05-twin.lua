return {
  version = "1.10",
  luaversion = "5.1",
  tiledversion = "1.10.2",
  class = "",
  orientation = "orthogonal",
  renderorder = "right-down",
  width = 32,
  height = 20,
  tilewidth = 32,
  tileheight = 32,
  nextlayerid = 5,
  nextobjectid = 67,
  properties = {
    ["title"] = "Twin Rivers",
    ["description"] = "Two gates, two lanes side by side: guard both.",
    ["order"] = 6
  },
  tilesets = {
    {
      name = "crossroads",
      firstgid = 1,
      class = "",
      tilewidth = 32,
      tileheight = 32,
      spacing = 0,
      margin = 0,
      columns = 3,
      image = "../assets/tiles/crossroads.png",
      imagewidth = 96,
      imageheight = 32,
      objectalignment = "unspecified",
      tileoffset = {
        x = 0,
        y = 0
      },
      grid = {
        orientation = "orthogonal",
        width = 32,
        height = 32
      },
      properties = {},
      wangsets = {},
      tilecount = 3,
      tiles = {
        {
          id = 0,
          properties = {
            ["terrain"] = "grass"
          }
        },
        {
          id = 1,
          properties = {
            ["terrain"] = "road"
          }
        },
        {
          id = 2,
          properties = {
            ["terrain"] = "pad"
          }
        }
      }
    }
  },
  layers = {
    {
      type = "tilelayer",
      x = 0,
      y = 0,
      width = 32,
      height = 20,
      id = 1,
      name = "ground",
      class = "",
      visible = true,
      opacity = 1,
      offsetx = 0,
      offsety = 0,
      parallaxx = 1,
      parallaxy = 1,
      properties = {},
      encoding = "lua",
      data = {
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 3, 1, 3, 1, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 1, 3, 1, 3, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 3, 1, 3, 1, 3, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 3, 1, 3, 1, 3, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 3, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 3, 1, 3, 1, 3, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 3, 1, 3, 1, 3, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 3, 1, 3, 1, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 1, 3, 1, 3, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
      }
    },
    {
      type = "objectgroup",
      draworder = "topdown",
      id = 2,
      name = "lanes",
      class = "",
      visible = true,
      opacity = 1,
      offsetx = 0,
      offsety = 0,
      parallaxx = 1,
      parallaxy = 1,
      properties = {},
      objects = {
        {
          id = 1,
          name = "north lane",
          class = "path",
          shape = "polyline",
          x = 48,
          y = 112,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 256, y = 0 },
            { x = 256, y = 160 },
            { x = 352, y = 160 },
            { x = 576, y = 160 },
            { x = 672, y = 160 },
            { x = 672, y = 0 },
            { x = 928, y = 0 }
          },
          properties = {
            ["road_width"] = 32
          }
        },
        {
          id = 2,
          name = "south lane",
          class = "path",
          shape = "polyline",
          x = 48,
          y = 528,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 256, y = 0 },
            { x = 256, y = -160 },
            { x = 352, y = -160 },
            { x = 576, y = -160 },
            { x = 672, y = -160 },
            { x = 672, y = 0 },
            { x = 928, y = 0 }
          },
          properties = {
            ["road_width"] = 32
          }
        },
        {
          id = 3,
          name = "west link",
          class = "path",
          shape = "polyline",
          x = 400,
          y = 272,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 96 }
          },
          properties = {
            ["road_width"] = 32
          }
        },
        {
          id = 4,
          name = "east link",
          class = "path",
          shape = "polyline",
          x = 624,
          y = 272,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 96 }
          },
          properties = {
            ["road_width"] = 32
          }
        }
      }
    },
    {
      type = "objectgroup",
      draworder = "topdown",
      id = 3,
      name = "markers",
      class = "",
      visible = true,
      opacity = 1,
      offsetx = 0,
      offsety = 0,
      parallaxx = 1,
      parallaxy = 1,
      properties = {},
      objects = {
        {
          id = 5,
          name = "north gate",
          class = "spawn",
          shape = "point",
          x = 48,
          y = 112,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 6,
          name = "south gate",
          class = "spawn",
          shape = "point",
          x = 48,
          y = 528,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 7,
          name = "upper sluice",
          class = "goal",
          shape = "point",
          x = 976,
          y = 112,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 8,
          name = "lower sluice",
          class = "goal",
          shape = "point",
          x = 976,
          y = 528,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          properties = {}
        }
      }
    },
    {
      type = "objectgroup",
      draworder = "topdown",
      id = 4,
      name = "bases",
      class = "",
      visible = true,
      opacity = 1,
      offsetx = 0,
      offsety = 0,
      parallaxx = 1,
      parallaxy = 1,
      properties = {},
      objects = {
        {
          id = 9,
          name = "gate 16,8",
          class = "tower_base",
          shape = "rectangle",
          x = 512,
          y = 256,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 10,
          name = "gate 16,11",
          class = "tower_base",
          shape = "rectangle",
          x = 512,
          y = 352,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 11,
          name = "gate 12,9",
          class = "tower_base",
          shape = "rectangle",
          x = 384,
          y = 288,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 12,
          name = "gate 19,10",
          class = "tower_base",
          shape = "rectangle",
          x = 608,
          y = 320,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 13,
          name = "pad 10,9",
          class = "tower_base",
          shape = "rectangle",
          x = 320,
          y = 288,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 14,
          name = "pad 11,9",
          class = "tower_base",
          shape = "rectangle",
          x = 352,
          y = 288,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 15,
          name = "pad 13,9",
          class = "tower_base",
          shape = "rectangle",
          x = 416,
          y = 288,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 16,
          name = "pad 14,9",
          class = "tower_base",
          shape = "rectangle",
          x = 448,
          y = 288,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 17,
          name = "pad 15,9",
          class = "tower_base",
          shape = "rectangle",
          x = 480,
          y = 288,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 18,
          name = "pad 16,9",
          class = "tower_base",
          shape = "rectangle",
          x = 512,
          y = 288,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 19,
          name = "pad 17,9",
          class = "tower_base",
          shape = "rectangle",
          x = 544,
          y = 288,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 20,
          name = "pad 18,9",
          class = "tower_base",
          shape = "rectangle",
          x = 576,
          y = 288,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 21,
          name = "pad 20,9",
          class = "tower_base",
          shape = "rectangle",
          x = 640,
          y = 288,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 22,
          name = "pad 21,9",
          class = "tower_base",
          shape = "rectangle",
          x = 672,
          y = 288,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 23,
          name = "pad 11,6",
          class = "tower_base",
          shape = "rectangle",
          x = 352,
          y = 192,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 24,
          name = "pad 13,6",
          class = "tower_base",
          shape = "rectangle",
          x = 416,
          y = 192,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 25,
          name = "pad 15,6",
          class = "tower_base",
          shape = "rectangle",
          x = 480,
          y = 192,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 26,
          name = "pad 17,6",
          class = "tower_base",
          shape = "rectangle",
          x = 544,
          y = 192,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 27,
          name = "pad 19,6",
          class = "tower_base",
          shape = "rectangle",
          x = 608,
          y = 192,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 28,
          name = "pad 3,1",
          class = "tower_base",
          shape = "rectangle",
          x = 96,
          y = 32,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 29,
          name = "pad 3,5",
          class = "tower_base",
          shape = "rectangle",
          x = 96,
          y = 160,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 30,
          name = "pad 5,1",
          class = "tower_base",
          shape = "rectangle",
          x = 160,
          y = 32,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 31,
          name = "pad 5,5",
          class = "tower_base",
          shape = "rectangle",
          x = 160,
          y = 160,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 32,
          name = "pad 7,1",
          class = "tower_base",
          shape = "rectangle",
          x = 224,
          y = 32,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 33,
          name = "pad 7,5",
          class = "tower_base",
          shape = "rectangle",
          x = 224,
          y = 160,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 34,
          name = "pad 24,1",
          class = "tower_base",
          shape = "rectangle",
          x = 768,
          y = 32,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 35,
          name = "pad 24,5",
          class = "tower_base",
          shape = "rectangle",
          x = 768,
          y = 160,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 36,
          name = "pad 26,1",
          class = "tower_base",
          shape = "rectangle",
          x = 832,
          y = 32,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 37,
          name = "pad 26,5",
          class = "tower_base",
          shape = "rectangle",
          x = 832,
          y = 160,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 38,
          name = "pad 28,1",
          class = "tower_base",
          shape = "rectangle",
          x = 896,
          y = 32,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 39,
          name = "pad 28,5",
          class = "tower_base",
          shape = "rectangle",
          x = 896,
          y = 160,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 40,
          name = "pad 10,10",
          class = "tower_base",
          shape = "rectangle",
          x = 320,
          y = 320,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 41,
          name = "pad 11,10",
          class = "tower_base",
          shape = "rectangle",
          x = 352,
          y = 320,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 42,
          name = "pad 13,10",
          class = "tower_base",
          shape = "rectangle",
          x = 416,
          y = 320,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 43,
          name = "pad 14,10",
          class = "tower_base",
          shape = "rectangle",
          x = 448,
          y = 320,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 44,
          name = "pad 15,10",
          class = "tower_base",
          shape = "rectangle",
          x = 480,
          y = 320,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 45,
          name = "pad 16,10",
          class = "tower_base",
          shape = "rectangle",
          x = 512,
          y = 320,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 46,
          name = "pad 17,10",
          class = "tower_base",
          shape = "rectangle",
          x = 544,
          y = 320,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 47,
          name = "pad 18,10",
          class = "tower_base",
          shape = "rectangle",
          x = 576,
          y = 320,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 48,
          name = "pad 20,10",
          class = "tower_base",
          shape = "rectangle",
          x = 640,
          y = 320,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 49,
          name = "pad 21,10",
          class = "tower_base",
          shape = "rectangle",
          x = 672,
          y = 320,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 50,
          name = "pad 11,13",
          class = "tower_base",
          shape = "rectangle",
          x = 352,
          y = 416,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 51,
          name = "pad 13,13",
          class = "tower_base",
          shape = "rectangle",
          x = 416,
          y = 416,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 52,
          name = "pad 15,13",
          class = "tower_base",
          shape = "rectangle",
          x = 480,
          y = 416,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 53,
          name = "pad 17,13",
          class = "tower_base",
          shape = "rectangle",
          x = 544,
          y = 416,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 54,
          name = "pad 19,13",
          class = "tower_base",
          shape = "rectangle",
          x = 608,
          y = 416,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 55,
          name = "pad 3,14",
          class = "tower_base",
          shape = "rectangle",
          x = 96,
          y = 448,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 56,
          name = "pad 3,18",
          class = "tower_base",
          shape = "rectangle",
          x = 96,
          y = 576,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 57,
          name = "pad 5,14",
          class = "tower_base",
          shape = "rectangle",
          x = 160,
          y = 448,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 58,
          name = "pad 5,18",
          class = "tower_base",
          shape = "rectangle",
          x = 160,
          y = 576,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 59,
          name = "pad 7,14",
          class = "tower_base",
          shape = "rectangle",
          x = 224,
          y = 448,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 60,
          name = "pad 7,18",
          class = "tower_base",
          shape = "rectangle",
          x = 224,
          y = 576,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 61,
          name = "pad 24,14",
          class = "tower_base",
          shape = "rectangle",
          x = 768,
          y = 448,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 62,
          name = "pad 24,18",
          class = "tower_base",
          shape = "rectangle",
          x = 768,
          y = 576,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 63,
          name = "pad 26,14",
          class = "tower_base",
          shape = "rectangle",
          x = 832,
          y = 448,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 64,
          name = "pad 26,18",
          class = "tower_base",
          shape = "rectangle",
          x = 832,
          y = 576,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 65,
          name = "pad 28,14",
          class = "tower_base",
          shape = "rectangle",
          x = 896,
          y = 448,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 66,
          name = "pad 28,18",
          class = "tower_base",
          shape = "rectangle",
          x = 896,
          y = 576,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        }
      }
    }
  }
}
