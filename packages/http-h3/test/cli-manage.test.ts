// `litho users list|delete`, `keys list|revoke`, `designs list|export|delete` and `litho usage`,
// run in-process on a temp data directory (docs/cli.md): success, bad input naming the flag,
// unknown user, key and design. The real binary against `litho serve` is cli-manage-serve.test.ts.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  CommandError,
  UsageError,
  createBackends,
  designsDeleteCommand,
  designsExportCommand,
  designsImportCommand,
  designsListCommand,
  keysCreateCommand,
  keysListCommand,
  keysRevokeCommand,
  usageCommand,
  usersCreateCommand,
  usersDeleteCommand,
  usersListCommand,
  type AdminCommandIo,
} from '../src/index.js'

const root = mkdtempSync(join(tmpdir(), 'litho-cli-manage-'))
const data = join(root, 'data')
const NOW = new Date('2026-11-26T12:00:00Z')
const PASSWORD = 'correct horse battery staple'
type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/** Runs a command in-process with `--data`; resolves with its one JSON object. */
async function run(command: (argv: string[], io: AdminCommandIo) => Promise<number>, args: string[]): Promise<Json> {
  const out: string[] = []
  expect(await command([...args, '--data', data], { writeStdout: (text) => void out.push(text), writeStderr: () => {}, env: {}, now: () => NOW })).toBe(0)
  expect(out.join('').endsWith('\n') && out.join('').trimEnd().split('\n').length === 1, out.join('')).toBe(true)
  return JSON.parse(out.join('')) as Json
}
/** Runs a command that must fail; resolves with the error. */
async function failure(command: (argv: string[], io: AdminCommandIo) => Promise<number>, args: string[]): Promise<Error & { code?: string }> {
  const error = await command([...args, '--data', data], { writeStdout: () => {}, writeStderr: () => {}, env: {}, now: () => NOW }).then(
    () => null,
    (e: unknown) => e as Error & { code?: string },
  )
  expect(error, `${args.join(' ')} should fail`).not.toBeNull()
  return error!
}

const doc = (fill: string) => ({ version: 2, width: 40, height: 20, components: [{ type: 'shape', key: 'box', width: 40, height: 20, fill }] })
const file = (name: string, content: unknown): string => {
  const path = join(root, name)
  writeFileSync(path, JSON.stringify(content))
  return path
}
const ANN = 'ann@example.com'
const BOB = 'bob@example.com'
const ids = { ann: '', bob: '', key1: '', key2: '', published: '', draftOnly: '', secret1: '' }

beforeAll(async () => {
  ids.ann = (await run(usersCreateCommand, ['--email', ANN, '--password', PASSWORD, '--plan', 'pro'])).userId
  ids.bob = (await run(usersCreateCommand, ['--email', BOB, '--password', PASSWORD])).userId
  const key1 = await run(keysCreateCommand, ['--email', ANN, '--name', 'CI'])
  ids.key1 = key1.id
  ids.secret1 = key1.key
  ids.key2 = (await run(keysCreateCommand, ['--email', ANN])).id
  ids.published = (await run(designsImportCommand, ['--email', ANN, file('red.json', { name: 'Red card', design: doc('#ff0000') }), '--publish'])).id
  ids.draftOnly = (await run(designsImportCommand, ['--email', ANN, file('green.json', doc('#00ff00'))])).id
})

describe('litho users list', () => {
  it('cli › lists every user with id, email, plan and createdAt only (never a password hash)', async () => {
    const { users, next } = await run(usersListCommand, [])
    expect(next).toBeNull()
    expect(users).toHaveLength(2)
    for (const user of users) expect(Object.keys(user).sort()).toEqual(['createdAt', 'email', 'id', 'plan'])
    expect(users).toContainEqual({ id: ids.ann, email: ANN, plan: 'pro', createdAt: NOW.toISOString() })
    expect(JSON.stringify(users)).not.toContain('scrypt')
  })

  it('cli › pages with --limit and --after, each user once', async () => {
    const first = await run(usersListCommand, ['--limit', '1'])
    expect(first.users).toHaveLength(1)
    expect(first.next).toBe(first.users[0].id)
    const second = await run(usersListCommand, ['--limit', '1', '--after', first.next])
    expect(second.users).toHaveLength(1)
    expect(second.users[0].id).not.toBe(first.users[0].id)
    expect((await run(usersListCommand, ['--limit', '1', '--after', second.users[0].id])).users).toEqual([])
  })

  it.each([
    [['--limit', '0'], '--limit: expected a whole number from 1 to 100, received "0"'],
    [['--limit', '101'], '--limit: expected a whole number from 1 to 100'],
    [['--limit', '1.5'], '--limit: expected a whole number'],
    [['--after', 'a/b'], '--after: expected the "next" of a previous page'],
    [['extra'], 'users list takes no positional arguments'],
  ])('cli › users list %j is a usage error naming the flag', async (args, message) => {
    const error = await failure(usersListCommand, args)
    expect(error).toBeInstanceOf(UsageError)
    expect(error.message).toContain(message)
  })
})

describe('bounds', () => {
  it('cli › a huge --limit cannot make one call read every user or design at once: at most 100 a page', async () => {
    for (const [command, args] of [[usersListCommand, []], [designsListCommand, ['--email', ANN]]] as const) {
      const error = await failure(command, [...args, '--limit', '1000000'])
      expect(error).toBeInstanceOf(UsageError)
      expect(error.message).toBe('--limit: expected a whole number from 1 to 100, received "1000000"')
    }
  })

  it('cli › an hourly series over years is refused (more than 1000 buckets), not computed', async () => {
    const error = await failure(usageCommand, ['--email', ANN, '--from', '2000-01-01', '--to', '2026-01-01', '--group-by', 'hour'])
    expect(error).toBeInstanceOf(UsageError)
    expect(error.message).toMatch(/^--group-by: "hour" over .* gives \d+ buckets, more than 1000/)
  })
})

describe('litho keys list and revoke', () => {
  it('cli › lists the keys with id, prefix, name, createdAt, lastUsedAt and active; never the secret or its hash', async () => {
    const { keys } = await run(keysListCommand, ['--email', ANN])
    expect(keys.map((k: Json) => k.id).sort()).toEqual([ids.key1, ids.key2].sort())
    for (const key of keys) expect(Object.keys(key).sort()).toEqual(['active', 'createdAt', 'id', 'lastUsedAt', 'name', 'prefix'])
    expect(keys.find((k: Json) => k.id === ids.key1)).toMatchObject({ name: 'CI', active: true, lastUsedAt: null, createdAt: NOW.toISOString() })
    const text = JSON.stringify(keys)
    expect(text).not.toContain(ids.secret1)
    expect(text).not.toContain('sha256:')
    expect((await run(keysListCommand, ['--email', BOB])).keys).toEqual([])
  })

  it('cli › revoke deletes the key: not listed, not found by its hash, a second revoke is "no key"', async () => {
    const extra = await run(keysCreateCommand, ['--email', ANN, '--name', 'temp'])
    expect(await run(keysRevokeCommand, ['--email', ANN, '--id', extra.id])).toEqual({ revoked: true, id: extra.id })
    expect((await run(keysListCommand, ['--email', ANN])).keys.map((k: Json) => k.id)).not.toContain(extra.id)
    const backends = await createBackends({ dataDir: data, filesBaseUrl: 'http://127.0.0.1/files', env: {} })
    try {
      expect(await backends.accounts.getKey(extra.id)).toBeNull()
    } finally {
      await backends.dispose()
    }
    const again = await failure(keysRevokeCommand, ['--email', ANN, '--id', extra.id])
    expect(again).toBeInstanceOf(CommandError)
    expect(again.code).toBe('ERR_KEY_NOT_FOUND')
  })

  it("cli › another user's key is reported exactly like a missing one, and left alone", async () => {
    const error = await failure(keysRevokeCommand, ['--email', BOB, '--id', ids.key1])
    expect(error).toMatchObject({ code: 'ERR_KEY_NOT_FOUND', message: `no key ${ids.key1} of ${BOB} (the keys: litho keys list --email ${BOB})` })
    expect((await run(keysListCommand, ['--email', ANN])).keys.map((k: Json) => k.id)).toContain(ids.key1)
  })

  it.each([
    [keysRevokeCommand, ['--email', ANN], 'keys revoke needs --id'],
    [keysRevokeCommand, ['--email', ANN, '--id', 'key/../x'], '--id: expected a key id'],
    [keysListCommand, [], 'keys list needs --email'],
    [keysListCommand, ['--email', 'not-an-email'], '--email: expected an address like name@example.com'],
  ] as const)('cli › bad input is a usage error naming the flag (%#)', async (command, args, message) => {
    const error = await failure(command, [...args])
    expect(error).toBeInstanceOf(UsageError)
    expect(error.message).toContain(message)
  })

  it('cli › an unknown user is ERR_USER_NOT_FOUND, exit 1', async () => {
    for (const [command, extra] of [[keysListCommand, []], [keysRevokeCommand, ['--id', 'key_x']]] as const) {
      const error = await failure(command, ['--email', 'nobody@example.com', ...extra])
      expect(error).toBeInstanceOf(CommandError)
      expect(error).toMatchObject({ code: 'ERR_USER_NOT_FOUND', message: 'no user with email nobody@example.com (create one with: litho users create --email nobody@example.com)' })
    }
  })
})

describe('litho designs list, export and delete', () => {
  it('cli › lists id, renderCode, name, published, draft and updatedAt, most recently updated first', async () => {
    const list = await run(designsListCommand, ['--email', ANN])
    expect(list).toMatchObject({ page: 1, totalPages: 1, total: 2 })
    const byId = Object.fromEntries(list.designs.map((d: Json) => [d.id, d]))
    expect(byId[ids.published]).toMatchObject({ name: 'Red card', published: true, draft: false, updatedAt: NOW.toISOString() })
    expect(byId[ids.draftOnly]).toMatchObject({ name: 'green', published: false, draft: true })
    expect(byId[ids.published].renderCode).toMatch(/^[A-Za-z0-9_-]{16,64}$/)
    const page2 = await run(designsListCommand, ['--email', ANN, '--limit', '1', '--page', '2'])
    expect(page2).toMatchObject({ page: 2, totalPages: 2, total: 2 })
    expect(page2.designs).toHaveLength(1)
    expect((await run(designsListCommand, ['--email', BOB])).designs).toEqual([])
  })

  it('cli › export prints {name, design}; designs import reads it back to the same document (round trip)', async () => {
    const exported = await run(designsExportCommand, ['--email', ANN, '--id', ids.published])
    expect(exported).toEqual({ name: 'Red card', design: doc('#ff0000') })
    const out = join(root, 'exports', 'red.json')
    expect(await run(designsExportCommand, ['--email', ANN, '--id', ids.published, '-o', out])).toEqual({ id: ids.published, output: out })
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(exported)
    // Into another user's account, as a new design, then out again.
    const copy = await run(designsImportCommand, ['--email', BOB, out, '--publish'])
    expect(await run(designsExportCommand, ['--email', BOB, '--id', copy.id])).toEqual(exported)
    await run(designsDeleteCommand, ['--email', BOB, '--id', copy.id])
  })

  it('cli › export --draft exports the draft; a draft-only design without --draft, or --draft without one, says so', async () => {
    expect(await run(designsExportCommand, ['--email', ANN, '--id', ids.draftOnly, '--draft'])).toEqual({ name: 'green', design: doc('#00ff00') })
    expect(await failure(designsExportCommand, ['--email', ANN, '--id', ids.draftOnly])).toMatchObject({ message: `design ${ids.draftOnly} is not published yet (export its draft with --draft)` })
    expect(await failure(designsExportCommand, ['--email', ANN, '--id', ids.published, '--draft'])).toMatchObject({ message: `design ${ids.published} has no draft (export the published version without --draft)` })
  })

  it("cli › an unknown design, or another user's, is ERR_DESIGN_NOT_FOUND for export and delete", async () => {
    for (const command of [designsExportCommand, designsDeleteCommand]) {
      for (const [email, id] of [[ANN, 'd_nope'], [BOB, ids.published]] as const) {
        const error = await failure(command, ['--email', email, '--id', id])
        expect(error).toBeInstanceOf(CommandError)
        expect(error).toMatchObject({ code: 'ERR_DESIGN_NOT_FOUND', message: `no design ${id} owned by ${email} (the designs: litho designs list --email ${email})` })
      }
    }
  })

  it.each([
    [designsListCommand, ['--email', ANN, '--limit', '101'], '--limit: expected a whole number from 1 to 100'],
    [designsListCommand, ['--email', ANN, '--page', '0'], '--page: expected a whole number from 1'],
    [designsExportCommand, ['--email', ANN], 'designs export needs --id'],
    [designsExportCommand, ['--email', ANN, '--id', 'a b'], '--id: expected a design id'],
    [designsExportCommand, ['--email', ANN, '--id', 'd_1', '-o', ''], '--output: expected a file name'],
    [designsDeleteCommand, ['--id', 'd_1'], 'designs delete needs --email'],
  ] as const)('cli › bad input is a usage error naming the flag (%#)', async (command, args, message) => {
    const error = await failure(command, [...args])
    expect(error).toBeInstanceOf(UsageError)
    expect(error.message).toContain(message)
  })

  it('cli › delete removes the design: not listed, not exported, a second delete is "no design"', async () => {
    const made = await run(designsImportCommand, ['--email', ANN, file('blue.json', doc('#0000ff')), '--publish'])
    expect(await run(designsDeleteCommand, ['--email', ANN, '--id', made.id])).toEqual({ deleted: true, id: made.id })
    expect((await run(designsListCommand, ['--email', ANN])).designs.map((d: Json) => d.id)).not.toContain(made.id)
    expect(await failure(designsExportCommand, ['--email', ANN, '--id', made.id])).toMatchObject({ code: 'ERR_DESIGN_NOT_FOUND' })
    expect(await failure(designsDeleteCommand, ['--email', ANN, '--id', made.id])).toMatchObject({ code: 'ERR_DESIGN_NOT_FOUND' })
  })
})

describe('litho usage', () => {
  it("cli › the analytics series and the plan's quota in the current window", async () => {
    const usage = await run(usageCommand, ['--email', ANN, '--from', '2026-11-01', '--to', '2026-12-01', '--group-by', 'week'])
    expect(usage).toMatchObject({ success: true, groupBy: 'week', start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z', total: 0 })
    expect(usage.buckets).toHaveLength(6)
    expect(usage.buckets[0]).toEqual({ start: '2026-10-26T00:00:00.000Z', end: '2026-11-02T00:00:00.000Z', count: 0 })
    expect(usage.plan).toEqual({ id: 'pro', renders: 10_000, window: 'month', windowId: '2026-11', used: 0, remaining: 10_000, resetAt: '2026-12-01T00:00:00.000Z' })
    expect(usage.storage).toEqual({ usedBytes: 0, limitBytes: null })
    // The defaults: the 7 days before now, by day.
    expect(await run(usageCommand, ['--email', BOB])).toMatchObject({ groupBy: 'day', start: '2026-11-19T12:00:00.000Z', end: NOW.toISOString(), plan: { id: 'free', renders: 100 } })
  })

  it.each([
    [['--from', 'yesterday'], '--from: expected an ISO 8601 date-time'],
    [['--to', '2026-02-30'], '--to: expected an ISO 8601 date-time'],
    [['--from', '2026-12-01', '--to', '2026-11-01'], '--from: expected a date-time before end'],
    [['--group-by', 'fortnight'], '--group-by: expected one of hour, day, week, month, year, received "fortnight"'],
    [['--from', '2020-01-01', '--group-by', 'hour'], '--group-by: "hour" over'],
  ])('cli › usage %j is a usage error naming the flag', async (args, message) => {
    const error = await failure(usageCommand, ['--email', ANN, ...args])
    expect(error).toBeInstanceOf(UsageError)
    expect(error.message).toContain(message)
  })

  it('cli › an unknown user is ERR_USER_NOT_FOUND', async () => {
    expect(await failure(usageCommand, ['--email', 'nobody@example.com'])).toMatchObject({ code: 'ERR_USER_NOT_FOUND' })
  })
})

describe('litho users delete', () => {
  it('cli › needs --yes; refuses while the user owns designs unless --force; nothing changes when refused', async () => {
    expect(await failure(usersDeleteCommand, ['--email', ANN])).toMatchObject({ name: 'UsageError', message: `users delete needs --yes: ${ANN}, their render keys are deleted for good` })
    const refused = await failure(usersDeleteCommand, ['--email', ANN, '--yes'])
    expect(refused).toBeInstanceOf(CommandError)
    expect(refused).toMatchObject({ code: 'ERR_USER_HAS_DESIGNS', message: `${ANN} owns 2 designs: export what should be kept (litho designs export), then add --force to delete them with the user` })
    expect((await run(keysListCommand, ['--email', ANN])).keys).toHaveLength(2)
  })

  it('cli › --force deletes the keys, then the designs, then the user; the email can be used again', async () => {
    const backends = await createBackends({ dataDir: data, filesBaseUrl: 'http://127.0.0.1/files', env: {} })
    try {
      const designIds = [ids.published, ids.draftOnly]
      expect(await run(usersDeleteCommand, ['--email', ANN, '--yes', '--force'])).toEqual({ deleted: true, userId: ids.ann, keys: 2, designs: 2 })
      expect(await backends.accounts.findUserByEmail(ANN)).toBeNull()
      expect(await backends.accounts.getUser(ids.ann)).toBeNull()
      for (const id of [ids.key1, ids.key2]) expect(await backends.accounts.getKey(id)).toBeNull()
      for (const id of designIds) expect(await backends.designs.get(id)).toBeNull()
      expect((await run(usersListCommand, [])).users.map((u: Json) => u.email)).toEqual([BOB])
      expect(await failure(usersDeleteCommand, ['--email', ANN, '--yes'])).toMatchObject({ code: 'ERR_USER_NOT_FOUND' })
      const again = await run(usersCreateCommand, ['--email', ANN, '--password', PASSWORD])
      expect(again.userId).not.toBe(ids.ann)
      // A user without designs needs no --force.
      expect(await run(usersDeleteCommand, ['--email', ANN, '--yes'])).toEqual({ deleted: true, userId: again.userId, keys: 0, designs: 0 })
    } finally {
      await backends.dispose()
    }
  })
})
