{ "type": "tileset", "name": "floor", "tilewidth": 32, "tileheight": 32, "tilecount": 2, "columns": 2,
  "image": "floor.png", "imagewidth": 64, "imageheight": 32,
  "tiles": [
    { "id": 0, "properties": [ { "name": "walkable", "type": "bool", "value": true } ] },
    { "id": 1, "properties": [ { "name": "walkable", "type": "bool", "value": false } ] } ] }
