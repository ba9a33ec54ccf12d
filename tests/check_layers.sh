#!/usr/bin/env bash
# The simulation layers (engine/nav, engine/crowd, engine/sim) are pure C:
# no SDL, no Lua. Fails naming every offending include.
set -u
root=${1:-.}
bad=$(grep -nE '^\s*#\s*include\s*[<"](SDL|lua|lauxlib|lualib)' \
  "$root"/engine/nav/*.[ch] "$root"/engine/crowd/*.[ch] "$root"/engine/sim/*.[ch] 2>/dev/null)
if [ -n "$bad" ]; then
  echo "pure-C layers include SDL or Lua:"
  echo "$bad"
  exit 1
fi
echo "layers: nav, crowd, sim include neither SDL nor Lua"
