/**
 * `litho gc [--hosted-retention-days N] [--data DIR]`: one retention sweep now, the same that
 * `litho serve` runs periodically. Deletes signed files whose URL has expired and hosted files
 * older than the retention (the flag, else `LITHO_HOSTED_RETENTION_DAYS`; neither: hosted files
 * are kept), gives their bytes back to their owners' storage quota, and forgets the meter's
 * expired windows. Prints `{"scanned","deleted","freedBytes","failed","meterWindows"}`.
 *
 * Safe while `litho serve` runs on Redis (every step is idempotent). On the filesystem default,
 * the fs meter is one process per directory: run `gc` while `serve` is stopped, or let `serve`
 * sweep by itself.
 *
 * @module commands/gc
 */
import { parseArgs } from 'node:util'
import { ConfigError } from '../backends.js'
import { collectGarbage, readHostedRetentionDays } from '../retention.js'
import { printJson, withBackends, type AdminCommandIo } from './_admin.js'
import { CommandError } from './command-error.js'
import { GC } from './definitions.js'
import { UsageError } from './usage-error.js'

/** Runs `litho gc`. Returns the exit code; throws UsageError (exit 2) or CommandError (exit 1). */
export async function gcCommand(argv: string[], io: AdminCommandIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: GC.options,
  })
  if (positionals.length > 0) throw new UsageError(`gc takes no positional arguments, received ${JSON.stringify(positionals[0])}`)
  let hostedRetentionDays: number | null
  try {
    hostedRetentionDays = readHostedRetentionDays(values['hosted-retention-days'], io.env ?? process.env)
  } catch (error) {
    if (error instanceof ConfigError && values['hosted-retention-days'] !== undefined) throw new UsageError(error.message)
    throw error
  }
  return withBackends(values.data, io, async ({ files, meter, retention }) => {
    const failures: string[] = []
    const clock = { now: () => io.now?.() ?? new Date() }
    const report = await collectGarbage({ files, meter, retention, clock }, { hostedRetentionDays, report: (error) => failures.push((error as Error)?.message ?? String(error)) })
    if (report.failed > 0) throw new CommandError(`${report.failed} expired files could not be deleted (${failures[0]}); ${report.deleted} were. Run gc again once the storage answers.`)
    await printJson(io, { ...report })
    return 0
  })
}
