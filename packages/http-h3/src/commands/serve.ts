/**
 * `litho serve [--port 3000] [--host 127.0.0.1] [--data ./.litho] [--public-url URL] [--threads N] [--log-requests] [--hosted-retention-days N] [--output-cache-mb N] [--shared-output-cache] [--no-console] [--no-docs]`:
 * serves the whole interface on one origin until SIGTERM or SIGINT, then finishes in-flight
 * requests and exits 0. Expired stored files are swept periodically (see `retention.ts`).
 *
 * @module commands/serve
 */
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { MAX_RETENTION_DAYS } from '../retention.js'
import { startLithoServer, type LithoServer } from '../server.js'
import { SERVE } from './definitions.js'
import { UsageError } from './usage-error.js'

/** What `serve` needs from its surroundings. */
export interface ServeCommandIo {
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
  const port = wholeNumber('--port', values.port ?? env.PORT ?? '3000', 0, 65_535)
  const threads = values.threads === undefined && !env.LITHO_RENDER_THREADS ? undefined : wholeNumber('--threads', values.threads ?? env.LITHO_RENDER_THREADS!, 1, 256)
  const publicUrl = values['public-url'] ?? (env.LITHO_PUBLIC_URL || undefined)
  if (publicUrl !== undefined && !/^https?:\/\/[^/]/.test(publicUrl)) throw new UsageError(`--public-url: expected an http(s) URL, received ${JSON.stringify(publicUrl)}`)
  // Unset here: the server reads LITHO_HOSTED_RETENTION_DAYS (unset: hosted files are kept).
  const retention = values['hosted-retention-days']
  const hostedRetentionDays = retention === undefined ? undefined : wholeNumber('--hosted-retention-days', retention, 1, MAX_RETENTION_DAYS)
  const cacheMb = values['output-cache-mb'] ?? (env.LITHO_OUTPUT_CACHE_MB || undefined)
  const maxBytes = cacheMb === undefined ? undefined : wholeNumber('--output-cache-mb', cacheMb, 0, 1_048_576) * 1024 * 1024
  const shared = values['shared-output-cache'] || env.LITHO_OUTPUT_CACHE_SHARED === '1'
  const dataDir = resolve(values.data ?? (env.LITHO_DATA_DIR || './.litho'))

  const stop = io.stopSignal ?? waitForStop(env)
  const server = await startLithoServer({
    dataDir,
    port,
    host: values.host ?? '127.0.0.1',
    ...(publicUrl ? { publicUrl } : {}),
    ...(threads ? { threads } : {}),
    ...(hostedRetentionDays !== undefined ? { hostedRetentionDays } : {}),
    outputCache: { ...(maxBytes !== undefined ? { maxBytes } : {}), shared },
    env,
    logRequests: values['log-requests'] || env.LITHO_LOG_REQUESTS === '1',
    console: !(values['no-console'] || env.LITHO_CONSOLE === '0'),
    docs: !(values['no-docs'] || env.LITHO_DOCS === '0'),
    log: io.log,
  })
  io.log(`litho: serving ${server.url} (data: ${dataDir})`)
  io.log(`litho: OpenAPI at ${server.url}/openapi.json; create an account with \`pnpm litho users create --email you@example.com\` (it asks for the password)`)
  io.onListening?.(server)
  const reason = await stop
  io.log(`litho: ${reason.startsWith('SIG') ? `${reason} received` : reason}, finishing in-flight requests`)
  await server.close()
  io.log('litho: stopped')
  return 0
}

function wholeNumber(flag: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new UsageError(`${flag}: expected a whole number from ${min} to ${max}, received ${JSON.stringify(raw)}`)
  return Number(raw)
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
