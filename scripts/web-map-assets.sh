#!/usr/bin/env bash
# Puts Leaflet (Debian's libjs-leaflet, /usr/share/javascript/leaflet) next to the live map's page, so mosquitto's
# http_dir serves everything from one folder without internet. Never committed (.gitignore), never from a CDN.
#   scripts/web-map-assets.sh            → web/map/vendor/leaflet (for mosquitto.conf, make demo, the tests)
#   scripts/web-map-assets.sh DIR        → the page and Leaflet into DIR (deploy: /usr/share/quadcopter/map)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
leaflet=${LEAFLET_DIR:-/usr/share/javascript/leaflet}
[[ -r $leaflet/leaflet.js && -r $leaflet/leaflet.css ]] || {
  echo "error: no Leaflet in $leaflet (Debian package libjs-leaflet; run scripts/ensure-deps.sh)" >&2; exit 1; }
dest=${1:-$here/web/map}
install -d -m 0755 "$dest" "$dest/vendor/leaflet"
if [[ $dest != "$here/web/map" ]]; then
  install -m 0644 "$here"/web/map/*.html "$here"/web/map/*.js "$dest/"
fi
install -m 0644 "$leaflet/leaflet.js" "$leaflet/leaflet.css" "$dest/vendor/leaflet/"
