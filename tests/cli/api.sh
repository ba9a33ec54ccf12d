#!/usr/bin/env bash
# td api: the committed Lua API docs and LuaLS stubs are what td prints (CI
# fails when they are stale: regenerate with the commands in the messages),
# the stubs' classes and globals, scripts/.luarc.json, and the usage errors.
set -u
source "$(dirname "$0")/harness.bash"

expect "markdown" 0 "" -- "$td" api --markdown
cmp -s "$tmp/out" "$src/docs/lua-api.md"
check $? "docs/lua-api.md is stale: run 'td api --markdown > docs/lua-api.md'"
grep -q '^# The td Lua API (api_version 1)$' "$tmp/out"; check $? "markdown: title"

expect "stubs" 0 "" -- "$td" api --stubs
cmp -s "$tmp/out" "$src/scripts/types/td.lua"
check $? "scripts/types/td.lua is stale: run 'td api --stubs > scripts/types/td.lua'"
head -n 1 "$tmp/out" | grep -qx -- '---@meta'; check $? "stubs: ---@meta first"
# typed returns: the tables the game functions return are classes
for c in enemy_state:enemy_info tower_state:tower_info wave_entry:wave_preview \
         soldier_state:soldier_info soldier_state:soldiers; do
  cls=${c%%:*} fn=${c#*:}
  grep -qx -- "---@class td.$cls" "$tmp/out"; check $? "stubs: no class td.$cls"
  grep -A1 -- "^---@return td.$cls" "$tmp/out" | grep -qx "function td.$fn(.*) end"
  check $? "stubs: td.$fn does not return td.$cls"
done
# every td.* type the stubs use is declared (a class, or the alias of event names)
for t in $(grep -oE -- '(---@(return|param [a-z_.]+\??|field [a-z_]+\??|type)) td\.[a-z_]+' "$tmp/out" |
           grep -oE 'td\.[a-z_]+$' | sort -u); do
  grep -qE -- "^---@(class|alias) $t( |\$)" "$tmp/out"; check $? "stubs: type $t is used but not declared"
done
# every event a handler can take is in the alias of event names (td.on's parameter)
for ev in spawn fire hit kill leak wave_start wave_end place upgrade sell refuse win lose \
          engage soldier_death tower_damaged tower_destroyed repaired rallied; do
  grep -q -- "^---@alias td.event_name .*\"$ev\"" "$tmp/out"; check $? "stubs: event $ev is not in td.event_name"
done
grep -q -- '^---@field state table<string|integer, boolean|number|string|table> ' "$tmp/out"
check $? "stubs: td.state is not a field of td"
grep -qx -- '---@field state "idle"|"aiming"|"firing"|"cooldown" What it is doing.' "$tmp/out"
check $? "stubs: td.tower_state's state field"
# the sandbox's globals, and nothing it removes
for g in assert error ipairs next pairs pcall rawequal rawget rawlen select getmetatable \
         tonumber tostring type print load rawset collectgarbage setmetatable xpcall include \
         sorted_pairs; do
  grep -q "^function $g(" "$tmp/out"; check $? "stubs: global $g not declared"
done
for g in dofile loadfile require warn; do
  ! grep -q "^function $g(" "$tmp/out"; check $? "stubs: declare $g, which the sandbox removes"
done
! grep -q "undocumented" "$tmp/out"; check $? "stubs: a base global without annotations"
# they parse as Lua (luac5.4 from Debian's lua5.4, when installed; test_mod.c's
# test_docs parses them with the engine's Lua in any case)
if command -v luac5.4 >/dev/null; then
  luac5.4 -p "$tmp/out"; check $? "stubs: luac5.4 -p fails"
fi

# scripts/.luarc.json: JSON that tells lua-language-server the runtime, where
# the stubs are and what the sandbox takes away
python3 - "$src/scripts" <<'PY'
import json, os, sys
d = sys.argv[1]
rc = json.load(open(os.path.join(d, ".luarc.json")))
bad = []
if rc["runtime"]["version"] != "Lua 5.4": bad.append("runtime.version")
off = [k for k, v in rc["runtime"]["builtin"].items() if v == "disable"]
for lib in ("basic", "io", "os", "debug", "package", "coroutine"):
    if lib not in off: bad.append("runtime.builtin." + lib + " is not disabled")
for lib in ("string", "table", "math", "utf8"):
    if lib in off: bad.append("runtime.builtin." + lib + " is disabled")
for lib in rc["workspace"]["library"]:
    if not os.path.isfile(os.path.join(d, lib, "td.lua")): bad.append("no td.lua in " + lib)
for g in ("td", "include"):
    if g not in rc["diagnostics"]["globals"]: bad.append("diagnostics.globals lacks " + g)
if bad:
    print("\n".join(bad))
    sys.exit(1)
PY
check $? "scripts/.luarc.json"

expect "no option" 2 "api: expected --markdown or --stubs" -- "$td" api
expect "unknown option" 2 "api: unknown argument '--html'" -- "$td" api --html
expect "help" 0 "" -- "$td" api --help
grep -q "usage: td api --markdown | --stubs" "$tmp/out"; check $? "help: usage on stdout"
expect "listed" 0 "" -- "$td" --help
grep -q "^  api " "$tmp/out"; check $? "td --help lists api"

finish
