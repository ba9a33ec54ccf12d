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
  nextlayerid = 5,
  nextobjectid = 72,
  properties = {},
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
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1,
        1, 1, 1, 1, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 1, 2, 1, 3, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1,
        1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1,
        1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 3, 1, 2, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1,
        1, 1, 1, 1, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 1, 2, 1, 3, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1,
        1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1,
        1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 3, 1, 2, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
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
            { x = 128, y = 0 },
            { x = 192, y = 0 },
            { x = 256, y = 0 },
            { x = 320, y = 0 },
            { x = 352, y = 0 },
            { x = 384, y = 0 },
            { x = 448, y = 0 },
            { x = 512, y = 0 },
            { x = 608, y = 0 },
            { x = 608, y = 64 },
            { x = 608, y = 128 },
            { x = 512, y = 128 },
            { x = 448, y = 128 },
            { x = 384, y = 128 },
            { x = 320, y = 128 },
            { x = 256, y = 128 },
            { x = 192, y = 128 },
            { x = 128, y = 128 },
            { x = 64, y = 128 },
            { x = 64, y = 192 },
            { x = 64, y = 256 },
            { x = 128, y = 256 },
            { x = 192, y = 256 },
            { x = 256, y = 256 },
            { x = 320, y = 256 },
            { x = 384, y = 256 },
            { x = 448, y = 256 },
            { x = 512, y = 256 },
            { x = 608, y = 256 },
            { x = 608, y = 320 },
            { x = 608, y = 384 },
            { x = 512, y = 384 },
            { x = 448, y = 384 },
            { x = 384, y = 384 },
            { x = 320, y = 384 },
            { x = 256, y = 384 },
            { x = 192, y = 384 },
            { x = 128, y = 384 },
            { x = 64, y = 384 },
            { x = 64, y = 448 },
            { x = 64, y = 512 },
            { x = 352, y = 512 },
            { x = 672, y = 512 }
          },
          properties = {}
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
      name = "spurs",
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
          name = "pad 1 spur",
          class = "path",
          shape = "polyline",
          x = 176,
          y = 80,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
          properties = {}
        },
        {
          id = 6,
          name = "pad 2 spur",
          class = "path",
          shape = "polyline",
          x = 240,
          y = 80,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
          properties = {}
        },
        {
          id = 8,
          name = "pad 3 spur",
          class = "path",
          shape = "polyline",
          x = 304,
          y = 80,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
          properties = {}
        },
        {
          id = 10,
          name = "pad 4 spur",
          class = "path",
          shape = "polyline",
          x = 368,
          y = 80,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
          properties = {}
        },
        {
          id = 12,
          name = "pad 5 spur",
          class = "path",
          shape = "polyline",
          x = 432,
          y = 80,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
          properties = {}
        },
        {
          id = 14,
          name = "pad 6 spur",
          class = "path",
          shape = "polyline",
          x = 496,
          y = 80,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
          properties = {}
        },
        {
          id = 16,
          name = "pad 7 spur",
          class = "path",
          shape = "polyline",
          x = 560,
          y = 80,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
          properties = {}
        },
        {
          id = 18,
          name = "pad 8 spur",
          class = "path",
          shape = "polyline",
          x = 176,
          y = 208,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
          properties = {}
        },
        {
          id = 20,
          name = "pad 9 spur",
          class = "path",
          shape = "polyline",
          x = 240,
          y = 208,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
          properties = {}
        },
        {
          id = 22,
          name = "pad 10 spur",
          class = "path",
          shape = "polyline",
          x = 304,
          y = 208,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
          properties = {}
        },
        {
          id = 24,
          name = "pad 11 spur",
          class = "path",
          shape = "polyline",
          x = 368,
          y = 208,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
          properties = {}
        },
        {
          id = 26,
          name = "pad 12 spur",
          class = "path",
          shape = "polyline",
          x = 432,
          y = 208,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
          properties = {}
        },
        {
          id = 28,
          name = "pad 13 spur",
          class = "path",
          shape = "polyline",
          x = 496,
          y = 208,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
          properties = {}
        },
        {
          id = 30,
          name = "pad 14 spur",
          class = "path",
          shape = "polyline",
          x = 560,
          y = 208,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
          properties = {}
        },
        {
          id = 32,
          name = "pad 15 spur",
          class = "path",
          shape = "polyline",
          x = 176,
          y = 336,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
          properties = {}
        },
        {
          id = 34,
          name = "pad 16 spur",
          class = "path",
          shape = "polyline",
          x = 240,
          y = 336,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
          properties = {}
        },
        {
          id = 36,
          name = "pad 17 spur",
          class = "path",
          shape = "polyline",
          x = 304,
          y = 336,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
          properties = {}
        },
        {
          id = 38,
          name = "pad 18 spur",
          class = "path",
          shape = "polyline",
          x = 368,
          y = 336,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
          properties = {}
        },
        {
          id = 40,
          name = "pad 19 spur",
          class = "path",
          shape = "polyline",
          x = 432,
          y = 336,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
          properties = {}
        },
        {
          id = 42,
          name = "pad 20 spur",
          class = "path",
          shape = "polyline",
          x = 496,
          y = 336,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
          properties = {}
        },
        {
          id = 44,
          name = "pad 21 spur",
          class = "path",
          shape = "polyline",
          x = 560,
          y = 336,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
          properties = {}
        },
        {
          id = 46,
          name = "pad 22 spur",
          class = "path",
          shape = "polyline",
          x = 176,
          y = 464,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
          properties = {}
        },
        {
          id = 48,
          name = "pad 23 spur",
          class = "path",
          shape = "polyline",
          x = 240,
          y = 464,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
          properties = {}
        },
        {
          id = 50,
          name = "pad 24 spur",
          class = "path",
          shape = "polyline",
          x = 304,
          y = 464,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
          properties = {}
        },
        {
          id = 52,
          name = "pad 25 spur",
          class = "path",
          shape = "polyline",
          x = 368,
          y = 464,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
          properties = {}
        },
        {
          id = 54,
          name = "pad 26 spur",
          class = "path",
          shape = "polyline",
          x = 432,
          y = 464,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
          properties = {}
        },
        {
          id = 56,
          name = "pad 27 spur",
          class = "path",
          shape = "polyline",
          x = 496,
          y = 464,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
          properties = {}
        },
        {
          id = 58,
          name = "pad 28 spur",
          class = "path",
          shape = "polyline",
          x = 560,
          y = 464,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
          properties = {}
        },
        {
          id = 60,
          name = "pad 29 spur",
          class = "path",
          shape = "polyline",
          x = 656,
          y = 144,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 64, y = 0 }
          },
          properties = {}
        },
        {
          id = 62,
          name = "pad 30 spur",
          class = "path",
          shape = "polyline",
          x = 656,
          y = 400,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 64, y = 0 }
          },
          properties = {}
        },
        {
          id = 64,
          name = "pad 31 spur",
          class = "path",
          shape = "polyline",
          x = 112,
          y = 272,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = -64, y = 0 }
          },
          properties = {}
        },
        {
          id = 66,
          name = "pad 32 spur",
          class = "path",
          shape = "polyline",
          x = 112,
          y = 528,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = -64, y = 0 }
          },
          properties = {}
        },
        {
          id = 68,
          name = "pad 33 spur",
          class = "path",
          shape = "polyline",
          x = 400,
          y = 80,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = -64 }
          },
          properties = {}
        },
        {
          id = 70,
          name = "pad 34 spur",
          class = "path",
          shape = "polyline",
          x = 400,
          y = 592,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 0, y = 64 }
          },
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
          id = 5,
          name = "pad 1",
          class = "tower_base",
          shape = "rectangle",
          x = 160,
          y = 128,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 7,
          name = "pad 2",
          class = "tower_base",
          shape = "rectangle",
          x = 224,
          y = 128,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 9,
          name = "pad 3",
          class = "tower_base",
          shape = "rectangle",
          x = 288,
          y = 128,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 11,
          name = "pad 4",
          class = "tower_base",
          shape = "rectangle",
          x = 352,
          y = 128,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 13,
          name = "pad 5",
          class = "tower_base",
          shape = "rectangle",
          x = 416,
          y = 128,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 15,
          name = "pad 6",
          class = "tower_base",
          shape = "rectangle",
          x = 480,
          y = 128,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 17,
          name = "pad 7",
          class = "tower_base",
          shape = "rectangle",
          x = 544,
          y = 128,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 19,
          name = "pad 8",
          class = "tower_base",
          shape = "rectangle",
          x = 160,
          y = 256,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 21,
          name = "pad 9",
          class = "tower_base",
          shape = "rectangle",
          x = 224,
          y = 256,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 23,
          name = "pad 10",
          class = "tower_base",
          shape = "rectangle",
          x = 288,
          y = 256,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 25,
          name = "pad 11",
          class = "tower_base",
          shape = "rectangle",
          x = 352,
          y = 256,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 27,
          name = "pad 12",
          class = "tower_base",
          shape = "rectangle",
          x = 416,
          y = 256,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 29,
          name = "pad 13",
          class = "tower_base",
          shape = "rectangle",
          x = 480,
          y = 256,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 31,
          name = "pad 14",
          class = "tower_base",
          shape = "rectangle",
          x = 544,
          y = 256,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 33,
          name = "pad 15",
          class = "tower_base",
          shape = "rectangle",
          x = 160,
          y = 384,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 35,
          name = "pad 16",
          class = "tower_base",
          shape = "rectangle",
          x = 224,
          y = 384,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 37,
          name = "pad 17",
          class = "tower_base",
          shape = "rectangle",
          x = 288,
          y = 384,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 39,
          name = "pad 18",
          class = "tower_base",
          shape = "rectangle",
          x = 352,
          y = 384,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 41,
          name = "pad 19",
          class = "tower_base",
          shape = "rectangle",
          x = 416,
          y = 384,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 43,
          name = "pad 20",
          class = "tower_base",
          shape = "rectangle",
          x = 480,
          y = 384,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 45,
          name = "pad 21",
          class = "tower_base",
          shape = "rectangle",
          x = 544,
          y = 384,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 47,
          name = "pad 22",
          class = "tower_base",
          shape = "rectangle",
          x = 160,
          y = 512,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 49,
          name = "pad 23",
          class = "tower_base",
          shape = "rectangle",
          x = 224,
          y = 512,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 51,
          name = "pad 24",
          class = "tower_base",
          shape = "rectangle",
          x = 288,
          y = 512,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 53,
          name = "pad 25",
          class = "tower_base",
          shape = "rectangle",
          x = 352,
          y = 512,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 55,
          name = "pad 26",
          class = "tower_base",
          shape = "rectangle",
          x = 416,
          y = 512,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 57,
          name = "pad 27",
          class = "tower_base",
          shape = "rectangle",
          x = 480,
          y = 512,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 59,
          name = "pad 28",
          class = "tower_base",
          shape = "rectangle",
          x = 544,
          y = 512,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 61,
          name = "pad 29",
          class = "tower_base",
          shape = "rectangle",
          x = 704,
          y = 128,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 63,
          name = "pad 30",
          class = "tower_base",
          shape = "rectangle",
          x = 704,
          y = 384,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 65,
          name = "pad 31",
          class = "tower_base",
          shape = "rectangle",
          x = 32,
          y = 256,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 67,
          name = "pad 32",
          class = "tower_base",
          shape = "rectangle",
          x = 32,
          y = 512,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 69,
          name = "pad 33",
          class = "tower_base",
          shape = "rectangle",
          x = 384,
          y = 0,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 71,
          name = "pad 34",
          class = "tower_base",
          shape = "rectangle",
          x = 384,
          y = 640,
          width = 32,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        }
      }
    }
  }
}
