#!/usr/bin/env bash
# Requests per second of the Users API with wrk on loopback: in-memory vs SQLite storage,
# for GET /users/me and for sign-ups (with the production PBKDF2 cost, and with a cost of 2
# iterations so the storage's own share shows). Needs wrk (apt-get install wrk) and curl.
#
#   bash Examples/Scripts/measure-storage.sh [seconds per run, default 10]
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${1:-10}"
swift build -c release --product users-server >/dev/null
BIN="$(swift build -c release --show-bin-path)/users-server"
WORK="$(mktemp -d)"
trap 'kill "${PID:-0}" 2>/dev/null || true; rm -rf "$WORK"' EXIT

serve() { # storage iterations
  local port=18080
  local args=(--port "$port" --password-iterations "$2")
  if [ "$1" = memory ]; then args+=(--in-memory); else args+=(--database "$WORK/$1-$2.sqlite"); fi
  "$BIN" "${args[@]}" >/dev/null &
  PID=$!
  for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$port/users/me" && break; sleep 0.1; done
  URL="http://127.0.0.1:$port"
}

stop() { kill "$PID"; wait "$PID" 2>/dev/null || true; PID=; }

# Requests per second, and any non-2xx answers (which would make the figure meaningless).
rps() { awk '/Requests\/sec/ { rate = $2 } /Non-2xx/ { bad = " (" $NF " non-2xx)" } END { print rate bad }'; }

for iterations in 5000 2; do
  for storage in memory sqlite; do
    serve "$storage" "$iterations"
    token=$(curl -s -X POST "$URL/auth/signup" -H 'Content-Type: application/json' \
      -d '{"name":"Bench","email":"bench@example.com","password":"password-1"}' | sed 's/.*"token":"\([^"]*\)".*/\1/')
    if [ "$iterations" = 5000 ]; then
      me=$(wrk -t2 -c32 -d"${DURATION}s" -H "Authorization: Bearer $token" "$URL/users/me" | rps)
      echo "GET /users/me  $storage: $me req/s"
    fi
    signup=$(wrk -t2 -c32 -d"${DURATION}s" -s Scripts/signup.lua "$URL" | rps)
    echo "sign-up ($iterations iterations)  $storage: $signup req/s"
    stop
  done
done
