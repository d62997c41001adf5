#!/usr/bin/env bash
# The deployment step of scripts/test: builds the Debian package (scripts/package) and the previous
# release's (previous-package.sh), checks the package with lintian (no error, and no warning beyond
# packaging/lintian-overrides, each with its reason), against `cmake --install` (the same files) and
# for documents it names but lacks (shipped-docs.mjs), then runs deploy.test.mjs (the install by
# docs/operations.md, and the life of the service after it) and upgrade.test.mjs (the previous
# release upgraded to this one under load, and a boot with PostgreSQL down), each in a Debian 12
# container under systemd (container.mjs). Needs root, systemd-container, mmdebstrap and lintian
# (scripts/setup --tests installs them), and the host's ports 80, 8080, 5432 and 6379 free: the
# container's nginx, PostgreSQL and Redis use the host's network.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
started=$SECONDS
took() { echo "($((SECONDS - started)) s)"; }

# Said plainly up front, rather than as a service in the container that fails to start.
for port in 80 8080 5432 6379; do
  if ss -Htln "sport = :$port" | grep -q .; then
    echo "deploy test: port $port is in use on this host; the container's services need it" >&2
    ss -Htlnp "sport = :$port" >&2
    exit 1
  fi
done

deb=$(NETGRAPH_SKIP_SETUP=1 scripts/package | tail -n 1)
echo "package: $deb $(took)"
previous=$(tests/deploy/previous-package.sh | tail -n 1)
echo "previous release's package: $previous $(took)"

lintian --pedantic --fail-on error,warning "$deb"
echo "lintian: no error, no warning beyond packaging/lintian-overrides (each with its reason) $(took)"

# The package's files (not directories) against what `cmake --install` puts under a prefix.
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$(dirname "$deb")" --prefix "$prefix" >/dev/null
diff <(cd "$prefix" && find . ! -type d | sed 's|^\./|/|' | sort) \
     <(dpkg-deb --fsys-tarfile "$deb" | tar -t | grep -v '/$' | sed 's|^\./|/|' | sort)
echo "cmake --install installs the package's files"

node tests/deploy/shipped-docs.mjs "$deb"

NETGRAPH_DEB="$deb" NETGRAPH_PREVIOUS_DEB="$previous" \
  node --test --test-concurrency=1 tests/deploy/deploy.test.mjs tests/deploy/upgrade.test.mjs
echo "deployment tests passed $(took)"
