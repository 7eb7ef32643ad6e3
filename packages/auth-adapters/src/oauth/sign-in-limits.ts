/**
 * The limits of the sign-in form, charged before any password is hashed (docs/security.md):
 *
 * - per (email, client address): failures slow down exponentially (3 free, then 1 s, 2 s,
 *   4 s … up to 15 min between attempts), and at most `perPair` attempts in 15 minutes;
 * - per client address: at most `perAddress` attempts in 15 minutes, successes included;
 * - per email (account or not, so the answer says nothing about which emails exist): at most
 *   `perAccount` attempts in 15 minutes, successes included.
 *
 * Every attempt takes its units atomically from the meter first, so N simultaneous attempts
 * hash at most the limit, never N. A stranger's failures slow only the stranger's own
 * (email, address) pair: the owner, from another address, is not locked out unless someone
 * spends the (generous) per-account allowance from many addresses.
 *
 * @module oauth/sign-in-limits
 */
import type { AuthStateStore, Meter } from '@litho/core/contracts'
import { randomToken, sha256 } from './_http.js'

/** The fixed window of every sign-in limit. */
export const SIGN_IN_WINDOW_SECONDS = 900
/** Failures of one (email, address) pair that cost no wait. */
const FREE_FAILURES = 3
/** How long a pair's failures are remembered after the last one. */
const FAILURES_TTL_SECONDS = 86_400

/** What one attempt took from the meter, to give back or keep. */
export interface SignInCharge {
  pair: string
  taken: Array<{ subject: string; window: string; id: string }>
}

interface Throttle {
  failures: number
  /** ISO time before which the pair may not try again. */
  until: string
}

/** The limits of one authorization server. */
export class SignInLimits {
  readonly #meter: Meter | undefined
  readonly #state: AuthStateStore
  readonly #now: () => Date
  readonly #limits: { perPair: number; perAddress: number; perAccount: number }

  constructor(options: { meter?: Meter; state: AuthStateStore; now: () => Date; perPair: number; perAddress: number; perAccount: number }) {
    this.#meter = options.meter
    this.#state = options.state
    this.#now = options.now
    this.#limits = { perPair: options.perPair, perAddress: options.perAddress, perAccount: options.perAccount }
  }

  /**
   * Charges one attempt of `email` from `address` (undefined when the transport does not know
   * it): the charge, or how long to wait when a limit is reached (nothing is then taken).
   */
  async charge(email: string, address: string | undefined): Promise<{ charge: SignInCharge } | { retryAfterSeconds: number }> {
    const at = this.#now()
    const pair = sha256(`${email}\n${address ?? ''}`).slice(0, 32)
    const throttle = (await this.#state.get(`throttle.${pair}`)) as Throttle | null
    const waitMs = throttle ? Date.parse(throttle.until) - at.getTime() : 0
    if (waitMs > 0) return { retryAfterSeconds: Math.ceil(waitMs / 1000) }
    const charge: SignInCharge = { pair, taken: [] }
    if (!this.#meter) return { charge }
    const index = Math.floor(at.getTime() / (SIGN_IN_WINDOW_SECONDS * 1000))
    const window = `rl${SIGN_IN_WINDOW_SECONDS}.${index}`
    const expiresAt = new Date((index + 1) * SIGN_IN_WINDOW_SECONDS * 1000)
    const subjects: Array<[string, number]> = [
      [`signin.p.${pair}`, this.#limits.perPair],
      [`signin.e.${sha256(email).slice(0, 32)}`, this.#limits.perAccount],
    ]
    if (address !== undefined) subjects.push([`signin.a.${sha256(address).slice(0, 32)}`, this.#limits.perAddress])
    const meter = this.#meter
    const results = await Promise.all(
      subjects.map(async ([subject, limit]) => {
        const id = randomToken(12)
        const { granted } = await meter.consume({ subject, window, amount: 1, limit, id, expiresAt, at })
        return { subject, window, id, granted }
      }),
    )
    charge.taken = results.filter((r) => r.granted).map(({ subject, window: w, id }) => ({ subject, window: w, id }))
    if (results.every((r) => r.granted)) return { charge }
    // Refused: give back what was taken, so an address at its cap cannot spend an account's allowance.
    await this.release(charge)
    return { retryAfterSeconds: Math.max(1, Math.ceil((expiresAt.getTime() - at.getTime()) / 1000)) }
  }

  /** A wrong password (or an unknown email): the pair waits longer before its next attempt. */
  async failed(charge: SignInCharge): Promise<void> {
    // Read, then write: concurrent failures may count once. The meter's atomic charge bounds those.
    const previous = (await this.#state.get(`throttle.${charge.pair}`)) as Throttle | null
    const failures = (previous?.failures ?? 0) + 1
    const waitSeconds = failures <= FREE_FAILURES ? 0 : Math.min(2 ** (failures - FREE_FAILURES - 1), SIGN_IN_WINDOW_SECONDS)
    await this.#state.set(`throttle.${charge.pair}`, { failures, until: new Date(this.#now().getTime() + waitSeconds * 1000).toISOString() } satisfies Throttle, { ttlSeconds: FAILURES_TTL_SECONDS })
  }

  /** A success: the pair's failures are forgotten and its attempt given back; address and account keep theirs. */
  async succeeded(charge: SignInCharge): Promise<void> {
    await this.#state.delete(`throttle.${charge.pair}`)
    const pairUnit = charge.taken.find((t) => t.subject === `signin.p.${charge.pair}`)
    if (pairUnit && this.#meter) await this.#meter.refund(pairUnit)
  }

  /** Gives back everything (the attempt was not checked: the hashing pool was busy). */
  async release(charge: SignInCharge): Promise<void> {
    const meter = this.#meter
    if (meter) await Promise.all(charge.taken.map((t) => meter.refund(t)))
    charge.taken = []
  }
}
