# shellcheck shell=bash
# Sourced by scripts/container-check.sh after the image checks: `docker compose up` builds the API on
# NODE_IMAGE (BuildKit's cache from the check's own build makes that quick) beside POSTGRES_IMAGE, on host
# ports of the check's choosing, published on 127.0.0.1 only; it answers; `docker compose down -v` leaves nothing.

check_compose_stack() {
  local api_port metrics_port started
  use_base postgres POSTGRES_IMAGE
  api_port=$(free_port)
  metrics_port=$(free_port)
  while [ "$metrics_port" = "$api_port" ]; do metrics_port=$(free_port); done
  export NODE_IMAGE POSTGRES_IMAGE API_HOST_PORT="$api_port" METRICS_HOST_PORT="$metrics_port"
  unset API_BIND METRICS_BIND # the defaults are under test
  if [ -n "$NPM_CA_FILE" ] && [ -f "$NPM_CA_FILE" ]; then export NPM_CA_FILE; else unset NPM_CA_FILE; fi

  compose_log="$(mktemp)"
  compose_project="$RUN_ID"
  compose build >"$compose_log" 2>&1 || { tail -20 "$compose_log" >&2; fail "docker compose build on NODE_IMAGE=$NODE_IMAGE (its output above)"; }
  ok "docker compose build passes NODE_IMAGE=$NODE_IMAGE to the Dockerfile"
  started=$(now_ms)
  compose up -d --wait --wait-timeout 120 >"$compose_log" 2>&1 ||
    { tail -5 "$compose_log" >&2; fail "docker compose up --wait with POSTGRES_IMAGE=$POSTGRES_IMAGE: not every service became healthy (its output above, the services' logs below)"; }
  ok "docker compose up --wait with POSTGRES_IMAGE=$POSTGRES_IMAGE: db and api healthy after $(($(now_ms) - started)) ms"

  published_on_loopback 3000 "$api_port"
  published_on_loopback 9464 "$metrics_port"
  ok "compose publishes 3000 and 9464 on 127.0.0.1 only, at the host ports it was given ($api_port, $metrics_port)"

  local ready metrics
  ready=$(status_of "http://127.0.0.1:$api_port/health/ready")
  [ "$ready" = 200 ] || fail "through compose's published port: GET /health/ready $(answer "$ready"), not 200"
  metrics=$(curl -s --max-time 5 "http://127.0.0.1:$metrics_port/metrics" | grep -c '^# TYPE' || true)
  [ "$metrics" -gt 0 ] || fail "through compose's published port: GET /metrics on $metrics_port gave no metric family"
  ok "through compose's published ports: GET /health/ready 200, /metrics $metrics families"

  started=$(now_ms)
  compose down -v --rmi local >"$compose_log" 2>&1 || { cat "$compose_log" >&2; fail "docker compose down -v"; }
  local left
  left="$(docker ps -aq --filter "label=com.docker.compose.project=$compose_project")$(docker volume ls -q --filter "label=com.docker.compose.project=$compose_project")"
  [ -z "$left" ] || fail "docker compose down -v left containers or volumes: $left"
  compose_project=""
  ok "docker compose down -v: no container or volume left, $(($(now_ms) - started)) ms"
}

published_on_loopback() { # CONTAINER_PORT HOST_PORT
  local at
  at=$(compose port api "$1")
  [ "$at" = "127.0.0.1:$2" ] || fail "compose publishes the api's port $1 on ${at:-nothing}, not 127.0.0.1:$2"
}
