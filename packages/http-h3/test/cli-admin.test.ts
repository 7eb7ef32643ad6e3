import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PassThrough } from 'node:stream'
import { hashRenderKey, verifyPassword } from '@litho/auth-adapters'
import type { DesignRecord } from '@litho/core/contracts'
import { fsAccountStore, fsDesignStore } from '@litho/storage-adapters'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CommandError, UsageError, createBackends, designsImportCommand, keysCreateCommand, usersCreateCommand, type AdminCommandIo, type LithoBackends } from '../src/index.js'

// The real `litho` binary (dist/cli.js): `pnpm test` builds first.
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const root = mkdtempSync(join(tmpdir(), 'litho-cli-admin-'))
const data = join(root, 'data')
/** The test's own environment without any LITHO_* variable, so a developer's settings never leak in. */
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('LITHO_')))

interface Run {
  code: number
  stdout: string
  stderr: string
}

function litho(args: string[], options: { env?: Record<string, string>; cwd?: string; input?: string } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...cleanEnv, ...options.env }, cwd: options.cwd ?? root }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr })
    })
    // A pipe, as `echo … | litho …` gives: written whole, then closed.
    if (options.input !== undefined) {
      // The CLI may stop reading early (a too-long password): EPIPE is then expected.
      child.stdin!.on('error', () => {})
      child.stdin!.end(options.input)
    }
  })
}

/** Runs litho and expects exit 0 and exactly one JSON object on one line of stdout. */
async function ok(args: string[], options?: { env?: Record<string, string>; cwd?: string; input?: string }): Promise<Record<string, unknown>> {
  const run = await litho(args, options)
  expect(run.code, run.stderr).toBe(0)
  expect(run.stdout.endsWith('\n') && run.stdout.trimEnd().split('\n').length === 1, run.stdout).toBe(true)
  const value = JSON.parse(run.stdout) as Record<string, unknown>
  expect(typeof value === 'object' && value !== null && !Array.isArray(value)).toBe(true)
  return value
}

const write = (name: string, content: unknown): string => {
  const file = join(root, name)
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content))
  return file
}

const doc = (fill: string) => ({ version: 2, width: 40, height: 20, components: [{ type: 'shape', key: 'box', width: 40, height: 20, fill }] })
const RED = write('red-card.json', doc('#ff0000'))
const GREEN = write('green.json', doc('#00ff00'))
const BLUE = write('blue.json', doc('#0000ff'))
const RECORD = write('record.json', { name: 'From the record', design: doc('#123456') })
const PASSWORD = 'correct horse battery staple'

// Opened before any command runs and kept open: a long-lived reader (like `serve`) must see
// what the admin commands, separate processes, write.
const designs = fsDesignStore({ base: join(data, 'designs') })
const accounts = fsAccountStore({ base: join(data, 'accounts') })

const ann = { email: 'ann@example.com', userId: '' }
const bob = { email: 'bob@example.com', userId: '' }

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first (npx pnpm --filter @litho/http-h3 build)`)
  // Warm the readers before the writers exist.
  expect(await accounts.findUserByEmail(ann.email)).toBeNull()
  const [a, b] = await Promise.all([
    ok(['users', 'create', '--email', '  Ann@Example.COM ', '--password', PASSWORD, '--data', data]),
    ok(['users', 'create', '--email', bob.email, '--password', PASSWORD, '--plan', 'pro', '--data', data]),
  ])
  ann.userId = String(a.userId)
  bob.userId = String(b.userId)
})

afterAll(async () => {
  await Promise.all([designs.dispose?.(), accounts.dispose?.()])
})

// Every case below is independent (its own user, design or data directory), so they run
// side by side: each is a process that spends most of its time loading the renderer.
describe.concurrent('litho admin commands (the built binary)', () => {
  describe.concurrent('litho users create', () => {
    it('cli › prints {userId, plan} and stores the user (email normalised, password hashed)', async () => {
      expect(ann.userId).toMatch(/^u_[A-Za-z0-9_-]{22}$/)
      const user = await accounts.findUserByEmail('ann@example.com')
      expect(user).toMatchObject({ id: ann.userId, email: 'ann@example.com', plan: 'free' })
      expect(user!.passwordHash).toMatch(/^scrypt\$/)
      expect(user!.passwordHash).not.toContain(PASSWORD)
      expect(user!.createdAt).toBe(user!.updatedAt)
      expect(Date.parse(user!.createdAt)).toBeGreaterThan(Date.now() - 60_000)
    })

    it('cli › --plan is stored and printed', async () => {
      expect(await accounts.getUser(bob.userId)).toMatchObject({ email: bob.email, plan: 'pro' })
    })

    it('cli › a duplicate email exits 1, whatever its case and spaces', async () => {
      const run = await litho(['users', 'create', '--email', ' ANN@example.com', '--password-stdin', '--data', data], { input: `${PASSWORD}\n` })
      expect(run.code).toBe(1)
      expect(run.stdout).toBe('')
      expect(run.stderr).toBe('litho: a user with email ann@example.com already exists\n')
    })

    it('cli › the data directory defaults to LITHO_DATA_DIR, else ./.litho', async () => {
      const fromEnv = join(root, 'env-data')
      const cwd = join(root, 'cwd')
      mkdirSync(cwd)
      const [{ userId }, { userId: other }] = await Promise.all([
        ok(['users', 'create', '--email', 'env@example.com', '--password', PASSWORD], { env: { LITHO_DATA_DIR: fromEnv } }),
        ok(['users', 'create', '--email', 'cwd@example.com', '--password', PASSWORD], { cwd }),
      ])
      const [inEnv, inCwd] = [fsAccountStore({ base: join(fromEnv, 'accounts') }), fsAccountStore({ base: join(cwd, '.litho', 'accounts') })]
      expect((await inEnv.findUserByEmail('env@example.com'))?.id).toBe(userId)
      expect((await inCwd.findUserByEmail('cwd@example.com'))?.id).toBe(other)
    })
  })

  describe.concurrent('litho keys create and designs import', () => {
    it('cli › round trip: users create, keys create, designs import, then --id --publish and --id again', async () => {
      // users create ran in beforeAll (ann).
      const { id: keyId, key, linkSecret, ...restKey } = await ok(['keys', 'create', '--email', 'ANN@example.com', '--data', data])
      expect(restKey).toEqual({})
      // The link secret of signed render links (docs/signed-render-links.md): only its salt is stored.
      expect(linkSecret).toMatch(/^lks_[A-Za-z0-9_-]{43}$/)
      expect(keyId).toMatch(/^key_[A-Za-z0-9_-]+$/)
      expect(key).toMatch(/^lk_[A-Za-z0-9_-]{32}$/)
      const storedKey = await accounts.getKey(String(keyId))
      expect(storedKey).toMatchObject({ id: keyId, userId: ann.userId, name: 'API key', hash: hashRenderKey(String(key)), active: true, lastUsedAt: null })
      expect(JSON.stringify(storedKey)).not.toContain(String(key))
      expect(JSON.stringify(storedKey)).not.toContain(String(linkSecret).slice(4))
      expect((await accounts.findKeyByHash(hashRenderKey(String(key))))?.id).toBe(keyId)

      const first = await ok(['designs', 'import', '--email', ann.email, RED, '--data', data])
      const { id, renderCode, ...restDesign } = first
      expect(restDesign).toEqual({})
      expect(id).toMatch(/^d_[A-Za-z0-9_-]{16}$/)
      expect(renderCode).toMatch(/^[A-Za-z0-9_-]{22}$/)
      const created = (await designs.get(String(id)))!
      // New, without --publish: a draft only, named after the file.
      expect(created).toMatchObject({ id, ownerId: ann.userId, name: 'red-card', renderCode, design: null, draft: doc('#ff0000') })
      expect(created.createdAt).toBe(created.updatedAt)
      expect((await designs.getByRenderCode(String(renderCode)))?.id).toBe(id)

      await new Promise((resolve) => setTimeout(resolve, 5))
      const second = await ok(['designs', 'import', '--email', ann.email, GREEN, '--id', String(id), '--publish', '--data', data])
      expect(second).toEqual(first)
      const published = (await designs.get(String(id)))!
      const kept: Array<keyof DesignRecord> = ['id', 'ownerId', 'renderCode', 'createdAt', 'name']
      for (const field of kept) expect(published[field]).toEqual(created[field])
      expect(published.design).toEqual(doc('#00ff00'))
      expect(published.draft).toBeNull()
      expect(Date.parse(published.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt))

      // Without --publish the published version stays and the document becomes the draft.
      await ok(['designs', 'import', '--email', ann.email, BLUE, '--id', String(id), '--data', data])
      expect(await designs.get(String(id))).toMatchObject({ design: doc('#00ff00'), draft: doc('#0000ff'), name: 'red-card' })
      const { items } = await designs.listByOwner(ann.userId, { offset: 0, limit: 100 })
      expect(items.filter((item) => item.id === id)).toHaveLength(1)
    })

    it('cli › --name names the key', async () => {
      const { id } = await ok(['keys', 'create', '--email', ann.email, '--name', 'CI pipeline', '--data', data])
      expect((await accounts.getKey(String(id)))?.name).toBe('CI pipeline')
    })

    it('cli › --publish publishes a new design; a { name, design } record gives its name, --name wins', async () => {
      const [{ id }, { id: named }] = await Promise.all([
        ok(['designs', 'import', '--email', ann.email, RECORD, '--publish', '--data', data]),
        ok(['designs', 'import', '--email', ann.email, RECORD, '--name', 'Flag wins', '--data', data]),
      ])
      expect(await designs.get(String(id))).toMatchObject({ name: 'From the record', design: doc('#123456'), draft: null })
      expect(await designs.get(String(named))).toMatchObject({ name: 'Flag wins', design: null, draft: doc('#123456') })
    })

    it("cli › --id of another user's design exits 1 and changes nothing", async () => {
      const { id } = await ok(['designs', 'import', '--email', bob.email, RED, '--publish', '--data', data])
      const before = await designs.get(String(id))
      const theirs = await litho(['designs', 'import', '--email', ann.email, GREEN, '--id', String(id), '--publish', '--data', data])
      expect([theirs.code, theirs.stdout]).toEqual([1, ''])
      expect(theirs.stderr).toBe(`litho: no design ${id} owned by ann@example.com\n`)
      expect(await designs.get(String(id))).toEqual(before)
    })

    it('cli › an invalid design exits 1 and lists every problem with its path', async () => {
      const bad = write('invalid.json', { version: 2, width: 5000, height: 10, components: [{ type: 'text', key: 'a', width: 1, height: 1, fontSize: 'big' }] })
      const run = await litho(['designs', 'import', '--email', ann.email, bad, '--data', data])
      expect([run.code, run.stdout]).toEqual([1, ''])
      expect(run.stderr).toContain('Invalid design document (2 problems)')
      expect(run.stderr).toContain('width: expected a whole number of pixels between 1 and 4096, received 5000')
      expect(run.stderr).toContain('components[0].fontSize: expected a number between 1 and 1000, received "big"')
    })
  })

  describe.concurrent('litho admin commands › mistakes', () => {
    // Through the binary: one case per way of failing (exit code and stderr of cli.ts); the
    // other refusals are checked in-process below, on the same functions.
    it.each([
      ['users create without --email', ['users', 'create', '--password', PASSWORD], 2, /^litho: users create needs --email\n/],
      ['a short password', ['users', 'create', '--email', 'dan@example.com', '--password', 'sh0rt!'], 2, /^litho: warning: --password is visible to other local users.*\nlitho: --password: expected at least 8 characters\n/],
      ['an unknown email for keys', ['keys', 'create', '--email', 'nobody@example.com'], 1, /^litho: no user with email nobody@example\.com/],
      ['a file that is not JSON', ['designs', 'import', '--email', 'ann@example.com', write('broken.json', '{ not json')], 2, /^litho: .*broken\.json is not valid JSON/],
      ['an unknown subcommand', ['users', 'remove', '--email', 'ann@example.com'], 2, /^litho: unknown command "users remove" \(expected users create, users list, users set-plan, users delete\)\n/],
    ])('cli › %s', async (_, args, code, message) => {
      const run = await litho([...args, '--data', data])
      expect(run.code, run.stderr).toBe(code)
      expect(run.stdout).toBe('')
      expect(run.stderr).toMatch(message)
      expect(run.stderr).not.toContain('sh0rt!')
      expect(run.stderr).not.toMatch(/\n\s+at /) // no stack
    })

    it('cli › a configuration mistake is a clear message, exit 1', async () => {
      const run = await litho(['keys', 'create', '--email', ann.email, '--data', data], { env: { LITHO_S3_BUCKET: 'renders' } })
      expect(run.code).toBe(1)
      expect(run.stderr).toMatch(/^litho: LITHO_S3_ENDPOINT: required when LITHO_S3_BUCKET is set/)
    })
  })
})

describe('admin commands (in-process)', () => {
  const io = (over: Partial<AdminCommandIo> = {}): AdminCommandIo & { out: string[] } => {
    const out: string[] = []
    return { out, writeStdout: (text) => void out.push(text), writeStderr: () => {}, env: {}, ...over }
  }
  /** Real backends whose design store reports `total` designs for everyone. */
  const withTotal = (total: number) => async (options: Parameters<typeof createBackends>[0]): Promise<LithoBackends> => {
    const backends = await createBackends(options)
    return { ...backends, designs: { ...backends.designs, listByOwner: async () => ({ items: [], total }) } }
  }

  it.each([
    ['keys create without --email', keysCreateCommand, [], UsageError, 'keys create needs --email'],
    ['designs import without --email', designsImportCommand, [RED], UsageError, 'designs import needs --email'],
    ['a bad email', usersCreateCommand, ['--email', 'not-an-email', '--password', PASSWORD], UsageError, '--email: expected an address like name@example.com, received "not-an-email"'],
    ['an email without a dot in its domain', keysCreateCommand, ['--email', 'ann@localhost'], UsageError, '--email: expected an address like name@example.com'],
    ['an unknown plan', usersCreateCommand, ['--email', 'dan@example.com', '--password', PASSWORD, '--plan', 'gold'], UsageError, '--plan: expected a plan of this server (free, basic, pro, unlimited), received "gold"'],
    ['a missing file', designsImportCommand, ['--email', 'ann@example.com', join(root, 'nope.json')], UsageError, `cannot read ${join(root, 'nope.json')}: no such file`],
    ['a missing password', usersCreateCommand, ['--email', 'dan@example.com'], UsageError, 'users create needs a password: pipe it with --password-stdin'],
    ['an empty key name', keysCreateCommand, ['--email', 'ann@example.com', '--name', ' '], UsageError, '--name: expected 1 to 100 characters'],
    ['designs import without FILE', designsImportCommand, ['--email', 'ann@example.com'], UsageError, 'designs import needs a FILE'],
    ['designs import with two FILEs', designsImportCommand, ['--email', 'ann@example.com', RED, GREEN], UsageError, 'designs import takes one FILE, received 2'],
    ['a malformed --id', designsImportCommand, ['--email', 'ann@example.com', RED, '--id', '../etc'], UsageError, '--id: expected a design id'],
    ['an unknown email for designs', designsImportCommand, ['--email', 'nobody@example.com', RED], CommandError, 'no user with email nobody@example.com'],
    ['an --id that names no design', designsImportCommand, ['--email', 'ann@example.com', RED, '--id', 'd_doesnotexist'], CommandError, 'no design d_doesnotexist owned by ann@example.com'],
    ['a record whose name is not a string', designsImportCommand, ['--email', 'ann@example.com', write('named.json', { name: 5, design: doc('#fff') })], CommandError, 'expected "name" to be a string'],
  ] as const)('%s is refused', async (_, command, args, ErrorClass, message) => {
    const streams = io()
    const call = command([...args, '--data', data], streams)
    await expect(call).rejects.toThrow(ErrorClass)
    await expect(call).rejects.toThrow(message)
    expect(streams.out).toEqual([])
  })

  it('an unknown flag is refused by parseArgs (cli.ts maps its code to exit 2)', async () => {
    await expect(keysCreateCommand(['--email', 'ann@example.com', '--bogus', '--data', data], io())).rejects.toMatchObject({ code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' })
  })

  it('the free plan allows 50 designs: the 51st is refused with a clear message', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'litho-limit-'))
    await usersCreateCommand(['--email', 'free@example.com', '--password', PASSWORD, '--data', dir], io())
    const at49 = io({ createBackends: withTotal(49) })
    expect(await designsImportCommand(['--email', 'free@example.com', RED, '--data', dir], at49)).toBe(0)
    expect(JSON.parse(at49.out.join(''))).toMatchObject({ id: expect.stringMatching(/^d_/) })
    const at50 = io({ createBackends: withTotal(50) })
    const refused = designsImportCommand(['--email', 'free@example.com', RED, '--data', dir], at50)
    await expect(refused).rejects.toThrow(CommandError)
    await expect(refused).rejects.toThrow('free@example.com is on the free plan, which allows 50 designs, and has 50')
    expect(at50.out).toEqual([])
    // --id imports into an existing design: never counted.
    const { id } = JSON.parse(at49.out.join('')) as { id: string }
    expect(await designsImportCommand(['--email', 'free@example.com', GREEN, '--id', id, '--data', dir], io({ createBackends: withTotal(50) }))).toBe(0)
  })

  it('backends are disposed even when the command fails', async () => {
    let disposed = 0
    const counting = async (options: Parameters<typeof createBackends>[0]): Promise<LithoBackends> => {
      const backends = await createBackends(options)
      return { ...backends, dispose: async () => void (disposed++, await backends.dispose()) }
    }
    await expect(keysCreateCommand(['--email', 'nobody@example.com', '--data', data], io({ createBackends: counting }))).rejects.toThrow(CommandError)
    expect(disposed).toBe(1)
  })
})

describe('users create › the password never has to be on the command line', () => {
  const stored = async (email: string) => (await accounts.findUserByEmail(email))!

  it('--password-stdin reads it from a pipe, without its trailing newline, and warns about nothing', async () => {
    const created = await ok(['users', 'create', '--email', 'pipe@example.com', '--password-stdin', '--data', data], { input: 'correct horse battery\n' })
    const user = await stored('pipe@example.com')
    expect(user.id).toBe(created.userId)
    expect(await verifyPassword('correct horse battery', user.passwordHash)).toBe(true)
    const crlf = await litho(['users', 'create', '--email', 'crlf@example.com', '--password-stdin', '--data', data], { input: 'correct horse battery\r\n' })
    expect([crlf.code, crlf.stderr]).toEqual([0, ''])
    expect(await verifyPassword('correct horse battery', (await stored('crlf@example.com')).passwordHash)).toBe(true)
  })

  it('--password still works, with a warning on stderr that other local users can see it', async () => {
    const run = await litho(['users', 'create', '--email', 'flag@example.com', '--password', PASSWORD, '--data', data])
    expect(run.code, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ userId: expect.stringMatching(/^u_/) })
    expect(run.stderr).toMatch(/^litho: warning: --password is visible to other local users .*use --password-stdin or the prompt instead\n$/)
    expect(run.stderr).not.toContain(PASSWORD)
  })

  it.each([
    ['no password flag and stdin not a terminal', ['--email', 'none@example.com'], '', /^litho: users create needs a password: pipe it with --password-stdin, or run the command in a terminal/],
    ['a short password on stdin', ['--email', 'short@example.com', '--password-stdin'], 'short\n', /^litho: --password-stdin: expected at least 8 characters\n/],
    ['an empty stdin', ['--email', 'empty@example.com', '--password-stdin'], '', /^litho: --password-stdin: expected a password on stdin, received nothing\n/],
    ['two lines on stdin', ['--email', 'lines@example.com', '--password-stdin'], 'correct horse\nbattery staple\n', /^litho: --password-stdin: expected one line, received several\n/],
    ['a 1 MB stdin', ['--email', 'huge@example.com', '--password-stdin'], 'x'.repeat(1 << 20), /^litho: --password-stdin: expected at most 1024 bytes\n/],
    ['both --password and --password-stdin', ['--email', 'both@example.com', '--password', PASSWORD, '--password-stdin'], `${PASSWORD}\n`, /^litho: --password and --password-stdin: expected one of them, received both\n/],
  ])('%s: exit 2 and a message naming the flag, no user', async (_, args, input, message) => {
    const run = await litho(['users', 'create', ...args, '--data', data], { input })
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(message)
    expect(run.stderr).not.toContain('correct horse')
    expect(await accounts.findUserByEmail(args[1]!)).toBeNull()
  })

  it('in a terminal it asks twice with echo off: only the prompts reach the screen', async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true })
    const screen: string[] = []
    const out: string[] = []
    const code = await usersCreateCommand(['--email', 'tty@example.com', '--data', data], {
      stdin,
      env: {},
      writeStdout: (text) => void out.push(text),
      // Types each answer once its prompt is shown, as a person would (keys one by one).
      writeStderr: (text) => {
        screen.push(text)
        if (text.endsWith(': ')) setImmediate(() => { for (const key of 'correct horse battery\r') stdin.write(key) })
      },
    })
    expect(code).toBe(0)
    expect(JSON.parse(out.join(''))).toMatchObject({ userId: expect.stringMatching(/^u_/) })
    // What a person sees: the prompts (readline adds cursor moves, CSI sequences), nothing typed.
    expect(screen.join('').replace(/\x1b\[[0-9;]*[A-Za-z]/g, '')).toBe('Password: \nRepeat the password: \n')
    expect(await verifyPassword('correct horse battery', (await stored('tty@example.com')).passwordHash)).toBe(true)
  })

  it('in a terminal, two different entries are refused', async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true })
    const answers = ['correct horse battery\r', 'correct horse batterz\r']
    const call = usersCreateCommand(['--email', 'typo@example.com', '--data', data], {
      stdin,
      env: {},
      writeStdout: () => {},
      writeStderr: (text) => void (text.endsWith(': ') && setImmediate(() => stdin.write(answers.shift()!))),
    })
    await expect(call).rejects.toThrow(new UsageError('the two passwords differ'))
    expect(await accounts.findUserByEmail('typo@example.com')).toBeNull()
  })
})

