#!/usr/bin/env bash
# Starts a Docker engine able to build this project's image on a Debian bookworm development machine
# (root): for scripts/stand-in-node-image.sh and scripts/container-check.sh. The tests never need it.
#
# Bookworm's docker.io is Engine 20.10, whose Dockerfile parser rejects HEALTHCHECK --start-interval
# (Engine 25+). So the engine comes from Debian trixie's packages: docker.io 26.1, containerd 1.7, the
# BuildKit client (docker-buildx) and compose v2, fetched with a private apt configuration so that the
# machine's own sources stay bookworm only. runc stays bookworm's: trixie's needs glibc 2.38.
set -euo pipefail

if docker info >/dev/null 2>&1; then
  echo "docker-engine: an engine already answers (server $(docker version -f '{{.Server.Version}}'))"
  exit 0
fi
[ "$(id -u)" = 0 ] || { echo "docker-engine: needs root" >&2; exit 1; }

# Not installed is the usual case here: dpkg-query then fails, which must not end the script (set -e, pipefail).
major="$(dpkg-query -W -f '${Version}' docker.io 2>/dev/null | cut -d. -f1 || true)"
[ -n "$major" ] || echo "docker-engine: docker.io is not installed; installing Engine 26 from Debian trixie's packages"
if [ "${major:-0}" -lt 25 ]; then
  apt="/var/cache/docker-engine-trixie"
  mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$apt/debs"
  echo "deb http://deb.debian.org/debian trixie main" >"$apt/sources.list"
  opts=(-o "Dir::State::Lists=$apt/lists" -o "Dir::Cache::Archives=$apt/archives"
    -o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=/dev/null")
  apt-get "${opts[@]}" update -qq
  packages=(docker.io containerd docker-buildx docker-compose)
  command -v docker >/dev/null || packages+=(docker-cli)
  (cd "$apt/debs" && rm -f ./*.deb && apt-get "${opts[@]}" download "${packages[@]}")
  apt-get update -qq # the machine's own lists, for the dependencies (runc, iptables, tini, ...)
  apt-get install -y -qq debootstrap "$apt"/debs/*.deb
fi

pgrep -x dockerd >/dev/null || { nohup dockerd >/var/log/dockerd.log 2>&1 & }
for _ in $(seq 60); do docker info >/dev/null 2>&1 && break; sleep 0.5; done
docker info >/dev/null 2>&1 || { tail -20 /var/log/dockerd.log >&2; exit 1; }
echo "docker-engine: server $(docker version -f '{{.Server.Version}}') answers (log /var/log/dockerd.log)"
echo "docker-engine: to stop it: kill \$(cat /var/run/docker.pid)"
