# The two commands that matter: `make run` and `make test` (see README.md).
SHELL := /bin/bash
.DEFAULT_GOAL := help
NPM_STAMP := node_modules/.install-stamp

.PHONY: help install tools machine build build-run run dev reset backup restore demo test test-unit test-node24 lint typecheck e2e up down bench-gateway clean

help:
	@echo "make run    - everything on this machine at http://localhost:8080 (data kept in .data/run);"
	@echo "              REPLICAS=2: two processes of every service behind the gateway, as pods"
	@echo "make dev    - the same, services restarted on change, the SPA on Vite's dev server (:5173)"
	@echo "make reset  - delete make run's data (.data/run and its database): the next run starts afresh"
	@echo "make backup - one archive of make run's data in .data/backups (while it runs, or not)"
	@echo "make restore FROM=<archive> [FORCE=1] - put an archive back (make run stopped)"
	@echo "make demo   - invented data (lots, families, donations) in a running, empty make run"
	@echo "make test   - every test against real servers (FerretDB, RabbitMQ, MinIO, Mailpit)"
	@echo "npm test    - only the tests that need no server (make test-unit): the inner loop"
	@echo "make test-node24 - those and the platform's and auth's tests on Node 24 (the images' Node)"
	@echo "make up     - the same stack with docker compose (MongoDB, RabbitMQ, MinIO, Mailpit)"

# Install exactly what the lock file says when it changed since the last install. `npm ci` refuses
# a lock file that disagrees with package.json; `npm run lock` regenerates it (README).
# scripts/install.mjs keeps each lock file's installed node_modules in a per-user cache
# (~/.cache/moebelbruecke/node_modules): a second clone links them instead of running npm ci.
$(NPM_STAMP): package-lock.json package.json $(wildcard */package.json services/*/package.json services/libs/*/package.json tests/*/package.json)
	node scripts/install.mjs
	@touch $(NPM_STAMP)

install: $(NPM_STAMP)

# FerretDB and MinIO, built from their Go modules on first use into the per-user tool cache
# (~/.cache/moebelbruecke/tools), shared by every clone
tools: install
	npx tsx infra/src/cli/install-tools.ts

# What the tests need from the machine: Debian's chromium (installed when missing and allowed,
# otherwise the command to run is printed) and the machine's PostgreSQL started
machine:
	@bash scripts/prepare-test-machine.sh

# Type-checked build (tsc -b, the SPA with its type check): what make test runs against
build: install
	npm run build

# make run's build: the server packages transpiled and the SPA bundled, neither type-checked (type
# errors are make typecheck's and make test's), the SPA from the per-user cache when its sources match
build-run: install
	node scripts/transpile-server.mjs
	node scripts/build-spa.mjs

# scripts/run.mjs: FerretDB and MinIO built (when missing) beside make install and the builds of
# build-run, then infra/dist/cli/run.js (no npx, no tsx: seconds on a busy machine); a line per
# step with its time, each step's output in .data/run/logs/build/
run:
	@node scripts/run.mjs

# make run's infrastructure and data, services restarted when their code changes (transpiled on
# save, `node --watch`), the SPA on Vite's dev server at http://localhost:5173 (SPA_DEV_PORT)
dev:
	@node scripts/run.mjs dev

# make run's data gone (the folder and FerretDB's PostgreSQL database of it): the next run is fresh
reset: install
	npx tsx infra/src/cli/reset.ts

# one archive of make run's data (databases, photos, keys, manifest) in .data/backups (BACKUP_DIR),
# its path the last line; make run may be running (docs/operations.md, "Backup and restore")
backup: build-run
	node infra/dist/cli/backup.js

# an archive back into make run's data, make run stopped; FORCE=1 replaces data that exists
restore: build-run
	@test -n "$(FROM)" || { echo "usage: make restore FROM=<archive> [FORCE=1]"; exit 2; }
	FORCE="$(FORCE)" node infra/dist/cli/backup.js restore "$(FROM)"

# invented data for training and screenshots, through the API of the running make run (which
# must hold no lots; FORCE=1 adds it anyway); LOTS (40) and SEED change what it makes
# (docs/operations.md, "Demo data")
demo: build-run
	node services/admin-cli/dist/cli.js demo $(if $(filter 1,$(FORCE)),--force) \
	  $(if $(LOTS),--lots $(LOTS)) $(if $(SEED),--seed $(SEED))

# eslint per file; dependency-cruiser over the whole import graph (cycles, module boundaries)
lint: install
	npx eslint . --max-warnings=0
	npx depcruise --config .dependency-cruiser.cjs --output-type err-long .

typecheck: install
	npx tsc -p tsconfig.json
	npx tsc -p frontend/tsconfig.json
	npx tsc -p frontend/e2e/tsconfig.json

# the servers transpiled (as make run) and type-checked by typecheck, which runs beside lint: both
# are single-threaded, and two cores are here
test: machine tools build-run
	$(MAKE) --no-print-directory -j2 lint typecheck
	npx tsx infra/src/cli/install-tools.ts kustomize cyclonus
	npx jest --ci

# the tests that need no server (the SPA's, *.unit.test.ts elsewhere): seconds, for the inner loop
test-unit: install
	npx jest -c jest.unit.config.js

# The same code on Node 24 LTS, the images' Node (the machine's is 20): the tests that need no
# server and the projects NODE24_PROJECTS names, on the node_modules installed here (the native
# modules use Node-API, which both read). Node 24 is the npm registry's `node` package, fetched
# once into npm's cache (npm exec); its folder goes first in PATH, so that every node started
# below (jest's workers, tsx, the launcher's servers) is Node 24.
NODE24_PROJECTS ?= services/libs/platform services/auth services/admin-cli
test-node24: machine tools build-run
	@NODE24="$$(npm exec --yes --package=node@24 -- node -p 'require("path").dirname(process.execPath)')" \
	  && export PATH="$$NODE24:$$PATH" && echo "test-node24: Node $$(node --version) ($$NODE24)" \
	  && npx jest -c jest.unit.config.js && npx jest --ci --selectProjects $(NODE24_PROJECTS)

e2e: machine tools build-run
	npx jest --ci --selectProjects e2e

up:
	docker compose up -d --build

down:
	docker compose down

bench-gateway: tools build
	npm run bench:gateway

clean:
	rm -rf node_modules */node_modules services/*/node_modules services/libs/*/node_modules \
	  services/*/dist services/libs/*/dist gateway/dist infra/dist frontend/dist
