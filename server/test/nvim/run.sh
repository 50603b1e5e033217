#!/usr/bin/env bash
# `npm run test:nvim`: the Neovim smoke test. Installs Debian's neovim when `nvim` is missing
# (apt-get, as root; sudo when available) and fails if it cannot; builds the server; runs
# the Neovim specs (server/test/nvim/*.nvim.ts) with mocha.
set -euo pipefail
cd "$(dirname "$0")/../../.."

if ! command -v nvim >/dev/null 2>&1; then
  echo "test:nvim: nvim is missing; installing Debian's neovim"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else echo "test:nvim: not root and no sudo: cannot install neovim" >&2; exit 1; fi
  fi
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends neovim >/dev/null
  command -v nvim >/dev/null 2>&1 || { echo "test:nvim: installing neovim failed" >&2; exit 1; }
fi
nvim --version | head -1

node scripts/build.mjs
exec npx mocha --no-config --require tsx/cjs --extension ts --timeout 120000 server/test/nvim/*.nvim.ts "$@"
