// Secrets seen in this tab (a key created here, a link secret rotated here), in memory only:
// the API shows them once, and the playground uses them to fill in links it can sign.

/** A render key whose secrets this tab has seen. */
export interface KnownKey {
  id: string
  name: string
  key: string
  linkSecret?: string
}

export const knownKeys = new Map<string, KnownKey>()

/** The newest key whose secret this tab knows, if any. */
export function newestKnownKey(): KnownKey | undefined {
  return [...knownKeys.values()].at(-1)
}

/** The quota headers of the last metered response (X-Quota-*), for the Usage page. */
export let lastQuota: { limit: number; remaining: number; resetAt: string } | null = null

export function noteQuota(response: Response): void {
  const limit = response.headers.get('x-quota-limit')
  const remaining = response.headers.get('x-quota-remaining')
  const reset = response.headers.get('x-quota-reset')
  if (limit !== null && remaining !== null && reset !== null) lastQuota = { limit: Number(limit), remaining: Number(remaining), resetAt: reset }
}
