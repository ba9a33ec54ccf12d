td.enemy { name = "grunt", health = 50, speed = 1 }

-- a negative speed, on line 4
td.enemy { name = "runner", health = 30, speed = -1 }
