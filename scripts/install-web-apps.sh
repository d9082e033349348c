#!/usr/bin/env bash
# Fetch the third-party web apps the evaluation drives that do not install into devicepilot's own
# environment, into .webapps/:
#   todomvc@0.1.1     (npm)  -> .webapps/todomvc/vanillajs   TodoMVC's VanillaJS example, served as static files
#   ihatemoney==7.2.1 (PyPI) -> .webapps/ihatemoney/venv     its own virtual environment: its pins (SQLAlchemy
#                                                            < 2.1) do not fit devicepilot's
#   roundup==2.6.0    (PyPI) -> .webapps/roundup/venv        the Roundup issue tracker, in its own virtual
#                                                            environment (roundup-admin, roundup-server)
#   buku[server]==5.1 (PyPI) -> .webapps/buku/venv           the bookmark manager buku and its Flask-Admin web UI
#                                                            (bukuserver), in its own virtual environment
#   changedetection.io==0.60.10 (PyPI)
#                     -> .webapps/changedetection/venv       the website change monitor changedetection.io, in its
#                                                            own virtual environment (its many pins are its own)
# Idempotent: what is already there is left alone, silently. Needs npm, tar and python3 -m venv.
# The apps install side by side (mostly downloads); the script fails if any of them does.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PY=${PYTHON:-python3}
TODOMVC_VERSION="0.1.1"
IHATEMONEY_VERSION="7.2.1"
ROUNDUP_VERSION="2.6.0"
BUKU_VERSION="5.1"
CHANGEDETECTION_VERSION="0.60.10"

todomvc() {
  local dest="$ROOT/.webapps/todomvc"
  [ -f "$dest/vanillajs/index.html" ] && return 0
  command -v npm >/dev/null || { echo "install-web-apps: npm is not installed" >&2; exit 1; }
  echo "install-web-apps: fetching todomvc@$TODOMVC_VERSION from npm"
  local tmp
  tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent --loglevel=error "todomvc@$TODOMVC_VERSION" >/dev/null)
  tar xzf "$tmp/todomvc-$TODOMVC_VERSION.tgz" -C "$tmp" package/examples/vanillajs
  mkdir -p "$dest"
  rm -rf "$dest/vanillajs"
  mv "$tmp/package/examples/vanillajs" "$dest/vanillajs"
  rm -rf "$tmp"
  echo "install-web-apps: ready ($dest)"
}

# an app from PyPI in a virtual environment of its own: pypi_venv NAME "REQUIREMENT" VERSION
pypi_venv() {
  local venv="$ROOT/.webapps/$1/venv"
  local stamp="$venv/.installed-$3"
  [ -f "$stamp" ] && return 0
  echo "install-web-apps: installing $2 from PyPI into $venv"
  rm -rf "$venv"
  "$PY" -m venv "$venv"
  # --no-compile: of the thousands of modules these pull in, an app imports a few hundred, compiled at its first start
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-compile "$2"
  touch "$stamp"
  echo "install-web-apps: ready ($venv)"
}

pids=()
todomvc & pids+=($!)
pypi_venv ihatemoney "ihatemoney==$IHATEMONEY_VERSION" "$IHATEMONEY_VERSION" & pids+=($!)
pypi_venv roundup "roundup==$ROUNDUP_VERSION" "$ROUNDUP_VERSION" & pids+=($!)
pypi_venv buku "buku[server]==$BUKU_VERSION" "$BUKU_VERSION" & pids+=($!)
pypi_venv changedetection "changedetection.io==$CHANGEDETECTION_VERSION" "$CHANGEDETECTION_VERSION" & pids+=($!)
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
exit "$failed"
