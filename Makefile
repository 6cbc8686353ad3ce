# Campus — the README's two commands are `make run` and `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := help

GO      ?= go
BIN     := bin/campus
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)
# The container image's name; deploy/kubernetes runs campus:latest.
IMAGE   ?= campus:latest

.PHONY: help run cluster test build idps image image-test client client-deps system system-browser system-etcd system-prometheus vet test-go fuzz fuzz-smoke test-client e2e bench soak clean generate

help:
	@echo "make run    build everything and start Campus on the embedded Postgres"
	@echo "make test   run every test (Go with real Postgres, fuzz smoke, client)"
	@echo "make bench  run the benchmark (see README)"
	@echo "make soak   30 minutes of mixed traffic at half capacity, resource trends (SOAK=5m for less)"
	@echo "make cluster  three nodes on loopback with the etcd provider (see README)"
	@echo "make image  the container image, bin/campus-image.tar (see README: Image)"

## run: install what is missing, build the client and the binary, start a node.
run: system client build
	./$(BIN) serve

## cluster: three nodes on loopback, found through a private etcd (scripts/cluster.sh).
cluster: system system-etcd client build
	scripts/cluster.sh

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) .

## idps: the test identity providers the e2e suite signs in through
## (sso/ssotest/cmd/idps: an OpenID provider and a SAML IdP on loopback).
idps:
	$(GO) build -o bin/campus-idps ./sso/ssotest/cmd/idps

## image: the container image as one OCI/docker archive (deploy/image): a
## static campus with the Kubernetes provider, the client, pg_dump.
image: system client
	CGO_ENABLED=0 $(GO) build -tags k8s -trimpath -ldflags "-s -w $(LDFLAGS)" -o bin/campus-k8s .
	SOURCE_DATE_EPOCH=$$(git log -1 --format=%ct 2>/dev/null || echo 0) $(GO) run ./deploy/image/mkimage \
	  -binary bin/campus-k8s -client client/dist -tag "$(IMAGE)" -version "$(VERSION)" \
	  -revision "$$(git rev-parse HEAD 2>/dev/null)" -o bin/campus-image.tar

## image-test: make image, then the image's test on that archive (as root:
## it unpacks the layers and runs campus serve, backup and restore chrooted).
image-test: image
	$(GO) test -count=1 -run TestImage ./deploy/image/ -args -image=$(CURDIR)/bin/campus-image.tar

system:
	@scripts/ensure-system.sh

system-browser:
	@scripts/ensure-system.sh --browser

system-etcd:
	@scripts/ensure-system.sh --etcd

# promtool checks deploy/monitoring's alert rules (deploy/monitoring/monitoring_test.go).
system-prometheus:
	@scripts/ensure-system.sh --prometheus

# npm ci only when the lock file changed since the last install.
client-deps: client/node_modules/.campus-installed
client/node_modules/.campus-installed: client/package-lock.json
	cd client && npm ci --no-audit --no-fund
	@touch $@

client: client-deps
	cd client && npm run build

## test: everything the CI runs.
test: system system-browser system-etcd system-prometheus client build vet test-go fuzz-smoke test-client e2e

vet:
	$(GO) vet ./...

test-go:
	scripts/test-go.sh

# fuzz-smoke: every fuzz target for a fixed number of executions, so a busy
# machine does the same work, only slower. fuzz: long runs by the clock.
fuzz-smoke:
	FUZZTIME=$${FUZZTIME:-20000x} scripts/fuzz-go.sh

fuzz:
	FUZZTIME=$${FUZZTIME:-10m} scripts/fuzz-go.sh

test-client: client-deps
	cd client && npm run typecheck && npm test

# Playwright (playwright-core) in Debian's chromium against a real campus
# serve on a fresh embedded database; every step must run (none skipped).
e2e: system-browser client build idps
	cd client && E2E_REQUIRE_ALL=1 CAMPUS_BIN=$(CURDIR)/$(BIN) CAMPUS_IDPS_BIN=$(CURDIR)/bin/campus-idps npm run e2e

generate:
	$(GO) generate ./...

bench: system system-etcd client build
	$(GO) run ./bench $(BENCH_ARGS)

soak: system client build
	$(GO) run ./bench --soak $${SOAK:-30m} $(BENCH_ARGS)

clean:
	rm -rf bin client/dist
