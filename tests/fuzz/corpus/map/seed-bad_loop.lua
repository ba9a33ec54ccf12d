-- error: bad_loop.lua: instruction limit exceeded
local map = { orientation = "orthogonal" }
while true do
  map.width = (map.width or 0) + 1
end
return map
