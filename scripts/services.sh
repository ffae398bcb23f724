#!/usr/bin/env bash
# Makes a MongoDB-compatible server and Redis reachable on loopback, idempotently.
#
#   scripts/services.sh up       use what already listens at MONGODB_URI / REDIS_URL; else start mongod
#                                (if on PATH) or FerretDB v1.24.2 (built from the Go module proxy when
#                                absent), and redis-server (installed from Debian's packages when root)
#   scripts/services.sh down     stop only what this script started
#   scripts/services.sh status
#   scripts/services.sh pid mongo|redis   print the pid of the server this script started (fault tests
#                                kill -9 it; `up` again restarts it on the same data)
#
# Data, logs and pid files live under .data/ (MP_DATA_DIR overrides); built binaries under
# MP_BIN_DIR (default: the data directory's bin/, else the checkout's .data/bin/ when it has them,
# so a throw-away data directory reuses the one-off build).
# Redis runs with AOF (appendonly yes, appendfsync everysec) in the data directory: queued jobs
# survive a Redis restart. Nothing depends on it — the webhook inbox and the sweepers re-drive
# whatever Redis loses — but it keeps a restart from redoing work.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DATA=${MP_DATA_DIR:-$ROOT/.data}
MONGODB_URI=${MONGODB_URI:-mongodb://127.0.0.1:27017/marketplace}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
FERRETDB_VERSION=v1.24.2
if [[ -z ${MP_BIN_DIR:-} ]]; then
  MP_BIN_DIR=$DATA/bin
  [[ ! -d $MP_BIN_DIR && -d $ROOT/.data/bin ]] && MP_BIN_DIR=$ROOT/.data/bin
fi
FERRETDB_BIN=${FERRETDB_BIN:-$MP_BIN_DIR/ferretdb-$FERRETDB_VERSION}

log() { printf '[services] %s\n' "$*" >&2; }
die() { printf '[services] ERROR: %s\n' "$*" >&2; exit 1; }

# host and port of the first host in a mongodb:// or redis:// URL
host_of() { local rest=${1#*://}; rest=${rest##*@}; rest=${rest%%/*}; rest=${rest%%,*}; rest=${rest%%\?*}; echo "${rest%%:*}"; }
port_of() { local rest=${1#*://}; rest=${rest##*@}; rest=${rest%%/*}; rest=${rest%%,*}; rest=${rest%%\?*}; [[ $rest == *:* ]] && echo "${rest##*:}" || echo "$2"; }

listening() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

wait_for() { # name host port seconds logfile
  local i
  for ((i = 0; i < $4 * 10; i++)); do
    listening "$2" "$3" && return 0
    sleep 0.1
  done
  [[ -f $5 ]] && tail -n 20 "$5" >&2
  die "$1 did not start listening on $2:$3 within $4 s (log: $5)"
}

is_local() { [[ $1 == 127.* || $1 == localhost || $1 == ::1 ]]; }

build_ferretdb() {
  command -v go >/dev/null || die "FerretDB is needed but Go is not installed: install Go 1.24+ (or set MONGODB_URI to a reachable MongoDB)"
  log "building FerretDB $FERRETDB_VERSION (one-off, ~1 min)…"
  mkdir -p "$(dirname "$FERRETDB_BIN")"
  local src dir
  # `go install …@v1.24.2` is not used: the module proxy here refuses the version list it consults
  # for deprecations, and a module-zip build lacks build/version/version.txt (the binary panics).
  # So: download exactly that module version, add version.txt, and build it.
  dir=$(cd "$DATA" && GOFLAGS=-mod=mod go mod download -json "github.com/FerretDB/FerretDB@$FERRETDB_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [[ -n $dir && -d $dir ]] || die "go mod download github.com/FerretDB/FerretDB@$FERRETDB_VERSION failed"
  src=$(mktemp -d)
  cp -r "$dir/." "$src/"
  chmod -R u+w "$src"
  echo "$FERRETDB_VERSION" >"$src/build/version/version.txt"
  if ! (cd "$src" && go build -o "$FERRETDB_BIN" ./cmd/ferretdb) >"$DATA/ferretdb-build.log" 2>&1; then
    log "build with $(go version | awk '{print $3}') failed; retrying with GOTOOLCHAIN=go1.24.3"
    (cd "$src" && GOTOOLCHAIN=go1.24.3 go build -o "$FERRETDB_BIN" ./cmd/ferretdb) >>"$DATA/ferretdb-build.log" 2>&1 ||
      { tail -n 20 "$DATA/ferretdb-build.log" >&2; die "FerretDB build failed (log: $DATA/ferretdb-build.log)"; }
  fi
  rm -rf "$src"
  log "built $FERRETDB_BIN"
}

start_mongo() {
  local host port
  host=$(host_of "$MONGODB_URI")
  port=$(port_of "$MONGODB_URI" 27017)
  if listening "$host" "$port"; then
    log "MongoDB-compatible server already listening on $host:$port"
    return
  fi
  is_local "$host" || die "MONGODB_URI points at $host:$port, which does not answer"
  mkdir -p "$DATA"
  if command -v mongod >/dev/null; then
    mkdir -p "$DATA/mongod"
    mongod --dbpath "$DATA/mongod" --bind_ip 127.0.0.1 --port "$port" --fork --logpath "$DATA/mongod.log" --pidfilepath "$DATA/mongod.pid" >/dev/null
    wait_for mongod 127.0.0.1 "$port" 30 "$DATA/mongod.log"
    log "started mongod on 127.0.0.1:$port (stop: scripts/services.sh down)"
    return
  fi
  [[ -x $FERRETDB_BIN ]] || build_ferretdb
  mkdir -p "$DATA/ferretdb/data" "$DATA/ferretdb/state"
  nohup "$FERRETDB_BIN" --handler=sqlite --sqlite-url="file:$DATA/ferretdb/data/" --state-dir="$DATA/ferretdb/state" \
    --listen-addr="127.0.0.1:$port" --telemetry=disable --debug-addr=- --log-level=warn >"$DATA/ferretdb.log" 2>&1 &
  echo $! >"$DATA/ferretdb.pid"
  wait_for FerretDB 127.0.0.1 "$port" 30 "$DATA/ferretdb.log"
  log "started FerretDB $FERRETDB_VERSION (SQLite backend, data in $DATA/ferretdb) on 127.0.0.1:$port (stop: scripts/services.sh down)"
}

start_redis() {
  local host port
  host=$(host_of "$REDIS_URL")
  port=$(port_of "$REDIS_URL" 6379)
  if listening "$host" "$port"; then
    log "Redis already listening on $host:$port"
    return
  fi
  is_local "$host" || die "REDIS_URL points at $host:$port, which does not answer"
  if ! command -v redis-server >/dev/null; then
    if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
      log "installing Debian's redis-server…"
      (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server) >"$DATA/apt-redis.log" 2>&1 ||
        { tail -n 20 "$DATA/apt-redis.log" >&2; die "apt-get install redis-server failed"; }
    else
      die "Redis is not running and redis-server is not installed: run 'sudo apt-get install redis-server' (or set REDIS_URL)"
    fi
  fi
  mkdir -p "$DATA/redis"
  redis-server --bind 127.0.0.1 --port "$port" --daemonize yes --dir "$DATA/redis" --pidfile "$DATA/redis.pid" \
    --logfile "$DATA/redis.log" --save "" --appendonly yes --appendfsync everysec >/dev/null
  wait_for Redis 127.0.0.1 "$port" 15 "$DATA/redis.log"
  log "started redis-server on 127.0.0.1:$port (stop: scripts/services.sh down)"
}

stop_pidfile() {
  local f=$DATA/$1.pid
  if [[ -f $f ]]; then
    local pid
    pid=$(cat "$f")
    if kill "$pid" 2>/dev/null; then log "stopped $1 (pid $pid)"; fi
    rm -f "$f"
  fi
}

case "${1:-up}" in
  up)
    mkdir -p "$DATA"
    start_mongo
    start_redis
    ;;
  down)
    stop_pidfile ferretdb
    stop_pidfile mongod
    stop_pidfile redis
    ;;
  pid)
    # the pid this script recorded for the server it started (whichever MongoDB-compatible one)
    case "${2:-}" in
      mongo) files=(ferretdb mongod) ;;
      redis) files=(redis) ;;
      *) die "usage: scripts/services.sh pid mongo|redis" ;;
    esac
    for f in "${files[@]}"; do
      if [[ -s $DATA/$f.pid ]] && kill -0 "$(cat "$DATA/$f.pid")" 2>/dev/null; then
        cat "$DATA/$f.pid"
        exit 0
      fi
    done
    die "no running ${2} started by this script under $DATA"
    ;;
  status)
    for pair in "MongoDB:$(host_of "$MONGODB_URI"):$(port_of "$MONGODB_URI" 27017)" "Redis:$(host_of "$REDIS_URL"):$(port_of "$REDIS_URL" 6379)"; do
      IFS=: read -r name host port <<<"$pair"
      if listening "$host" "$port"; then echo "$name: up on $host:$port"; else echo "$name: down ($host:$port)"; fi
    done
    ;;
  *) die "usage: scripts/services.sh up|down|status|pid mongo|redis" ;;
esac
