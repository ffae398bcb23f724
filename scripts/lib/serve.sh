# Sourced by the suite's steps that need the built API on its own port (contract run, browser test).
# serve_api NAME: starts `node dist/main.js` on $PORT (logging to .data/reports/NAME-server.log),
# stops it when the calling script exits, waits until /health answers; sets SERVER and BASE.
serve_api() {
  local name=$1 log=.data/reports/$1-server.log
  mkdir -p .data/reports
  BASE=http://127.0.0.1:$PORT
  export BASE
  node dist/main.js >"$log" 2>&1 &
  SERVER=$!
  trap 'kill $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true' EXIT
  for _ in $(seq 1 100); do
    curl -fs "$BASE/health" >/dev/null 2>&1 && return 0
    kill -0 "$SERVER" 2>/dev/null || { cat "$log"; echo "[$name] server exited"; exit 1; }
    sleep 0.2
  done
  echo "[$name] the server did not answer /health within 20 s"
  exit 1
}

# json PATH: prints the value at a dotted PATH of the JSON document on stdin.
json() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=process.argv[1].split(".").reduce((o,k)=>o[k],JSON.parse(s));console.log(v)})' "$1"; }
