# The README's two commands: `make demo` and `make test`. Everything else is a helper.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_RUN := $(VENV)/.installed-run
STAMP_TEST := $(VENV)/.installed-test

.PHONY: demo test lint bench clean browser i18n mosquitto

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(STAMP_RUN): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(STAMP_TEST): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[test]'
	touch $@ $(STAMP_RUN)

# Debian's chromium for the browser tests (never `playwright install`: no browser downloads here).
browser:
	@if [ ! -x /usr/bin/chromium ]; then \
	  if [ "$$(id -u)" = "0" ]; then apt-get update -qq && apt-get install -y -qq chromium >/dev/null; \
	  else echo "browser tests need Debian's chromium: run 'sudo apt-get install chromium'"; fi; \
	fi

# Debian's mosquitto MQTT broker for the event tests (tests/event start their own on a free port).
mosquitto:
	@if ! command -v mosquitto >/dev/null && [ ! -x /usr/sbin/mosquitto ]; then \
	  if [ "$$(id -u)" = "0" ]; then (apt-get install -y -qq mosquitto >/dev/null 2>&1 || \
	    (apt-get update -qq && apt-get install -y -qq mosquitto >/dev/null)); \
	  else echo "event tests need Debian's mosquitto: run 'sudo apt-get install mosquitto'"; fi; \
	fi

# The live assistant on its embedded demo, on a fresh journal; prints the URL (Ctrl-C stops it).
demo: $(STAMP_RUN)
	$(BIN)/dominocam serve --source demo --db "$$(mktemp -d)/demo.db"

test: $(STAMP_TEST) browser mosquitto
	$(BIN)/python -m pytest -q

# Russian and English catalogs: extract the marked strings, update the .po files, compile the .mo
# files (committed, so a fresh clone runs as is); then translate what it lists as empty in ru.
i18n: $(STAMP_RUN)
	$(BIN)/python -m webui.catalogs

# ruff, then the layers and no import cycles (pyproject.toml's [tool.importlinter] contracts).
lint: $(STAMP_TEST)
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-cache

bench: $(STAMP_RUN)
	$(BIN)/python -m lab.benchmarks.run_all

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
