api_version = 1
include "../small/enemies.lua"
