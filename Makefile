# Two commands: `make app` (install + run the app) and `make test` (install + every test).
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: app test install install-test lint bench

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

install: $(BIN)/python
	$(BIN)/pip install -q -e .

install-test: $(BIN)/python
	bash scripts/install_test_system_deps.sh
	$(BIN)/pip install -q -e '.[train,test]'

app: install
	$(BIN)/jingsuan app

test: install-test
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q

bench: install-test
	$(BIN)/python bench/run_all.py
