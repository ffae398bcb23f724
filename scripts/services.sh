#!/usr/bin/env bash
# Makes a MongoDB-compatible server and Redis reachable on loopback, idempotently.
#
#   scripts/services.sh up       use what already listens at MONGODB_URI / REDIS_URL; else start mongod
#                                (if on PATH) or the development store MP_STORE (below), installing it
#                                first when absent; and redis-server (installed from Debian's packages
#                                when root), with AOF; and stripe-mock at STRIPE_MOCK_URL (below)
#   scripts/services.sh install  only install the development store and stripe-mock (CI starts this
#                                early, in the background, while it builds and runs the unit tests)
#   scripts/services.sh down     stop only what this script started
#   scripts/services.sh status
#   scripts/services.sh pid mongo|redis|stripe-mock   print the pid of the server this script started
#                                (fault tests kill -9 it; `up` again restarts it on the same data)
#
# stripe-mock (github.com/stripe/stripe-mock, Stripe's own OpenAPI-driven mock; the payout rail's e2e
# tests point the official SDK at it) v0.203.0 is built once with `go install` into the binaries
# directory and listens on STRIPE_MOCK_URL (default http://127.0.0.1:12111, loopback only, plain http).
#
# MP_STORE chooses the development store (README, "The development store": measured side by side):
#   secantus           (default) SecantusDB's Rust server, secantusd-rs: the MongoDB wire protocol on
#                      WiredTiger, with real index scans and sorts; built once from crates.io with cargo
#                      (`cargo install secantus-mdb`, ~7-9 min on 2 cores) into the binaries directory
#   ferretdb-sqlite    FerretDB v1.24.2 on SQLite (built from the Go module proxy, ~2 min)
#   ferretdb-postgres  FerretDB v1.24.2 on PostgreSQL 15 from Debian's `postgresql` package
#   mongo-java-server  de.bwaldvogel:mongo-java-server 1.47.0, memory backend (Maven Central + a small
#                      launcher; keeps nothing across restarts)
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
MP_STORE=${MP_STORE:-secantus}
if [[ -z ${MP_BIN_DIR:-} ]]; then
  MP_BIN_DIR=$DATA/bin
  [[ ! -d $MP_BIN_DIR && -d $ROOT/.data/bin ]] && MP_BIN_DIR=$ROOT/.data/bin
fi

SECANTUS_VERSION=0.5.3-beta.196
SECANTUS_BIN=$MP_BIN_DIR/secantus-$SECANTUS_VERSION/bin/secantusd-rs
FERRETDB_VERSION=v1.24.2
FERRETDB_BIN=${FERRETDB_BIN:-$MP_BIN_DIR/ferretdb-$FERRETDB_VERSION}
STRIPE_MOCK_URL=${STRIPE_MOCK_URL:-http://127.0.0.1:12111}
STRIPE_MOCK_VERSION=v0.203.0
STRIPE_MOCK_BIN=$MP_BIN_DIR/stripe-mock-$STRIPE_MOCK_VERSION/stripe-mock
MJS_VERSION=1.47.0
MJS_HOME=$MP_BIN_DIR/mongo-java-server-$MJS_VERSION
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)

log() { printf '[services] %s\n' "$*" >&2; }
die() { printf '[services] ERROR: %s\n' "$*" >&2; exit 1; }

# host and port of the first host in a mongodb://, redis:// or http:// URL
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

apt_install() { # package... (only as root, only when missing)
  [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null || return 1
  log "installing Debian's $*…"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@") >"$DATA/apt-$1.log" 2>&1 ||
    { tail -n 20 "$DATA/apt-$1.log" >&2; die "apt-get install $* failed"; }
}

# ---- the stores ------------------------------------------------------------------------------

# A lock, so a background `install` (CI) and an `up` never build the same binary twice at once.
with_build_lock() {
  mkdir -p "$MP_BIN_DIR"
  exec 9>"$MP_BIN_DIR/.build.lock"
  flock 9
  "$@"
  flock -u 9
}

build_secantus() {
  [[ -x $SECANTUS_BIN ]] && return
  # rustup installs into ~/.cargo/bin, which a non-login shell (a CI runner) may not have on PATH
  command -v cargo >/dev/null || [[ ! -x ${CARGO_HOME:-$HOME/.cargo}/bin/cargo ]] || PATH=${CARGO_HOME:-$HOME/.cargo}/bin:$PATH
  command -v cargo >/dev/null || die "the secantus store is built with cargo, which is not installed: install Rust (rustup), or choose MP_STORE=ferretdb-sqlite"
  command -v cmake >/dev/null || apt_install cmake || die "building WiredTiger needs cmake: apt-get install cmake"
  command -v cc >/dev/null || apt_install gcc || die "building WiredTiger needs a C compiler: apt-get install gcc"
  log "building SecantusDB secantusd-rs $SECANTUS_VERSION from crates.io (one-off, ~7-9 min on 2 cores; log: $DATA/secantus-build.log)…"
  local target
  target=$(mktemp -d "${TMPDIR:-/tmp}/secantus-build.XXXXXX")
  # --locked: exactly the dependency versions the crate was published with. --ignore-rust-version:
  # the crate declares rust-version 1.98 but builds with the toolchain here (measured: 1.95).
  # Release profile without LTO, 16 codegen units, opt-level 1: 9 min instead of 14 on 2 busy cores,
  # and the same query times (measured side by side at 20,000 documents; WiredTiger itself is C,
  # built by CMake in Release whatever the profile).
  if ! CARGO_TARGET_DIR=$target CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    CARGO_PROFILE_RELEASE_OPT_LEVEL=1 CARGO_PROFILE_RELEASE_DEBUG=0 cargo install secantus-mdb --version "$SECANTUS_VERSION" --locked \
    --ignore-rust-version --root "$MP_BIN_DIR/secantus-$SECANTUS_VERSION" >"$DATA/secantus-build.log" 2>&1; then
    tail -n 30 "$DATA/secantus-build.log" >&2
    rm -rf "$target"
    die "cargo install secantus-mdb $SECANTUS_VERSION failed (log: $DATA/secantus-build.log)"
  fi
  rm -rf "$target"
  log "built $SECANTUS_BIN"
}

build_ferretdb() {
  [[ -x $FERRETDB_BIN ]] && return
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

build_stripe_mock() {
  [[ -x $STRIPE_MOCK_BIN ]] && return
  command -v go >/dev/null || die "stripe-mock is built with Go, which is not installed: install Go 1.22+ (or set STRIPE_MOCK_URL to a running stripe-mock)"
  log "building stripe-mock $STRIPE_MOCK_VERSION (one-off, ~1 min; log: $DATA/stripe-mock-build.log)…"
  mkdir -p "$(dirname "$STRIPE_MOCK_BIN")"
  GOBIN=$(dirname "$STRIPE_MOCK_BIN") go install "github.com/stripe/stripe-mock@$STRIPE_MOCK_VERSION" >"$DATA/stripe-mock-build.log" 2>&1 ||
    { tail -n 20 "$DATA/stripe-mock-build.log" >&2; die "go install stripe-mock@$STRIPE_MOCK_VERSION failed (log: $DATA/stripe-mock-build.log)"; }
  log "built $STRIPE_MOCK_BIN"
}

start_stripe_mock() {
  local host port
  host=$(host_of "$STRIPE_MOCK_URL")
  port=$(port_of "$STRIPE_MOCK_URL" 12111)
  if listening "$host" "$port"; then
    log "stripe-mock already listening on $host:$port"
    return
  fi
  is_local "$host" || die "STRIPE_MOCK_URL points at $host:$port, which does not answer"
  with_build_lock build_stripe_mock
  # stripe-mock also serves HTTPS (12112 unless told otherwise): on a free port here, so two
  # checkouts' instances never collide and the HTTP one is the one that counts.
  nohup "$STRIPE_MOCK_BIN" -http-addr "127.0.0.1:$port" -https-addr "127.0.0.1:" >"$DATA/stripe-mock.log" 2>&1 &
  echo $! >"$DATA/stripe-mock.pid"
  wait_for stripe-mock 127.0.0.1 "$port" 30 "$DATA/stripe-mock.log"
  sleep 0.2
  kill -0 "$(cat "$DATA/stripe-mock.pid")" 2>/dev/null || { tail -n 5 "$DATA/stripe-mock.log" >&2; die "stripe-mock exited right after starting (log: $DATA/stripe-mock.log)"; }
  log "started stripe-mock on 127.0.0.1:$port (stop: scripts/services.sh down)"
}

build_mongo_java_server() {
  [[ -f $MJS_HOME/classes/MjsLauncher.class ]] && return
  command -v mvn >/dev/null && command -v javac >/dev/null || die "mongo-java-server needs Java 17+ and Maven"
  log "fetching mongo-java-server $MJS_VERSION from Maven Central…"
  mkdir -p "$MJS_HOME/classes"
  (cd "$ROOT/scripts/stores/mongo-java-server" &&
    mvn -q -Dmjs.version="$MJS_VERSION" dependency:copy-dependencies -DoutputDirectory="$MJS_HOME/lib") >"$DATA/mjs-build.log" 2>&1 ||
    { tail -n 20 "$DATA/mjs-build.log" >&2; die "mvn dependency:copy-dependencies failed (log: $DATA/mjs-build.log)"; }
  javac -d "$MJS_HOME/classes" -cp "$MJS_HOME/lib/*" "$ROOT/scripts/stores/mongo-java-server/MjsLauncher.java" >>"$DATA/mjs-build.log" 2>&1 ||
    die "javac MjsLauncher failed (log: $DATA/mjs-build.log)"
}

install_store() {
  mkdir -p "$DATA"
  case $MP_STORE in
    secantus) with_build_lock build_secantus ;;
    ferretdb-sqlite) with_build_lock build_ferretdb ;;
    ferretdb-postgres)
      with_build_lock build_ferretdb
      [[ -n $PG_BIN ]] || apt_install postgresql || die "ferretdb-postgres needs PostgreSQL: apt-get install postgresql"
      PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
      ;;
    mongo-java-server) with_build_lock build_mongo_java_server ;;
    *) die "unknown MP_STORE=$MP_STORE (secantus, ferretdb-sqlite, ferretdb-postgres, mongo-java-server)" ;;
  esac
}

# PostgreSQL for ferretdb-postgres: its own cluster under the data directory, on the port after the store's.
start_postgres() { # port
  local pgdata=$DATA/postgres run_as=()
  [[ $(id -u) == 0 ]] && run_as=(runuser -u postgres --)
  if [[ ! -f $pgdata/PG_VERSION ]]; then
    mkdir -p "$pgdata"
    [[ $(id -u) == 0 ]] && chown postgres "$pgdata"
    "${run_as[@]}" "$PG_BIN/initdb" -D "$pgdata" -A trust -U postgres >"$DATA/postgres-init.log" 2>&1 ||
      { tail -n 20 "$DATA/postgres-init.log" >&2; die "initdb failed"; }
  fi
  "${run_as[@]}" "$PG_BIN/pg_ctl" -D "$pgdata" -l "$pgdata/server.log" -w -o "-p $1 -k /tmp -c listen_addresses=127.0.0.1" start >/dev/null ||
    die "PostgreSQL did not start (log: $pgdata/server.log)"
  echo "$1" >"$DATA/postgres.port"
  "${run_as[@]}" "$PG_BIN/createdb" -h 127.0.0.1 -p "$1" -U postgres ferretdb 2>/dev/null || true
}

start_store() { # port
  local port=$1 log_file=$DATA/mongo.log
  case $MP_STORE in
    secantus)
      mkdir -p "$DATA/secantus"
      # --sync-on-commit: an acknowledged write survives kill -9 (measured: 200/200; without it 171/200).
      # --log-file-max: WiredTiger preallocates its log file in full (128 MB by default).
      nohup "$SECANTUS_BIN" --host 127.0.0.1 --port "$port" --storage-path "$DATA/secantus" --standalone \
        --sync-on-commit --cache-size 256M --log-file-max 32MB --log-level WARNING >"$log_file" 2>&1 &
      ;;
    ferretdb-sqlite)
      mkdir -p "$DATA/ferretdb/data" "$DATA/ferretdb/state"
      nohup "$FERRETDB_BIN" --handler=sqlite --sqlite-url="file:$DATA/ferretdb/data/" --state-dir="$DATA/ferretdb/state" \
        --listen-addr="127.0.0.1:$port" --telemetry=disable --debug-addr=- --log-level=warn >"$log_file" 2>&1 &
      ;;
    ferretdb-postgres)
      local pg_port=$((port + 1))
      listening 127.0.0.1 "$pg_port" || start_postgres "$pg_port"
      mkdir -p "$DATA/ferretdb-pg/state"
      nohup "$FERRETDB_BIN" --handler=postgresql --postgresql-url="postgres://postgres@127.0.0.1:$pg_port/ferretdb" \
        --state-dir="$DATA/ferretdb-pg/state" --listen-addr="127.0.0.1:$port" --telemetry=disable --debug-addr=- \
        --log-level=warn >"$log_file" 2>&1 &
      ;;
    mongo-java-server)
      nohup java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$MJS_HOME/classes:$MJS_HOME/lib/*" \
        MjsLauncher --backend memory --port "$port" >"$log_file" 2>&1 &
      ;;
  esac
  echo $! >"$DATA/mongo.pid"
  echo "$MP_STORE" >"$DATA/mongo.store"
  wait_for "$MP_STORE" 127.0.0.1 "$port" 60 "$log_file"
  log "started $MP_STORE on 127.0.0.1:$port (data in $DATA; stop: scripts/services.sh down)"
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
    mongod --dbpath "$DATA/mongod" --bind_ip 127.0.0.1 --port "$port" --fork --logpath "$DATA/mongod.log" --pidfilepath "$DATA/mongo.pid" >/dev/null
    echo mongod >"$DATA/mongo.store"
    wait_for mongod 127.0.0.1 "$port" 30 "$DATA/mongod.log"
    log "started mongod on 127.0.0.1:$port (stop: scripts/services.sh down)"
    return
  fi
  install_store
  start_store "$port"
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
  command -v redis-server >/dev/null || apt_install redis-server ||
    die "Redis is not running and redis-server is not installed: run 'sudo apt-get install redis-server' (or set REDIS_URL)"
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
    if kill "$pid" 2>/dev/null; then
      log "stopped $1 (pid $pid)"
      for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    fi
    rm -f "$f"
  fi
}

stop_postgres() {
  [[ -f $DATA/postgres.port && -n $PG_BIN ]] || return 0
  local run_as=()
  [[ $(id -u) == 0 ]] && run_as=(runuser -u postgres --)
  "${run_as[@]}" "$PG_BIN/pg_ctl" -D "$DATA/postgres" -m fast stop >/dev/null 2>&1 && log "stopped PostgreSQL"
  rm -f "$DATA/postgres.port"
}

case "${1:-up}" in
  up)
    mkdir -p "$DATA"
    start_mongo
    start_redis
    start_stripe_mock
    ;;
  install)
    install_store
    with_build_lock build_stripe_mock
    ;;
  down)
    stop_pidfile mongo
    rm -f "$DATA/mongo.store"
    stop_postgres
    stop_pidfile redis
    stop_pidfile stripe-mock
    ;;
  pid)
    # the pid this script recorded for the server it started (whichever MongoDB-compatible one)
    case "${2:-}" in
      mongo | redis | stripe-mock) f=$DATA/${2}.pid ;;
      *) die "usage: scripts/services.sh pid mongo|redis|stripe-mock" ;;
    esac
    if [[ -s $f ]] && kill -0 "$(cat "$f")" 2>/dev/null; then
      cat "$f"
      exit 0
    fi
    die "no running ${2} started by this script under $DATA"
    ;;
  status)
    for pair in "MongoDB:$(host_of "$MONGODB_URI"):$(port_of "$MONGODB_URI" 27017)" "Redis:$(host_of "$REDIS_URL"):$(port_of "$REDIS_URL" 6379)" \
      "stripe-mock:$(host_of "$STRIPE_MOCK_URL"):$(port_of "$STRIPE_MOCK_URL" 12111)"; do
      IFS=: read -r name host port <<<"$pair"
      if listening "$host" "$port"; then echo "$name: up on $host:$port"; else echo "$name: down ($host:$port)"; fi
    done
    [[ -f $DATA/mongo.store ]] && echo "store started by this script: $(cat "$DATA/mongo.store")"
    ;;
  *) die "usage: scripts/services.sh up|install|down|status|pid mongo|redis|stripe-mock" ;;
esac
