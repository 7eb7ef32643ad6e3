/**
 * The log of `litho serve` and of apps given a logger: structured lines through pino (one JSON
 * object per line: `level`, `time`, `msg` and fields such as `reqId`, `method`, `route`,
 * `status`, `durationMs`), or the same entries as plain text for a terminal (the default of
 * `litho serve`, so its quick start reads as before). Text needs no dependency beyond pino.
 *
 * @module observe/logger
 */
import { pino } from 'pino'

/**
 * What Litho logs through: a pino logger fits, or anything with these three methods. Each entry
 * is fields plus a message; errors go under `err`.
 */
export interface LithoLogger {
  info(fields: Record<string, unknown>, message: string): void
  warn(fields: Record<string, unknown>, message: string): void
  error(fields: Record<string, unknown>, message: string): void
}

/** The levels of `LITHO_LOG_LEVEL`, quietest last. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const
/** A level of {@link LOG_LEVELS}, e.g. `'info'`. */
export type LogLevel = (typeof LOG_LEVELS)[number]

/** The formats of `LITHO_LOG_FORMAT`. */
export const LOG_FORMATS = ['text', 'json'] as const
/** `text` (lines for people) or `json` (one object per line, pino's format). */
export type LogFormat = (typeof LOG_FORMATS)[number]

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  format: LogFormat
  /** Entries below it are dropped. @default 'info' */
  level?: LogLevel
  /** Where each line goes, without its newline. @default console.log */
  write?: (line: string) => void
}

/**
 * A logger writing JSON lines (pino) or text lines to `write`.
 *
 * @example
 * const logger = createLogger({ format: 'json', level: 'info', write: (line) => process.stdout.write(line + '\n') })
 * logger.info({ port: 3000 }, 'litho: serving http://127.0.0.1:3000')
 * // {"level":30,"time":"2026-11-26T20:00:00.000Z","pid":1,"hostname":"web-1","port":3000,"msg":"litho: serving http://127.0.0.1:3000"}
 */
export function createLogger(options: LoggerOptions): LithoLogger {
  const write = options.write ?? ((line: string) => console.log(line))
  const level = options.level ?? 'info'
  if (options.format === 'json') {
    // pino writes whole lines; `write` takes them without their newline.
    return pino({ level, timestamp: pino.stdTimeFunctions.isoTime }, { write: (chunk: string) => write(chunk.replace(/\n$/, '')) })
  }
  const threshold = LOG_LEVELS.indexOf(level)
  const at = (entryLevel: LogLevel) => (fields: Record<string, unknown>, message: string) => {
    if (LOG_LEVELS.indexOf(entryLevel) >= threshold) write(textLine(fields, message))
  }
  return { info: at('info'), warn: at('warn'), error: at('error') }
}

/** An entry as a line of text: a request as `GET /path 200 1.2ms (request <id>)`, an error with its stack. */
function textLine(fields: Record<string, unknown>, message: string): string {
  const request = fields.reqId === undefined ? '' : ` (request ${String(fields.reqId)})`
  if (typeof fields.method === 'string' && typeof fields.status === 'number' && typeof fields.durationMs === 'number')
    return `${fields.method} ${String(fields.path)} ${fields.status} ${fields.durationMs.toFixed(1)}ms${request}`
  const error = fields.err as { stack?: string } | undefined
  if (error !== undefined) return `${message}: ${error?.stack ?? String(error)}${request}`
  return message
}

/**
 * Reads `LITHO_LOG_LEVEL` / `--log-level` and `LITHO_LOG_FORMAT` / `--log-format`.
 *
 * @returns the problem as a sentence, or the settings
 * @example readLogSettings('debug', undefined) // { level: 'debug', format: 'text' }
 */
export function readLogSettings(level: string | undefined, format: string | undefined): { level: LogLevel; format: LogFormat } | string {
  const chosenLevel = level || 'info'
  const chosenFormat = format || 'text'
  if (!(LOG_LEVELS as readonly string[]).includes(chosenLevel)) return `--log-level: expected one of ${LOG_LEVELS.join(', ')}, received ${JSON.stringify(chosenLevel.slice(0, 40))}`
  if (!(LOG_FORMATS as readonly string[]).includes(chosenFormat)) return `--log-format: expected text or json, received ${JSON.stringify(chosenFormat.slice(0, 40))}`
  return { level: chosenLevel as LogLevel, format: chosenFormat as LogFormat }
}
