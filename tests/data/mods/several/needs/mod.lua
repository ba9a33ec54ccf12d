-- tests/cli/mods.sh: depends on a mod that must be loaded before it.
api_version = 1
depends = { "base" }
td.enemy { name = "grunt", replace = true, health = 60, speed = 2 }
