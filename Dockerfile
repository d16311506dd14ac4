# syntax=docker/dockerfile:1
# Meridian's container image: `docker build -t meridian .` (see README, "Containers").
# Stage 1 compiles the TypeScript with the development dependencies and bundles the server into one
# file (dist/server/main.js, scripts/bundle.js); stage 2 holds the production dependencies and the
# compiled dist/ only, and runs as the unprivileged `node` user.

ARG NODE_VERSION=22

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ormconfig.ts ./
# the bundler and the template of the entry points it writes (dist/server/main.js, cli.js)
COPY scripts/bundle.js scripts/server-entry.js ./scripts/
COPY apps ./apps
COPY libs ./libs
RUN npm run build

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
# NODE_OPTIONS and MALLOC_ARENA_MAX: what `npm run start:prod` sets too. The old generation's limit
# keeps its growth moderate, the young generation's semi-spaces are 8 MiB instead of 16, and glibc
# keeps 2 malloc arenas instead of one per thread: together they bound the memory held under load
# (README, "Memory"; docs/decisions.md). `docker run -e NODE_OPTIONS=…` replaces them.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8000 \
    DATA_DIR=/data \
    NODE_OPTIONS="--max-old-space-size=768 --max-semi-space-size=8" \
    MALLOC_ARENA_MAX=2
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# the embedded database (without DATABASE_URL) and local attachments live in DATA_DIR; the first start
# writes the code cache that later starts of this container read, as the CLI's first successful
# command writes its own (.env.example, CODE_CACHE_DIR)
RUN mkdir -p /data dist/server/.code-cache && chown node:node /data dist/server/.code-cache
USER node
VOLUME ["/data"]
EXPOSE 8000
# GET /health: 200 when the database answers and no migration is pending (no curl in the image)
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# the server's bundle (the CLI's entry point, `npm run cli`, is dist/server/cli.js);
# node itself, not npm: SIGTERM from `docker stop` reaches the server, which stops cleanly
CMD ["node", "dist/server/main.js"]
