api_version = 1
;(function()
td.enemy {
  name = "runner",
  health = 30,
  speed = 2,
}

end)()