# Workspace Content API: build the TypeScript once, ship only dist/ and production dependencies.
# The container always talks to an external PostgreSQL (DATABASE_URL); the embedded PostgreSQL
# used for local development is not in the image.
#
# Needs BuildKit (the default builder since Docker 23) and Docker Engine 25 or later (--start-interval).
# Behind a proxy that re-signs TLS, give npm its CA for the build only (a secret is never stored in a layer):
#   docker build --secret id=npm_ca,src=/etc/ssl/certs/ca-certificates.crt .

# The official image, pinned by its digest (the tag beside it says which Node): a rebuild is the same base.
# To move it: `docker buildx imagetools inspect node:24.X.Y-bookworm-slim` prints that tag's digest now.
# scripts/stand-in-node-image.sh reads this line: a stand-in runs the Node the tag names.
ARG NODE_IMAGE=node:24.18.0-bookworm-slim@sha256:6f7b03f7c2c8e2e784dcf9295400527b9b1270fd37b7e9a7285cf83b6951452d

# ---- npm: the manifest and the lockfile that every install below must follow exactly ----
FROM ${NODE_IMAGE} AS npm
WORKDIR /app
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
COPY package.json package-lock.json ./

# ---- production dependencies, exactly as locked ----
# --omit=optional drops only the embedded PostgreSQL binaries (@embedded-postgres/<platform>) and
# pg-cloudflare (Cloudflare Workers only); neither is loaded when DATABASE_URL is set. --ignore-scripts:
# nothing here needs an install script, and the image's npm may not honour package.json's allowScripts.
# npm's cache and logs stay in the cache mount, outside every layer.
FROM npm AS prod-deps
RUN --mount=type=secret,id=npm_ca --mount=type=cache,target=/root/.npm \
    if [ -f /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi; \
    npm ci --omit=dev --omit=optional --ignore-scripts
# What packages publish but nothing loads at run time: source maps (some 40% of node_modules), type declarations,
# their own tests and Markdown documentation. Licences stay.
RUN find node_modules -type f \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.[cm]ts' \
      -o \( -iname '*.md' ! -iname 'licen[cs]e*' \) \) -delete && \
    find node_modules -depth -type d \( -name test -o -name tests -o -name __tests__ \) -exec rm -rf {} +

# ---- build: the compiler and its dependencies, src/ and migrations/ into dist/ ----
FROM npm AS build
RUN --mount=type=secret,id=npm_ca --mount=type=cache,target=/root/.npm \
    if [ -f /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi; \
    npm ci --omit=optional --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY migrations ./migrations
RUN npm run build

# ---- runtime: production dependencies and dist/ only, as the unprivileged `node` user; npm never runs here ----
FROM ${NODE_IMAGE} AS runtime
# tini (Debian's) as PID 1: it forwards SIGTERM to node from the container's first instant (node as PID 1
# ignores SIGTERM until its handler is installed) and reaps any child.
# apt-get clean: the layer keeps no package or cache, whether or not the base image's apt cleans up itself.
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends tini && \
    apt-get clean && rm -rf /var/lib/apt/lists/*
# Metrics listen on every interface in a container, so that a scraper outside it reaches them.
ENV NODE_ENV=production METRICS_HOST=0.0.0.0
WORKDIR /app
COPY package.json ./
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist

USER node
EXPOSE 3000 9464
# Probed every second until the first success (the service is ready in about a second), then every 15 s.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --start-interval=1s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/ready',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

# tini hands SIGTERM to node (drains in-flight requests, closes the pool, exits 0; while still loading, exits at once). Pending migrations
# are applied at boot under a lock unless RUN_MIGRATIONS=false. The command line, inside the container:
#   node dist/src/cli/main.js demo     (npm run cli needs the compiler, which the image does not hold)
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/src/main.js"]
