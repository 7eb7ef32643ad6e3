#!/usr/bin/env node
/**
 * The `litho` command (docs/cli.md): every command except `serve` prints one JSON object on
 * stdout and exits 0, or a clear message on stderr and exits non-zero (2: called wrongly, 1:
 * cannot be done). Every command answers `--help` with its usage and exit 0; `litho --version`
 * prints the version. With `--json`, a failure is one `{"error":{"code","message"}}` line on
 * stderr instead (same exit codes).
 *
 * The command tree is citty's (`defineCommand`, `renderUsage`); the words are matched here,
 * strictly (`litho --bogus render` is an unknown command, not `render`), and each command
 * parses its own flags with `node:util` `parseArgs` in strict mode, which refuses an unknown
 * flag where citty's parser would drop it (`--pubish` must not import a draft quietly).
 *
 * @module cli
 */
import { readFileSync } from 'node:fs'
// Only the tiny error entry of core is loaded up front: each command loads what it needs, so
// `keys create` does not pay for the renderer and h3 (about 0.5 s of start-up per call).
import { LithoError } from '@litho/core/errors'
import { defineCommand, renderUsage, type CommandDef, type ParsedArgs } from 'citty'
import { CommandError } from './commands/command-error.js'
import * as SPECS from './commands/definitions.js'
import { toCittyArgs, type CommandSpec } from './commands/definitions.js'
import { UsageError } from './commands/usage-error.js'

const writeStdout = (bytes: Uint8Array | string): Promise<void> =>
  new Promise<void>((resolve, reject) => process.stdout.write(bytes, (error) => (error ? reject(error) : resolve())))
const writeStderr = (text: string): void => void process.stderr.write(text)
const io = { writeStdout, writeStderr }

/** A command with its flags from `definition` and its body loaded only when it runs. */
function command(name: string, definition: CommandSpec, run: (argv: string[]) => Promise<number>): CommandDef {
  return defineCommand({ meta: { name, description: definition.description }, args: toCittyArgs(definition), run: ({ rawArgs }) => run(rawArgs) })
}

/** A word that only groups subcommands (`litho users create`). */
function group(name: string, description: string, subCommands: Record<string, CommandDef>): CommandDef {
  return defineCommand({ meta: { name, description }, subCommands })
}

/** The version of this package, read when asked for. */
function version(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version
}

const LITHO = defineCommand({
  meta: () => ({ name: 'litho', version: version(), description: 'Render stored designs to png, jpeg, webp and pdf, and serve them over HTTP' }),
  subCommands: {
    serve: command('serve', SPECS.SERVE, async (argv) => (await import('./commands/serve.js')).serveCommand(argv, { log: (line) => console.log(line) })),
    gc: command('gc', SPECS.GC, async (argv) => (await import('./commands/gc.js')).gcCommand(argv, io)),
    render: command('render', SPECS.RENDER, async (argv) => (await import('./commands/render.js')).renderCommand(argv, io)),
    users: group('users', 'Manage users: create, list, set-plan, delete', {
      create: command('create', SPECS.USERS_CREATE, async (argv) => (await import('./commands/users-create.js')).usersCreateCommand(argv, io)),
      list: command('list', SPECS.USERS_LIST, async (argv) => (await import('./commands/users-list.js')).usersListCommand(argv, io)),
      'set-plan': command('set-plan', SPECS.USERS_SET_PLAN, async (argv) => (await import('./commands/users-set-plan.js')).usersSetPlanCommand(argv, io)),
      delete: command('delete', SPECS.USERS_DELETE, async (argv) => (await import('./commands/users-delete.js')).usersDeleteCommand(argv, io)),
    }),
    keys: group('keys', 'Manage render keys: create, list, revoke, sign-url, link-secret', {
      create: command('create', SPECS.KEYS_CREATE, async (argv) => (await import('./commands/keys-create.js')).keysCreateCommand(argv, io)),
      list: command('list', SPECS.KEYS_LIST, async (argv) => (await import('./commands/keys-list.js')).keysListCommand(argv, io)),
      revoke: command('revoke', SPECS.KEYS_REVOKE, async (argv) => (await import('./commands/keys-revoke.js')).keysRevokeCommand(argv, io)),
      'sign-url': command('sign-url', SPECS.KEYS_SIGN_URL, async (argv) => (await import('./commands/keys-sign-url.js')).keysSignUrlCommand(argv, io)),
      'link-secret': command('link-secret', SPECS.KEYS_LINK_SECRET, async (argv) => (await import('./commands/keys-link-secret.js')).keysLinkSecretCommand(argv, io)),
    }),
    token: group('token', 'Access tokens for scripts: create, revoke', {
      create: command('create', SPECS.TOKEN_CREATE, async (argv) => (await import('./commands/token.js')).tokenCreateCommand(argv, io)),
      revoke: command('revoke', SPECS.TOKEN_REVOKE, async (argv) => (await import('./commands/token.js')).tokenRevokeCommand(argv, io)),
    }),
    'signing-keys': group('signing-keys', 'Manage the signing keys of URLs and tokens: rotate', {
      rotate: command('rotate', SPECS.SIGNING_KEYS_ROTATE, async (argv) => (await import('./commands/signing-keys-rotate.js')).signingKeysRotateCommand(argv, io)),
    }),
    designs: group('designs', 'Manage designs: import, list, export, delete', {
      import: command('import', SPECS.DESIGNS_IMPORT, async (argv) => (await import('./commands/designs-import.js')).designsImportCommand(argv, io)),
      list: command('list', SPECS.DESIGNS_LIST, async (argv) => (await import('./commands/designs-list.js')).designsListCommand(argv, io)),
      export: command('export', SPECS.DESIGNS_EXPORT, async (argv) => (await import('./commands/designs-export.js')).designsExportCommand(argv, io)),
      delete: command('delete', SPECS.DESIGNS_DELETE, async (argv) => (await import('./commands/designs-delete.js')).designsDeleteCommand(argv, io)),
    }),
    assets: group('assets', 'Manage the asset library (uploaded images): upload, list, delete', {
      upload: command('upload', SPECS.ASSETS_UPLOAD, async (argv) => (await import('./commands/assets-upload.js')).assetsUploadCommand(argv, io)),
      list: command('list', SPECS.ASSETS_LIST, async (argv) => (await import('./commands/assets-list.js')).assetsListCommand(argv, io)),
      delete: command('delete', SPECS.ASSETS_DELETE, async (argv) => (await import('./commands/assets-delete.js')).assetsDeleteCommand(argv, io)),
    }),
    usage: command('usage', SPECS.USAGE, async (argv) => (await import('./commands/usage.js')).usageCommand(argv, io)),
  },
})

/** Shown under the usage of `litho` itself. */
const FOOTER = `
--data DIR is where everything is kept (default: $LITHO_DATA_DIR, else ./.litho); other
backends (Redis, S3) are chosen by environment variables: see docs/cli.md.
`

/** A command found in the tree, its words, and the arguments after them. */
interface Found {
  cmd: CommandDef
  path: string[]
  rest: string[]
}

/** Follows the leading words of `argv` down the tree, as far as they name commands. */
async function find(argv: string[]): Promise<Found> {
  let found: Found = { cmd: LITHO, path: [], rest: argv }
  for (;;) {
    const subCommands = (await found.cmd.subCommands) as Record<string, CommandDef> | undefined
    const [word, ...rest] = found.rest
    if (!subCommands || word === undefined || !Object.hasOwn(subCommands, word)) return found
    found = { cmd: subCommands[word]!, path: [...found.path, word], rest }
  }
}

/** The help of a command, without colours when it goes to a pipe or a file. */
async function usageOf({ cmd, path }: Found, stream: NodeJS.WriteStream): Promise<string> {
  const parent = path.length > 0 ? { meta: { name: ['litho', ...path.slice(0, -1)].join(' '), version: version() } } : undefined
  const text = `${await renderUsage(cmd, parent)}\n${path.length === 0 ? FOOTER : ''}`
  // citty colours unless NO_COLOR, CI or TEST is set; a pipe gets plain text either way.
  const plain = stream.isTTY ? text : text.replace(/\u001b\[[0-9;]*m/g, '')
  // Trailing blanks off each line, line by line: a multiline "blanks at end of line" pattern is polynomial on a long blank run.
  return plain
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
}

/** Whether `--help` or `-h` is among the arguments (before a `--`, after which all are values). */
function asksForHelp(args: string[]): boolean {
  const end = args.indexOf('--')
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h')
}

// The command being run, for the usage printed after a usage error.
let current: Found = { cmd: LITHO, path: [], rest: [] }

async function main(argv: string[]): Promise<number> {
  if (argv.length === 1 && argv[0] === '--version') {
    await writeStdout(`${version()}\n`)
    return 0
  }
  // `litho help render` is `litho render --help`.
  current = await find(argv[0] === 'help' ? [...argv.slice(1), '--help'] : argv)
  const { cmd, path, rest } = current
  if (asksForHelp(rest)) {
    await writeStdout(await usageOf(current, process.stdout))
    return 0
  }
  // Each command parses `rawArgs` itself (strictly); citty's lax parse is not used.
  if (cmd.run) return (await cmd.run({ rawArgs: rest, args: { _: rest } as ParsedArgs, cmd })) as number
  const [word] = rest
  if (path.length === 0 && word === undefined) {
    await writeStdout(await usageOf(current, process.stdout))
    return 2
  }
  if (path.length === 0) throw new UsageError(`unknown command "${word}"`)
  const name = path.join(' ')
  const known = Object.keys((await cmd.subCommands) as Record<string, CommandDef>).map((sub) => `${name} ${sub}`).join(', ')
  throw new UsageError(word === undefined ? `${name} needs a subcommand: ${known}` : `unknown command "${name} ${word}" (expected ${known})`)
}

/** Whether `--json` is among the arguments (before a `--`): errors are then JSON too. */
const jsonErrors = ((args: string[]) => (args.includes('--') ? args.slice(0, args.indexOf('--')) : args).includes('--json'))(process.argv.slice(2))

/** Prints a failure: `litho: message` (and the usage, for a usage error), or with `--json` one `{"error":{"code","message"}}` line. */
async function fail(code: string, message: string, usage: boolean): Promise<void> {
  if (jsonErrors) process.stderr.write(`${JSON.stringify({ error: { code, message } })}\n`)
  else process.stderr.write(`litho: ${message}\n${usage ? `\n${await usageOf(current, process.stderr)}` : ''}`)
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  async (error: unknown) => {
    const coded = (error as { code?: unknown })?.code
    if (error instanceof UsageError || (typeof coded === 'string' && coded.startsWith('ERR_PARSE_ARGS'))) {
      await fail('ERR_USAGE', (error as Error).message, true)
      process.exitCode = 2
    } else if (LithoError.isInstance(error) || error instanceof CommandError || coded === 'ERR_LITHO_CONFIG') {
      await fail(String(coded), (error as Error).message, false)
      process.exitCode = 1
    } else {
      await fail('ERR_UNEXPECTED', jsonErrors ? String((error as Error)?.message ?? error) : `unexpected error: ${(error as Error)?.stack ?? String(error)}`, false)
      process.exitCode = 1
    }
  },
)
