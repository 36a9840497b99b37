# syntax=docker/dockerfile:1
#
# One image for every Node process of the monorepo (gateway, accounts, posts, ...).
# The process is chosen by the container command, e.g.
#   docker run IMAGE node services/accounts/dist/main.js
# (docker-compose.yml and deploy/base/*.yaml set it per service; the default is the gateway).
#
#   docker build -t spa-node:local .

# Pinned by digest so a rebuild uses the same base (refresh deliberately:
#   docker buildx imagetools inspect node:24-slim   and replace the digest).
ARG NODE_IMAGE=node:24-slim@sha256:a9f5f7c91a432850b2a8a7797adf5eadb6c733ceed61167806cee7ea7fbc29df

# ---------------------------------------------------------------------------
# manifests: the root and every workspace's package.json, alone, so the dependency layers below are
# rebuilt only when a manifest or the lockfile changes, not on every source edit.
# ---------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
ENV npm_config_update_notifier=false \
    npm_config_fund=false \
    npm_config_audit=false \
    SCARF_ANALYTICS=false
COPY package.json package-lock.json ./
COPY libs/config/package.json libs/config/
COPY libs/contracts/package.json libs/contracts/
COPY libs/errors/package.json libs/errors/
COPY libs/events/package.json libs/events/
COPY libs/grpc/package.json libs/grpc/
COPY libs/logger/package.json libs/logger/
COPY libs/mongo/package.json libs/mongo/
COPY libs/nats/package.json libs/nats/
COPY libs/platforms/package.json libs/platforms/
COPY libs/redis/package.json libs/redis/
COPY libs/secret-box/package.json libs/secret-box/
COPY libs/slots/package.json libs/slots/
COPY libs/telemetry/package.json libs/telemetry/
COPY libs/url-guard/package.json libs/url-guard/
COPY libs/testing/package.json libs/testing/
COPY libs/vocabulary/package.json libs/vocabulary/
COPY libs/webhook-signature/package.json libs/webhook-signature/
COPY services/accounts/package.json services/accounts/
COPY services/analytics/package.json services/analytics/
COPY services/generation/package.json services/generation/
COPY services/image-week/package.json services/image-week/
COPY services/media/package.json services/media/
COPY services/posts/package.json services/posts/
COPY services/publisher/package.json services/publisher/
COPY services/webhooks/package.json services/webhooks/
COPY gateway/package.json gateway/
COPY tools/admin/package.json tools/admin/
COPY tools/bench/package.json tools/bench/
COPY tools/deploy-check/package.json tools/deploy-check/
COPY tools/sandbox/package.json tools/sandbox/
COPY dashboard/package.json dashboard/
COPY sdk/typescript/package.json sdk/typescript/
COPY tools/lint/package.json tools/lint/
COPY tests/bluesky-pds/package.json tests/bluesky-pds/

# ---------------------------------------------------------------------------
# build: every dependency (dev included), then the sources, then generate gRPC code (buf + ts-proto)
# and compile. No install scripts: production needs none (sharp ships prebuilt binaries through npm);
# the only one the repository allows, better-sqlite3, serves the Bluesky PDS test and needs a compiler.
# ---------------------------------------------------------------------------
FROM manifests AS build
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts
# The sources (see .dockerignore: no node_modules, dist, build info, .git, local data).
COPY . .
RUN npm run build \
 && mkdir -p /out \
 && for ws in libs/config libs/contracts libs/errors libs/grpc libs/logger libs/mongo libs/nats libs/platforms libs/redis libs/secret-box libs/slots libs/telemetry libs/vocabulary libs/webhook-signature services/accounts services/analytics services/generation services/image-week services/media services/posts services/publisher services/webhooks gateway tools/admin; do \
      mkdir -p "/out/$ws" && cp -a "$ws/dist" "/out/$ws/"; \
      if [ -d "$ws/fonts" ]; then cp -a "$ws/fonts" "/out/$ws/"; fi; \
    done \
 && cp -a proto /out/proto \
 && mkdir -p /out/dashboard && cp -a dashboard/dist /out/dashboard/

# ---------------------------------------------------------------------------
# production dependencies: only what the processes import (no test workspace, no bench, no sandbox,
# no dev tools). Measured with the same command: 267 packages / 192 MB instead of 925 / 820 MB.
# ---------------------------------------------------------------------------
FROM manifests AS prod-deps
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --ignore-scripts \
      --workspace=libs/config \
      --workspace=libs/contracts \
      --workspace=libs/errors \
      --workspace=libs/grpc \
      --workspace=libs/logger \
      --workspace=libs/mongo \
      --workspace=libs/nats \
      --workspace=libs/platforms \
      --workspace=libs/redis \
      --workspace=libs/secret-box \
      --workspace=libs/slots \
      --workspace=libs/telemetry \
      --workspace=libs/vocabulary \
      --workspace=libs/webhook-signature \
      --workspace=services/accounts \
      --workspace=services/analytics \
      --workspace=services/generation \
      --workspace=services/image-week \
      --workspace=services/media \
      --workspace=services/posts \
      --workspace=services/publisher \
      --workspace=services/webhooks \
      --workspace=gateway \
      --workspace=tools/admin \
      --no-audit --no-fund

# ---------------------------------------------------------------------------
# runtime: production node_modules + compiled output only, non-root, no npm at run time.
# ---------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    NODE_OPTIONS=--enable-source-maps
WORKDIR /app

# Debian's ffmpeg (ffmpeg and ffprobe): the media service probes uploaded videos and converts media to each
# platform's preset with them, as child processes. From the distribution, never a downloaded binary.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ffmpeg \
 && rm -rf /var/lib/apt/lists/*

# Files stay owned by root (read-only for the process); the process runs as `node` (uid 1000).
# node_modules and the manifests from prod-deps; compiled output and the proto files (gRPC reflection)
# from build.
COPY --from=prod-deps /app/ /app/
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
# Public HTTP, media HTTP, gRPC ports, operations ports (metrics and probes).
EXPOSE 8080 8095 50051 50052 50053 50054 50055 50057 9464-9472
CMD ["node", "gateway/dist/main.js"]
