#!/usr/bin/env bash
# Installs the system packages Campus needs on Debian/Ubuntu when they are
# missing: Postgres binaries (always); with --browser, Debian's chromium for
# the end-to-end tests; with --etcd, Debian's etcd-server for the etcd
# cluster provider's tests and `make cluster`; with --prometheus, Debian's
# prometheus for its promtool, which checks deploy/monitoring's alert rules
# in the tests. Uses apt-get as root or
# through sudo; otherwise prints the one command to run and fails.
#
# It also builds the S3-compatible server the media tests run against
# (versitygw, from the Go module proxy) into the user's cache directory,
# where media/s3test looks for it; the version must match s3test.Version.
set -euo pipefail

VERSITYGW_VERSION=v1.8.0
vgw_dir="${XDG_CACHE_HOME:-$HOME/.cache}/campus/versitygw-$VERSITYGW_VERSION"
if [ -z "${CAMPUS_VERSITYGW:-}" ] && [ ! -x "$vgw_dir/versitygw" ]; then
  echo "Building versitygw $VERSITYGW_VERSION for the media tests (once) into $vgw_dir"
  mkdir -p "$vgw_dir"
  # From the cache dir, outside our module: its go.mod does not apply.
  (cd "$vgw_dir" && GOBIN="$vgw_dir" GOFLAGS=-buildvcs=false GOWORK=off \
    go install "github.com/versity/versitygw/cmd/versitygw@$VERSITYGW_VERSION")
fi

want_browser=0
want_etcd=0
want_prometheus=0
for arg in "$@"; do
  case "$arg" in
    --browser) want_browser=1 ;;
    --etcd) want_etcd=1 ;;
    --prometheus) want_prometheus=1 ;;
    *) echo "usage: $0 [--browser] [--etcd] [--prometheus]" >&2; exit 2 ;;
  esac
done

missing=()
if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  missing+=(postgresql)
fi
if [ "$want_browser" = 1 ] && [ ! -x /usr/bin/chromium ]; then
  missing+=(chromium)
fi
if [ "$want_etcd" = 1 ] && ! command -v etcd >/dev/null 2>&1; then
  missing+=(etcd-server)
fi
if [ "$want_prometheus" = 1 ] && ! command -v promtool >/dev/null 2>&1; then
  missing+=(prometheus)
fi
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing missing system packages: ${missing[*]}"
if [ "$(id -u)" = 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo=(sudo -n)
else
  echo "Please run: sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
