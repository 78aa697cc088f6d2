#!/usr/bin/env bash
# Prints the official image a base is pinned to, read from the pin's one home: node (the Dockerfile's
# ARG NODE_IMAGE) or postgres (the default of docker-compose.yml's POSTGRES_IMAGE).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

case "${1:-}" in
  node) ref="$(sed -n 's/^ARG NODE_IMAGE=//p' Dockerfile)" ;;
  postgres) ref="$(sed -n 's/^ *image: \${POSTGRES_IMAGE:-\(.*\)}$/\1/p' docker-compose.yml)" ;;
  *) echo "usage: scripts/pinned-image.sh node|postgres" >&2; exit 2 ;;
esac
[[ "$ref" == *@sha256:* ]] || { echo "pinned-image: no $1 image pinned by digest found" >&2; exit 1; }
echo "$ref"
