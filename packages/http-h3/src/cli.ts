#!/usr/bin/env node
/**
 * The `litho` command. See spec/cli.md: every command except `serve` prints one JSON
 * object on stdout and exits 0, or a clear message on stderr and exits non-zero.
 *
 * @module cli
 */
import { LithoError } from '@litho/core'
import { renderCommand } from './commands/render.js'
import { UsageError } from './commands/usage-error.js'

const USAGE = `Usage: litho <command> [options]

Commands:
  render FILE [--set key.field=value]… [--format png|jpeg|webp|pdf] [--quality 1-100] [--variation ID] [-o OUT]
      Render a design document in-process. Writes OUT, or the bytes to stdout.
`

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  switch (command) {
    case 'render':
      return renderCommand(rest, {
        writeStdout: (bytes) => new Promise<void>((resolve, reject) => process.stdout.write(bytes, (error) => (error ? reject(error) : resolve()))),
        writeStderr: (text) => process.stderr.write(text),
      })
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
    } else if (LithoError.isInstance(error)) {
      process.stderr.write(`litho: ${error.message}\n`)
      process.exitCode = 1
    } else {
      process.stderr.write(`litho: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`)
      process.exitCode = 1
    }
  },
)
