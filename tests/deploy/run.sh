#!/usr/bin/env bash
# The deployment step of scripts/test: builds the Debian package (scripts/package), checks it with
# lintian (no error) and against `cmake --install` (the same files), then runs deploy.test.mjs,
# which installs it in a Debian 12 container under systemd (container.mjs). Needs root,
# systemd-container, mmdebstrap and lintian (scripts/setup installs them), and the host's ports 80,
# 8080, 5432 and 6379 free: the container's nginx, PostgreSQL and Redis use the host's network.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"

# Said plainly up front, rather than as a service in the container that fails to start.
for port in 80 8080 5432 6379; do
  if ss -Htln "sport = :$port" | grep -q .; then
    echo "deploy test: port $port is in use on this host; the container's services need it" >&2
    ss -Htlnp "sport = :$port" >&2
    exit 1
  fi
done

deb=$(scripts/package | tail -n 1)
echo "package: $deb"

lintian --fail-on error "$deb"
echo "lintian: no error"

# The package's files (not directories) against what `cmake --install` puts under a prefix.
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$(dirname "$deb")" --prefix "$prefix" >/dev/null
diff <(cd "$prefix" && find . ! -type d | sed 's|^\./|/|' | sort) \
     <(dpkg-deb --fsys-tarfile "$deb" | tar -t | grep -v '/$' | sed 's|^\./|/|' | sort)
echo "cmake --install installs the package's files"

NETGRAPH_DEB="$deb" node --test --test-concurrency=1 tests/deploy/deploy.test.mjs
