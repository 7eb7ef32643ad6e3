// Every `litho` command answers --help with its usage on stdout and exit 0, whatever else is on
// the line; `litho --version` prints the version (docs/cli.md). Runs the built binary.
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import * as SPECS from '../src/commands/definitions.js'
import type { CommandSpec } from '../src/commands/definitions.js'
import { CHILD_ENV, CLI } from './_process.js'

const litho = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) =>
    execFile(process.execPath, [CLI, ...args], { encoding: 'utf8', env: CHILD_ENV }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  )

const COMMANDS: Array<[string, CommandSpec]> = [
  ['serve', SPECS.SERVE],
  ['gc', SPECS.GC],
  ['render', SPECS.RENDER],
  ['users create', SPECS.USERS_CREATE],
  ['users list', SPECS.USERS_LIST],
  ['users set-plan', SPECS.USERS_SET_PLAN],
  ['users delete', SPECS.USERS_DELETE],
  ['keys create', SPECS.KEYS_CREATE],
  ['keys list', SPECS.KEYS_LIST],
  ['keys revoke', SPECS.KEYS_REVOKE],
  ['keys sign-url', SPECS.KEYS_SIGN_URL],
  ['keys link-secret', SPECS.KEYS_LINK_SECRET],
  ['token create', SPECS.TOKEN_CREATE],
  ['token revoke', SPECS.TOKEN_REVOKE],
  ['signing-keys rotate', SPECS.SIGNING_KEYS_ROTATE],
  ['designs import', SPECS.DESIGNS_IMPORT],
  ['designs list', SPECS.DESIGNS_LIST],
  ['designs export', SPECS.DESIGNS_EXPORT],
  ['designs delete', SPECS.DESIGNS_DELETE],
  ['assets upload', SPECS.ASSETS_UPLOAD],
  ['assets list', SPECS.ASSETS_LIST],
  ['assets delete', SPECS.ASSETS_DELETE],
  ['usage', SPECS.USAGE],
]

describe.concurrent('litho --help', () => {
  it.each(COMMANDS)('cli › litho %s --help prints its usage with every flag, exit 0', async (name, spec) => {
    const run = await litho([...name.split(' '), '--help'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toBe('')
    expect(run.stdout).toContain(spec.description)
    expect(run.stdout).toContain(`USAGE litho ${name}`)
    for (const flag of Object.keys(spec.options)) expect(run.stdout).toContain(`--${flag}`)
    for (const positional of Object.keys(spec.positionals ?? {})) expect(run.stdout).toContain(positional.toUpperCase())
    expect(run.stdout).not.toMatch(/\u001b\[/) // no colour codes in a pipe
  })

  it('cli › the list of commands above is every command of definitions.ts, and every one takes --json', () => {
    const specs = (Object.values(SPECS) as unknown[]).filter((value): value is CommandSpec => typeof value === 'object' && value !== null && 'description' in value && 'options' in value)
    expect(new Set(COMMANDS.map(([, spec]) => spec))).toEqual(new Set(specs))
    for (const [name, spec] of COMMANDS) expect('json' in spec.options, name).toBe(true)
  })

  it.each([['users'], ['keys'], ['token'], ['signing-keys'], ['designs']])('cli › litho %s --help lists its subcommand, exit 0', async (word) => {
    const run = await litho([word, '--help'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain(`USAGE litho ${word}`)
    // citty right-aligns the names, so a group with a longer one indents `create` more.
    expect(run.stdout).toMatch(/COMMANDS\n\n +(create|rotate|import) /)
  })

  it.each([[['--help']], [['-h']], [['help']]])('cli › litho %j lists every command, exit 0', async (args) => {
    const run = await litho(args)
    expect(run.code).toBe(0)
    for (const word of ['serve', 'gc', 'render', 'users', 'keys', 'token', 'signing-keys', 'designs', 'usage']) expect(run.stdout).toMatch(new RegExp(`^ +${word} +\\S`, 'm'))
    expect(run.stdout).toContain('--data DIR is where everything is kept')
  })

  it('cli › --help wins over other arguments, even wrong ones, and -h is the same', async () => {
    for (const args of [['render', 'nope.json', '--bogus', '--help'], ['keys', 'create', '-h'], ['help', 'designs', 'import']]) {
      const run = await litho(args)
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0)
      expect(run.stdout).toContain('USAGE litho')
    }
  })

  it('cli › --help after -- is a value, not a request for help', async () => {
    const run = await litho(['render', '--', '--help'])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/^litho: cannot read --help: no such file/)
  })

  it('cli › litho --version prints the version of @litho/http-h3, exit 0', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
    const run = await litho(['--version'])
    expect(run).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' })
  })

  it('cli › litho alone prints the usage and exits 2', async () => {
    const run = await litho([])
    expect(run.code).toBe(2)
    expect(run.stdout).toContain('USAGE litho')
  })

  it("cli › a usage mistake is followed by that command's usage on stderr, exit 2", async () => {
    const run = await litho(['keys', 'create', '--bogus'])
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(/^litho: Unknown option '--bogus'/)
    expect(run.stderr).toContain('USAGE litho keys create')
  })

  it('cli › words are commands only at the start: a flag before the command is an unknown command', async () => {
    const run = await litho(['--bogus', 'render', 'card.json'])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/^litho: unknown command "--bogus"\n/)
  })

  it('cli › a group without its subcommand names it, exit 2', async () => {
    const run = await litho(['signing-keys'])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/^litho: signing-keys needs a subcommand: signing-keys rotate\n/)
  })

  it('cli › with --json a usage mistake is one {"error":{"code","message"}} line on stderr, exit 2, no usage text', async () => {
    for (const args of [['keys', 'list', '--bogus', '--json'], ['--json', 'nope'], ['designs', 'list', '--json', '--limit', '0', '--email', 'a@example.com']]) {
      const run = await litho(args)
      expect(run.code, args.join(' ')).toBe(2)
      expect(run.stdout).toBe('')
      const body = JSON.parse(run.stderr) as { error: { code: string; message: string } }
      expect(body.error.code).toBe('ERR_USAGE')
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1)
    }
    const limit = await litho(['designs', 'list', '--json', '--limit', '0', '--email', 'a@example.com'])
    expect(JSON.parse(limit.stderr)).toEqual({ error: { code: 'ERR_USAGE', message: '--limit: expected a whole number from 1 to 100, received "0"' } })
  })

  it('cli › serve --json: a bad flag before it starts is a JSON error, exit 2', async () => {
    const run = await litho(['serve', '--port', 'x', '--json'])
    expect(run.code).toBe(2)
    expect(JSON.parse(run.stderr)).toMatchObject({ error: { code: 'ERR_USAGE', message: expect.stringContaining('--port') } })
  })
})
