// Runs against the real Redis at REDIS_URL (default redis://127.0.0.1:6379). These tests never
// skip: without Redis they fail, loudly. Keys live under a base unique to the run and are
// deleted at the end; nothing else in Redis is touched.
import { runMeterConformance } from '@litho/testing/meter'
import { Redis } from 'ioredis'
import { describe, expect, it } from 'vitest'
import { redisMeter } from '../src/redis.js'
import { REDIS_URL, setupRedis } from './_backends.js'

const { admin, base, runId } = setupRedis()

runMeterConformance({ name: 'redis', create: () => redisMeter({ url: REDIS_URL, base: `${base}:suite` }) })

describe('redis meter', () => {
  const key = { subject: 'user-1', window: '2026-11' }
  const request = (id: string, fields: { amount?: number; limit?: number; expiresAt?: Date } = {}) => ({
    ...key,
    amount: 1,
    limit: 10,
    id,
    expiresAt: new Date(Date.now() + 3_600_000),
    ...fields,
  })
  let bases = 0
  const freshBase = () => `${base}:case-${++bases}`
  const backendError = expect.objectContaining({ code: 'ERR_STORAGE' })

  it('redis › keys are <base>:{<subject>/<window>}:usage and :ids, expiring after expiresAt plus the grace period', async () => {
    const prefix = freshBase()
    const meter = redisMeter({ url: REDIS_URL, base: prefix, graceSeconds: 60 })
    try {
      const expiresAt = new Date(Date.now() + 3_600_000)
      await meter.consume(request('render-1', { amount: 2, expiresAt }))
      const usageKey = `${prefix}:{user-1/2026-11}:usage`
      const idsKey = `${prefix}:{user-1/2026-11}:ids`
      expect(await admin.get(usageKey)).toBe('2')
      expect(await admin.hgetall(idsKey)).toEqual({ 'render-1': '2' })
      const expected = expiresAt.getTime() + 60_000
      expect(Number(await admin.call('PEXPIRETIME', usageKey))).toBe(expected)
      expect(Number(await admin.call('PEXPIRETIME', idsKey))).toBe(expected)
    } finally {
      await meter.dispose?.()
    }
  })

  it('redis › a repeated consume id is granted without counting again', async () => {
    // Also what makes a consume resent by ioredis after a lost connection count once.
    const meter = redisMeter({ url: REDIS_URL, base: freshBase() })
    try {
      expect(await meter.consume(request('same', { amount: 2 }))).toEqual({ granted: true, usage: 2 })
      expect(await meter.consume(request('same', { amount: 2 }))).toEqual({ granted: true, usage: 2 })
      expect(await meter.refund({ ...key, id: 'same' })).toBe(true)
      expect(await meter.usage(key)).toBe(0)
    } finally {
      await meter.dispose?.()
    }
  })

  it('redis › an unreachable Redis rejects instead of granting', async () => {
    // Port 1 on loopback: refused at once. No retry, so the commands fail straight away.
    const client = new Redis({ host: '127.0.0.1', port: 1, lazyConnect: true, connectTimeout: 500, retryStrategy: () => null, maxRetriesPerRequest: 0 })
    client.on('error', () => {})
    const meter = redisMeter({ client })
    try {
      await expect(meter.consume(request('a'))).rejects.toThrow(backendError)
      await expect(meter.refund({ ...key, id: 'a' })).rejects.toThrow(backendError)
      await expect(meter.usage(key)).rejects.toThrow(backendError)
    } finally {
      client.disconnect()
    }
  })

  it('redis › with the default client options a Redis that is down fails the call within seconds', async () => {
    const meter = redisMeter({ url: 'redis://127.0.0.1:1', base: freshBase() })
    const started = Date.now()
    try {
      await expect(meter.consume(request('a'))).rejects.toThrow(backendError)
      expect(Date.now() - started).toBeLessThan(5_000)
    } finally {
      await meter.dispose?.()
    }
  })

  it('redis › a key holding something else rejects instead of granting', async () => {
    const prefix = freshBase()
    const meter = redisMeter({ url: REDIS_URL, base: prefix })
    try {
      await admin.set(`${prefix}:{user-1/2026-11}:usage`, 'not a number')
      await expect(meter.consume(request('a'))).rejects.toThrow(backendError)
      await expect(meter.usage(key)).rejects.toThrow(backendError)
      await admin.del(`${prefix}:{user-1/2026-11}:usage`)
      await admin.hset(`${prefix}:{user-1/2026-11}:usage`, 'x', '1')
      await expect(meter.consume(request('b'))).rejects.toThrow(/WRONGTYPE/)
    } finally {
      await meter.dispose?.()
    }
  })

  it('redis › falls back to EVAL when Redis does not know the script yet', async () => {
    // A stub transport: EVALSHA answers NOSCRIPT (as after a restart or SCRIPT FLUSH).
    const calls: string[] = []
    const client = {
      evalsha: async () => {
        calls.push('evalsha')
        throw new Error('NOSCRIPT No matching script. Please use EVAL.')
      },
      eval: async () => {
        calls.push('eval')
        return [1, 1]
      },
    }
    const meter = redisMeter({ client: client as unknown as Redis })
    expect(await meter.consume(request('a'))).toEqual({ granted: true, usage: 1 })
    expect(calls).toEqual(['evalsha', 'eval'])
  })

  it('redis › connects lazily and leaves a client passed in open on dispose', async () => {
    const client = new Redis(REDIS_URL, { lazyConnect: true })
    try {
      const meter = redisMeter({ client, base: freshBase() })
      expect(client.status).toBe('wait')
      await meter.consume(request('a'))
      await meter.dispose?.()
      expect(await client.ping()).toBe('PONG')
      await expect(meter.usage(key)).rejects.toThrow(/disposed/)
    } finally {
      await client.quit()
    }
  })

  it('redis › dispose quits the client it created', async () => {
    const name = `litho-test-${runId}`
    const connected = async () => String(await admin.client('LIST')).includes(`name=${name} `)
    const meter = redisMeter({ url: `${REDIS_URL}?connectionName=${name}`, base: freshBase() })
    expect(await connected()).toBe(false)
    await meter.usage(key)
    expect(await connected()).toBe(true)
    await meter.dispose?.()
    await expect.poll(connected).toBe(false)
  })

  it('redis › rejects bad options with a TypeError at once', () => {
    const typeError = (code: string) => expect.objectContaining({ name: 'TypeError', code })
    expect(() => redisMeter({ url: REDIS_URL, client: admin })).toThrow(typeError('ERR_INVALID_ARG_VALUE'))
    expect(() => redisMeter({ base: 'a{b}' })).toThrow(typeError('ERR_INVALID_ARG_VALUE'))
    expect(() => redisMeter({ base: '' })).toThrow(typeError('ERR_INVALID_ARG_VALUE'))
    expect(() => redisMeter({ url: 6379 as never })).toThrow(typeError('ERR_INVALID_ARG_TYPE'))
    expect(() => redisMeter({ client: {} as never })).toThrow(typeError('ERR_INVALID_ARG_TYPE'))
    expect(() => redisMeter({ graceSeconds: 1.5 })).toThrow(typeError('ERR_INVALID_ARG_VALUE'))
  })
})
