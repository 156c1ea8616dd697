#!/bin/sh
# Runs a command with Node 24 or newer first on PATH. When the machine's node is older, Node 24
# comes from the npm registry (the `node@24` package) into a cache folder, once.
#   sh scripts/node24.sh <command> [args...]
#   sh scripts/node24.sh --bin-dir        prints the folder to put first on PATH (or nothing)
set -e
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
bindir=""
if [ "$major" -lt 24 ]; then
  cache="${NODE24_CACHE:-$HOME/.cache/node24}"
  bindir="$cache/node_modules/.bin"
  if [ ! -x "$bindir/node" ] || [ "$("$bindir/node" -p 'process.versions.node.split(".")[0]')" -lt 24 ]; then
    echo "node $major is older than 24: installing node@24 from the npm registry into $cache" >&2
    mkdir -p "$cache"
    npm install --prefix "$cache" --no-audit --no-fund --loglevel=error node@24 >&2
  fi
  PATH="$bindir:$PATH"
  export PATH
fi
if [ "$1" = "--bin-dir" ]; then
  echo "$bindir"
  exit 0
fi
exec "$@"
