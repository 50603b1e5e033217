#!/usr/bin/env bash
# Installs what the end-to-end suite needs and is not already on the machine:
#   - Debian packages: Chromium, ripgrep and the toolchain that code-server's native modules build with;
#   - code-server 4.100.3 (VS Code 1.100.3) into a cache folder outside the repository.
# Safe to run again: every step checks first and does nothing when its result is present.
# Prints the code-server entry script path as its last line.
set -euo pipefail

CODE_SERVER_VERSION=4.100.3
CACHE=${DARKPRINT_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/darkprint-e2e}
PREFIX=$CACHE/code-server-$CODE_SERVER_VERSION
ENTRY=$PREFIX/node_modules/code-server/out/node/entry.js

APT_PACKAGES=(build-essential pkg-config python3 libkrb5-dev libx11-dev libxkbfile-dev
  libsecret-1-dev chromium ripgrep fonts-dejavu-core)

log() { echo "[e2e install] $*" >&2; }

missing=()
for package in "${APT_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$package")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  log "apt-get install ${missing[*]}"
  sudo_command=()
  if [ "$(id -u)" -ne 0 ]; then sudo_command=(sudo); fi
  "${sudo_command[@]}" apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive "${sudo_command[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

if [ -f "$ENTRY" ] && [ -f "$PREFIX/.complete" ]; then
  log "code-server $CODE_SERVER_VERSION already in $PREFIX"
  echo "$ENTRY"
  exit 0
fi

log "installing code-server@$CODE_SERVER_VERSION into $PREFIX (the first time takes minutes: native modules compile)"
rm -rf "$PREFIX"
mkdir -p "$PREFIX"
echo '{ "name": "darkprint-e2e-code-server", "private": true }' > "$PREFIX/package.json"

# @vscode/ripgrep's postinstall downloads rg from GitHub; seed its cache with Debian's rg instead.
scratch_tmp=$PREFIX/.tmp
seed=$scratch_tmp/vscode-ripgrep-cache-1.15.11
mkdir -p "$seed"
rg_binary=$(command -v rg)
staging=$(mktemp -d)
cp "$rg_binary" "$staging/rg"
tar -czf "$seed/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$staging" rg
rm -rf "$staging"

(
  cd "$PREFIX"
  TMPDIR=$scratch_tmp \
  npm_config_unsafe_perm=true \
  npm_config_nodedir=/usr \
  npm_config_yes=true \
    npm install --no-audit --no-fund --no-package-lock --loglevel=error "code-server@$CODE_SERVER_VERSION" >&2
)
rm -rf "$scratch_tmp"
[ -f "$ENTRY" ] || { log "code-server did not install: $ENTRY is missing"; exit 1; }
touch "$PREFIX/.complete"
log "code-server $CODE_SERVER_VERSION installed"
echo "$ENTRY"
