// `litho serve` and the admin commands with an operator's own plans: LITHO_PLANS as JSON and as
// a file, LITHO_DEFAULT_PLAN with `users create`, `users set-plan`, a bad table refused at start,
// and usage kept when the table changes between two starts on the same data dir. Runs the built
// binary (test/_process.ts).
import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { SMALL_DESIGN } from './_harness.js'
import { CHILD_ENV, CLI, processFixture } from './_process.js'

const fixture = processFixture('litho-serve-plans-')
afterAll(() => fixture.cleanup())
const { data } = fixture

/** Runs a `litho` command with `env` added; resolves with its exit code and output. */
const run = (args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) =>
    execFile(process.execPath, [CLI, ...args, '--data', data], { env: { ...CHILD_ENV, ...env }, encoding: 'utf8' }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  )
const json = async (args: string[], env: Record<string, string> = {}) => {
  const result = await run(args, env)
  expect(result.code, result.stderr).toBe(0)
  return JSON.parse(result.stdout) as Record<string, string>
}

const TABLE = { team: { renders: 5, templates: null, storageBytes: null, window: 'day' }, solo: { renders: 1, templates: 1, storageBytes: 0 } }
const SMALLER = { team: { renders: 3, templates: null, storageBytes: null, window: 'day' }, solo: { renders: 1, templates: 1, storageBytes: 0 } }
const tableFile = join(data, 'plans.json')
writeFileSync(tableFile, JSON.stringify(SMALLER))

/** A user on `plan` (or the default), a render key and a published design; returns the render path's parts. */
async function seed(email: string, env: Record<string, string>, plan?: string) {
  const created = await json(['users', 'create', '--email', email, '--password', 'correct horse battery', ...(plan ? ['--plan', plan] : [])], env)
  const key = (await json(['keys', 'create', '--email', email], env)).key!
  const file = join(data, 'small.json')
  writeFileSync(file, JSON.stringify(SMALL_DESIGN))
  const renderCode = (await json(['designs', 'import', '--email', email, file, '--publish'], env)).renderCode!
  return { plan: created.plan, key, renderCode }
}

async function render(url: string, user: { key: string; renderCode: string }) {
  const response = await fetch(`${url}/v1/${user.renderCode}`, { headers: { 'dma-api-key': user.key } })
  await response.arrayBuffer()
  return { status: response.status, limit: response.headers.get('x-quota-limit'), remaining: response.headers.get('x-quota-remaining'), reset: response.headers.get('x-quota-reset') }
}

async function stop(server: ReturnType<typeof fixture.serve>): Promise<void> {
  server.child.kill('SIGTERM')
  expect(await server.exit).toBe(0)
}

describe('litho serve with LITHO_PLANS', () => {
  const json1 = { LITHO_PLANS: JSON.stringify(TABLE), LITHO_DEFAULT_PLAN: 'solo' }
  const file2 = { LITHO_PLANS: tableFile, LITHO_DEFAULT_PLAN: 'team' }

  it('plans › users create: LITHO_DEFAULT_PLAN without --plan; --plan checked against LITHO_PLANS, naming the known plans', async () => {
    const refused = await run(['users', 'create', '--email', 'x@example.com', '--password', 'correct horse battery', '--plan', 'pro'], json1)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('litho: --plan: expected a plan of this server (team, solo), received "pro"')
    // Without LITHO_DEFAULT_PLAN the default is free, which this table lacks: refused, naming the variable.
    const noDefault = await run(['users', 'create', '--email', 'x@example.com', '--password', 'correct horse battery'], { LITHO_PLANS: json1.LITHO_PLANS })
    expect(noDefault.code).toBe(1)
    expect(noDefault.stderr).toContain('litho: LITHO_DEFAULT_PLAN: unset, so "free", which LITHO_PLANS does not define (plans: team, solo); set LITHO_DEFAULT_PLAN to one of them')
    expect((await json(['users', 'create', '--email', 'def@example.com', '--password', 'correct horse battery'], file2)).plan).toBe('team')
  })

  it('plans › a JSON table, then a file with a smaller limit on the same data: renders metered against each, the usage kept across the change', async () => {
    const ann = await seed('ann@example.com', json1, 'team')
    expect(ann.plan).toBe('team')
    const first = fixture.serve(0, json1)
    const url = await first.ready
    const today = new Date()
    const reset = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 1)).toISOString()
    expect(await render(url, ann)).toEqual({ status: 200, limit: '5', remaining: '4', reset })
    expect(await render(url, ann)).toMatchObject({ status: 200, remaining: '3' })
    await stop(first)

    // The same data dir, the table from a file: team now allows 3 a day, and 2 are already used.
    const second = fixture.serve(0, file2)
    const url2 = await second.ready
    expect(await render(url2, ann)).toEqual({ status: 200, limit: '3', remaining: '0', reset })
    expect(await render(url2, ann)).toMatchObject({ status: 429, limit: '3', remaining: '0' })
    await stop(second)
  })

  it('plans › users set-plan moves a user to a plan of the table (usage kept) and refuses one it lacks', async () => {
    const refused = await run(['users', 'set-plan', '--email', 'ann@example.com', '--plan', 'gold'], file2)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('litho: --plan: expected a plan of this server (team, solo), received "gold"')
    const missing = await run(['users', 'set-plan', '--email', 'nobody@example.com', '--plan', 'solo'], file2)
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining('no user with email nobody@example.com')])
    expect(await json(['users', 'set-plan', '--email', 'ann@example.com', '--plan', 'solo'], file2)).toEqual({ userId: expect.stringMatching(/^u_/), plan: 'solo', previousPlan: 'team' })
  })

  it('plans › a bad LITHO_PLANS or LITHO_DEFAULT_PLAN stops serve at start with a message naming the field', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ LITHO_PLANS: JSON.stringify({ team: { renders: -1, templates: null, storageBytes: null } }) }, 'litho: LITHO_PLANS: team.renders: expected a whole number from 0 to 1000000000000000, or null for no limit, received -1'],
      [{ LITHO_PLANS: '{"team": ' }, 'litho: LITHO_PLANS: is not valid JSON'],
      [{ LITHO_PLANS: join(data, 'missing.json') }, `litho: LITHO_PLANS: expected a JSON object or the path of a JSON file, and could not read the file ${JSON.stringify(join(data, 'missing.json'))} (ENOENT)`],
      [{ LITHO_PLANS: tableFile, LITHO_DEFAULT_PLAN: 'gold' }, 'litho: LITHO_DEFAULT_PLAN: "gold" is not a plan of LITHO_PLANS (plans: team, solo)'],
      [{ LITHO_PLANS: tableFile }, 'litho: LITHO_DEFAULT_PLAN: unset, so "free", which LITHO_PLANS does not define'],
    ]
    for (const [env, message] of cases) {
      const server = fixture.serve(0, env)
      await expect(server.ready).rejects.toThrow(message)
      expect(await server.exit).toBe(1)
    }
  })
})
