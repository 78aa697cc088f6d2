#!/usr/bin/env bash
# Builds a stand-in for the official PostgreSQL image docker-compose.yml pins (POSTGRES_IMAGE's default) from
# Debian's own postgresql-MAJOR package, on a machine that reaches Debian's mirrors but not Docker Hub, and tags
# it under the pinned tag without its digest (it is not that image): scripts/container-check.sh takes it when
# the pinned image cannot be pulled; `docker compose up` takes it with POSTGRES_IMAGE set to that tag.
#
#   scripts/stand-in-postgres-image.sh                       # compose's, e.g. postgres:17-trixie
#   scripts/stand-in-postgres-image.sh postgres:15-bookworm  # another postgres:MAJOR-SUITE Debian ships
#
# Like the official image, as far as compose uses it: the same Debian release, so a data directory moves
# between the two (same major, same en_US.utf8 locale and glibc); the postgres user (999:999); PGDATA
# /var/lib/postgresql/data as a volume; POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB (and their _FILE
# variants) at the first start; password logins over TCP; pg_isready on PATH; SIGINT to stop. The minor
# version is whatever Debian's release ships.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/stand-in/lib.sh

pinned="$(scripts/pinned-image.sh postgres)"
TAG="${1:-${pinned%@*}}"
flavour="${TAG#*:}"      # 17-trixie
major="${flavour%%-*}"    # 17
suite="${flavour#*-}"     # trixie
[[ "$TAG" == postgres:*-* && "$major" =~ ^[0-9]+$ ]] || die "$TAG is not of the form postgres:MAJOR-SUITE"
require chroot

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
root="$work/rootfs"
debian_rootfs "$suite" "$root" postgres

# The user first, with the official image's ids, so that a data volume's owner is the same in both images.
chroot "$root" groupadd --system --gid 999 postgres
chroot "$root" useradd --system --uid 999 --gid postgres --home-dir /var/lib/postgresql --shell /bin/bash postgres
say "postgresql-$major from Debian $suite"
chroot_apt_install "$root" postgresql-common
# The cluster is the entrypoint's to create, in PGDATA, at the first start.
sed -ri 's/^#?\s*create_main_cluster\s*=.*/create_main_cluster = false/' "$root/etc/postgresql-common/createcluster.conf"
chroot_apt_install "$root" "postgresql-$major"
chroot "$root" localedef -i en_US -c -f UTF-8 -A /usr/share/locale/locale.alias en_US.UTF-8
# ssl-cert made a key pair at install: a stand-in's users would all share its private key.
rm -f "$root/etc/ssl/private/ssl-cert-snakeoil.key" "$root/etc/ssl/certs/ssl-cert-snakeoil.pem"
mkdir -p "$root/var/lib/postgresql/data"
chroot "$root" chown -R postgres:postgres /var/lib/postgresql
slim_rootfs "$root"

import_rootfs "$root" "$TAG" \
  "ENV PG_MAJOR=$major" \
  "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/lib/postgresql/$major/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  'ENV PGDATA=/var/lib/postgresql/data' \
  'ENV LANG=en_US.utf8' \
  'VOLUME /var/lib/postgresql/data' \
  'EXPOSE 5432' \
  'STOPSIGNAL SIGINT' \
  'ENTRYPOINT ["docker-entrypoint.sh"]' \
  'CMD ["postgres"]'
docker run --rm --entrypoint sh "$TAG" -c 'echo "stand-in: $(postgres --version), $(id postgres)"'
say "POSTGRES_IMAGE=$TAG docker compose up; container-check finds it"
