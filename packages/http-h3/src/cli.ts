#!/usr/bin/env node
/**
 * The `litho` command. See spec/cli.md: every command except `serve` prints one JSON
 * object on stdout and exits 0, or a clear message on stderr and exits non-zero.
 *
 * @module cli
 */
// Only the tiny error entry of core is loaded up front: each command loads what it needs, so
// `keys create` does not pay for the renderer and h3 (about 0.5 s of start-up per call).
import { LithoError } from '@litho/core/errors'
import type { AdminCommandIo } from './commands/_admin.js'
import { CommandError } from './commands/command-error.js'
import { UsageError } from './commands/usage-error.js'

const USAGE = `Usage: litho <command> [options]

Commands:
  serve [--port 3000] [--host 127.0.0.1] [--data ./.litho] [--public-url URL] [--threads N] [--log-requests]
        [--hosted-retention-days N]
      Serve the whole HTTP interface until SIGTERM/SIGINT (in-flight requests finish). Expired
      stored files are swept every hour.
  gc [--hosted-retention-days N] [--data DIR]
      Sweep now: delete signed files whose URL expired and hosted files older than N days
      (default: $LITHO_HOSTED_RETENTION_DAYS, else kept), refunding their storage. Prints
      {"scanned","deleted","freedBytes","failed","meterWindows"}.
  render FILE [--set key.field=value]… [--format png|jpeg|webp|pdf] [--quality 1-100] [--variation ID] [-o OUT]
      Render a design document in-process. Writes OUT, or the bytes to stdout.
  users create --email E [--password-stdin] [--plan free|basic|pro|unlimited] [--data DIR]
      Create a user. The password is read from stdin with --password-stdin, else asked for
      (not echoed) in a terminal; --password P works but other local users can see it.
      Prints {"userId","plan"}.
  keys create --email E [--name N] [--data DIR]
      Create a render key for a user. Prints {"id","key"}: the only time the key is shown.
  signing-keys rotate urls|tokens|all [--org ID] [--data DIR]
      New keys for signed file URLs and/or OAuth access tokens; the old ones keep verifying
      what they signed until it expires. Prints what was rotated.
  designs import --email E FILE [--publish] [--id ID] [--name NAME] [--data DIR]
      Store a design document (or a {"name","design"} record) as a draft, or published with
      --publish; into design ID with --id, else a new one. Prints {"id","renderCode"}.

--data DIR is where everything is kept (default: $LITHO_DATA_DIR, else ./.litho); other
backends (Redis, S3) are chosen by environment variables: see docs/cli.md.
`

/** The admin commands, by their two words. */
const ADMIN_COMMANDS: Record<string, Record<string, (argv: string[], io: AdminCommandIo) => Promise<number>>> = {
  users: { create: async (argv, io) => (await import('./commands/users-create.js')).usersCreateCommand(argv, io) },
  keys: { create: async (argv, io) => (await import('./commands/keys-create.js')).keysCreateCommand(argv, io) },
  designs: { import: async (argv, io) => (await import('./commands/designs-import.js')).designsImportCommand(argv, io) },
  'signing-keys': { rotate: async (argv, io) => (await import('./commands/signing-keys-rotate.js')).signingKeysRotateCommand(argv, io) },
}

const writeStdout = (bytes: Uint8Array | string): Promise<void> =>
  new Promise<void>((resolve, reject) => process.stdout.write(bytes, (error) => (error ? reject(error) : resolve())))
const writeStderr = (text: string): void => void process.stderr.write(text)

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  switch (command) {
    case 'render':
      return (await import('./commands/render.js')).renderCommand(rest, { writeStdout, writeStderr })
    case 'users':
    case 'keys':
    case 'designs':
    case 'signing-keys': {
      const [sub, ...args] = rest
      const run = sub === undefined ? undefined : ADMIN_COMMANDS[command]![sub]
      if (!run) {
        const known = Object.keys(ADMIN_COMMANDS[command]!).map((name) => `${command} ${name}`).join(', ')
        throw new UsageError(sub === undefined ? `${command} needs a subcommand: ${known}` : `unknown command "${command} ${sub}" (expected ${known})`)
      }
      return run(args, { writeStdout, writeStderr })
    }
    case 'gc':
      return (await import('./commands/gc.js')).gcCommand(rest, { writeStdout, writeStderr })
    case 'serve':
      return (await import('./commands/serve.js')).serveCommand(rest, { log: (line) => console.log(line) })
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      process.stdout.write(USAGE)
      return command === undefined ? 2 : 0
    default:
      throw new UsageError(`unknown command "${command}"`)
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    if (error instanceof UsageError || (error as { code?: string })?.code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`litho: ${(error as Error).message}\n\n${USAGE}`)
      process.exitCode = 2
    } else if (LithoError.isInstance(error) || error instanceof CommandError || (error as { code?: unknown })?.code === 'ERR_LITHO_CONFIG') {
      process.stderr.write(`litho: ${(error as Error).message}\n`)
      process.exitCode = 1
    } else {
      process.stderr.write(`litho: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`)
      process.exitCode = 1
    }
  },
)
