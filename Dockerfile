# syntax=docker/dockerfile:1
#
# One image for every Node process of the monorepo (gateway, accounts, posts, ...).
# The process is chosen by the container command, e.g.
#   docker run IMAGE node services/accounts/dist/main.js
# (docker-compose.yml and deploy/base/*.yaml set it per service; the default is the gateway).
#
#   docker build -t spa-node:local .

ARG NODE_IMAGE=node:24-slim

# ---------------------------------------------------------------------------
# build: install everything, generate gRPC code (buf + ts-proto), compile, then
# drop devDependencies and keep only package.json + dist/ of each workspace.
# ---------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV npm_config_update_notifier=false \
    npm_config_fund=false \
    npm_config_audit=false \
    SCARF_ANALYTICS=false

# Whole context (see .dockerignore: no node_modules, dist, build info, .git, local data).
# The build needs package*.json, buf.yaml, buf.gen.yaml, proto/, tsconfig*.json and every workspace.
COPY . .

# No install scripts: production needs none (sharp ships prebuilt binaries through npm); the only one the
# repository allows, better-sqlite3, serves the Bluesky PDS test and would need a compiler here.
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts
RUN npm run build
RUN npm prune --omit=dev \
 && mkdir -p /out \
 && cp -a package.json package-lock.json node_modules /out/ \
 && for ws in libs/* services/* gateway tools/*; do \
      [ -f "$ws/package.json" ] || continue; \
      mkdir -p "/out/$ws" && cp -a "$ws/package.json" "/out/$ws/"; \
      if [ -d "$ws/dist" ]; then cp -a "$ws/dist" "/out/$ws/"; fi; \
      if [ -d "$ws/fonts" ]; then cp -a "$ws/fonts" "/out/$ws/"; fi; \
    done

# ---------------------------------------------------------------------------
# runtime: production node_modules + compiled output only, non-root, no npm at run time.
# ---------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    NODE_OPTIONS=--enable-source-maps
WORKDIR /app

# Files stay owned by root (read-only for the process); the process runs as `node` (uid 1000).
COPY --from=build /out/ /app/

# Container health check used by docker-compose (Kubernetes uses its native grpc/httpGet probes):
#   node healthcheck.mjs grpc 127.0.0.1:50051      -> grpc.health.v1.Health/Check on service "" is SERVING
#   node healthcheck.mjs http http://127.0.0.1:8080/healthz  -> HTTP 2xx
COPY <<"EOF" /app/healthcheck.mjs
import grpc from '@grpc/grpc-js';
import health from 'grpc-health-check';

const [mode, target] = process.argv.slice(2);
const done = (ok, why) => {
  if (!ok) process.stderr.write(`unhealthy: ${why}\n`);
  process.exit(ok ? 0 : 1);
};
if (mode === 'grpc' && target) {
  const Health = grpc.makeClientConstructor(health.service, 'grpc.health.v1.Health');
  const client = new Health(target, grpc.credentials.createInsecure());
  client.Check({ service: '' }, { deadline: Date.now() + 3000 }, (err, res) =>
    done(!err && res?.status === 'SERVING', err ? err.message : `status ${res?.status}`),
  );
} else if (mode === 'http' && target) {
  fetch(target, { signal: AbortSignal.timeout(3000) }).then(
    (res) => done(res.ok, `HTTP ${res.status}`),
    (err) => done(false, err.message),
  );
} else {
  done(false, 'usage: node healthcheck.mjs grpc HOST:PORT | http URL');
}
EOF

# The media service's local storage and staging (a volume in docker compose; an emptyDir on Kubernetes).
RUN mkdir -p /var/lib/spa-media && chown node:node /var/lib/spa-media

USER node
EXPOSE 8080 8095 50051 50052 50053 50054 50055 50057
CMD ["node", "gateway/dist/main.js"]
