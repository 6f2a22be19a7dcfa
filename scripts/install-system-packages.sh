#!/usr/bin/env sh
# Installs the system programs the suites use: Stockfish (the chess suite's opponent and rater).
# Debian/Ubuntu through apt-get (with sudo when not root), macOS through Homebrew. Without it the
# chess matches are skipped and the run says so in one line.
set -e
PACKAGES="stockfish"
if command -v stockfish >/dev/null 2>&1 || [ -x /usr/games/stockfish ]; then
    exit 0
fi
if command -v apt-get >/dev/null 2>&1; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get install -y -qq $PACKAGES || { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq $PACKAGES; }
elif command -v brew >/dev/null 2>&1; then
    brew install $PACKAGES
else
    echo "install-system-packages: no apt-get or brew here; install Stockfish yourself or pass --stockfish PATH" >&2
fi
