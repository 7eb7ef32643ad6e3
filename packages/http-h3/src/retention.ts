/**
 * The retention setting and the sweep of `litho serve` and `litho gc`: stored renders whose
 * lifetime is over are deleted and their bytes given back (`sweepStoredFiles` of `@litho/core`),
 * and meters that keep windows on disk forget the expired ones (`Meter.sweep`).
 *
 * | variable | flag | effect |
 * |---|---|---|
 * | `LITHO_HOSTED_RETENTION_DAYS` | `--hosted-retention-days` | days a hosted file is kept (a whole number ≥ 1); unset: forever. Signed files always go once their URL expires |
 * | `LITHO_SWEEP_INTERVAL_SECONDS` | | how often `serve` sweeps (default 3600, at least 60) |
 *
 * @module retention
 */
import { sweepStoredFiles, type SweepReport } from '@litho/core'
import type { FileStore, Meter, RetentionIndex } from '@litho/core/contracts'
import { ConfigError } from './backends.js'

/** Most days a hosted file may be kept: 100 years (the date stays far inside what Date holds). */
export const MAX_RETENTION_DAYS = 36_500
/** How often `serve` sweeps by default, in seconds: an expired signed file lingers at most this long. */
export const DEFAULT_SWEEP_INTERVAL_SECONDS = 3600

/** What one sweep did: the files' report, and the meter windows forgotten. */
export interface GcReport extends SweepReport {
  meterWindows: number
}

/**
 * Reads a number of days of hosted retention (the flag, else `LITHO_HOSTED_RETENTION_DAYS`);
 * null (keep forever) when neither is set.
 *
 * @throws ConfigError naming the flag or variable for anything but a whole number from 1 to 36500.
 * @example readHostedRetentionDays(undefined, { LITHO_HOSTED_RETENTION_DAYS: '30' }) // 30
 */
export function readHostedRetentionDays(flag: string | undefined, env: Record<string, string | undefined>): number | null {
  const [name, raw] = flag !== undefined ? ['--hosted-retention-days', flag] : ['LITHO_HOSTED_RETENTION_DAYS', env.LITHO_HOSTED_RETENTION_DAYS]
  if (raw === undefined || (raw === '' && flag === undefined)) return null
  if (!/^\d{1,6}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_RETENTION_DAYS) {
    throw new ConfigError(`${name}: expected a whole number of days from 1 to ${MAX_RETENTION_DAYS} (unset keeps hosted files forever), received ${JSON.stringify(raw)}`)
  }
  return Number(raw)
}

/**
 * Reads `LITHO_SWEEP_INTERVAL_SECONDS` (default 3600).
 *
 * @throws ConfigError for anything but a whole number from 60 to 604800 (a week).
 * @example readSweepIntervalSeconds({}) // 3600
 */
export function readSweepIntervalSeconds(env: Record<string, string | undefined>): number {
  const raw = env.LITHO_SWEEP_INTERVAL_SECONDS
  if (raw === undefined || raw === '') return DEFAULT_SWEEP_INTERVAL_SECONDS
  if (!/^\d{1,6}$/.test(raw) || Number(raw) < 60 || Number(raw) > 604_800) {
    throw new ConfigError(`LITHO_SWEEP_INTERVAL_SECONDS: expected a whole number of seconds from 60 to 604800, received ${JSON.stringify(raw)}`)
  }
  return Number(raw)
}

/**
 * One sweep: expired files (deleted, bytes refunded) and the meter's expired windows.
 *
 * @example const report = await collectGarbage({ files, meter, retention }, { hostedRetentionDays: 30 })
 */
export async function collectGarbage(
  services: { files: FileStore; meter: Meter; retention: RetentionIndex; clock?: { now(): Date } },
  options: { hostedRetentionDays: number | null; report?: (error: unknown) => void },
): Promise<GcReport> {
  const files = await sweepStoredFiles(services, { hostedRetentionDays: options.hostedRetentionDays, ...(options.report ? { report: options.report } : {}) })
  const meterWindows = (await services.meter.sweep?.(services.clock?.now())) ?? 0
  return { ...files, meterWindows }
}

/**
 * Runs {@link collectGarbage} every `intervalSeconds` (the first one right away), one at a time,
 * never keeping the process alive; `stop()` waits for a sweep in progress.
 *
 * @example
 * const sweeper = startSweeper(backends, { hostedRetentionDays: null, intervalSeconds: 3600, log })
 * await sweeper.stop()
 */
export function startSweeper(
  services: { files: FileStore; meter: Meter; retention: RetentionIndex },
  options: { hostedRetentionDays: number | null; intervalSeconds: number; log: (line: string) => void },
): { stop(): Promise<void> } {
  let running: Promise<void> | undefined
  let stopped = false
  const run = () => {
    if (running || stopped) return
    running = collectGarbage(services, { hostedRetentionDays: options.hostedRetentionDays, report: (error) => options.log(`retention sweep: ${(error as Error)?.message ?? String(error)}`) })
      .then((report) => {
        if (report.deleted > 0 || report.failed > 0 || report.meterWindows > 0)
          options.log(`retention sweep: ${report.deleted} files deleted (${report.freedBytes} bytes freed), ${report.failed} failed, ${report.meterWindows} meter windows forgotten`)
      })
      .catch((error: unknown) => options.log(`retention sweep failed: ${(error as Error)?.message ?? String(error)}`))
      .finally(() => {
        running = undefined
      })
  }
  const timer = setInterval(run, options.intervalSeconds * 1000)
  timer.unref()
  run()
  return {
    async stop() {
      stopped = true
      clearInterval(timer)
      await running
    },
  }
}
