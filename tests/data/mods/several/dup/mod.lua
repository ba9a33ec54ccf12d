-- tests/cli/mods.sh: declares an enemy of base's again without replace.
api_version = 1

td.enemy { name = "grunt", health = 50, speed = 2 }
