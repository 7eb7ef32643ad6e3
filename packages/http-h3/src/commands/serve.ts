/**
 * `litho serve [--port 3000] [--host 127.0.0.1] [--data ./.litho] [--public-url URL] [--threads N] [--log-requests] [--hosted-retention-days N] [--output-cache-mb N] [--shared-output-cache] [--no-console] [--metrics] [--metrics-port N] [--log-level LEVEL] [--log-format text|json] [--no-docs]`:
 * serves the whole interface on one origin until SIGTERM or SIGINT, then finishes in-flight
 * requests and exits 0. Every flag has an environment variable (serve-settings.ts). Expired
 * stored files are swept periodically (see `retention.ts`).
 *
 * @module commands/serve
 */
import { parseArgs } from 'node:util'
import { createLogger } from '../observe/logger.js'
import { startLithoServer, type LithoServer } from '../server.js'
import { SERVE } from './definitions.js'
import { readServeSettings } from './serve-settings.js'
import { UsageError } from './usage-error.js'

/** What `serve` needs from its surroundings. */
export interface ServeCommandIo {
  /** Where each log line goes (text, or one JSON object with `--log-format json`). */
  log(line: string): void
  env?: Record<string, string | undefined>
  /** Resolves when the process is asked to stop. @default the first SIGTERM or SIGINT */
  stopSignal?: Promise<string>
  /** Called once the server listens. */
  onListening?(server: LithoServer): void
}

/** Runs `litho serve`; resolves with the exit code after a clean stop. */
export async function serveCommand(argv: string[], io: ServeCommandIo): Promise<number> {
  const env = io.env ?? process.env
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: SERVE.options,
  })
  if (positionals.length > 0) throw new UsageError(`serve takes no arguments, received ${JSON.stringify(positionals[0])}`)
  const settings = readServeSettings(values, env)
  // Text lines keep the start-up lines people (and the quick start) read; json is for log pipelines.
  const logger = createLogger({ ...settings.log, write: io.log })
  const { dataDir } = settings

  const stop = io.stopSignal ?? waitForStop(env)
  const server = await startLithoServer({
    dataDir,
    port: settings.port,
    host: settings.host,
    ...(settings.publicUrl ? { publicUrl: settings.publicUrl } : {}),
    ...(settings.threads ? { threads: settings.threads } : {}),
    ...(settings.hostedRetentionDays !== undefined ? { hostedRetentionDays: settings.hostedRetentionDays } : {}),
    outputCache: settings.outputCache,
    env,
    // A JSON log is for machines: it has a line per request unless asked for nothing but errors.
    logRequests: settings.logRequests || settings.log.format === 'json',
    console: settings.console,
    docs: settings.docs,
    ...(settings.metrics.enabled ? { metrics: { ...(settings.metrics.port !== undefined ? { port: settings.metrics.port } : {}), ...(settings.metrics.token ? { token: settings.metrics.token } : {}) } } : {}),
    logger,
  })
  logger.info({ url: server.url, dataDir }, `litho: serving ${server.url} (data: ${dataDir})`)
  logger.info({}, `litho: OpenAPI at ${server.url}/openapi.json; create an account with \`pnpm litho users create --email you@example.com\` (it asks for the password)`)
  if (server.metricsUrl) logger.info({ metricsUrl: server.metricsUrl }, `litho: metrics at ${server.metricsUrl}${settings.metrics.token ? ' (bearer token required)' : ''}`)
  io.onListening?.(server)
  const reason = await stop
  logger.info({ reason }, `litho: ${reason.startsWith('SIG') ? `${reason} received` : reason}, finishing in-flight requests`)
  await server.close()
  logger.info({}, 'litho: stopped')
  return 0
}

/** How often a server started by a package runner checks that the runner is still there. */
const PARENT_CHECK_MS = 500

/**
 * Resolves with the first SIGTERM or SIGINT, or, when a package runner started the server (`npx
 * litho serve`, `pnpm start`: `npm_command` or `npm_lifecycle_event` is set), when that runner
 * is gone: npx runs the command under a shell that does not pass a SIGTERM on, and the server
 * would be left serving, orphaned. Started any other way (a service manager, `nohup`), only
 * signals stop it.
 */
function waitForStop(env: Record<string, string | undefined>): Promise<string> {
  return new Promise((resolve) => {
    const parent = process.ppid
    const underRunner = Boolean(env.npm_command || env.npm_lifecycle_event)
    const watch = underRunner ? setInterval(() => process.ppid !== parent && stop(`the ${env.npm_command === 'exec' ? 'npx' : 'npm/pnpm'} process that started it has exited`), PARENT_CHECK_MS) : undefined
    watch?.unref()
    const stop = (reason: string) => {
      process.off('SIGTERM', stop)
      process.off('SIGINT', stop)
      clearInterval(watch)
      resolve(reason)
    }
    process.on('SIGTERM', stop)
    process.on('SIGINT', stop)
  })
}
