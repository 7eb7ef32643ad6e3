import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { runMeterConformance } from '@litho/testing/meter'
import { describe, expect, it } from 'vitest'
import { fsMeter } from '../src/fs.js'
import { setupTempDir } from './_backends.js'
import { killMidWrite } from './_crash.js'

const root = setupTempDir('litho-fs-meter-')

const suiteDir = join(root, 'suite')
runMeterConformance({ name: 'fs', create: () => fsMeter({ base: suiteDir }) })

describe('fs meter', () => {
  let dirs = 0
  const freshDir = () => join(root, `case-${++dirs}`)
  const key = { subject: 'user-1', window: '2026-11' }
  const expiresAt = new Date(Date.now() + 3_600_000)
  const request = (id: string, fields: { amount?: number; limit?: number } = {}) => ({ ...key, amount: 1, limit: 10, id, expiresAt, ...fields })

  it('fs › writes one file per window and one per id, with names encoded', async () => {
    const base = freshDir()
    const meter = fsMeter({ base })
    await meter.consume({ subject: 'User:1', window: '2026.11', amount: 2, limit: 10, id: 'render-A', expiresAt })
    // Capitals, ':' and '.' are percent-encoded (lowercase hex): see encodeSegment in src/fs.ts.
    const dir = join(base, '2026%2e11', '%55ser%3a1')
    expect(readFileSync(join(dir, 'usage'), 'utf8')).toBe('2')
    // The id's file holds its amount and the hour it counts in.
    expect(readFileSync(join(dir, 'ids', 'render-%41'), 'utf8')).toMatch(/^2 \d{4}-\d\d-\d\dT\d\d:00:00\.000Z$/)
    // No temporary file is left behind after a successful write.
    expect(readdirSync(dir).sort()).toEqual(['expires', 'ids', 'usage'])
  })

  it('fs › minute rate windows do not pile up: sweep deletes the windows past expiresAt plus the grace period, and keeps the rest', async () => {
    const base = freshDir()
    const meter = fsMeter({ base, graceSeconds: 60 })
    const now = Date.UTC(2026, 10, 23, 12, 0)
    // 50 one-minute rate windows of the last hour, one live window, one that never ends, and the history.
    for (let minute = 0; minute < 50; minute++) {
      const window = `rate-${minute}`
      await meter.consume({ subject: 'ip-1', window, amount: 1, limit: 10, id: 'a', expiresAt: new Date(now - (60 - minute) * 60_000), at: new Date(now) })
    }
    await meter.consume({ subject: 'ip-1', window: 'rate-live', amount: 1, limit: 10, id: 'a', expiresAt: new Date(now + 60_000), at: new Date(now) })
    await meter.consume({ subject: 'storage:u_1', window: 'bytes', amount: 500, limit: 1000, id: 'f', expiresAt: new Date(Date.UTC(9999, 0, 1)), at: new Date(now) })
    // Within its grace period: kept (a refund of a straddling job must still find it).
    await meter.consume({ subject: 'ip-1', window: 'rate-grace', amount: 1, limit: 10, id: 'a', expiresAt: new Date(now - 30_000), at: new Date(now) })
    expect(readdirSync(base)).toHaveLength(54) // 53 windows and @history

    expect(await meter.sweep(new Date(now))).toBe(50)
    expect(readdirSync(base).sort()).toEqual(['@history', 'bytes', 'rate-grace', 'rate-live'])
    expect(await meter.usage({ subject: 'ip-1', window: 'rate-3' }), 'a swept window counts from 0').toBe(0)
    expect(await meter.usage({ subject: 'ip-1', window: 'rate-live' })).toBe(1)
    expect(await meter.usage({ subject: 'storage:u_1', window: 'bytes' })).toBe(500)
    expect(await meter.history({ subject: 'ip-1', from: new Date(now - 3_600_000), to: new Date(now + 3_600_000) }), 'history outlives windows').toEqual([{ hour: '2026-11-23T12:00:00.000Z', count: 52 }])
    // Nothing left to sweep; a second sweep is a no-op.
    expect(await meter.sweep(new Date(now))).toBe(0)
    await expect(meter.sweep(new Date('x'))).rejects.toMatchObject({ code: 'ERR_INVALID_ARG_TYPE' })
  })

  it('fs › two meters over one directory in one process share the lock', async () => {
    const base = freshDir()
    // Different spellings of the same directory: the lock registry keys by the resolved path.
    const first = fsMeter({ base })
    const second = fsMeter({ base: relative(process.cwd(), base) + '/./' })
    const results = await Promise.all(Array.from({ length: 200 }, (_, index) => (index % 2 ? second : first).consume(request(`r${index}`, { limit: 100 }))))
    expect(results.filter((result) => result.granted).length).toBe(100)
    expect(await fsMeter({ base }).usage(key)).toBe(100)
  })

  it('fs › a corrupt counter file rejects with a clear error instead of reading 0', async () => {
    const base = freshDir()
    const meter = fsMeter({ base })
    await meter.consume(request('a', { amount: 3 }))
    const file = join(base, '2026-11', 'user-1', 'usage')
    writeFileSync(file, '{"usa')
    const expected = expect.objectContaining({ code: 'ERR_STORAGE', message: expect.stringContaining(file) })
    await expect(meter.usage(key)).rejects.toThrow(expected)
    await expect(meter.consume(request('b'))).rejects.toThrow(expected)
    await expect(meter.refund({ ...key, id: 'a' })).rejects.toThrow(expected)
    // Nothing was overwritten: the file still holds what was found, for someone to look at.
    expect(readFileSync(file, 'utf8')).toBe('{"usa')
  })

  it('fs › an empty counter file (a write cut short by hand) rejects too', async () => {
    const base = freshDir()
    const meter = fsMeter({ base })
    await meter.consume(request('a'))
    writeFileSync(join(base, '2026-11', 'user-1', 'usage'), '')
    await expect(meter.usage(key)).rejects.toThrow(/found an empty file/)
  })

  it('fs › a corrupt id file makes its refund reject and changes nothing', async () => {
    const base = freshDir()
    const meter = fsMeter({ base })
    await meter.consume(request('a', { amount: 2 }))
    writeFileSync(join(base, '2026-11', 'user-1', 'ids', 'a'), '2x')
    await expect(meter.refund({ ...key, id: 'a' })).rejects.toThrow(expect.objectContaining({ code: 'ERR_STORAGE' }))
    expect(await meter.usage(key)).toBe(2)
  })

  it('fs › a temporary file left by a killed write is ignored', async () => {
    const base = freshDir()
    const meter = fsMeter({ base })
    await meter.consume(request('a', { amount: 4 }))
    writeFileSync(join(base, '2026-11', 'user-1', 'usage.0b0e5c8a-0000-4000-8000-000000000000.tmp'), '9')
    expect(await meter.usage(key)).toBe(4)
    expect(await meter.consume(request('b'))).toEqual({ granted: true, usage: 5 })
  })

  it('fs › a process killed while consuming leaves whole files that agree', async () => {
    for (let run = 0; run < 3; run++) {
      const base = freshDir()
      await killMidWrite('fs-consume-forever.ts', base)
      const dir = join(base, 'w1', 'crash')
      const text = readFileSync(join(dir, 'usage'), 'utf8')
      expect(text, 'the counter file holds a whole number').toMatch(/^[1-9][0-9]*$/)
      const ids = readdirSync(join(dir, 'ids')).filter((name) => !name.endsWith('.tmp'))
      for (const id of ids) expect(readFileSync(join(dir, 'ids', id), 'utf8'), `ids/${id}`).toMatch(/^1 \d{4}-\d\d-\d\dT\d\d:00:00\.000Z$/)
      // The counter is written before the id: a kill in between leaves one unit counted without its id.
      expect(Number(text) - ids.length, `usage ${text} against ${ids.length} ids`).toBeGreaterThanOrEqual(0)
      expect(Number(text) - ids.length).toBeLessThanOrEqual(1)
      // A new meter reads it and carries on.
      const meter = fsMeter({ base })
      expect(await meter.usage({ subject: 'crash', window: 'w1' })).toBe(Number(text))
      expect(await meter.refund({ subject: 'crash', window: 'w1', id: 'c0' })).toBe(true)
    }
  })

  it('fs › a base that is not a directory rejects instead of granting', async () => {
    const file = join(root, 'a-file')
    writeFileSync(file, 'not a directory')
    const meter = fsMeter({ base: file })
    await expect(meter.consume(request('a'))).rejects.toThrow(expect.objectContaining({ code: 'ERR_STORAGE' }))
    await expect(meter.usage(key)).rejects.toThrow(expect.objectContaining({ code: 'ERR_STORAGE' }))
  })

  it('fs › rejects a missing or non-string base with a TypeError at once', () => {
    expect(() => fsMeter({} as never)).toThrow(expect.objectContaining({ name: 'TypeError', code: 'ERR_MISSING_OPTION' }))
    expect(() => fsMeter({ base: '' })).toThrow(expect.objectContaining({ code: 'ERR_MISSING_OPTION' }))
    expect(() => fsMeter({ base: 42 as never })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }))
  })

  it('fs › concurrent consumes of one window are written together: each gets its own usage, the counter and the hour agree, and every id refunds once', async () => {
    const base = freshDir()
    const meter = fsMeter({ base })
    const at = new Date(Date.UTC(2026, 10, 23, 14, 30))
    const hourFile = join(base, '@history', 'user-1', '2026-11', '23T14')
    // 40 at once against a limit of 30, amounts of 1 and 2: grants in arrival order, never past the limit.
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => meter.consume({ ...request(`b${i}`, { amount: 1 + (i % 2), limit: 30 }), at })))
    let usage = 0
    const granted: number[] = []
    results.forEach((result, i) => {
      const amount = 1 + (i % 2)
      if (usage + amount <= 30) {
        usage += amount
        granted.push(i)
        expect(result, `consume ${i}`).toEqual({ granted: true, usage })
      } else expect(result, `consume ${i}`).toEqual({ granted: false, usage })
    })
    expect(await meter.usage(key)).toBe(30)
    expect(readFileSync(hourFile, 'utf8')).toBe('30')
    expect(await meter.history({ subject: 'user-1', from: at, to: new Date(at.getTime() + 3_600_000) })).toEqual([{ hour: '2026-11-23T14:00:00.000Z', count: 30 }])
    // No @hours file: each id's file holds its hour.
    expect(existsSync(join(base, '2026-11', '@hours'))).toBe(false)
    const refunds = await Promise.all(granted.map((i) => meter.refund({ ...key, id: `b${i}` })))
    expect(refunds.every(Boolean)).toBe(true)
    expect(await Promise.all(granted.map((i) => meter.refund({ ...key, id: `b${i}` })))).toEqual(granted.map(() => false))
    expect(await meter.usage(key)).toBe(0)
    expect(existsSync(hourFile), 'an hour refunded to 0 is deleted').toBe(false)
  })

  it('fs › an id written by an earlier version (its amount only, its hour in @hours) still refunds out of its hour', async () => {
    const base = freshDir()
    const dir = join(base, '2026-11', 'user-1')
    mkdirSync(join(dir, 'ids'), { recursive: true })
    mkdirSync(join(base, '2026-11', '@hours', 'user-1'), { recursive: true })
    mkdirSync(join(base, '@history', 'user-1', '2026-11'), { recursive: true })
    writeFileSync(join(dir, 'usage'), '5')
    writeFileSync(join(dir, 'ids', 'old'), '2')
    writeFileSync(join(base, '2026-11', '@hours', 'user-1', 'old'), '2026-11-23T14:00:00.000Z')
    writeFileSync(join(base, '@history', 'user-1', '2026-11', '23T14'), '5')
    const meter = fsMeter({ base })
    expect(await meter.refund({ ...key, id: 'old' })).toBe(true)
    expect(await meter.usage(key)).toBe(3)
    expect(readFileSync(join(base, '@history', 'user-1', '2026-11', '23T14'), 'utf8')).toBe('3')
    expect(existsSync(join(base, '2026-11', '@hours', 'user-1', 'old'))).toBe(false)
    expect(await meter.refund({ ...key, id: 'old' })).toBe(false)
  })

  it('fs › an id file whose hour is not the start of an hour makes its refund reject and changes nothing', async () => {
    const base = freshDir()
    const meter = fsMeter({ base })
    await meter.consume(request('a', { amount: 2 }))
    writeFileSync(join(base, '2026-11', 'user-1', 'ids', 'a'), '2 2026-11-23T14:30:00.000Z')
    await expect(meter.refund({ ...key, id: 'a' })).rejects.toThrow(expect.objectContaining({ code: 'ERR_STORAGE' }))
    expect(await meter.usage(key)).toBe(2)
  })

  it('fs › creating a meter touches nothing on disk', () => {
    const base = freshDir()
    fsMeter({ base })
    expect(() => readdirSync(base)).toThrow(/ENOENT/)
  })
})
