#!/usr/bin/env bash
# Fetch the third-party web apps the evaluation drives that come from npm (not PyPI) into .webapps/.
#
# Idempotent: when they are already there it prints nothing and exits 0. Needs npm and tar.
#   todomvc@0.1.1 -> .webapps/todomvc/vanillajs  (TodoMVC's VanillaJS example, served as static files)
set -euo pipefail

command -v npm >/dev/null || { echo "install-web-apps: npm is not installed" >&2; exit 1; }

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST="$ROOT/.webapps/todomvc"
TODOMVC_VERSION="0.1.1"

[ -f "$DEST/vanillajs/index.html" ] && exit 0

echo "install-web-apps: fetching todomvc@$TODOMVC_VERSION from npm"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent --loglevel=error "todomvc@$TODOMVC_VERSION" >/dev/null)
tar xzf "$tmp/todomvc-$TODOMVC_VERSION.tgz" -C "$tmp" package/examples/vanillajs
mkdir -p "$DEST"
rm -rf "$DEST/vanillajs"
mv "$tmp/package/examples/vanillajs" "$DEST/vanillajs"
echo "install-web-apps: ready ($DEST)"
