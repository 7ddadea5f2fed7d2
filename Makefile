# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
comma := ,
empty :=
space := $(empty) $(empty)
# The app alone, with the extras its configured servers need (`make run EXTRAS=postgres,redis`).
EXTRAS ?= $(if $(filter postgres%,$(SCOREKEEPER_DATABASE_URL) $(DATABASE_URL)),postgres) \
	$(if $(filter redis%,$(SCOREKEEPER_RATELIMIT_STORAGE_URI)),redis)
EXTRAS_LIST := $(subst $(space),$(comma),$(strip $(EXTRAS)))
APP_STAMP := $(VENV)/.installed-app$(if $(EXTRAS_LIST),-$(subst $(comma),-,$(EXTRAS_LIST)))
FLASK := $(BIN)/flask --app scorekeeper
TRANSLATIONS := scorekeeper/translations
CATALOGS := $(wildcard $(TRANSLATIONS)/*/LC_MESSAGES/messages.po)
COMPILED := $(CATALOGS:.po=.mo)
# nmsg and _l mark strings the rules engine and forms translate later.
KEYWORDS := -k _l -k nmsg:1,2 -k NN_:1,2 -k C_:1c,2 -k NC_:1c,2,3

HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install translations extract db run dev check test bench lighthouse clean

# A venv made before the app was named scorekeeper-rummy holds it as "scorekeeper" (the name of
# another project on the package index): removed first, so one distribution owns the command.
UNINSTALL_OLD_NAME = $(BIN)/python -m pip uninstall --quiet --yes scorekeeper 2>/dev/null || true

# The development install: the app, both extras and the tools `make test` runs (so it
# holds what `make run` needs too).
$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(UNINSTALL_OLD_NAME)
	$(BIN)/python -m pip install --quiet -c constraints.txt -e ".[dev]"
	touch $(STAMP) $(APP_STAMP)

# What `make run` needs: the app's own dependencies (and EXTRAS), no test tools.
$(APP_STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(UNINSTALL_OLD_NAME)
	$(BIN)/python -m pip install --quiet -c constraints.txt -e ".$(if $(EXTRAS_LIST),[$(EXTRAS_LIST)])"
	touch $(APP_STAMP)

install: $(STAMP)

%.mo: %.po $(APP_STAMP)
	$(BIN)/pybabel compile -i $< -o $@

translations: $(COMPILED)

# After adding or changing strings: refresh the template and every catalog, then translate.
# The Contract Rummy sheet's versions of messages come from docs/GLOSSARY.md (tools/sheet_context.py).
extract: install
	$(BIN)/pybabel extract -F babel.cfg $(KEYWORDS) --no-location --sort-output --width=100 \
		-o $(TRANSLATIONS)/messages.pot .
	$(BIN)/python tools/sheet_context.py template
	$(BIN)/pybabel update -i $(TRANSLATIONS)/messages.pot -d $(TRANSLATIONS) --no-fuzzy-matching --ignore-obsolete \
		--width=100
	$(BIN)/python tools/english_catalog.py
	$(BIN)/python tools/sheet_context.py copy

# Migrate, backing the database up first when a migration is due (scorekeeper/hosting/upgrades.py).
db: $(APP_STAMP) translations
	$(BIN)/scorekeeper migrate

# gunicorn's workers, one per core (waitress on Windows): `make run PORT=8080 HOST=0.0.0.0`.
run: db
	$(BIN)/scorekeeper serve --no-migrate --host $(HOST) --port $(PORT)

# Werkzeug's development server with the reloader and debugger: never on a network.
dev: db
	$(FLASK) run --debug --host 127.0.0.1 --port $(PORT)

check: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache --no-logo

# pytest-xdist: two workers per core, as a test spends much of its time waiting on a browser,
# a server process or PostgreSQL (TEST_WORKERS=0 runs the suite in one process). A file stays
# on one worker, so a module's fixtures run once: tests/hosting/test_package.py builds the
# package in the checkout, and two builds at once would collide. The 25 slowest tests are
# listed at the end, where the suite's time goes (docs/TESTING.md, "How long it takes").
# Bytecode is written even where the environment turns it off (PYTHONDONTWRITEBYTECODE, as on
# this project's CI machine): else every worker compiles the app and rewrites every test
# module's asserts again (collecting took 8.7 s of CPU a worker, 3.7 s with the bytecode kept),
# and so does every app process the tests start. __pycache__ is git-ignored and not packaged.
TEST_WORKERS ?= $(shell echo $$(( 2 * $$(getconf _NPROCESSORS_ONLN) )))
test: check translations
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -q -n $(TEST_WORKERS) --dist loadfile --durations=25

# Against the bare stack in bench/ (not part of make test); BENCH_ARGS=--before adds main (--before REV: a revision).
# bench/request_costs.py: statements and function calls per request, which the load does not move;
# bench/cost_table.py: instructions (callgrind) and statements a request against the bare app, on
# SQLite and PostgreSQL (COST_ARGS=--requests 10 for closer figures); bench/write_tail.py: the
# server's own write time; bench/capacity.py: what 10,000 live tables need, from the cost tables
# and 200 live tables played behind nginx (bench/proxy_tables.py --tables), saved in BENCH_FIGURES.
BENCH_ARGS ?= --profile
COST_ARGS ?=
BENCH_POSTGRES ?= postgresql://postgres@127.0.0.1:5432/postgres
BENCH_REDIS ?= redis://127.0.0.1:6379/15
BENCH_FIGURES ?= $(or $(TMPDIR),/tmp)/scorekeeper-bench-figures
bench: install translations
	mkdir -p $(BENCH_FIGURES)
	$(BIN)/python bench/run.py $(BENCH_ARGS)
	$(BIN)/python bench/request_costs.py
	$(BIN)/python bench/cost_table.py $(COST_ARGS) --save $(BENCH_FIGURES)/sqlite.json
	$(BIN)/python bench/cost_table.py $(COST_ARGS) --database $(BENCH_POSTGRES) --save $(BENCH_FIGURES)/postgresql.json
	$(BIN)/python bench/cost_table.py $(COST_ARGS) --database $(BENCH_POSTGRES) --version-map $(BENCH_REDIS) \
		--rate-limits $(BENCH_REDIS) --save $(BENCH_FIGURES)/postgresql-map.json
	$(BIN)/python bench/record_pages.py
	$(BIN)/python bench/proxy_tables.py
	$(BIN)/python bench/proxy_tables.py --tables 200 --phones 4 --seconds 45 --save $(BENCH_FIGURES)/tables.json
	$(BIN)/python bench/capacity.py --costs $(BENCH_FIGURES)/sqlite.json \
		--costs $(BENCH_FIGURES)/postgresql.json --costs $(BENCH_FIGURES)/postgresql-map.json \
		--run $(BENCH_FIGURES)/tables.json --postgres $(BENCH_POSTGRES) --redis $(BENCH_REDIS)
	$(BIN)/python bench/write_tail.py

# Lighthouse (mobile) on home, round screen and sheet; needs Node.js, npm and Debian's chromium.
lighthouse: install translations
	cd tools/lighthouse && npm install --no-audit --no-fund --silent
	$(BIN)/python tools/lighthouse/run.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache tests/artifacts
