#!/bin/sh
# The image's commands (Dockerfile, deploy/): one process each, with plain node and compiled code.
#   web       the portal and REST API (Next.js) on PORT (3000)
#   gateway   the lean gateway on GATEWAY_PORT (default PORT): /mcp, and with TOOLROOM_GATEWAY_UPSTREAM
#             set every other path passed to the web app
#   worker    a worker: discovery, approved calls, statistics, webhooks
#   migrate   applies the database migrations (run once per release, before the rest)
#   seed-demo | ensure-admin-token | create-admin | reencrypt-secrets | stats-rollup   one-off scripts
# Anything else runs as given (`node -e …`).
set -e
cd "$(dirname "$0")/.."
command="${1:-web}"
[ "$#" -gt 0 ] && shift
case "$command" in
  web) exec node -r ./dist/web-preload.cjs node_modules/next/dist/bin/next start -p "${PORT:-3000}" -H "${HOST:-0.0.0.0}" "$@" ;;
  gateway) GATEWAY_PORT="${GATEWAY_PORT:-${PORT:-3000}}" exec node dist/gateway.cjs "$@" ;;
  worker) exec node dist/worker.cjs "$@" ;;
  migrate) exec node dist/migrate.cjs "$@" ;;
  seed-demo|ensure-admin-token|create-admin|reencrypt-secrets|stats-rollup) exec node "dist/$command.cjs" "$@" ;;
  *) exec "$command" "$@" ;;
esac
