# Switchboard — two commands from a fresh Debian/Ubuntu clone:
#   make run    install what is missing, build, open the app
#   make test   the whole suite: Go, frontend units, e2e (Playwright + Xvfb)
# Every target is idempotent: installed packages and up-to-date builds are skipped.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

GO        ?= go
# Every go command make runs (and those the tests run: they inherit it)
# builds with -trimpath. Without it, a package's compile results are keyed
# by the directory it sits in, so a second clone in another directory (CI's,
# a worktree) recompiles the whole tree, with -race, and lints it again:
# minutes on 2 cores. With it, they come from the build cache.
# They also leave out DWARF, the debuggers' tables, which nothing make builds
# uses (the packages are stripped; panics, the race detector's reports and
# pprof read the symbol and line tables, which stay): 6 % of the CPU of a
# fresh tree's compile, and 16 % (1.8 of 11.6 minutes) of compiling and
# linking make test's -race test binaries on a fresh machine. A -gcflags
# or -ldflags of yours comes after these and wins; an -ldflags on the
# command line (make build's) replaces the -w, and wails adds its own.
GOFLAGS   := $(strip -trimpath -gcflags=all=-dwarf=false -ldflags=-w $(filter-out -trimpath,$(GOFLAGS)))
export GOFLAGS
TAGS      := webkit2_41
BIN       := build/bin/switchboard
WAILS     := $(GO) tool wails
VERSION   ?= $(shell git describe --tags --dirty 2>/dev/null || echo 0.0.0-dev+$$(git rev-parse --short HEAD 2>/dev/null || echo unknown))
LDFLAGS   := -X github.com/switchboard-app/switchboard/app/buildinfo.Version=$(VERSION)

# Debian packages: build (GTK + WebKitGTK 4.1) and tests (display, browser,
# keyring, and bubblewrap for the sandboxed-server tests).
BUILD_PKGS := libgtk-3-dev libwebkit2gtk-4.1-dev pkg-config gcc
TEST_PKGS  := xvfb xauth chromium gnome-keyring dbus-x11 libsecret-tools xdotool x11-utils imagemagick bubblewrap cmake g++
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: help run build windowlibs-stubs llama prewarm-package package-windows-test deps-llama lint lint-go lint-frontend test test-go test-llama test-frontend test-e2e prewarm-deb-layer fmt deps deps-build deps-test bench bench-llama clean package package-linux package-windows test-package deps-package lint-workflows

help:
	@echo "make run    install missing packages, build and launch Switchboard"
	@echo "make test   run every test (Go, frontend units, e2e under Xvfb)"
	@echo "make lint   golangci-lint (go vet's checks among them) and ESLint (part of make test)"
	@echo "make build  build $(BIN)"
	@echo "make llama  build the local model runtime (llama-server; a few minutes, once; make run does)"
	@echo "make package  Linux .deb + .tar.gz and the Windows installer in $(PKG_DIR)"

# --- dependencies -----------------------------------------------------------

define apt_install
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if ! command -v apt-get >/dev/null; then \
	    echo "missing packages:$$missing — install them with your package manager (see README)"; exit 1; fi; \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq; \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef

deps-build:
	$(call apt_install,$(BUILD_PKGS))

deps-test: deps-build
	$(call apt_install,$(TEST_PKGS))

# The frontend's npm ci, kept by lockfile like the test servers' below
# (build/npmtree.sh). Then package.json.md5 (what wails build compares
# package.json with before it runs its own "frontend:install") says the
# install is done, so wails build does not run npm ci a second time (~18 s).
frontend/node_modules/.package-lock.json: frontend/package-lock.json frontend/package.json
	build/npmtree.sh frontend
	@printf '%s' "$$(md5sum < frontend/package.json | cut -d' ' -f1)" > frontend/package.json.md5
	@touch $@

# Real MCP servers the Go integration tests run, pinned by the lockfile.
TEST_SERVERS := mcpmanager/testdata/npm
$(TEST_SERVERS)/node_modules/.package-lock.json: $(TEST_SERVERS)/package-lock.json $(TEST_SERVERS)/package.json
	build/npmtree.sh $(TEST_SERVERS)
	@touch $@

# 15 more real servers whose 300+ tools the find_tools test lists (never calls).
# Browsers are not downloaded: the servers only need to start and list tools.
TOOLSEARCH_SERVERS := app/chat/toolsearch/testdata/npm
$(TOOLSEARCH_SERVERS)/node_modules/.package-lock.json: $(TOOLSEARCH_SERVERS)/package-lock.json $(TOOLSEARCH_SERVERS)/package.json
	PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 PUPPETEER_SKIP_DOWNLOAD=1 build/npmtree.sh $(TOOLSEARCH_SERVERS) --ignore-scripts
	@touch $@

# MCP Apps example servers (server-basic-vanillajs, server-basic-react) the
# apps e2e test and the serve pass-through test render and read.
APPS_SERVERS := mcpmanager/apps/testdata/npm
$(APPS_SERVERS)/node_modules/.package-lock.json: $(APPS_SERVERS)/package-lock.json $(APPS_SERVERS)/package.json
	build/npmtree.sh $(APPS_SERVERS)
	@touch $@

# Anthropic's mcpb CLI: the bundle tests pack (and sign) their .mcpb files with it.
TEST_BUNDLES := mcpmanager/bundle/testdata/npm
$(TEST_BUNDLES)/node_modules/.package-lock.json: $(TEST_BUNDLES)/package-lock.json $(TEST_BUNDLES)/package.json
	build/npmtree.sh $(TEST_BUNDLES)
	@touch $@

# Third-party MCP clients (conformance suite, inspector) and the Node 22 they need.
TEST_CLIENTS := mcpmanager/testdata/clients
$(TEST_CLIENTS)/node_modules/.package-lock.json: $(TEST_CLIENTS)/package-lock.json $(TEST_CLIENTS)/package.json
	build/npmtree.sh $(TEST_CLIENTS)
	@touch $@
include mcpmanager/testdata/conformance/conformance.mk

deps: deps-build frontend/node_modules/.package-lock.json

# --- build and run ----------------------------------------------------------

build: deps
	$(WAILS) build -tags $(TAGS) -trimpath -ldflags "$(LDFLAGS)" -o switchboard -m -nocolour
	@chmod 644 frontend/wailsjs/runtime/*  # wails writes them executable; git keeps them 644
	@build/linux/windowlibs.sh --check $(BIN)
	@echo "built $(BIN)"

# The window's libraries are loaded when the window opens, through stubs
# (app/windowlibs); after a Wails or WebKitGTK upgrade that calls functions
# the stubs lack, make build says so and this writes them again from a
# binary linked the ordinary way.
windowlibs-stubs: deps
	$(GO) build -tags desktop,production,$(TAGS),windowlibs_eager -trimpath -o build/bin/switchboard-eager .
	$(GO) run ./app/windowlibs/internal/stubgen -bin build/bin/switchboard-eager -dir app/windowlibs
	rm build/bin/switchboard-eager

run: build llama
	./$(BIN)

# --- tests ------------------------------------------------------------------

# gofmt. go vet's analyzers run in make lint: golangci-lint's govet runs
# go vet's default analyzers on the whole tree with the llama and bench tags
# (.golangci.yml), so make test runs no go vet of its own.
fmt:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt: files above need formatting"; exit 1; }

# The local model runtime: llama.cpp's llama-server (and llama-bench beside
# it, for make bench), built once into a cache outside the tree
# (build/llama/build.sh): on Linux only the two tools are compiled, against
# the libraries of node-llama-cpp's prebuilt package, ggml's CPU backend
# among them once per x86-64 generation, which sit beside them (a few
# minutes on 2 cores); its tests run with a small random-weight model
# written at test time. The packages carry it: the .deb and .tar.gz in
# usr/lib/switchboard/ (llama-server and its libraries), the Windows
# installer as llama-server.exe beside switchboard.exe (cross-compiled from
# source with mingw-w64, about 5 minutes, only when a package is made). The
# Linux cache is named after the package whose libraries it holds, so a
# cache of the older layout (llama-server compiled whole) is not taken for it.
NLC_VERSION  := 3.22.1
NLC_PLATFORM := linux-$(if $(filter aarch64 arm64,$(shell uname -m)),arm64,x64)
LLAMA_CACHE  := $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/switchboard
LLAMA_DIR    ?= $(LLAMA_CACHE)/llama-node-llama-cpp-$(NLC_VERSION)-$(NLC_PLATFORM)
LLAMA_SERVER := $(LLAMA_DIR)/bin/llama-server
LLAMA_WIN_DIR    ?= $(LLAMA_CACHE)/llama-node-llama-cpp-$(NLC_VERSION)-windows-amd64
LLAMA_WIN_SERVER := $(LLAMA_WIN_DIR)/bin/llama-server.exe

# What build.sh needs (npm comes with Node, which the frontend needs too).
LLAMA_PKGS := cmake g++ git
deps-llama:
	$(call apt_install,$(LLAMA_PKGS))

$(LLAMA_SERVER): build/llama/build.sh build/llama/prebuilt.cmake | deps-llama
	build/llama/build.sh $(LLAMA_DIR)

# make llama builds the runtime for make run's app (make run and the test targets build it too).
llama: $(LLAMA_SERVER)

$(LLAMA_WIN_SERVER): build/llama/build.sh
	LLAMA_TARGET=windows-amd64 build/llama/build.sh $(LLAMA_WIN_DIR)

# test-go runs the local model's tests too (the llama tag, with the runtime
# built above): one -race compile of the tree instead of a second one of
# app/localmodel, app/host and app/cli with the tag.
# -vet=off: go test's own vet pass (a subset of go vet's checks, on every
# test package) repeats what golangci-lint's govet has checked by then; on a
# fresh machine it is 80 s of CPU.
LLAMA_ENV = SWITCHBOARD_LLAMA_SERVER=$(LLAMA_SERVER) SWITCHBOARD_LLAMA_SRC=$(LLAMA_DIR)/src
test-go: deps-test $(LLAMA_SERVER) $(APPS_SERVERS)/node_modules/.package-lock.json $(TEST_BUNDLES)/node_modules/.package-lock.json $(TEST_SERVERS)/node_modules/.package-lock.json $(TEST_CLIENTS)/node_modules/.package-lock.json $(TOOLSEARCH_SERVERS)/node_modules/.package-lock.json
	$(LLAMA_ENV) $(GO) test -race -vet=off -tags llama -count=1 -timeout 10m ./...
	xvfb-run -a $(GO) test -race -tags $(TAGS) -count=1 ./app/webkit/  # the web view's settings, against WebKitGTK
	$(GO) test -race -tags dev,$(TAGS) -count=1 ./app/windowlibs/  # the window's libraries, loaded at the first call

# make test-llama runs only the local model's tests (make test runs them in test-go).
test-llama: deps-test $(LLAMA_SERVER)
	$(LLAMA_ENV) $(GO) test -tags llama -race -count=1 -timeout 10m ./app/localmodel/
	$(LLAMA_ENV) $(GO) test -tags llama -race -count=1 -timeout 10m -run LocalModel ./app/host/ ./app/cli/

test-frontend: frontend/node_modules/.package-lock.json
	cd frontend && npm run typecheck && npm test

# e2e: the app's development build (wails' "dev" tag, what 'wails dev'
# runs) in browser mode, serving the built frontend, driven by Chromium; the
# suite runs as E2E_SHARDS harnesses side by side (frontend/e2e/shards.sh),
# each under a private X display and a private D-Bus session with its own
# unlocked gnome-keyring in a throw-away directory (so no test touches the
# user's display or keyring, nor another shard's). E2E_SHARDS=1 runs it as
# one; E2E_ONLY=chat,settings runs some files.
E2E_BIN    := build/bin/switchboard-e2e
E2E_SHARDS ?= 2
test-e2e: deps-test build $(LLAMA_SERVER) $(TEST_SERVERS)/node_modules/.package-lock.json $(TEST_BUNDLES)/node_modules/.package-lock.json $(APPS_SERVERS)/node_modules/.package-lock.json
	$(GO) build -tags dev,$(TAGS) -o $(E2E_BIN) .
	SWITCHBOARD_BIN=$(CURDIR)/$(BIN) E2E_DEV_BIN=$(CURDIR)/$(E2E_BIN) \
	  SWITCHBOARD_LLAMA_SERVER=$(LLAMA_SERVER) SWITCHBOARD_LLAMA_SRC=$(LLAMA_DIR)/src \
	  frontend/e2e/shards.sh $(E2E_SHARDS)

# The house rules a linter states (see .golangci.yml and frontend/eslint.config.js).
# golangci-lint is a Go tool of its own module file (.golangci.mod), so its
# dependencies never move the product's; its cache is in ~/.cache/golangci-lint
# and ESLint's in frontend/node_modules/.cache. A second run at the same time
# (another checkout's make test) waits for the first instead of failing.
GOLANGCI := $(GO) tool -modfile=.golangci.mod golangci-lint
lint: lint-go lint-frontend

lint-go:
	$(GOLANGCI) run --allow-serial-runners ./...

lint-frontend: frontend/node_modules/.package-lock.json
	cd frontend && npm run lint

test: prewarm-package fmt lint test-go conformance test-frontend prewarm-deb-layer test-e2e test-package

# What the packages step needs and no earlier step does (the Windows app's
# Go packages, and the clean Debian root the .deb is installed into), then
# what the builds step compiles (the Wails CLI, the app's packages with its
# tags), starts first, in the background at idle priority (build/idle.sh: it runs on CPU
# time the tests leave unused while they wait on servers, browsers, the disk
# and the network, and takes none from a test), so on a fresh machine the
# packages step finds it done; on a warm one there is nothing to do. A part
# that failed is done again there, in the foreground, with its error.
prewarm-package: deps-package
	GO="$(GO)" SUDO="$(SUDO)" TAGS="$(TAGS)" build/idle.sh build/bin/prewarm-package.log build/prewarm-package.sh

# Once the app is built (the builds step), the packages its .deb will
# depend on (package.sh --depends) are installed over the clean Debian root
# in the background at idle priority, as a layer the .deb's test installs
# over (build/linux/test-deb.sh --layer; made once per Depends line and kept
# a week), so on a fresh machine the packages step finds it made, or waits
# for the rest of it: it is mostly downloads and disk writes, which the e2e
# suite's CPU leaves room for. Where it is made already, it does nothing.
prewarm-deb-layer: deps-package build $(LLAMA_SERVER)
	build/idle.sh build/bin/prewarm-deb-layer.log sh -c '$(SUDO) $(if $(SUDO),-n) build/linux/test-deb.sh --layer "$$(build/linux/package.sh --depends $(BIN) $(LLAMA_SERVER))"'

# --- packages ---------------------------------------------------------------
# make package: build/package/ gets the Linux .deb and .tar.gz (package.sh) and
# the Windows GUI cross-compiled here with its NSIS installer (Debian's nsis),
# which installs WebView2 when missing and registers .mcpb. Production builds
# are -trimpath and stripped (wails adds -s -w). macOS is built by
# .github/workflows/release.yml on a macOS runner. The Windows runtime is
# built for the installer only when a package is made (make package, make
# bench): make test builds and checks the Windows installer without it
# (test-package), which keeps llama.cpp's whole compile (8 minutes of CPU
# time) off a fresh machine's make test.
PKG_DIR   := build/package
PKG_PKGS  := debootstrap desktop-file-utils nsis file cmake g++ g++-mingw-w64-x86-64-posix p7zip-full
WIN_SETUP := $(PKG_DIR)/switchboard-windows-amd64-setup.exe
# The Windows build is redone only when a source it is made of changed.
WIN_SRC   := $(shell git ls-files '*.go' go.mod go.sum wails.json build/appicon.png 'frontend/src/*' frontend/index.html frontend/package-lock.json build/windows/installer/project.nsi 2>/dev/null)

deps-package:
	$(call apt_install,$(PKG_PKGS))

package: package-linux package-windows
	@echo "packages:"; ls -lh $(PKG_DIR) | awk 'NR > 1 {print "  " $$5 "\t" $$9}'

package-linux: deps-package build $(LLAMA_SERVER)
	build/linux/package.sh $(BIN) $(VERSION) $(PKG_DIR) $(LLAMA_SERVER) >/dev/null

package-windows: deps-package $(WIN_SETUP)

# win_installer(RUNTIME, OUT): the Windows app and its installer, with the
# runtime RUNTIME (none when empty) beside switchboard.exe (project.nsi
# installs build/bin/llama-server.exe when it is there), copied to OUT.
define win_installer
	rm -f build/bin/llama-server.exe
	$(if $(1),cp $(1) build/bin/llama-server.exe)
	$(WAILS) build -platform windows/amd64 -nsis -trimpath -s -skipbindings -m -nocolour \
	  -ldflags "$(LDFLAGS)" -o switchboard.exe
	mkdir -p $(dir $(2))
	cp build/bin/switchboard-amd64-installer.exe $(2)
endef

# A package made never lacks its runtime: checked as it is made.
$(WIN_SETUP): $(WIN_SRC) $(LLAMA_WIN_SERVER) | build
	$(call win_installer,$(LLAMA_WIN_SERVER),$@)
	build/package-runtime.sh $@ || { rm -f $@; exit 1; }

# make test's Windows installer: the same, without the runtime. (After
# make build, for frontend/dist; test-package's own make call says build
# has run: WIN_AFTER=.)
WIN_TEST_SETUP := build/bin/test-package/switchboard-windows-amd64-setup.exe
WIN_AFTER ?= build
$(WIN_TEST_SETUP): $(WIN_SRC) | $(WIN_AFTER)
	$(call win_installer,,$@)

# The packages work: the .deb installs with apt into a clean Debian root
# (debootstrap, cached in ~/.cache/switchboard-debootstrap; a .deb that passed
# is not tested again) where its llama-server runs too, its desktop entry
# validates, the Windows installer is a Nullsoft PE executable with the app
# in it, the Linux packages carry the local model runtime and no package a
# model, and the workflows lint clean. (make package checks that the
# Windows installer it makes carries the runtime too.) The .deb's test in
# the Debian root, which waits mostly on the network and the disk (apt),
# runs while the Windows installer is built, which waits on the CPU; its
# output follows when both are done.
TEST_DEB_LOG := build/bin/test-deb.log
# The sub-make is named through SUBMAKE, not $(MAKE): make -n runs a recipe
# line that names $(MAKE) (so the sub-make can print its own commands), and
# this line also starts the .deb's test as root; under make -n it is printed
# only, as every other step is.
SUBMAKE = $(MAKE)
test-package: package-linux lint-workflows
	@# What make test's prewarm did, in the background (see prewarm-package).
	@! [ -f build/bin/prewarm-package.log ] || grep -h '^prewarm:' build/bin/prewarm-package.log || true
	@! [ -f build/bin/prewarm-deb-layer.log ] || sed 's/^/prewarm: /' build/bin/prewarm-deb-layer.log
	desktop-file-validate build/linux/switchboard.desktop
	build/package-runtime.sh $(PKG_DIR)/switchboard_*.deb $(PKG_DIR)/switchboard_*.tar.gz
	$(SUDO) build/linux/test-deb.sh $$(ls $(PKG_DIR)/switchboard_*.deb) > $(TEST_DEB_LOG) 2>&1 & deb=$$!; \
	  win=0; $(SUBMAKE) --no-print-directory package-windows-test WIN_AFTER= || win=$$?; \
	  ok=0; wait $$deb || ok=$$?; echo "build/linux/test-deb.sh (beside the Windows build):"; cat $(TEST_DEB_LOG); \
	  [ $$ok = 0 ] || { echo "the .deb's test in a clean Debian root failed (above)"; exit 1; }; [ $$win = 0 ]
	@# (Not 'tee /dev/stderr': when stderr is a file, opening it again truncates it and the log so far is lost.)
	@kind=$$(file -b $(WIN_TEST_SETUP)); echo "$$kind"; case "$$kind" in *PE32*Nullsoft*) ;; *) echo "$(WIN_TEST_SETUP) is not a Nullsoft installer"; exit 1;; esac
	build/package-runtime.sh --without-runtime $(WIN_TEST_SETUP)

package-windows-test: deps-package $(WIN_TEST_SETUP)

lint-workflows:
	$(GO) tool actionlint .github/workflows/*.yml

# One table of ratios measured side by side in one run (see BENCHMARKS.md):
# the product's rows (bench/: calls, serve, concurrency, start-up, memory,
# the window under Xvfb, import, sizes), then the chat engine's, the
# kept results' (app/host), the content store's and the local model's. Packages run one at
# a time (-p 1), so no row shares the CPU with another package's; each
# appends its table and build/bench/table.sh merges them into one.
BENCH_OUT := build/bench-latest.md
# The local model's rows (app/localmodel/bench_llama_test.go, a few
# minutes): llama-server as the app runs it beside llama.cpp's llama-bench,
# on Qwen3-0.6B- and 1.7B-shaped models with random Q4_0 weights; then the
# prompt cache's rows (app/chat/bench_cache_llama_test.go): a 10-turn chat
# with tools through the engine, the prompt tokens llama-server processed
# per turn against those the turn added.
# BENCH_LLAMA_THREADS=N sets both sides' threads (default: one a CPU).
BENCH_LLAMA = SWITCHBOARD_LLAMA_SERVER=$(LLAMA_SERVER) SWITCHBOARD_LLAMA_SRC=$(LLAMA_DIR)/src \
	$(GO) test -tags llama,bench -p 1 -count=1 -timeout 30m -run TestBenchTableLlama -v ./app/localmodel/ ./app/chat/ | grep -v '^=== RUN'
bench: deps-test build package $(TEST_SERVERS)/node_modules/.package-lock.json $(LLAMA_SERVER)
	rm -f $(BENCH_OUT).parts
	BENCH_OUT=$(CURDIR)/$(BENCH_OUT).parts SWITCHBOARD_BIN=$(CURDIR)/$(BIN) xvfb-run -a -s "-screen 0 1280x900x24" \
	  $(GO) test -tags bench -p 1 -count=1 -timeout 45m -run TestBenchTable -v ./bench/ ./app/chat/ ./app/host/ ./builtin/contentstore/ | grep -v '^=== RUN'
	BENCH_OUT=$(CURDIR)/$(BENCH_OUT).parts $(BENCH_LLAMA)
	build/bench/table.sh $(BENCH_OUT).parts > $(BENCH_OUT)
	rm -f $(BENCH_OUT).parts
	@cat $(BENCH_OUT)
	@echo "table written to $(BENCH_OUT); copy it into BENCHMARKS.md when a figure moves"

# The local model's rows alone, into their own table.
bench-llama: $(LLAMA_SERVER)
	$(BENCH_LLAMA)

# Soak (under 10 minutes, loopback only): 10 stdio servers, SOAK_CALLS
# (default 20000) tool calls from 8 callers while a chaos loop SIGKILLs a
# server every few seconds; then checks that nothing leaked.
.PHONY: soak
soak: $(TEST_SERVERS)/node_modules/.package-lock.json
	$(GO) test -tags soak -count=1 -timeout 11m -run TestSoak -v ./mcpmanager/ | grep -v '^=== RUN'

clean:
	rm -rf build/bin frontend/dist/assets frontend/dist/index.html frontend/e2e/artifacts
