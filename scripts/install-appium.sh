#!/usr/bin/env bash
# Install Appium and its fake driver into a project-local Appium home (.appium/).
#
# Idempotent: when the pinned versions are already installed it prints nothing
# and exits 0. Needs node (>= 20.19 for Appium 3, else Appium 2 is used) and npm.
#
#   scripts/install-appium.sh            # installs into <repo>/.appium
#   APPIUM_HOME=/opt/appium scripts/install-appium.sh
#
# Then: APPIUM_HOME=<that folder> <that folder>/node_modules/.bin/appium --port 4723
set -euo pipefail

command -v node >/dev/null || { echo "install-appium: node is not installed (need node >= 18)" >&2; exit 1; }
command -v npm >/dev/null || { echo "install-appium: npm is not installed" >&2; exit 1; }

# Appium 3 needs node >= 20.19; older nodes (Debian 12 ships 18) get Appium 2 and its fake driver.
if node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>20||(a===20&&b>=19)?0:1)'; then
    APPIUM_VERSION="${APPIUM_VERSION:-3.8.0}"
    FAKE_DRIVER_VERSION="${FAKE_DRIVER_VERSION:-6.2.4}"
else
    APPIUM_VERSION="${APPIUM_VERSION:-2.19.0}"
    FAKE_DRIVER_VERSION="${FAKE_DRIVER_VERSION:-5.7.3}"
fi

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
APPIUM_HOME="${APPIUM_HOME:-$ROOT/.appium}"
export APPIUM_HOME

installed_version() {  # installed_version <package> -> its version, or nothing
    local manifest="$APPIUM_HOME/node_modules/$1/package.json"
    [ -f "$manifest" ] && node -p "require(process.argv[1]).version" "$manifest" 2>/dev/null || true
}

driver_registered() {
    "$APPIUM_HOME/node_modules/.bin/appium" driver list --installed --json 2>/dev/null \
        | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{process.exit(JSON.parse(s).fake?0:1)})'
}

if [ "$(installed_version appium)" = "$APPIUM_VERSION" ] \
   && [ "$(installed_version @appium/fake-driver)" = "$FAKE_DRIVER_VERSION" ] \
   && driver_registered; then
    exit 0
fi

mkdir -p "$APPIUM_HOME"
[ -f "$APPIUM_HOME/package.json" ] || echo '{"name": "devicepilot-appium-home", "private": true}' > "$APPIUM_HOME/package.json"

echo "install-appium: installing appium@$APPIUM_VERSION and @appium/fake-driver@$FAKE_DRIVER_VERSION into $APPIUM_HOME"
npm install --prefix "$APPIUM_HOME" --no-audit --no-fund --loglevel=error \
    "appium@$APPIUM_VERSION" "@appium/fake-driver@$FAKE_DRIVER_VERSION"

# Appium registers drivers found in its home's package.json; make sure it did.
if ! driver_registered; then
    echo "install-appium: Appium did not register the fake driver in $APPIUM_HOME" >&2
    "$APPIUM_HOME/node_modules/.bin/appium" driver list --installed >&2 || true
    exit 1
fi
echo "install-appium: ready ($APPIUM_HOME)"
