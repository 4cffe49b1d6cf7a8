#!/usr/bin/env bash
# Requests per second of the example server's `GET /users/me`, served through the container (every
# request in its own `withDependencies` scope, services resolved per request) and wired by hand
# (services built once at start-up, no container, no scope): the same handler code, the same store,
# the same token check and the same JSON (see `UsersRoutes.Wiring` in Examples/). Prints each round,
# the median of the per-round ratios container / hand-wired, and the load average around each round.
#
# Both servers run for the whole measurement, each with its own store and one signed-up user; wrk
# alternates between them, hand-wired first in odd rounds and container first in even ones, so a
# change in the machine's load moves both figures of a round. Read the ratio within a round.
#
# wrk runs one thread with 16 connections (-t1 -c16): on a 2-core machine the server's event loops
# need both cores, and a second wrk thread would take more of them from the server than it adds in
# load; 16 keep-alive connections keep every event loop busy without turning the figure into queueing.
# The client's cost per request is the same for both wirings, so it dilutes the ratio towards 1 as it
# would for any client on the same machine.
#
# Usage: Scripts/benchmarks-server.sh [rounds] [seconds per run]   (default: 5 rounds of 5 s)
#   STORES="sqlite memory"   the stores to measure, each in its own set of rounds (default: both)
#   ROUTE=me|login   `GET /users/me` (default), or `POST /auth/login` of the signed-up user
#                    (Examples/Scripts/login.lua): PBKDF2 at the server's default cost, then one
#                    write transaction replacing the user's session
#   CONFIGURATION=release|debug   how the server is built (default: release; CI's smoke run uses
#                    debug, the build the example's other steps already made, since it judges no figure)
#   WRK_THREADS=1 WRK_CONNECTIONS=16   the load (the server admits at most 32 connections per
#                    address before their first request, `UsersServer.Limits`)
# Loopback only. Needs curl and wrk (installed with apt-get when missing and running as root).
set -euo pipefail

cd "$(dirname "$0")/.."
rounds=${1:-5}
seconds=${2:-5}
read -r -a stores <<<"${STORES:-sqlite memory}"
route=${ROUTE:-me}
threads=${WRK_THREADS:-1}
connections=${WRK_CONNECTIONS:-16}
host=127.0.0.1

for number in "$rounds" "$seconds" "$threads" "$connections"; do
    [[ "$number" =~ ^[1-9][0-9]{0,3}$ ]] || { echo "expected a whole number from 1 to 9999, got '$number'" >&2; exit 2; }
done
[[ "$route" == me || "$route" == login ]] || { echo "ROUTE takes me or login, got '$route'" >&2; exit 2; }
for store in "${stores[@]}"; do
    [[ "$store" == sqlite || "$store" == memory ]] || { echo "STORES takes sqlite and memory, got '$store'" >&2; exit 2; }
done

if ! command -v wrk >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "== installing wrk" >&2
        DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y wrk >&2
    else
        echo "wrk is not installed: install it (apt-get install wrk, brew install wrk) and run again" >&2
        exit 1
    fi
fi
command -v curl >/dev/null || { echo "curl is not installed: install it and run again" >&2; exit 1; }

configuration=${CONFIGURATION:-release}
[[ "$configuration" == release || "$configuration" == debug ]] || {
    echo "CONFIGURATION takes release or debug, got '$configuration'" >&2
    exit 2
}
echo "== building the example server ($configuration)" >&2
# SwiftPM keeps a build plan that does not notice source files added to or removed from the
# DependencyKit package this one depends on by path; remove it so the plan is made again (the build
# itself stays incremental).
rm -f "Examples/.build/$configuration.yaml"
timeout 3600 swift build --package-path Examples -c "$configuration" --product users-server >&2
server=$(swift build --package-path Examples -c "$configuration" --show-bin-path)/users-server

work=$(mktemp -d)
pids=()
stop_servers() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    pids=()
}
trap 'stop_servers; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Starts a server with the given wiring and store, waits until it answers, signs a user up, and sets
# `url`, `token` and `server_pid`.
serve() { # wiring store
    local wiring=$1 store=$2 port pid
    local args=(--host "$host" --wiring "$wiring")
    if [ "$store" = memory ]; then args+=(--in-memory); else args+=(--database "$work/$wiring.sqlite"); fi
    for _ in 1 2 3; do
        port=$(free_port)
        "$server" "${args[@]}" --port "$port" >"$work/$wiring.log" 2>&1 &
        pid=$!
        pids+=("$pid")
        # Ready when it answers an unauthenticated GET /users/me with its 401; at most 10 s.
        for _ in $(seq 100); do
            kill -0 "$pid" 2>/dev/null || break
            if [ "$(curl -s -o /dev/null -w '%{http_code}' "http://$host:$port/users/me")" = 401 ]; then
                url="http://$host:$port"
                token=$(curl -s --max-time 30 -X POST "$url/auth/signup" -H 'Content-Type: application/json' \
                    -d '{"name":"Bench","email":"bench@example.com","password":"password-1"}' |
                    sed -n 's/.*"token":"\([^"]*\)".*/\1/p')
                [ -n "$token" ] || { echo "sign-up on the $wiring server failed" >&2; exit 1; }
                [ "$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" "$url/users/me")" = 200 ] ||
                    { echo "the $wiring server refused its own token" >&2; exit 1; }
                server_pid=$pid
                return
            fi
            sleep 0.1
        done
        kill "$pid" 2>/dev/null || true   # the port was taken meanwhile, or the start was too slow
    done
    echo "the $wiring server did not start; its log:" >&2
    cat "$work/$wiring.log" >&2
    exit 1
}

# The CPU time a process has used so far, in clock ticks (user + system).
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
ticks_per_second=$(getconf CLK_TCK)

# One wrk run: prints requests per second, and the server's CPU time per request in microseconds
# (user + system, from /proc), which a busy machine moves far less than the throughput. Fails on
# any error or non-2xx answer, which would make the figures meaningless.
measure() { # url token seconds server-pid
    local output before after
    before=$(cpu_ticks "$4")
    if [ "$route" = login ]; then
        output=$(timeout $(($3 + 60)) wrk -t"$threads" -c"$connections" -d"$3s" --timeout 10s \
            -s Examples/Scripts/login.lua "$1")
    else
        output=$(timeout $(($3 + 60)) wrk -t"$threads" -c"$connections" -d"$3s" --timeout 10s \
            -H "Authorization: Bearer $2" "$1/users/me")
    fi
    after=$(cpu_ticks "$4")
    if grep -qE 'Non-2xx|Socket errors' <<<"$output"; then
        echo "wrk saw errors against $1:" >&2
        echo "$output" >&2
        exit 1
    fi
    awk -v ticks=$((after - before)) -v hz="$ticks_per_second" '
        / requests in / { requests = $1 }
        /^Requests\/sec:/ { rate = $2 }
        END { printf "%d %.2f\n", rate + 0.5, ticks / hz * 1e6 / requests }' <<<"$output"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

load() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?"; }

route_name=$([ "$route" = login ] && echo "POST /auth/login" || echo "GET /users/me")
echo "$route_name, wrk -t$threads -c$connections -d${seconds}s on loopback, $(nproc 2>/dev/null || echo '?') cores," \
    "$rounds rounds per store"
for store in "${stores[@]}"; do
    serve hand "$store"
    hand_url=$url hand_token=$token hand_pid=$server_pid
    serve container "$store"
    container_url=$url container_token=$token container_pid=$server_pid
    # Warm both up (connection pools, SQLite's page cache, first-touch allocations).
    measure "$hand_url" "$hand_token" 1 "$hand_pid" >/dev/null
    measure "$container_url" "$container_token" 1 "$container_pid" >/dev/null

    ratios=() cpu_ratios=() hands=() containers=()
    echo "store: $store"
    printf '  %-6s %9s %12s %7s   %-22s %s\n' round hand/s container/s ratio \
        "CPU µs/request h, c" "CPU ratio c/h   load (1 min) before, after"
    for round in $(seq "$rounds"); do
        before=$(load)
        if ((round % 2)); then
            hand_result=$(measure "$hand_url" "$hand_token" "$seconds" "$hand_pid")
            container_result=$(measure "$container_url" "$container_token" "$seconds" "$container_pid")
        else
            container_result=$(measure "$container_url" "$container_token" "$seconds" "$container_pid")
            hand_result=$(measure "$hand_url" "$hand_token" "$seconds" "$hand_pid")
        fi
        read -r hand hand_cpu <<<"$hand_result"
        read -r container container_cpu <<<"$container_result"
        ratio=$(awk -v c="$container" -v h="$hand" 'BEGIN { printf "%.3f", c / h }')
        cpu_ratio=$(awk -v c="$container_cpu" -v h="$hand_cpu" 'BEGIN { printf "%.3f", c / h }')
        ratios+=("$ratio") cpu_ratios+=("$cpu_ratio") hands+=("$hand") containers+=("$container")
        printf '  %-6s %9s %12s %7s   %-22s %-14s %s, %s\n' "$round" "$hand" "$container" "$ratio" \
            "$hand_cpu, $container_cpu" "$cpu_ratio" "$before" "$(load)"
    done
    median_ratio=$(printf '%s\n' "${ratios[@]}" | median)
    verdict=$(awk -v r="$median_ratio" 'BEGIN { print (r >= 0.98 ? "meets" : "misses") }')
    printf '  median %9s %12s %7s   %-22s %s\n' \
        "$(printf '%s\n' "${hands[@]}" | median)" "$(printf '%s\n' "${containers[@]}" | median)" \
        "$median_ratio" "" "$(printf '%s\n' "${cpu_ratios[@]}" | median)"
    echo "  requests/s, container / hand-wired: median $median_ratio, $verdict the 0.98 target"
    stop_servers
done
cores=$(nproc 2>/dev/null || echo 1)
if awk -v l="$(load)" -v c="$cores" 'BEGIN { exit !(l > c) }'; then
    echo "note: load average $(load) on $cores cores: other work shares the machine, so the requests/s figures" \
        "measure it too; the CPU ratios move less. Rerun on a quiet machine before quoting a figure."
fi
