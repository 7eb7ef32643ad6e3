// The management commands as the real `litho` binary against ONE real `litho serve` on the same
// data directory (docs/cli.md): a revoked key's GET render is 401 at once, a deleted design's
// render is 404, a deleted user's keys and tokens stop working, `litho usage` gives the numbers
// of GET /analytics/api, and --json makes a failure one JSON line on stderr.
import { execFile } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SMALL_DESIGN } from './_harness.js'
import { CHILD_ENV, CLI, processFixture } from './_process.js'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

const EMAIL = 'ops@example.com'
const fixture = processFixture('litho-manage-')
let url = ''
let key1 = ''
let renderCode = ''

/** Runs the binary; never rejects. */
const litho = (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) =>
    execFile(process.execPath, [CLI, ...args, '--data', fixture.data], { encoding: 'utf8', env: CHILD_ENV }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  )
const render = (code: string, key: string) => fetch(`${url}/v1/${code}?format=png&key=${key}`)

beforeAll(async () => {
  ;({ key: key1, renderCode } = await fixture.seed(EMAIL, 'a long enough password'))
  url = await fixture.serve().ready
}, 60_000)
afterAll(() => fixture.cleanup())

describe('litho management commands against litho serve', () => {
  it('cli › litho usage gives the numbers of GET /analytics/api, plus the quota the renders used', async () => {
    for (let i = 0; i < 2; i++) expect((await render(renderCode, key1)).status).toBe(200)
    const { accessToken } = await fixture.litho('token', 'create', '--email', EMAIL, '--url', url, '--scope', 'read')
    const from = new Date(Date.now() - 3_600_000).toISOString()
    const to = new Date(Date.now() + 3_600_000).toISOString()
    const http = (await (await fetch(`${url}/analytics/api?start=${from}&end=${to}&groupBy=hour`, { headers: { authorization: `Bearer ${accessToken}` } })).json()) as Record<string, unknown>
    const cli = JSON.parse((await litho('usage', '--email', EMAIL, '--from', from, '--to', to, '--group-by', 'hour', '--json')).stdout) as Record<string, unknown>
    expect(http.total).toBe(2)
    const { plan, ...same } = cli
    expect(same).toEqual(http)
    expect(plan).toMatchObject({ id: 'pro', renders: 10_000, used: 2, remaining: 9_998 })
  })

  it('cli › keys revoke: the key renders 401 at once while another key of the user still renders', async () => {
    const key2 = (await fixture.litho('keys', 'create', '--email', EMAIL)).key!
    const { keys } = (await fixture.litho('keys', 'list', '--email', EMAIL)) as unknown as { keys: Array<{ id: string; prefix: string }> }
    const first = keys.find((k) => key1.startsWith(k.prefix.replace('…', '')))!
    expect((await render(renderCode, key1)).status).toBe(200)
    expect(await fixture.litho('keys', 'revoke', '--email', EMAIL, '--id', first.id)).toEqual({ revoked: true, id: first.id })
    expect((await render(renderCode, key1)).status).toBe(401)
    expect((await render(renderCode, key2)).status).toBe(200)
    key1 = key2
  })

  it("cli › designs delete: the design's render is 404 at once", async () => {
    const file = join(fixture.data, 'second.json')
    writeFileSync(file, JSON.stringify(SMALL_DESIGN))
    const second = await fixture.litho('designs', 'import', '--email', EMAIL, file, '--publish')
    expect((await render(second.renderCode!, key1)).status).toBe(200)
    expect(await fixture.litho('designs', 'delete', '--email', EMAIL, '--id', second.id!)).toEqual({ deleted: true, id: second.id })
    expect((await render(second.renderCode!, key1)).status).toBe(404)
    expect((await render(renderCode, key1)).status).toBe(200)
  })

  it('cli › --json: a failure is one {"error":{"code","message"}} line on stderr with the usual exit code', async () => {
    const missing = await litho('designs', 'delete', '--email', EMAIL, '--id', 'd_nope', '--json')
    expect(missing).toEqual({ code: 1, stdout: '', stderr: `${JSON.stringify({ error: { code: 'ERR_DESIGN_NOT_FOUND', message: `no design d_nope owned by ${EMAIL} (the designs: litho designs list --email ${EMAIL})` } })}\n` })
    const nobody = await litho('keys', 'list', '--email', 'nobody@example.com', '--json')
    expect(nobody.code).toBe(1)
    expect(JSON.parse(nobody.stderr)).toMatchObject({ error: { code: 'ERR_USER_NOT_FOUND' } })
    const bad = await litho('users', 'list', '--limit', 'lots', '--json')
    expect(bad.code).toBe(2)
    expect(JSON.parse(bad.stderr)).toEqual({ error: { code: 'ERR_USAGE', message: '--limit: expected a whole number from 1 to 100, received "lots"' } })
  })

  it("cli › users delete --force: the user's last key renders 401 at once and their access token is 401; nothing is left listed", async () => {
    const { accessToken } = await fixture.litho('token', 'create', '--email', EMAIL, '--url', url)
    expect((await fetch(`${url}/designs/v2`, { headers: { authorization: `Bearer ${accessToken}` } })).status).toBe(200)
    const refused = await litho('users', 'delete', '--email', EMAIL, '--yes')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/owns 1 design: export what should be kept/)
    const deleted = await fixture.litho('users', 'delete', '--email', EMAIL, '--yes', '--force')
    expect(deleted).toMatchObject({ deleted: true, keys: 1, designs: 1 })
    expect((await render(renderCode, key1)).status).toBe(401)
    expect((await fetch(`${url}/designs/v2`, { headers: { authorization: `Bearer ${accessToken}` } })).status).toBe(401)
    expect((await fixture.litho('users', 'list')).users).toEqual([])
  })
})
