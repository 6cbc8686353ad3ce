#!/usr/bin/env bash
# Runs every Go fuzz target with a budget: FUZZTIME is either an execution
# count ("20000x", what `make test` uses: the same work however busy the
# machine is) or a duration ("10m", for `make fuzz`).
#
# A run fails on a real failure: a failing input written to testdata/fuzz, a
# panic or a failing seed. Go 1.26's coordinator can also stop a *duration*
# run with "context deadline exceeded" and no input at all (golang/go#75804,
# fixed in Go 1.27); that is reported as a warning, not a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${FUZZTIME:-20000x}"
# count_inputs is how many inputs a corpus directory holds (0 when there is
# none yet; find's failure on a missing directory must not stop the script).
count_inputs() {
  if [[ -d "$1" ]]; then find "$1" -type f | wc -l; else echo 0; fi
}

status=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u); do
    echo "== fuzz $pkg $target ($fuzztime)"
    before=$(count_inputs "$dir/testdata/fuzz/$target")
    if go test -run='^$' -fuzz="^${target}\$" -fuzztime="$fuzztime" "$pkg" >"$out" 2>&1; then
      tail -n 2 "$out"
      continue
    fi
    cat "$out"
    after=$(count_inputs "$dir/testdata/fuzz/$target")
    if [[ "$after" -eq "$before" ]] && ! grep -q 'Failing input written to' "$out" &&
      grep -q 'context deadline exceeded' "$out" && ! grep -qE '^panic:|--- FAIL: .*#[0-9]' "$out"; then
      echo "!! $target: Go's fuzz coordinator stopped at its deadline with no failing input (golang/go#75804): not a failure"
      continue
    fi
    status=1
  done
done
exit $status
