/**
 * @litho/http-h3: Litho's HTTP interface on h3 and the `litho` command line.
 * The HTTP app (`createLithoApp`) arrives with the render service; today the package
 * ships the `litho` commands and the storage wiring they share with `litho serve`.
 *
 * @module @litho/http-h3
 */
/** `litho render`: renders a design document in-process, e.g. `await renderCommand(['card.json', '-o', 'card.png'], io)`. */
export { renderCommand, type RenderCommandIo } from './commands/render.js'
/** `litho users create`: creates an account, e.g. `await usersCreateCommand(['--email', 'ann@example.com', '--password-stdin'], { ...io, stdin })`. */
export { usersCreateCommand, type UsersCreateIo } from './commands/users-create.js'
/** `litho keys create`: creates a render key and prints its secret once, e.g. `await keysCreateCommand(['--email', 'ann@example.com'], io)`. */
export { keysCreateCommand } from './commands/keys-create.js'
/** `litho keys sign-url`: signs a render link offline, e.g. `await keysSignUrlCommand(['og-card', '--kid', id, '--base', 'https://render.example.com'], io)`. */
export { keysSignUrlCommand, parseExpires } from './commands/keys-sign-url.js'
/** `litho keys link-secret`: a render key's new link secret, e.g. `await keysLinkSecretCommand(['--email', 'ann@example.com', '--id', id], io)`. */
export { keysLinkSecretCommand } from './commands/keys-link-secret.js'
/** `litho designs import`: stores a design document as a draft or published, e.g. `await designsImportCommand(['--email', 'ann@example.com', 'card.json', '--publish'], io)`. */
export { designsImportCommand } from './commands/designs-import.js'
/** `litho users list`: a page of users in id order (never a password hash), e.g. `await usersListCommand(['--limit', '50'], io)`. */
export { usersListCommand } from './commands/users-list.js'
/** `litho users delete`: a user with their keys (and with `--force` their designs), e.g. `await usersDeleteCommand(['--email', 'ann@example.com', '--yes'], io)`. */
export { usersDeleteCommand } from './commands/users-delete.js'
/** `litho keys list`: a user's render keys (never a secret), e.g. `await keysListCommand(['--email', 'ann@example.com'], io)`. */
export { keysListCommand } from './commands/keys-list.js'
/** `litho keys revoke`: deletes a render key, which stops rendering at once, e.g. `await keysRevokeCommand(['--email', 'ann@example.com', '--id', id], io)`. */
export { keysRevokeCommand } from './commands/keys-revoke.js'
/** `litho designs list`: a page of a user's designs, e.g. `await designsListCommand(['--email', 'ann@example.com'], io)`. */
export { designsListCommand } from './commands/designs-list.js'
/** `litho designs export`: a design as the `{"name","design"}` record `designs import` reads, e.g. `await designsExportCommand(['--email', 'ann@example.com', '--id', id], io)`. */
export { designsExportCommand } from './commands/designs-export.js'
/** `litho designs delete`: deletes a design, whose render URL answers 404 at once, e.g. `await designsDeleteCommand(['--email', 'ann@example.com', '--id', id], io)`. */
export { designsDeleteCommand } from './commands/designs-delete.js'
/** `litho assets upload`: stores an image in a user's asset library, e.g. `await assetsUploadCommand(['logo.png', '--email', 'ann@example.com'], io)`. */
export { assetsUploadCommand } from './commands/assets-upload.js'
/** `litho assets list`: a page of a user's assets, e.g. `await assetsListCommand(['--email', 'ann@example.com'], io)`. */
export { assetsListCommand } from './commands/assets-list.js'
/** `litho assets delete`: deletes an asset (refused while a published design draws it, unless `--force`), e.g. `await assetsDeleteCommand([id, '--email', 'ann@example.com'], io)`. */
export { assetsDeleteCommand } from './commands/assets-delete.js'
/** `litho usage`: a user's render counts (as `GET /analytics/api`) and plan quota, e.g. `await usageCommand(['--email', 'ann@example.com', '--group-by', 'week'], io)`. */
export { usageCommand } from './commands/usage.js'
/** `litho signing-keys rotate`: new URL- and/or token-signing keys, the old ones verifying until what they signed expires, e.g. `await signingKeysRotateCommand(['all'], io)`. */
export { signingKeysRotateCommand } from './commands/signing-keys-rotate.js'
/** `litho token create|revoke`: access tokens for scripts, minted with the server's own key (docs/authentication.md). */
export { parseTtl, tokenCreateCommand, tokenRevokeCommand } from './commands/token.js'
/** The URL-signing keys of `litho serve` (key file or environment) and their rotation, e.g. `await rotateUrlSigningKeyFile('.litho', new Date())`. */
export { RENDER_LINK_KEY_FILE, loadRenderLinkKey, type LoadedRenderLinkKey } from './render-link-key.js'
export { loadUrlSigningKeys, rotateUrlSigningKeyFile, generateUrlSigningKey, type LoadedUrlSigningKeys, type RotatedUrlSigningKeys } from './url-signing-keys.js'
/** `litho gc`: one retention sweep (expired stored files, the meter's expired windows), e.g. `await gcCommand(['--hosted-retention-days', '30'], io)`. */
export { gcCommand } from './commands/gc.js'
/** The retention setting and sweep that `litho serve` runs periodically, e.g. `await collectGarbage({ files, meter, retention }, { hostedRetentionDays: 30 })`. */
export { collectGarbage, readHostedRetentionDays, startSweeper, type GcReport } from './retention.js'
/** What the admin commands need from their surroundings (output, env, and for tests the stores). */
export type { AdminCommandIo } from './commands/_admin.js'
/** The stores of `litho serve` and the admin commands, chosen by `LITHO_*` variables, e.g. `await createBackends({ dataDir: '.litho', filesBaseUrl })`. */
export { ConfigError, SIGNING_KEY_FILE, createBackends, type BackendsOptions, type LithoBackends } from './backends.js'
/** A command called wrongly (unknown flag, missing FILE): the CLI prints it with the usage, exit 2. */
export { UsageError } from './commands/usage-error.js'
/** A command called rightly that cannot be done (duplicate email, unknown user, plan limit): exit 1. */
export { CommandError } from './commands/command-error.js'
/** The render service as an h3 app: `createLithoApp({ designs, accounts, files, meter, renderer, signer, renderUrl })`. */
export { createLithoApp, type LithoAppOptions } from './app/create-litho-app.js'
/** The Litho Console at `/console` for other hosts (`createLithoApp`'s `console` option mounts it), and its CSP. */
export { consoleCsp, mountConsole, type ConsoleOptions } from './app/console.js'
/** The OpenAPI 3.1 document of the app, e.g. to publish it elsewhere. */
export { createOpenApiDocument, type OpenApiAddresses } from './openapi/document.js'
/** The standalone server of `litho serve`: `await startLithoServer({ dataDir: '.litho', port: 3000 })`. */
export { startLithoServer, type LithoServer, type LithoServerOptions } from './server.js'
/** `litho serve`, callable in-process: `await serveCommand(['--port', '3000'], { log: console.log })`. */
export { serveCommand, type ServeCommandIo } from './commands/serve.js'
/** The render and bulk reference page, generated from the OpenAPI document. */
export { renderHttpReference } from './app/reference.js'
/** Prometheus metrics of the app and of `litho serve` (docs/metrics.md), e.g. `createLithoApp({ ...options, metrics: createLithoMetrics() })`. */
export { createLithoMetrics, type LithoMetrics, type LithoMetricsOptions, type RenderCacheLabel } from './observe/metrics.js'
/** `GET /metrics` with an optional bearer token, for serving the registry on a port of your own. */
export { METRICS_PATH, metricsResponse, metricsTokenProblem, type MetricsEndpointOptions } from './observe/metrics-endpoint.js'
/** The structured log (pino JSON, or text lines), e.g. `createLithoApp({ ...options, logger: createLogger({ format: 'json' }), logRequests: true })`. */
export { createLogger, readLogSettings, LOG_FORMATS, LOG_LEVELS, type LithoLogger, type LoggerOptions, type LogFormat, type LogLevel } from './observe/logger.js'
/** Request ids (`X-Request-Id`): the proxy's when safe, else a new UUID, e.g. `requestIdOf(request.headers.get('x-request-id'))`. */
export { MAX_REQUEST_ID_LENGTH, REQUEST_ID_HEADER, requestIdOf } from './observe/request-id.js'
/** What an unexpected error is reported with (`onError`'s second argument): its request id. */
export type { ErrorReportContext } from './app/errors.js'
