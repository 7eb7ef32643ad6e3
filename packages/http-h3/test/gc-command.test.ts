// `litho gc` and the sweeper of `litho serve`: expired stored files go, their storage is given
// back, and the fs meter's expired windows are deleted.
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { storageUsage, storeRender } from '@litho/core'
import { afterAll, describe, expect, it } from 'vitest'
import { createBackends, gcCommand, startSweeper, UsageError, type LithoBackends } from '../src/index.js'

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const root = mkdtempSync(join(tmpdir(), 'litho-gc-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('LITHO_')))
const DAY = 86_400_000
/** When the files are stored: three days ago, so the sweeper (on the wall clock) sees them as old. */
const T0 = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 3 * DAY)
let dirs = 0

const render = { bytes: new Uint8Array(2048), contentType: 'image/png', format: 'png' as const, width: 10, height: 10, variation: 'master', warnings: [] }

/** A data directory with one signed file (1 minute) and one hosted file of `u_gc`, stored at T0. */
async function seeded(): Promise<{ data: string; keys: { signed: string; hosted: string } }> {
  const data = join(root, `data-${++dirs}`)
  const backends = await createBackends({ dataDir: data, filesBaseUrl: 'http://127.0.0.1/files', env: {} })
  try {
    const account = { id: 'u_gc', plan: 'free' as const }
    const signed = await storeRender(backends, render, { account, renderId: 'r_signed', delivery: 'signed', expiresInMinutes: 1, now: T0 })
    const hosted = await storeRender(backends, render, { account, renderId: 'r_hosted', delivery: 'hosted', expiresInMinutes: 1, now: T0 })
    // A rate window that ended a day ago, on the fs meter.
    await backends.meter.consume({ subject: 'ip-1', window: 'rate-1', amount: 1, limit: 5, id: 'a', expiresAt: new Date(T0.getTime() - 8 * DAY) })
    return { data, keys: { signed: signed.file.key, hosted: hosted.file.key } }
  } finally {
    await backends.dispose()
  }
}

async function open<T>(data: string, task: (backends: LithoBackends) => Promise<T>): Promise<T> {
  const backends = await createBackends({ dataDir: data, filesBaseUrl: 'http://127.0.0.1/files', env: {} })
  try {
    return await task(backends)
  } finally {
    await backends.dispose()
  }
}

async function gc(args: string[], options: { now: Date; env?: Record<string, string> }): Promise<Record<string, unknown>> {
  let out = ''
  const code = await gcCommand(args, { writeStdout: (text) => void (out += text), writeStderr: () => {}, env: options.env ?? {}, now: () => options.now })
  expect(code).toBe(0)
  return JSON.parse(out) as Record<string, unknown>
}

describe('litho gc', () => {
  it('gc › deletes the signed file once expired and keeps hosted files by default; storage usage goes down', async () => {
    const { data, keys } = await seeded()
    expect(await gc(['--data', data], { now: new Date(T0.getTime() + 30_000) })).toEqual({ scanned: 2, deleted: 0, freedBytes: 0, failed: 0, meterWindows: 1 })
    expect(await gc(['--data', data], { now: new Date(T0.getTime() + 61_000) })).toEqual({ scanned: 2, deleted: 1, freedBytes: 2048, failed: 0, meterWindows: 0 })
    await open(data, async (backends) => {
      expect(await backends.files.get(keys.signed)).toBeNull()
      expect(await backends.files.get(keys.hosted)).not.toBeNull()
      expect((await storageUsage(backends.meter, { id: 'u_gc', plan: 'free' })).usedBytes).toBe(2048)
    })
    expect(readdirSync(join(data, 'meter')), 'the expired rate window is gone').not.toContain('rate-1')
  })

  it('gc › --hosted-retention-days (or LITHO_HOSTED_RETENTION_DAYS) deletes hosted files older than that', async () => {
    const { data, keys } = await seeded()
    expect(await gc(['--data', data], { now: new Date(T0.getTime() + 29 * DAY), env: { LITHO_HOSTED_RETENTION_DAYS: '30' } })).toMatchObject({ deleted: 1 })
    expect(await gc(['--data', data, '--hosted-retention-days', '30'], { now: new Date(T0.getTime() + 30 * DAY) })).toMatchObject({ deleted: 1, freedBytes: 2048 })
    await open(data, async (backends) => {
      expect(await backends.files.get(keys.hosted)).toBeNull()
      expect((await storageUsage(backends.meter, { id: 'u_gc', plan: 'free' })).usedBytes).toBe(0)
    })
  })

  it.each([['0'], ['1e3'], ['1.5'], ['36501'], ['soon']])('gc › --hosted-retention-days %s is a usage error naming the flag', async (value) => {
    await expect(gcCommand(['--hosted-retention-days', value, '--data', join(root, 'unused')], { writeStdout: () => {}, writeStderr: () => {}, env: {} })).rejects.toThrow(UsageError)
    await expect(gcCommand(['--hosted-retention-days', value], { writeStdout: () => {}, writeStderr: () => {}, env: {} })).rejects.toThrow(/^--hosted-retention-days: expected a whole number of days from 1 to 36500/)
    expect(existsSync(join(root, 'unused')), 'nothing opened').toBe(false)
  })

  it('gc › the sweeper of serve runs at once, then periodically, and stops cleanly', async () => {
    const { data, keys } = await seeded()
    await open(data, async (backends) => {
      const lines: string[] = []
      // The files expired long ago by the wall clock the sweeper uses.
      const sweeper = startSweeper(backends, { hostedRetentionDays: 1, intervalSeconds: 3600, log: (line) => lines.push(line) })
      await sweeper.stop()
      expect(lines).toEqual(['retention sweep: 2 files deleted (4096 bytes freed), 0 failed, 1 meter windows forgotten'])
      expect(await backends.files.get(keys.hosted)).toBeNull()
    })
  })

  it('gc › the litho binary prints one JSON object and exits 0; a bad flag exits 2 with a message', async () => {
    const { data } = await seeded()
    const run = (args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
        execFile(process.execPath, [CLI, ...args], { encoding: 'utf8', env: cleanEnv }, (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr })),
      )
    const ok = await run(['gc', '--data', data])
    expect(ok.code, ok.stderr).toBe(0)
    expect(JSON.parse(ok.stdout)).toMatchObject({ scanned: 2, deleted: 1, failed: 0 })
    const bad = await run(['gc', '--hosted-retention-days', 'x'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--hosted-retention-days: expected a whole number of days/)
  })
})
