/**
 * The settings of `litho serve`: each flag, else its environment variable (`SERVE_ENV` of
 * definitions.ts), else its default, checked here so that a mistake stops the command before
 * anything starts, with a message naming the flag.
 *
 * @module commands/serve-settings
 */
import { resolve } from 'node:path'
import { readLogSettings, type LogFormat, type LogLevel } from '../observe/logger.js'
import { metricsTokenProblem } from '../observe/metrics-endpoint.js'
import { readHostedRetentionDays } from '../retention.js'
import { SERVE_ENV, type SERVE } from './definitions.js'
import { UsageError } from './usage-error.js'

/** The flags of `litho serve` as `parseArgs` reads them. */
export type ServeFlags = { [K in keyof (typeof SERVE)['options']]?: (typeof SERVE)['options'][K]['type'] extends 'boolean' ? boolean : string }

/** What `litho serve` starts with. */
export interface ServeSettings {
  dataDir: string
  port: number
  host: string
  publicUrl?: string
  threads?: number
  hostedRetentionDays?: number
  outputCache: { maxBytes?: number; shared: boolean }
  logRequests: boolean
  console: boolean
  /** Serve the API reference page at /docs (`--no-docs`, `LITHO_DOCS=0` turn it off). */
  docs: boolean
  /** Prometheus metrics: off, on the main port, or on a port of their own; with a token or not. */
  metrics: { enabled: boolean; port?: number; token?: string }
  log: { level: LogLevel; format: LogFormat }
}

const isOn = (value: string | undefined) => value === '1' || value === 'true'
const isOff = (value: string | undefined) => value === '0' || value === 'false'

/**
 * Reads the settings from the flags and `env`.
 *
 * @throws UsageError naming the flag (and its variable) when a value is not acceptable.
 * @example readServeSettings({}, { LITHO_HOST: '0.0.0.0', PORT: '8080' }) // { host: '0.0.0.0', port: 8080, … }
 */
export function readServeSettings(flags: ServeFlags, env: Record<string, string | undefined>): ServeSettings {
  // The flag, else its variable (an empty variable counts as unset).
  const value = (flag: keyof typeof SERVE_ENV): string | undefined => {
    const given = flags[flag]
    if (typeof given === 'string') return given
    const name = SERVE_ENV[flag]
    return name === null ? undefined : env[name] || undefined
  }
  const switchOn = (flag: keyof typeof SERVE_ENV): boolean => flags[flag] === true || isOn(value(flag))
  const port = wholeNumber('--port', value('port') ?? '3000', 0, 65_535)
  const threads = value('threads')
  const publicUrl = value('public-url')
  if (publicUrl !== undefined && !/^https?:\/\/[^/]/.test(publicUrl)) throw new UsageError(`--public-url: expected an http(s) URL, received ${JSON.stringify(publicUrl)}`)
  // Named by the flag or by LITHO_HOSTED_RETENTION_DAYS in its message (a ConfigError).
  const retention = readHostedRetentionDays(flags['hosted-retention-days'], env)
  const cacheMb = value('output-cache-mb')
  const host = value('host') ?? '127.0.0.1'
  if (!/^[A-Za-z0-9.:[\]-]{1,253}$/.test(host)) throw new UsageError(`--host: expected a host name or an IP address, received ${JSON.stringify(host.slice(0, 60))}`)
  const metricsPort = value('metrics-port')
  const token = env.LITHO_METRICS_TOKEN || undefined
  const tokenProblem = token === undefined ? undefined : metricsTokenProblem(token)
  if (tokenProblem) throw new UsageError(`LITHO_METRICS_TOKEN: ${tokenProblem}`)
  const log = readLogSettings(value('log-level'), value('log-format'))
  if (typeof log === 'string') throw new UsageError(log)
  const settings: ServeSettings = {
    dataDir: resolve(value('data') ?? './.litho'),
    port,
    host,
    ...(publicUrl !== undefined ? { publicUrl } : {}),
    ...(threads !== undefined ? { threads: wholeNumber('--threads', threads, 1, 256) } : {}),
    ...(retention !== null ? { hostedRetentionDays: retention } : {}),
    outputCache: { ...(cacheMb !== undefined ? { maxBytes: wholeNumber('--output-cache-mb', cacheMb, 0, 1_048_576) * 1024 * 1024 } : {}), shared: switchOn('shared-output-cache') },
    logRequests: switchOn('log-requests'),
    console: !(flags['no-console'] === true || isOff(value('no-console'))),
    docs: !(flags['no-docs'] === true || isOff(value('no-docs'))),
    metrics: {
      enabled: switchOn('metrics') || metricsPort !== undefined,
      ...(metricsPort !== undefined ? { port: wholeNumber('--metrics-port', metricsPort, 1, 65_535) } : {}),
      ...(token !== undefined ? { token } : {}),
    },
    log,
  }
  if (settings.metrics.port !== undefined && settings.metrics.port === port) throw new UsageError(`--metrics-port: expected a port other than the main one (${port}); leave it out to serve /metrics on the main port`)
  return settings
}

function wholeNumber(flag: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new UsageError(`${flag}: expected a whole number from ${min} to ${max}, received ${JSON.stringify(raw)}`)
  return Number(raw)
}
