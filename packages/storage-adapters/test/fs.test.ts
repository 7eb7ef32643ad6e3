import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { execFile } from 'node:child_process'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
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

  it('fs › writes one ledger per window, a line per consumption, with names encoded', async () => {
    const base = freshDir()
    const meter = fsMeter({ base })
    const at = new Date(Date.UTC(2026, 10, 23, 14, 30))
    await meter.consume({ subject: 'User:1', window: '2026.11', amount: 2, limit: 10, id: 'render-A', expiresAt, at })
    // Capitals, ':' and '.' are percent-encoded (lowercase hex): see encodeSegment in src/fs/meter-layout.ts.
    const dir = join(base, '2026%2e11', '%55ser%3a1')
    // The line holds the units, the hour they count in and the id (as given: the contract's alphabet has no space).
    expect(readFileSync(join(dir, 'ledger'), 'utf8')).toBe('+2 2026-11-23T14:00:00.000Z render-A\n')
    expect(readFileSync(join(base, '@history', '%55ser%3a1', '2026-11', '23T14.log'), 'utf8')).toBe('+2\n')
    // No temporary file is left behind after a successful write.
    expect(readdirSync(dir).sort()).toEqual(['expires', 'ledger'])
    expect(await meter.refund({ subject: 'User:1', window: '2026.11', id: 'render-A' })).toBe(true)
    expect(readFileSync(join(dir, 'ledger'), 'utf8')).toBe('+2 2026-11-23T14:00:00.000Z render-A\n-2 2026-11-23T14:00:00.000Z render-A\n')
    expect(await meter.usage({ subject: 'User:1', window: '2026.11' })).toBe(0)
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

  it('fs › a corrupt ledger rejects with a clear error instead of reading 0', async () => {
    const base = freshDir()
    const meter = fsMeter({ base })
    await meter.consume(request('a', { amount: 3 }))
    const file = join(base, '2026-11', 'user-1', 'ledger')
    writeFileSync(file, '{"usa\n')
    const expected = expect.objectContaining({ code: 'ERR_STORAGE', message: expect.stringContaining(file) })
    await expect(meter.usage(key)).rejects.toThrow(expected)
    await expect(meter.consume(request('b'))).rejects.toThrow(expected)
    await expect(meter.refund({ ...key, id: 'a' })).rejects.toThrow(expected)
    // Nothing was overwritten: the file still holds what was found, for someone to look at.
    expect(readFileSync(file, 'utf8')).toBe('{"usa\n')
  })

  it('fs › a ledger line cut short and written after rejects; one still being written is not read yet', async () => {
    const base = freshDir()
    const meter = fsMeter({ base })
    await meter.consume(request('a'))
    const file = join(base, '2026-11', 'user-1', 'ledger')
    // A line without its newline: another process is appending it. Read once it is whole.
    appendFileSync(file, '+1 2026-11-23T14:00:00.000Z b')
    expect(await meter.usage(key)).toBe(1)
    appendFileSync(file, '\n')
    expect(await meter.usage(key)).toBe(2)
    appendFileSync(file, '+1 2026-11\n')
    await expect(meter.usage(key)).rejects.toThrow(/at byte 60 but found 10 characters that are not one in .*ledger/)
  })

  it('fs › a counter file of an earlier version counts, and an empty or corrupt one rejects', async () => {
    const base = freshDir()
    const dir = join(base, '2026-11', 'user-1')
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'usage'), '7')
    const meter = fsMeter({ base })
    expect(await meter.consume(request('a', { limit: 8 }))).toEqual({ granted: true, usage: 8 })
    expect(await meter.consume(request('b', { limit: 8 }))).toEqual({ granted: false, usage: 8 })
    const other = join(base, '2026-12', 'user-1')
    mkdirSync(other, { recursive: true })
    writeFileSync(join(other, 'usage'), '')
    await expect(meter.usage({ ...key, window: '2026-12' })).rejects.toThrow(/found an empty file/)
    writeFileSync(join(other, 'usage'), '{"usa')
    await expect(meter.consume(request('c', { limit: 8 }) && { ...request('c'), window: '2026-12' })).rejects.toThrow(expect.objectContaining({ code: 'ERR_STORAGE', message: expect.stringContaining(join(other, 'usage')) }))
  })

  it('fs › a corrupt id file of an earlier version makes its refund reject and changes nothing', async () => {
    const base = freshDir()
    const meter = fsMeter({ base })
    await meter.consume(request('b', { amount: 2 }))
    mkdirSync(join(base, '2026-11', 'user-1', 'ids'))
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
      const text = readFileSync(join(dir, 'ledger'), 'utf8')
      // Each consume is one append of one line: every line is whole, the units and the id together.
      expect(text, 'the ledger ends with a whole line').toMatch(/\n$/)
      const lines = text.slice(0, -1).split('\n')
      lines.forEach((line, index) => expect(line).toBe(`+1 ${line.split(' ')[1]} c${index}`))
      // The hour's log is appended first: a kill in between counts one unit more in the history than in the ledger.
      const meter = fsMeter({ base })
      const [hour] = await meter.history({ subject: 'crash', from: new Date(Date.now() - 7_200_000), to: new Date(Date.now() + 3_600_000) })
      expect(hour!.count - lines.length, `history ${hour!.count} against ${lines.length} lines`).toBeGreaterThanOrEqual(0)
      expect(hour!.count - lines.length).toBeLessThanOrEqual(1)
      // A new meter reads it and carries on.
      expect(await meter.usage({ subject: 'crash', window: 'w1' })).toBe(lines.length)
      expect(await meter.refund({ subject: 'crash', window: 'w1', id: 'c0' })).toBe(true)
      expect(await meter.usage({ subject: 'crash', window: 'w1' })).toBe(lines.length - 1)
    }
  })

  it('fs › two processes consuming in one window at once lose no unit, and each sees the other', async () => {
    const base = freshDir()
    const script = fileURLToPath(new URL('fixtures/fs-consume-count.ts', import.meta.url))
    const repoRoot = fileURLToPath(new URL('../../..', import.meta.url))
    const child = new Promise<void>((resolve, reject) =>
      execFile(process.execPath, ['--import', 'tsx', script, base, '150', 'child-'], { cwd: repoRoot }, (error) => (error ? reject(error) : resolve())),
    )
    const meter = fsMeter({ base })
    const shared = { subject: 'shared', window: 'w1' }
    // This process consumes while the child does (its start takes a moment: keep going until it is done).
    let done = false
    void child.finally(() => (done = true))
    let mine = 0
    while (!done || mine < 150) await meter.consume({ ...shared, amount: 1, limit: 1_000_000, id: `parent-${mine++}`, expiresAt })
    await child
    // Every unit counted once, whatever the interleaving: what a counter rewritten by two processes could not promise.
    expect(await meter.usage(shared)).toBe(mine + 150)
    expect(await fsMeter({ base }).usage(shared)).toBe(mine + 150)
    expect(await meter.refund({ ...shared, id: 'child-7' })).toBe(true)
    expect(await meter.consume({ ...shared, amount: 1, limit: mine + 150, id: 'last', expiresAt })).toEqual({ granted: true, usage: mine + 150 })
  }, 60_000)

  it('fs › a refund reads a long ledger from its end: every id refunds once, wherever its line is', async () => {
    const base = freshDir()
    const dir = join(base, '2026-11', 'user-1')
    mkdirSync(dir, { recursive: true })
    // 6,000 lines (about 210 KB: several of the refund's 64 KiB chunks), the last one refunded.
    const lines = Array.from({ length: 6000 }, (_, i) => `+1 2026-11-23T14:00:00.000Z id-${i}\n`)
    writeFileSync(join(dir, 'ledger'), `${lines.join('')}-1 2026-11-23T14:00:00.000Z id-5999\n`)
    const meter = fsMeter({ base })
    expect(await meter.usage(key)).toBe(5999)
    expect(await meter.refund({ ...key, id: 'id-5999' }), 'its last line is a refund').toBe(false)
    expect(await meter.refund({ ...key, id: 'id-6000' }), 'no line names it').toBe(false)
    // The lines that the refund's chunk boundaries cut, as the ledger is now (each refund appends a line, moving them).
    const cut: number[] = []
    for (let k = 1; k <= 3; k++) {
      const text = readFileSync(join(dir, 'ledger'), 'latin1')
      const at = text.length - k * 64 * 1024
      const line = text.slice(text.lastIndexOf('\n', at - 1) + 1, text.indexOf('\n', at))
      cut.push(Number(line.split(' id-')[1]))
      expect(await meter.refund({ ...key, id: `id-${cut.at(-1)}` }), `the line cut by boundary ${k}: ${line}`).toBe(true)
    }
    // Then the first line, the last grant, and ids all along.
    const sampled = [...new Set([0, 1, 5998, ...Array.from({ length: 60 }, (_, i) => 100 * i + 17)])].filter((i) => !cut.includes(i))
    for (const i of sampled) expect(await meter.refund({ ...key, id: `id-${i}` }), `id-${i}`).toBe(true)
    const unique = [...cut, ...sampled]
    for (const i of unique) expect(await meter.refund({ ...key, id: `id-${i}` }), `id-${i} again`).toBe(false)
    expect(await meter.usage(key)).toBe(5999 - unique.length)
    expect(await fsMeter({ base }).usage(key)).toBe(5999 - unique.length)
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
    const hourFile = join(base, '@history', 'user-1', '2026-11', '23T14.log')
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
    // One append to the hour's log and one to the ledger for the batch.
    expect(readFileSync(hourFile, 'utf8')).toBe('+30\n')
    expect(readFileSync(join(base, '2026-11', 'user-1', 'ledger'), 'utf8').split('\n')).toHaveLength(granted.length + 1)
    expect(await meter.history({ subject: 'user-1', from: at, to: new Date(at.getTime() + 3_600_000) })).toEqual([{ hour: '2026-11-23T14:00:00.000Z', count: 30 }])
    // No file per id, no @hours file: the ledger's line holds the id and its hour.
    expect(readdirSync(join(base, '2026-11', 'user-1')).sort()).toEqual(['expires', 'ledger'])
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
    const at = new Date(Date.UTC(2026, 10, 23, 14))
    expect(await meter.history({ subject: 'user-1', from: at, to: new Date(at.getTime() + 3_600_000) })).toEqual([{ hour: at.toISOString(), count: 3 }])
    expect(existsSync(join(base, '2026-11', '@hours', 'user-1', 'old'))).toBe(false)
    expect(await meter.refund({ ...key, id: 'old' })).toBe(false)
  })

  it('fs › an id file whose hour is not the start of an hour makes its refund reject and changes nothing', async () => {
    const base = freshDir()
    const meter = fsMeter({ base })
    await meter.consume(request('b', { amount: 2 }))
    mkdirSync(join(base, '2026-11', 'user-1', 'ids'))
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
