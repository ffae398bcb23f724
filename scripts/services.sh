#!/usr/bin/env bash
# Makes a MongoDB-compatible server and Redis reachable on loopback, idempotently.
#
#   scripts/services.sh up       use what already listens at MONGODB_URI / REDIS_URL; else start mongod
#                                (if on PATH) or the development store (below), installing it first
#                                when absent; and redis-server (installed from Debian's packages when
#                                root), with AOF; and stripe-mock at STRIPE_MOCK_URL (below)
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
# The development store (docs/operations/development-store.md) is SecantusDB's Rust server,
# secantusd-rs: the MongoDB wire protocol on WiredTiger, with real index scans and sorts; built once
# from crates.io with cargo (`cargo install secantus-mdb`, ~7-9 min on 2 cores) into the binaries
# directory. It is the only one: production runs on MongoDB, development and CI on SecantusDB;
# FerretDB and mongo-java-server (the old MP_STORE choices) were removed (docs/adr/0037-supported-stores.md).
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
# MP_STORE used to choose among four stores; a value other than the one left is refused, not ignored.
MP_STORE=${MP_STORE:-secantus}
if [[ -z ${MP_BIN_DIR:-} ]]; then
  MP_BIN_DIR=$DATA/bin
  [[ ! -d $MP_BIN_DIR && -d $ROOT/.data/bin ]] && MP_BIN_DIR=$ROOT/.data/bin
fi

# Built binaries are also kept in a per-user build cache, keyed by version (like cargo's and go's own
# caches), so a fresh clone on a machine that built them once copies them instead of compiling again
# (SecantusDB: ~7-9 min). MP_BUILD_CACHE= (empty) turns it off.
MP_BUILD_CACHE=${MP_BUILD_CACHE-${XDG_CACHE_HOME:-$HOME/.cache}/marketplace-admin-api}

SECANTUS_VERSION=0.5.3-beta.196
SECANTUS_BIN=$MP_BIN_DIR/secantus-$SECANTUS_VERSION/bin/secantusd-rs
STRIPE_MOCK_URL=${STRIPE_MOCK_URL:-http://127.0.0.1:12111}
STRIPE_MOCK_VERSION=v0.203.0
STRIPE_MOCK_BIN=$MP_BIN_DIR/stripe-mock-$STRIPE_MOCK_VERSION/stripe-mock

log() { printf '[services] %s\n' "$*" >&2; }

# from_cache NAME: copy $MP_BUILD_CACHE/NAME (a built tool's folder) into the binaries directory.
from_cache() {
  [[ -n $MP_BUILD_CACHE && -d $MP_BUILD_CACHE/$1 ]] || return 1
  mkdir -p "$MP_BIN_DIR" && rm -rf "${MP_BIN_DIR:?}/$1.tmp" && cp -a "$MP_BUILD_CACHE/$1" "$MP_BIN_DIR/$1.tmp" &&
    rm -rf "${MP_BIN_DIR:?}/$1" && mv "$MP_BIN_DIR/$1.tmp" "$MP_BIN_DIR/$1" && log "$1 taken from the build cache ($MP_BUILD_CACHE)"
}
# to_cache NAME: keep a built tool's folder in the build cache (best effort).
to_cache() {
  [[ -n $MP_BUILD_CACHE ]] || return 0
  { mkdir -p "$MP_BUILD_CACHE" && rm -rf "${MP_BUILD_CACHE:?}/$1.tmp" && cp -a "$MP_BIN_DIR/$1" "$MP_BUILD_CACHE/$1.tmp" &&
    rm -rf "${MP_BUILD_CACHE:?}/$1" && mv "$MP_BUILD_CACHE/$1.tmp" "$MP_BUILD_CACHE/$1"; } 2>/dev/null || true
}
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
  from_cache "secantus-$SECANTUS_VERSION" && [[ -x $SECANTUS_BIN ]] && return
  # rustup installs into ~/.cargo/bin, which a non-login shell (a CI runner) may not have on PATH
  command -v cargo >/dev/null || [[ ! -x ${CARGO_HOME:-$HOME/.cargo}/bin/cargo ]] || PATH=${CARGO_HOME:-$HOME/.cargo}/bin:$PATH
  command -v cargo >/dev/null || die "the secantus store is built with cargo, which is not installed: install Rust (rustup), or set MONGODB_URI to a reachable MongoDB"
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
  to_cache "secantus-$SECANTUS_VERSION"
}

build_stripe_mock() {
  [[ -x $STRIPE_MOCK_BIN ]] && return
  from_cache "stripe-mock-$STRIPE_MOCK_VERSION" && [[ -x $STRIPE_MOCK_BIN ]] && return
  command -v go >/dev/null || die "stripe-mock is built with Go, which is not installed: install Go 1.22+ (or set STRIPE_MOCK_URL to a running stripe-mock)"
  log "building stripe-mock $STRIPE_MOCK_VERSION (one-off, ~1 min; log: $DATA/stripe-mock-build.log)…"
  mkdir -p "$(dirname "$STRIPE_MOCK_BIN")"
  GOBIN=$(dirname "$STRIPE_MOCK_BIN") go install "github.com/stripe/stripe-mock@$STRIPE_MOCK_VERSION" >"$DATA/stripe-mock-build.log" 2>&1 ||
    { tail -n 20 "$DATA/stripe-mock-build.log" >&2; die "go install stripe-mock@$STRIPE_MOCK_VERSION failed (log: $DATA/stripe-mock-build.log)"; }
  log "built $STRIPE_MOCK_BIN"
  to_cache "stripe-mock-$STRIPE_MOCK_VERSION"
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

install_store() {
  [[ $MP_STORE == secantus ]] ||
    die "MP_STORE=$MP_STORE is no longer a choice: FerretDB and mongo-java-server were removed (docs/adr/0037-supported-stores.md); unset MP_STORE for SecantusDB, or set MONGODB_URI to a reachable MongoDB"
  mkdir -p "$DATA"
  with_build_lock build_secantus
}

start_store() { # port
  local port=$1 log_file=$DATA/mongo.log
  mkdir -p "$DATA/secantus"
  # --sync-on-commit: an acknowledged write survives kill -9 (measured: 200/200; without it 171/200).
  # --log-file-max: WiredTiger preallocates its log file in full (128 MB by default).
  nohup "$SECANTUS_BIN" --host 127.0.0.1 --port "$port" --storage-path "$DATA/secantus" --standalone \
    --sync-on-commit --cache-size 256M --log-file-max 32MB --log-level WARNING >"$log_file" 2>&1 &
  echo $! >"$DATA/mongo.pid"
  echo secantus >"$DATA/mongo.store"
  wait_for secantus 127.0.0.1 "$port" 60 "$log_file"
  log "started secantus on 127.0.0.1:$port (data in $DATA; stop: scripts/services.sh down)"
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
    # an `if`, not `&&`: a store this script did not start must not make `status` answer 1
    if [[ -f $DATA/mongo.store ]]; then echo "store started by this script: $(cat "$DATA/mongo.store")"; fi
    ;;
  *) die "usage: scripts/services.sh up|install|down|status|pid mongo|redis|stripe-mock" ;;
esac
