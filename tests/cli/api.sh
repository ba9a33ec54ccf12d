#!/usr/bin/env bash
# td api: the committed Lua API docs and LuaLS stubs are what td prints (CI
# fails when they are stale: regenerate with the commands in the messages),
# and the usage errors.
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

expect "no option" 2 "api: expected --markdown or --stubs" -- "$td" api
expect "unknown option" 2 "api: unknown argument '--html'" -- "$td" api --html
expect "help" 0 "" -- "$td" api --help
grep -q "usage: td api --markdown | --stubs" "$tmp/out"; check $? "help: usage on stdout"
expect "listed" 0 "" -- "$td" --help
grep -q "^  api " "$tmp/out"; check $? "td --help lists api"

finish
