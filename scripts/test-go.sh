#!/usr/bin/env bash
# Runs the Go tests, every package under the race detector: the hub, the
# writer, the count batcher, the sessions and the grains are the code with
# the most goroutines, and they run with several cluster members in the
# same process in actors/, httpapi/ and cluster/. protoactor-go's races that
# used to keep those packages out are fixed in the copy we build
# (third_party/protoactor-go/PATCHES.md).
#
# GORACE halt_on_error stays off so one run lists every race, each failing
# its test.
set -euo pipefail
cd "$(dirname "$0")/.."

pkgs=$(go list ./...)
echo "== go test -race ($(wc -w <<<"$pkgs") packages)"
exec go test -race -count=1 -timeout 20m $pkgs
