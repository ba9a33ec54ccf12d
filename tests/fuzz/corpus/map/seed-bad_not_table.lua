-- error: bad_not_table.lua: the file must return a table (return { ... }), got string
return "orthogonal"
