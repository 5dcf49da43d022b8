# Two entry points for a fresh machine with Python 3.11+, git and make:
#   make demo   plays a whole game with no camera and no board
#   make test   runs every test
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test bench clean

# a normal install for the demo; `make test` makes it editable (setuptools says a word about
# editable installs of mapped package folders, which a first `make demo` need not show)
$(BIN)/tableref: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q .
	touch $@

$(VENV)/.test-deps: $(BIN)/tableref
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@

demo: $(BIN)/tableref
	$(BIN)/tableref demo

test: $(VENV)/.test-deps
	$(BIN)/python -m pytest -q

bench: $(VENV)/.test-deps
	for b in bench/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info
