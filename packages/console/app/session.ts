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
