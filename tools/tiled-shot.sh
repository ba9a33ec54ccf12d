#!/usr/bin/env bash
# Takes the picture of Tiled in docs/maps.md: the real Tiled (Debian package
# tiled) under Xvfb, with the project maps/td.tiled-project loaded and a
# bundled map open, one of its objects selected so that the Properties panel
# shows its class and properties.
#
#   tools/tiled-shot.sh [MAP [OBJECT [OUT.png]]]
#     MAP     a map in maps/ (default 01-crossroads.tmx)
#     OBJECT  the name of the object to select (default mud, a path)
#     OUT     default docs/img/tiled-<map>.png
#
# Needs tiled, xvfb-run (xvfb, xauth), xdotool, xwd (x11-apps) and convert
# (imagemagick). Leaves nothing behind: Tiled runs with HOME in a temporary
# directory, on a copy of maps/ and assets/tiles/ (so the session file it
# writes beside the project stays there too).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
map=${1:-01-crossroads.tmx}
object=${2:-mud}
out=${3:-$root/docs/img/tiled-${map%.tmx}.png}
case $out in /*) ;; *) out=$PWD/$out ;; esac
width=1600 height=900 # the screen, and Tiled's window on it
scale=0.75            # the map's zoom
for tool in tiled xvfb-run xdotool xwd convert; do
  command -v "$tool" >/dev/null || { echo "tiled-shot: $tool is not installed" >&2; exit 2; }
done
[ -f "$root/maps/$map" ] || { echo "tiled-shot: no maps/$map" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/home/.config/tiled/extensions" "$tmp/run" "$tmp/assets" "$tmp/maps"
chmod 700 "$tmp/run"
cp -r "$root/assets/tiles" "$tmp/assets/"
cp "$root/maps/"*.tmx "$root/maps/td.tiled-project" "$root/maps/objecttypes.xml" "$tmp/maps/"

# Tiled 1.8.2 loads a project named on its command line only through the
# session file beside it, which on a first run is empty: write one that
# names the project and the open map, zoomed out, with the map centred.
python3 - "$tmp/maps" "$map" "$scale" <<'PY'
import json, re, sys
folder, name, scale = sys.argv[1], sys.argv[2], float(sys.argv[3])
head = open(f"{folder}/{name}").read(2000)
w, h, tw, th = (int(re.search(r'<map [^>]*\b%s="(\d+)"' % k, head).group(1))
                for k in ("width", "height", "tilewidth", "tileheight"))
json.dump({"project": "td.tiled-project", "openFiles": [name], "activeFile": name,
           "expandedProjectPaths": ["."],
           "fileStates": {name: {"scale": scale, "selectedLayer": 0,
                                 "viewCenter": {"x": w * tw / 2, "y": h * th / 2}}}},
          open(f"{folder}/td.tiled-session", "w"), indent=4)
PY

# An extension (in the temporary HOME's global extensions folder, which
# Tiled trusts) selects the object, so that the Properties panel shows it,
# and centres the map in the view, on Ctrl+Shift+F12 (once the window has
# its size: a view centred before keeps its top-left corner when it grows).
cat >"$tmp/home/.config/tiled/extensions/shot.js" <<JS
function selectNamed(asset) {
  if (!asset || !asset.isTileMap) return;
  for (const layer of asset.layers) {
    if (!layer.isObjectLayer) continue;
    for (const o of layer.objects) {
      if (o.name === "$object") { asset.currentLayer = layer; asset.selectedObjects = [o]; }
    }
  }
}
tiled.activeAssetChanged.connect(selectNamed);
selectNamed(tiled.activeAsset);
const centre = tiled.registerAction("TdShotCentre", function () {
  const map = tiled.activeAsset;
  if (!map || !map.isTileMap) return;
  selectNamed(map);
  tiled.mapEditor.currentMapView.centerOn(map.width * map.tileWidth / 2,
                                          map.height * map.tileHeight / 2);
});
centre.text = "Centre for the screenshot";
centre.shortcut = "Ctrl+Shift+F12";
tiled.extendMenu("Map", [{ action: "TdShotCentre" }]);
JS

# Runs inside xvfb-run (inner.sh TMP MAP W H): starts Tiled, waits for the
# window showing the map, fits it to the screen, lets it draw, grabs the screen.
cat >"$tmp/inner.sh" <<'SH'
#!/usr/bin/env bash
set -u
for _ in $(seq 20); do xdotool getdisplaygeometry >/dev/null 2>&1 && break; sleep 0.5; done
tiled --new-instance "$1/maps/td.tiled-project" >"$1/tiled.log" 2>&1 &
pid=$!
title="^${2//./\\.}"  # "MAP — Tiled" (xdotool's regex stops at the dash)
wid=""
for _ in $(seq 60); do
  wid=$(xdotool search --name "$title" 2>/dev/null | head -1)
  [ -n "$wid" ] && break
  sleep 0.5
done
if [ -z "$wid" ]; then
  echo "tiled-shot: no Tiled window showing $2 after 30 s: $(cat "$1/tiled.log")" >&2
  kill "$pid"
  exit 1
fi
xdotool windowmove "$wid" 0 0 windowsize "$wid" "$3" "$4"
sleep 3
xdotool windowfocus "$wid" key --window "$wid" ctrl+shift+F12
sleep 2
xwd -root -silent >"$1/screen.xwd"
kill "$pid"
wait "$pid" 2>/dev/null
exit 0
SH
chmod +x "$tmp/inner.sh"
# (xvfb-run -a may race another program for a display number: try thrice)
for try in 1 2 3; do
  HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/.config XDG_DATA_HOME=$tmp/home/.local/share \
    XDG_CACHE_HOME=$tmp/home/.cache XDG_RUNTIME_DIR=$tmp/run \
    xvfb-run -a -s "-screen 0 ${width}x${height}x24" "$tmp/inner.sh" "$tmp" "$map" "$width" "$height" &&
    break
  [ "$try" -lt 3 ] || exit 1
  sleep 2
done

# 256 colours keep the file small: the screen is flat colours and the tiles
mkdir -p "$(dirname "$out")"
convert "$tmp/screen.xwd" -colors 256 "PNG8:$out"
echo "tiled-shot: wrote $out ($(wc -c <"$out") bytes)"
