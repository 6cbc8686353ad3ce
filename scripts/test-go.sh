#!/usr/bin/env bash
# Runs the Go tests: with -race on every package, except those whose tests
# start protoactor remoting (its remote and disthash code trips the race
# detector — DESIGN §11), which run without it.
set -euo pipefail
cd "$(dirname "$0")/.."

race=()
norace=()
for pkg in $(go list ./...); do
  if go list -test -deps "$pkg" 2>/dev/null | grep -q '^github.com/asynkron/protoactor-go/remote$'; then
    norace+=("$pkg")
  else
    race+=("$pkg")
  fi
done

status=0
if [ ${#race[@]} -gt 0 ]; then
  echo "== go test -race (${#race[@]} packages)"
  go test -race -count=1 -timeout 15m "${race[@]}" || status=1
fi
if [ ${#norace[@]} -gt 0 ]; then
  echo "== go test without -race, protoactor remoting (${#norace[@]} packages)"
  go test -count=1 -timeout 15m "${norace[@]}" || status=1
fi
exit $status
