#!/usr/bin/env bash
# The cluster step of scripts/test: builds the Debian package (scripts/package) and runs
# tests/cluster/cluster.mjs with it (its arguments are passed on: --long, --keep). Needs root,
# systemd-container and mmdebstrap (scripts/setup installs them); uses no host port: every host is
# a container in its own network namespace on a bridge the test makes (tests/cluster/network.mjs).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
deb=$(scripts/package | tail -n 1)
echo "package: $deb"
node tests/cluster/cluster.mjs --deb "$deb" "$@"
