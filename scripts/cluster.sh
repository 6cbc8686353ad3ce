#!/usr/bin/env bash
# Runs three `campus serve` nodes on loopback as one cluster with the etcd
# provider (`make cluster`): a private etcd, node 1 on the embedded Postgres,
# nodes 2 and 3 on node 1's Postgres through DATABASE_URL, one shared media
# directory, remoting over mutual TLS with certificates made by `campus
# cluster certs`. Ctrl-C stops everything, nodes first. The nodes' state
# (certificates included) lives in $CLUSTER_DIR (default var/cluster) and
# survives restarts; etcd's does not.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=${CLUSTER_DIR:-var/cluster}
bin=${CAMPUS_BIN:-bin/campus}
etcd_client=${ETCD_CLIENT_PORT:-23790} # not 2379: a system etcd may own it
etcd_peer=${ETCD_PEER_PORT:-23800}
mkdir -p "$dir/media"
# Membership is not state worth keeping: a fresh etcd forgets the last run's
# nodes instead of listing them until their leases run out.
rm -rf "$dir/etcd"
# One cluster CA and node certificate for the three nodes, made once.
[ -e "$dir/tls/tls.crt" ] || "$bin" cluster certs "$dir/tls" >/dev/null

pids=()
stop() {
  trap - INT TERM EXIT
  echo "stopping the cluster"
  # Nodes 3, 2, 1 (node 1 owns Postgres), then etcd.
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    kill -TERM "${pids[i]}" 2>/dev/null || true
    wait "${pids[i]}" 2>/dev/null || true
  done
}
trap stop INT TERM EXIT

# setsid: Ctrl-C reaches this script only, which then stops the nodes in order.
setsid etcd --name campus-dev --data-dir "$dir/etcd" \
  --listen-client-urls "http://127.0.0.1:$etcd_client" --advertise-client-urls "http://127.0.0.1:$etcd_client" \
  --listen-peer-urls "http://127.0.0.1:$etcd_peer" --initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer" \
  --initial-cluster "campus-dev=http://127.0.0.1:$etcd_peer" \
  --log-level warn --logger zap >"$dir/etcd.log" 2>&1 &
pids+=($!)

# wait_for URL PID: until the URL answers 200, failing if PID exits.
wait_for() {
  for _ in $(seq 1 600); do
    curl -fsS -o /dev/null "$1" 2>/dev/null && return 0
    kill -0 "$2" 2>/dev/null || { echo "process $2 exited; see the logs in $dir" >&2; return 1; }
    sleep 0.2
  done
  echo "no answer from $1" >&2
  return 1
}
wait_for "http://127.0.0.1:$etcd_client/health" "${pids[0]}"

# node N [extra env...]: start node N (HTTP 808N, remoting 633N) in the background.
node() {
  local n=$1
  shift
  mkdir -p "$dir/node$n"
  # One media store for all nodes, so an image uploaded on one is served by all.
  [ -e "$dir/node$n/media" ] || ln -s ../media "$dir/node$n/media"
  env "$@" \
    CAMPUS_ADDR="127.0.0.1:808$n" \
    CAMPUS_DATA_DIR="$dir/node$n" \
    CAMPUS_CLUSTER_PROVIDER=etcd \
    CAMPUS_ETCD_ENDPOINTS="127.0.0.1:$etcd_client" \
    CAMPUS_CLUSTER_ADDR="127.0.0.1:633$n" \
    CAMPUS_CLUSTER_TLS_CA="$dir/tls/ca.pem" \
    CAMPUS_CLUSTER_TLS_CERT="$dir/tls/tls.crt" \
    CAMPUS_CLUSTER_TLS_KEY="$dir/tls/tls.key" \
    CAMPUS_LOG_FORMAT="${CAMPUS_LOG_FORMAT:-console}" \
    setsid "$bin" serve > >(sed -u "s/^/[node$n] /") 2>&1 &
  pids+=($!)
}

node 1
wait_for "http://127.0.0.1:8081/api/ready" "${pids[1]}"
pg="$dir/node1/postgres"
port=$(sed -n 4p "$pg/data/postmaster.pid")
database_url="postgres://campus:$(cat "$pg/password")@127.0.0.1:$port/campus?sslmode=disable"
node 2 DATABASE_URL="$database_url"
node 3 DATABASE_URL="$database_url"
wait_for "http://127.0.0.1:8082/api/ready" "${pids[2]}"
wait_for "http://127.0.0.1:8083/api/ready" "${pids[3]}"
echo "three nodes are up: http://127.0.0.1:8081 http://127.0.0.1:8082 http://127.0.0.1:8083"
echo "members: $(curl -fsS http://127.0.0.1:8081/api/ready)"
wait "${pids[1]}"
