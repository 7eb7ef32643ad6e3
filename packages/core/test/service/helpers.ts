import { createHash, randomBytes } from 'node:crypto'
import type { HistoryRequest, Meter, UsageHour } from '../../src/contracts/index.js'
import { LithoError, type GeneratedKey } from '../../src/index.js'

/** Awaits `promise` and returns the LithoError it rejects with; fails if it resolves or rejects otherwise. */
export async function rejection(promise: Promise<unknown> | (() => unknown)): Promise<LithoError> {
  try {
    await (typeof promise === 'function' ? promise() : promise)
  } catch (error) {
    if (LithoError.isInstance(error)) return error
    throw error
  }
  throw new Error('expected a LithoError')
}

/**
 * A meter whose history is a fixed list of hours per subject, honouring the port's contract
 * ([hour of from, to), oldest first), and recording each request.
 */
export function historyMeter(hours: Record<string, UsageHour[]>): Pick<Meter, 'history' | 'usage'> & { requests: HistoryRequest[] } {
  const requests: HistoryRequest[] = []
  return {
    requests,
    // Nothing stored: the storage part of usage is 0.
    usage: async () => 0,
    async history(request) {
      requests.push(request)
      const from = Math.floor(request.from.getTime() / 3_600_000) * 3_600_000
      return (hours[request.subject] ?? [])
        .filter((h) => Date.parse(h.hour) >= from && Date.parse(h.hour) < request.to.getTime())
        .sort((a, b) => Date.parse(a.hour) - Date.parse(b.hour))
        .map((h) => ({ ...h }))
    },
  }
}

/** A render key shaped like `createRenderKey()` of @litho/auth-adapters. */
export function fakeKey(): GeneratedKey {
  const secret = `lk_${randomBytes(24).toString('base64url')}`
  return { id: `key_${randomBytes(9).toString('base64url')}`, secret, hash: `sha256:${createHash('sha256').update(secret).digest('base64url')}`, displayPrefix: `${secret.slice(0, 9)}…` }
}

/** A valid published document with dynamic fields, a group and two variations. */
export function documentFixture(): Record<string, unknown> {
  return {
    version: 2,
    width: 1080,
    height: 1080,
    background: '#ffffff',
    components: [
      { key: 'title', type: 'text', width: 800, height: 100, text: 'Hello' },
      { key: 'photo', type: 'image', width: 300, height: 300, src: 'https://example.test/a.png' },
      { key: 'card', type: 'group', width: 400, height: 200, children: [{ key: 'price', type: 'text', width: 400, height: 40, text: '12' }] },
    ],
    variations: [
      { id: 'story', name: 'Story', width: 1080, height: 1920, components: { title: { y: 1500 } } },
      { id: 'wide', width: 1920, height: 1080 },
    ],
  }
}
