#!/bin/sh
# Installs what building and testing metrale needs, from Debian's packages, if missing.
# Idempotent: does nothing (and needs no network) when everything is installed.
set -eu
pkgs="libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools lld-22 cmake make gcc g++ python3 python3-psutil clang-22 libclang-rt-22-dev libxml2-utils chromium"
need=""
for p in $pkgs; do
  dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
# npm for the SARIF validator below: Debian's, unless a node with its own npm is there.
command -v npm >/dev/null 2>&1 || need="$need nodejs npm"
if [ -n "$need" ]; then
  echo "metrale: installing$need"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update
  $SUDO apt-get install -y --no-install-recommends $need
fi
# The SARIF 2.1.0 schema and the validator the SARIF tests use (test/Sarif/validate.js),
# from npm, into .deps/sarif (not committed; a pinned version).
root=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -f "$root/.deps/sarif/node_modules/@microsoft/jest-sarif/package.json" ]; then
  echo "metrale: installing the SARIF validator into .deps/sarif"
  npm install --prefix "$root/.deps/sarif" --no-audit --no-fund --no-save \
    @microsoft/jest-sarif@1.0.0-beta.0
fi
