# syntax=docker/dockerfile:1
# Litho's render service (`litho serve`) as a container: docs/deploy.md.
#
#   docker build -t litho .
#   docker run -p 3000:3000 -e LITHO_PUBLIC_URL=http://localhost:3000 litho
#
# Checked without a container daemon by packages/http-h3/test/deploy-files.test.ts: the base,
# the user, the lockfile the install is frozen to, and this image's command and healthcheck
# run against the built workspace (docs/deploy.md says what is checked only on paper).

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: install from the lockfile and build every package
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# pnpm is the one the repository pins (package.json "packageManager"), through corepack.
ENV COREPACK_ENABLE_DOWNLOAD_PROMPT=0 CI=1
RUN corepack enable && corepack prepare pnpm@10.34.9 --activate
COPY . .
# `prepare` builds every package (tsup); sharp and @resvg/resvg-js take their prebuilt linux
# binaries from npm (pnpm-workspace.yaml allows their install scripts); fonts are npm packages
# (@fontsource/*, @litho/fonts-cjk), so nothing is fetched at run time.
RUN pnpm install --frozen-lockfile
# The whole workspace goes to the runtime stage: @litho/http-h3 takes @litho/core, h3, ioredis
# and bullmq as peers, which `pnpm deploy --prod` leaves out (see docs/deploy.md).
RUN rm -rf packages/*/test packages/*/bench .git

# ---- runtime: Node and the built workspace
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    LITHO_HOST=0.0.0.0 \
    PORT=3000 \
    LITHO_DATA_DIR=/data
# The `node` user of the image (uid 1000) runs the service; /data is its only writable place.
RUN mkdir -p /data && chown node:node /data
WORKDIR /app
COPY --from=build /app /app
USER node
VOLUME ["/data"]
EXPOSE 3000
# Liveness: /healthz answers from the moment the port opens (readiness is /readyz).
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM reaches node directly (no shell): in-flight requests finish, then it exits 0.
ENTRYPOINT ["node", "/app/packages/http-h3/bin/litho.js"]
CMD ["serve", "--host", "0.0.0.0"]
