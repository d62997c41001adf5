#!/usr/bin/env bash
# Builds the Debian package of the previous release, where the upgrade test starts, and prints its
# path as the last line.
#
# The previous release is the newest tag vX.Y.Z before HEAD (`git describe` of HEAD's first parent,
# so a build of a tag itself upgrades from the tag before). A clone without such a tag (every clone
# before the first release was tagged) uses kFirstRelease: the commit the first tag, v0.1.0, names,
# the last one whose package was 0.1.0-1 for every build. CI's clone has the whole history, so that
# commit is always there.
#
# The package is built by that commit's own scripts/package, in a local clone under
# build-previous/ laid out as the checkout is (the tree, and build-package inside it), with ccache
# based at that tree: every file the two releases share is a cache hit from this run's builds.
# The .deb is kept in $NETGRAPH_DEPLOY_CACHE (default /var/cache/netgraph-deploy) by commit, so a
# machine builds each previous release once.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cache="${NETGRAPH_DEPLOY_CACHE:-/var/cache/netgraph-deploy}"
kFirstRelease=d26999a4d337dc126d047ecdaf6fb7609b8a24be

if tag=$(git -C "$repo" describe --tags --abbrev=0 --match 'v[0-9]*' HEAD^ 2>/dev/null); then
  commit=$(git -C "$repo" rev-parse "$tag^{commit}")
  echo "previous release: $tag ($commit)" >&2
else
  commit=$kFirstRelease
  echo "previous release: no tag before HEAD; the commit v0.1.0 names ($commit)" >&2
fi

mkdir -p "$cache"
deb="$cache/previous-$commit.deb"
if [[ -f "$deb" ]]; then
  echo "previous package: cached" >&2
  echo "$deb"
  exit 0
fi

tree="$repo/build-previous/src"
rm -rf "$repo/build-previous"
mkdir -p "$repo/build-previous"
git clone --quiet --shared --no-checkout "$repo" "$tree"
git -C "$tree" checkout --quiet --detach "$commit"
# Its tags, for its version (a tag's package is that tag's version, not the commit's).
git -C "$tree" fetch --quiet --tags "$repo" 2>/dev/null || true
ln -s "$repo/node_modules" "$tree/node_modules"
started=$SECONDS
# Its own scripts/package, with ccache based at its tree (unset: that script sets it to its own).
built=$(env -u CCACHE_BASEDIR NETGRAPH_SKIP_SETUP=1 NETGRAPH_PACKAGE_BUILD_DIR="$tree/build-package" \
  "$tree/scripts/package" | tail -n 1)
echo "previous package: built in $((SECONDS - started)) s" >&2
cp "$built" "$deb.tmp"
mv "$deb.tmp" "$deb"
rm -rf "$repo/build-previous"
echo "$deb"
