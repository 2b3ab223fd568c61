# Inference engines compared: every task, the same for people and CI.
# `make help` lists the targets.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Two stamps: serve, build and check need only the runtime; test adds the test tools.
# Installs read the hashed lock files (requirements*.lock.txt, made from the pinned
# requirements*.txt by `make lock`): a package whose file does not match its hash is refused.
RUNTIME := $(VENV)/.runtime-$(shell cat requirements.lock.txt | cksum | cut -d' ' -f1)
STAMP := $(VENV)/.dev-$(shell cat requirements.lock.txt requirements-dev.lock.txt | cksum | cut -d' ' -f1)
PIP_INSTALL := $(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps
# The tool that writes the lock files, in a venv of its own (never in the site's or the tests')
PIP_TOOLS := pip-tools==7.6.2
LOCK_VENV := .venv-lock
PIP_COMPILE := $(LOCK_VENV)/bin/pip-compile --quiet --generate-hashes --allow-unsafe --strip-extras --no-header \
	--no-emit-index-url --no-emit-find-links --no-emit-trusted-host
HOST ?= 127.0.0.1:8000
# BROWSER=0 skips the browser tests, on purpose and visibly; otherwise they must run.
BROWSER ?= 1
CHROMIUM ?= /usr/bin/chromium
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
NODE_TOOLS := tests/browser/node_modules/.package-lock.json

# Material and mkdocs-redirects print an end-of-life/MkDocs 2 banner on every build.
export NO_MKDOCS_2_WARNING := 1
export DISABLE_MKDOCS_2_WARNING := true
export PYTHONDONTWRITEBYTECODE := 1

.DEFAULT_GOAL := help
.PHONY: help setup serve build check fmt diff new-engine refresh verify-quotes lint test browser-tools bench audit links twin lock clean

help: ## List the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  make %-8s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(RUNTIME): requirements.lock.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP_INSTALL) -r requirements.lock.txt
	@rm -f $(VENV)/.runtime-* && touch $@

$(STAMP): $(RUNTIME) requirements-dev.lock.txt
	$(PIP_INSTALL) -r requirements-dev.lock.txt
	@rm -f $(VENV)/.dev-* && touch $@

lock: ## Write requirements*.lock.txt (every pin with its hashes) from requirements*.txt; needs the package index
	@test -x $(LOCK_VENV)/bin/pip-compile || ($(PYTHON) -m venv $(LOCK_VENV) && $(LOCK_VENV)/bin/python -m pip install --quiet $(PIP_TOOLS))
	$(PIP_COMPILE) -o requirements.lock.txt requirements.txt
	$(PIP_COMPILE) -o requirements-dev.lock.txt requirements-dev.txt

setup: $(STAMP) ## Create .venv and install the pinned requirements, test tools included

serve: $(RUNTIME) ## Serve the site on http://127.0.0.1:8000 with live reload (data/ and macros/ too)
	$(BIN)/mkdocs serve -f mkdocs.yml -a $(HOST)

build: $(RUNTIME) ## Build the site into site/ (strict: any warning fails)
	$(BIN)/mkdocs build -f mkdocs.yml --strict --clean

check: $(RUNTIME) ## Check every data file; print each problem as path:line:col, then warnings
	@$(BIN)/python -m macros check

# Values a caller types (BASE, ID, NAME) reach commands through the environment, quoted, never
# pasted into the recipe: a branch name like `x;curl ...` stays a branch name.
BASE ?= HEAD
export BASE ID NAME
diff: $(RUNTIME) ## The data change since BASE (default HEAD) in plain words: make diff BASE=main
	@$(BIN)/python -m macros diff "$$BASE"

fmt: $(RUNTIME) ## Rewrite data files in canonical key order (keeps comments)
	@$(BIN)/python -m macros fmt

new-engine: $(RUNTIME) ## Start an engine file with every cell not-researched: make new-engine ID=sglang NAME="SGLang"
	@$(BIN)/python -m macros new-engine --id "$$ID" --name "$$NAME"

# The two network tools read the web (nothing else does): ARGS passes options, e.g. ARGS="--format json --write".
ARGS ?=
refresh: $(RUNTIME) ## Compare each engine's release channels (PyPI, GitHub) with its data: make refresh ARGS=--write
	@$(BIN)/python -m macros refresh $(ARGS)

verify-quotes: $(RUNTIME) ## Fetch every quoted source; is its quote still there? make verify-quotes ARGS="--engine vllm"
	@$(BIN)/python -m macros verify-quotes $(ARGS)

# Lint: a small rule set that finds bugs, not taste, given here because the top level has no room
# for a ruff.toml (--isolated: no configuration file anywhere is read, so every checkout lints alike).
#   E4,E7,E9  ruff's own defaults from pycodestyle: imports not at the top, `== None`, bare except,
#             a lambda bound to a name, syntax errors
#   F         pyflakes: undefined names, unused imports and variables, a name defined twice (a test
#             function redefined under the same name silently never runs)
#   W6        an invalid escape sequence ("\d" outside a raw string): a SyntaxWarning, later an error
#   B         bugbear: mutable defaults, loop variables caught late by closures, a comparison or
#             expression whose result is dropped (a forgotten assert), zip() of unequal lengths
#   UP        pyupgrade to Python 3.11, the oldest supported: deprecated aliases and spellings
# Not chosen: line length and import order (no formatter owns the layout here, and ruff's isort
# rewraps imports one name a line), docstring, annotation and naming rules (thousands of hits of taste).
RUFF := $(BIN)/ruff check --isolated --no-cache --quiet --target-version py311 --select E4,E7,E9,F,W6,B,UP
# site.js is served as it is: a syntax error would stop every script of the site, and only the
# browser tests (skipped with BROWSER=0) would notice. Node comes with the browser tools.
LINT := $(RUFF) macros tests && \
	if command -v node >/dev/null; then node --check docs/assets/site.js; \
	else echo "lint: no node, docs/assets/site.js not checked"; fi

lint: $(STAMP) ## Lint the Python (ruff, a small rule set: see the Makefile) and check site.js parses
	@$(LINT)

test: $(STAMP) browser-tools ## Lint, check the data, then every test on every core (browser included; the tests build the site strictly)
	@start=$$(date +%s); \
	$(LINT) && \
	$(BIN)/python -m macros check && \
	BROWSER=$(BROWSER) CHROMIUM=$(CHROMIUM) $(BIN)/python -m pytest -n $(JOBS) --dist worksteal && \
	echo "make test: all green in $$(( $$(date +%s) - start )) s (target: 75 s warm on 2 idle cores; make bench measures it)"

# Chromium from Debian (test tools cannot download browsers here) and axe-core from npm.
browser-tools: $(if $(filter 0,$(BROWSER)),,$(NODE_TOOLS) $(CHROMIUM))

$(CHROMIUM):
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "Installing Chromium for the browser tests (apt-get)"; \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || exit 1; \
	else \
		echo "Chromium is missing at $(CHROMIUM). Install it (sudo apt-get install chromium), set CHROMIUM=/path/to/chromium,"; \
		echo "or skip the browser tests explicitly: make test BROWSER=0"; exit 1; \
	fi

$(NODE_TOOLS): tests/browser/package.json tests/browser/package-lock.json
	npm ci --prefix tests/browser --no-audit --no-fund --silent

twin: build ## Build with ProperDocs too, and check it is the same site but for the generator tag
	$(BIN)/properdocs build -f mkdocs.yml --strict --clean -q -d site-properdocs
	$(BIN)/python -m macros twin site site-properdocs

bench: $(RUNTIME) ## Build cost against its floor, make serve's reload after a data edit, 50x300 growth, warm make test (prints figures)
	$(BIN)/python -m macros bench $(ARGS)

audit: build $(CHROMIUM) tests/audit/node_modules/.package-lock.json ## Lighthouse scores of the main pages (performance, accessibility, best practices)
	CHROMIUM=$(CHROMIUM) $(BIN)/python tests/audit/audit.py

tests/audit/node_modules/.package-lock.json: tests/audit/package.json tests/audit/package-lock.json
	npm ci --prefix tests/audit --no-audit --no-fund --silent

links: build ## Add the pages and anchors of a fresh build to tests/promised-links.txt
	$(BIN)/python -m macros links --site site

clean: ## Remove the built site and caches (keeps .venv)
	rm -rf site site-properdocs .pytest_cache build test-results $(LOCK_VENV)
	find . -name __pycache__ -not -path './$(VENV)/*' -prune -exec rm -rf {} +
