return {
  version = "1.10",
  luaversion = "5.1",
  tiledversion = "1.10.2",
  class = "",
  orientation = "orthogonal",
  renderorder = "right-down",
  width = 24,
  height = 21,
  tilewidth = 32,
  tileheight = 32,
  nextlayerid = 4,
  nextobjectid = 38,
  properties = {
    ["title"] = "Serpent",
    ["description"] = "One long winding road that never changes.",
    ["order"] = 2
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
      width = 24,
      height = 21,
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
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1,
        1, 1, 1, 1, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 1, 2, 1, 3, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1,
        1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1,
        1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 3, 1, 2, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 1, 1, 1, 3, 1,
        1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1,
        1, 3, 1, 1, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 1, 2, 1, 3, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1,
        1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1,
        1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 3, 1, 2, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
      }
    },
    {
      type = "objectgroup",
      draworder = "topdown",
      id = 2,
      name = "route",
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
          name = "serpent",
          class = "path",
          shape = "polyline",
          x = 48,
          y = 80,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 608, y = 0 },
            { x = 608, y = 128 },
            { x = 64, y = 128 },
            { x = 64, y = 256 },
            { x = 608, y = 256 },
            { x = 608, y = 384 },
            { x = 64, y = 384 },
            { x = 64, y = 512 },
            { x = 672, y = 512 }
          },
          properties = {
            ["road_width"] = 32
          }
        },
        {
          id = 2,
          name = "cave",
          class = "spawn",
          shape = "point",
          x = 48,
          y = 80,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 3,
          name = "keep",
          class = "goal",
          shape = "point",
          x = 720,
          y = 592,
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
      id = 3,
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
          id = 4,
          name = "pad 1",
          class = "tower_base",
          shape = "rectangle",
          x = 160,
          y = 128,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 5,
          name = "pad 2",
          class = "tower_base",
          shape = "rectangle",
          x = 224,
          y = 128,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 6,
          name = "pad 3",
          class = "tower_base",
          shape = "rectangle",
          x = 288,
          y = 128,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 7,
          name = "pad 4",
          class = "tower_base",
          shape = "rectangle",
          x = 352,
          y = 128,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 8,
          name = "pad 5",
          class = "tower_base",
          shape = "rectangle",
          x = 416,
          y = 128,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 9,
          name = "pad 6",
          class = "tower_base",
          shape = "rectangle",
          x = 480,
          y = 128,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 10,
          name = "pad 7",
          class = "tower_base",
          shape = "rectangle",
          x = 544,
          y = 128,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 11,
          name = "pad 8",
          class = "tower_base",
          shape = "rectangle",
          x = 160,
          y = 256,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 12,
          name = "pad 9",
          class = "tower_base",
          shape = "rectangle",
          x = 224,
          y = 256,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["blocking"] = false
          }
        },
        {
          id = 13,
          name = "pad 10",
          class = "tower_base",
          shape = "rectangle",
          x = 288,
          y = 256,
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
          name = "pad 11",
          class = "tower_base",
          shape = "rectangle",
          x = 352,
          y = 256,
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
          name = "pad 12",
          class = "tower_base",
          shape = "rectangle",
          x = 416,
          y = 256,
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
          name = "pad 13",
          class = "tower_base",
          shape = "rectangle",
          x = 480,
          y = 256,
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
          name = "pad 14",
          class = "tower_base",
          shape = "rectangle",
          x = 544,
          y = 256,
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
          name = "pad 15",
          class = "tower_base",
          shape = "rectangle",
          x = 160,
          y = 384,
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
          name = "pad 16",
          class = "tower_base",
          shape = "rectangle",
          x = 224,
          y = 384,
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
          name = "pad 17",
          class = "tower_base",
          shape = "rectangle",
          x = 288,
          y = 384,
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
          name = "pad 18",
          class = "tower_base",
          shape = "rectangle",
          x = 352,
          y = 384,
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
          name = "pad 19",
          class = "tower_base",
          shape = "rectangle",
          x = 416,
          y = 384,
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
          name = "pad 20",
          class = "tower_base",
          shape = "rectangle",
          x = 480,
          y = 384,
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
          name = "pad 21",
          class = "tower_base",
          shape = "rectangle",
          x = 544,
          y = 384,
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
          name = "pad 22",
          class = "tower_base",
          shape = "rectangle",
          x = 160,
          y = 512,
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
          name = "pad 23",
          class = "tower_base",
          shape = "rectangle",
          x = 224,
          y = 512,
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
          name = "pad 24",
          class = "tower_base",
          shape = "rectangle",
          x = 288,
          y = 512,
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
          name = "pad 25",
          class = "tower_base",
          shape = "rectangle",
          x = 352,
          y = 512,
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
          name = "pad 26",
          class = "tower_base",
          shape = "rectangle",
          x = 416,
          y = 512,
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
          name = "pad 27",
          class = "tower_base",
          shape = "rectangle",
          x = 480,
          y = 512,
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
          name = "pad 28",
          class = "tower_base",
          shape = "rectangle",
          x = 544,
          y = 512,
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
          name = "pad 29",
          class = "tower_base",
          shape = "rectangle",
          x = 704,
          y = 128,
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
          name = "pad 30",
          class = "tower_base",
          shape = "rectangle",
          x = 704,
          y = 384,
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
          name = "pad 31",
          class = "tower_base",
          shape = "rectangle",
          x = 32,
          y = 256,
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
          name = "pad 32",
          class = "tower_base",
          shape = "rectangle",
          x = 32,
          y = 512,
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
          name = "pad 33",
          class = "tower_base",
          shape = "rectangle",
          x = 704,
          y = 256,
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
          name = "pad 34",
          class = "tower_base",
          shape = "rectangle",
          x = 32,
          y = 384,
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
