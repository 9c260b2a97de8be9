#!/bin/sh
# Installs what building and testing metrale needs, from Debian's packages, if missing.
# Idempotent: does nothing (and needs no network) when everything is installed.
set -eu
pkgs="libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools lld-22 cmake make gcc g++ python3 python3-psutil clang-22 libclang-rt-22-dev"
need=""
for p in $pkgs; do
  dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
[ -z "$need" ] && exit 0
echo "metrale: installing$need"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends $need
