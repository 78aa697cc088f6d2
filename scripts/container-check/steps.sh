# shellcheck shell=bash
# Sourced by scripts/container-check.sh: how a check passes or fails, and the small probes the checks share.
# A failure prints the last lines of every container's log the check started, so its cause shows.

passed=0
containers=()     # docker run names, removed at the end
compose_project="" # set while the compose stack is up

ok() { passed=$((passed + 1)); echo "ok   $*"; }
fail() {
  echo "FAIL $*"
  show_logs >&2
  echo "container-check: $passed passed, 1 failed"
  exit 1
}

# retire NAME: removes a container whose checks have passed, so that a later failure shows only the logs that matter.
retire() {
  docker rm -f "$1" >/dev/null
  local c kept=()
  for c in "${containers[@]}"; do [ "$c" = "$1" ] || kept+=("$c"); done
  containers=("${kept[@]}")
}

# state_of NAME: "running", "exited 1", ... or "gone".
state_of() { docker inspect -f '{{.State.Status}}{{if not .State.Running}} {{.State.ExitCode}}{{end}}' "$1" 2>/dev/null || echo gone; }

show_logs() {
  local c
  for c in "${containers[@]}"; do
    docker inspect "$c" >/dev/null 2>&1 || continue
    echo "---- container $c ($(state_of "$c")), last 30 lines of its log:"
    docker logs --tail 30 "$c" 2>&1 | sed 's/^/  /'
  done
  if [ -n "$compose_project" ]; then
    echo "---- compose project $compose_project: $(compose ps -a --format '{{.Service}} {{.State}} {{.Status}}' | tr '\n' ';')"
    compose logs --no-color --tail 30 2>&1 | sed 's/^/  /'
  fi
}

compose() { docker compose -p "$compose_project" "$@"; }

# sql URL QUERY: prints the first column of each row (pg from node_modules: no psql needed).
sql() {
  node -e '
    const { Client } = require("pg");
    const c = new Client({ connectionString: process.argv[1] });
    c.connect().then(() => c.query(process.argv[2])).then((r) => { for (const row of r.rows ?? []) console.log(Object.values(row)[0]); return c.end(); })
      .catch((e) => { console.error(e.message); process.exit(1); });' "$1" "$2"
}
with_database() { node -e 'const u = new URL(process.argv[1]); u.pathname = "/" + process.argv[2]; console.log(u.href)' "$1" "$2"; }
free_port() { node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'; }
# status_of URL: the HTTP status, or 000 when nothing answers.
status_of() { curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$1" || true; }
now_ms() { date +%s%3N; }
answer() { case "$1" in 000) echo "no answer" ;; *) echo "$1" ;; esac; }

wait_for() { # URL STATUS SECONDS: prints the milliseconds it took
  local t0
  t0=$(now_ms)
  while [ "$(status_of "$1")" != "$2" ]; do
    [ $(($(now_ms) - t0)) -lt $(($3 * 1000)) ] || return 1
    sleep 0.1
  done
  echo $(($(now_ms) - t0))
}

# use_base KIND VAR: sets VAR, unless set already, to the pinned image (scripts/pinned-image.sh KIND) when here
# or pullable, else to the local stand-in under its tag; fails saying which script builds one when neither is.
use_base() {
  local pinned stand_in
  [ -z "${!2:-}" ] || return 0
  pinned="$(scripts/pinned-image.sh "$1")" || fail "no pinned $1 image (scripts/pinned-image.sh $1)"
  stand_in="${pinned%@*}"
  if docker image inspect "$pinned" >/dev/null 2>&1 || timeout 60 docker pull -q "$pinned" >/dev/null 2>&1; then
    printf -v "$2" '%s' "$pinned"
  elif docker image inspect "$stand_in" >/dev/null 2>&1; then
    echo "note the pinned $pinned cannot be pulled here: using the local $stand_in (a stand-in)"
    printf -v "$2" '%s' "$stand_in"
  else
    fail "the pinned $pinned cannot be pulled and there is no local $stand_in: scripts/stand-in-$1-image.sh builds one"
  fi
}
