# The README's two commands. Both work on a fresh machine: they create .venv and install
# the project with its pinned-range dependencies from PyPI before doing anything else.
# The editable install is setuptools' "compat" mode: a plain path in a .pth file rather than an
# import hook, which every Python start (every CLI lookup) would pay ~14 ms to load.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Where `make build` reads and writes (the publishing workflow's test points them at a small corpus).
CORPUS ?= corpus
BUILD ?= build
HOST ?= github
# Where the site will be published (`make build BASE_URL=https://host/prefix/`): the feeds and the
# sitemap name it; empty is rules-kb's default, the address `rules-kb serve` gives.
BASE_URL ?=

.PHONY: setup build check-site test bench browser

$(BIN)/rules-kb: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/pip install --quiet --disable-pip-version-check -e '.[test]' --config-settings editable_mode=compat
	touch $@

setup: $(BIN)/rules-kb

# The JavaScript tools (ESLint; axe-core for the browser tests), exactly as package-lock.json pins them.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Ingest the corpus, write the model (build/model.jsonl), then build the knowledge base once and
# write from it the graph (build/graph.json), the store and the static site into build/site (it
# prints how to open it). The same files as graph export, store and build run one after another.
build: setup
	$(BIN)/rules-kb --corpus $(CORPUS) ingest --json $(BUILD)/model.jsonl
	$(BIN)/rules-kb --corpus $(CORPUS) build --out $(BUILD)/site --graph $(BUILD)/graph.json --store \
		$(if $(BASE_URL),--base-url $(BASE_URL))

# Check the built site against a static host's limits (github, cloudflare or gitlab) and the
# project's budget; fails naming what is over. The publishing workflow runs it before uploading.
check-site: setup
	$(BIN)/rules-kb publish --check --host $(HOST) --dir $(BUILD)/site

# Browser tests drive Debian's chromium (Playwright may not download a browser of its own) and
# need CJK fonts to render Japanese; the fault-injection tests use strace; installed with apt when
# missing (CI runs as root).
browser:
	@if ! command -v chromium >/dev/null || ! command -v strace >/dev/null || ! fc-list 2>/dev/null | grep -qi "Noto Sans CJK"; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk strace >/dev/null; \
	fi

# Lint every Python file (ruff, pyproject.toml) and the site's scripts (ESLint, eslint.config.js).
test: setup browser node_modules/.package-lock.json
	$(BIN)/ruff check .
	npm run lint --silent
	$(BIN)/python -m pytest; status=$$?; \
	if [ $$status -eq 5 ]; then echo "pytest collected no tests: failing" >&2; exit 1; fi; exit $$status

bench: setup
	for script in benchmarks/bench_*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done
