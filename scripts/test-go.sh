#!/usr/bin/env bash
# Runs the Go tests: with -race on every package, except those whose tests
# start protoactor remoting (its remote and disthash code trips the race
# detector — docs/architecture.md §11.1), which run without it.
#
# The groups are decided from one `go list` answer read whole. (A pipe into
# `grep -q` under pipefail made go list die of SIGPIPE when grep exited early,
# and put packages in the wrong group at random.)
set -euo pipefail
cd "$(dirname "$0")/.."

# Every test binary ("<pkg>.test") with every package it links.
listing=$(go list -test -f '{{.ImportPath}} {{join .Deps " "}}' ./...)
declare -A remote=()
while read -r name deps; do
  [[ "$name" == *.test ]] || continue
  if [[ " $deps " == *" github.com/asynkron/protoactor-go/remote "* ]]; then
    remote["${name%.test}"]=1
  fi
done <<<"$listing"

race=()
norace=()
for pkg in $(go list ./...); do
  if [[ -n "${remote[$pkg]:-}" ]]; then
    norace+=("$pkg")
  else
    race+=("$pkg")
  fi
done
echo "== without -race (protoactor remoting): ${norace[*]:-none}"

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
