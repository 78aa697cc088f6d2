# shellcheck shell=bash
# Sourced by scripts/stand-in-*-image.sh: builds a Debian root file system shaped like the official images'
# (debootstrap's minbase, slim, no apt caches) and imports it into Docker under an official tag.
# Needs root (debootstrap, chroot), debootstrap and a Docker engine (scripts/docker-engine.sh).

STAND_IN_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

say() { echo "stand-in: $*"; }
die() { echo "stand-in: $*" >&2; exit 1; }

# require TOOL...: root and the tools, or one line saying how to get them.
require() {
  [ "$(id -u)" = 0 ] || die "debootstrap and chroot need root"
  for tool in debootstrap docker "$@"; do
    command -v "$tool" >/dev/null || die "$tool not found (apt-get install -y debootstrap; scripts/docker-engine.sh)"
  done
  docker info >/dev/null 2>&1 || die "no Docker engine answers (scripts/docker-engine.sh starts one)"
}

# debian_rootfs SUITE ROOT OVERLAY: minbase of SUITE in ROOT, the official images' apt and dpkg settings, then
# OVERLAY's files (scripts/stand-in/OVERLAY) on top.
debian_rootfs() {
  local suite=$1 root=$2 overlay=$3
  say "debootstrap --variant=minbase $suite (a minute or two)"
  debootstrap --variant=minbase "$suite" "$root" "$MIRROR" >"$root.debootstrap.log" 2>&1 ||
    { tail -20 "$root.debootstrap.log" >&2; die "debootstrap $suite failed (log above)"; }
  cp -R --preserve=mode "$STAND_IN_DIR/common/." "$STAND_IN_DIR/$overlay/." "$root/"
}

# chroot_apt_install ROOT PACKAGE...: installs without recommends; no service starts (policy-rc.d) meanwhile.
chroot_apt_install() {
  local root=$1
  shift
  printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
  chmod 0755 "$root/usr/sbin/policy-rc.d"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  { chroot "$root" apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -y -qq --no-install-recommends "$@"; } >"$root.apt.log" 2>&1 ||
    { tail -20 "$root.apt.log" >&2; die "apt-get install $* failed (log above)"; }
  rm -f "$root/usr/sbin/policy-rc.d" "$root/etc/resolv.conf"
}

# slim_rootfs ROOT: deletes what docker-slim makes dpkg leave out (debootstrap ran before it was in place),
# apt's lists, downloaded packages and caches, and logs.
slim_rootfs() {
  local root=$1 verb pattern excluded=() included=()
  while read -r verb pattern; do
    case "$verb" in
      path-exclude) excluded+=(-o -path ".$pattern") ;;
      path-include) included+=(! -path ".$pattern") ;;
    esac
  done <"$STAND_IN_DIR/common/etc/dpkg/dpkg.cfg.d/docker-slim"
  (cd "$root" && find . \( -false "${excluded[@]}" \) "${included[@]}" ! -type d -delete)
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/archives/*.deb "$root"/var/cache/apt/*.bin \
    "$root"/var/cache/debconf/*-old "$root"/var/log/*
}

# import_rootfs ROOT TAG CHANGE...: ROOT as the image TAG, each CHANGE a Dockerfile instruction (ENV, CMD, ...).
import_rootfs() {
  local root=$1 tag=$2 change args=()
  shift 2
  for change in "$@"; do args+=(--change "$change"); done
  say "docker import as $tag ($(du -sh --apparent-size "$root" | cut -f1))"
  tar -C "$root" --numeric-owner -c . | docker import "${args[@]}" --message "stand-in for the official $tag" - "$tag" >/dev/null
}
