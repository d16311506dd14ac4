#!/usr/bin/env bash
# Builds Plane 0.25.3's frontend (web, admin, space) and its live server once, for the browser test of a team's day.
#
#   test/plane-web/build-frontend.sh [DIR]        DIR defaults to $PLANE_WEB_DIR or ~/.cache/meridian/plane-web
#
# The source is the tarball in ../shared/plane-web/ (or $PLANE_WEB_SOURCE), unpacked by its prepare.sh,
# installed with yarn 1.22 from the npm registry and built with turbo, with empty NEXT_PUBLIC_*_BASE_URL
# values so that the browser calls /api/ and /auth/ on the page's own origin (one proxy in front of
# everything, as in Plane's own deployment). A stamp file per app makes a second run a no-op; delete
# DIR to rebuild. About 4 minutes of install and 10 to 15 minutes per app on two busy cores.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
dir=${1:-${PLANE_WEB_DIR:-$HOME/.cache/meridian/plane-web}}
source_dir=${PLANE_WEB_SOURCE:-$root/../shared/plane-web}

if [ ! -f "$dir/.installed" ]; then
  command -v yarn >/dev/null || npm i -g yarn@1.22.22
  rm -rf "$dir"
  "$source_dir/prepare.sh" "$dir"
  (cd "$dir" && yarn install --frozen-lockfile --ignore-scripts --non-interactive --network-timeout 600000 \
    --cache-folder "$dir/.yarn-cache")
  touch "$dir/.installed"
fi

export NEXT_PUBLIC_API_BASE_URL="" NEXT_PUBLIC_ADMIN_BASE_URL="" NEXT_PUBLIC_ADMIN_BASE_PATH="/god-mode" \
  NEXT_PUBLIC_SPACE_BASE_URL="" NEXT_PUBLIC_SPACE_BASE_PATH="/spaces" NEXT_PUBLIC_LIVE_BASE_URL="" \
  NEXT_PUBLIC_LIVE_BASE_PATH="/live" NEXT_PUBLIC_WEB_BASE_URL="" NEXT_TELEMETRY_DISABLED=1 \
  NODE_OPTIONS=--max-old-space-size=8192

for app in web admin space live; do
  [ -f "$dir/.built-$app" ] && continue
  (cd "$dir" && yarn turbo run build --filter="$app")
  if [ "$app" != live ]; then
    # the standalone server wants its static files beside it, as Plane's own Dockerfile copies them
    (cd "$dir/$app" && cp -r .next/static ".next/standalone/$app/.next/" && cp -r public ".next/standalone/$app/")
  fi
  touch "$dir/.built-$app"
done
echo "Plane's frontend is built in $dir"
