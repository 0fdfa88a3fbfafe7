#!/usr/bin/env bash
# What `make test` needs from the machine beyond npm packages and the Go-built tools, prepared
# before the tests start (README: "make test" alone is the whole setup on a Debian machine):
#
# - Debian's Chromium for the browser tests (CHROMIUM_PATH, default /usr/bin/chromium): installed
#   with apt-get when missing and this user may install packages (root, or sudo without a
#   password); otherwise the one command to run is printed and the run stops here;
# - the machine's PostgreSQL, started when it is installed but stopped (FerretDB keeps its data
#   there; without it FerretDB falls back to slower SQLite files, see docs/decisions.md).
#
# RabbitMQ is started by the launcher itself (infra/src/rabbit.ts).
set -euo pipefail

# where Debian's chromium package puts it (a test points it elsewhere)
DEBIAN_CHROMIUM="${DEBIAN_CHROMIUM:-/usr/bin/chromium}"
CHROMIUM="${CHROMIUM_PATH:-$DEBIAN_CHROMIUM}"

# The prefix that runs a command as root without asking: nothing for root, `sudo -n` when
# passwordless sudo works; fails when neither.
as_root() {
  if [ "$(id -u)" = 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo -n "$@"
  else
    return 127
  fi
}

may_install() {
  [ "$(id -u)" = 0 ] || { command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; }
}

if [ ! -x "$CHROMIUM" ]; then
  if [ -n "${CHROMIUM_PATH:-}" ]; then
    echo "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable; point it at a Chromium or unset it" >&2
    exit 1
  fi
  if ! may_install; then
    echo "The browser tests need Debian's Chromium, which is not installed. Run once:" >&2
    echo "" >&2
    echo "    sudo apt-get install -y chromium" >&2
    echo "" >&2
    echo "then make test again (or set CHROMIUM_PATH to another Chromium)." >&2
    exit 1
  fi
  echo "installing Debian's chromium for the browser tests (apt-get install chromium)"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 \
    install -y --no-install-recommends chromium
  if [ ! -x "$CHROMIUM" ]; then
    echo "apt-get install chromium finished but $CHROMIUM is still missing" >&2
    exit 1
  fi
fi

# PostgreSQL: started when installed but stopped (and we may); otherwise FerretDB uses SQLite
if [ -z "${FERRETDB_POSTGRESQL_URL:-}" ] && [ "${FERRETDB_BACKEND:-}" != sqlite ] \
  && ! (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null \
  && [ -d /etc/postgresql ] && command -v pg_ctlcluster >/dev/null 2>&1 && may_install; then
  version="$(ls /etc/postgresql | sort -V | tail -1)"
  if [ -n "$version" ]; then
    echo "starting PostgreSQL $version (FerretDB keeps its data there)"
    as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start \
      || echo "PostgreSQL did not start; FerretDB falls back to SQLite files (slower)" >&2
  fi
fi

# PostgreSQL's connection limit: every FerretDB of a run (the test servers', the fault suite's,
# the tracing test's) keeps a pool of connections, and Debian's default of 100 runs out when the
# jest projects run side by side ("too many clients"). Raised once to 300 when we may.
if [ -z "${FERRETDB_POSTGRESQL_URL:-}" ] && [ "${FERRETDB_BACKEND:-}" != sqlite ] \
  && (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null && command -v psql >/dev/null 2>&1 \
  && [ -d /etc/postgresql ] && command -v pg_ctlcluster >/dev/null 2>&1 && may_install; then
  current="$(psql -h 127.0.0.1 -U postgres -d postgres -Atc 'show max_connections' 2>/dev/null || true)"
  if [ -n "$current" ] && [ "$current" -lt 300 ] 2>/dev/null; then
    version="$(ls /etc/postgresql | sort -V | tail -1)"
    echo "raising PostgreSQL's max_connections from $current to 300 (FerretDB pools; restarts it)"
    if psql -h 127.0.0.1 -U postgres -d postgres -qc 'ALTER SYSTEM SET max_connections = 300' \
      && as_root pg_ctlcluster --skip-systemctl-redirect "$version" main restart; then
      for _ in $(seq 1 30); do
        (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null && break
        sleep 1
      done
    else
      echo "could not raise max_connections; the tests may run out of connections under load" >&2
    fi
  fi
fi
