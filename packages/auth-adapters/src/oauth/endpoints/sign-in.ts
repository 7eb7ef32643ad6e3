/**
 * The sign-in form of the authorization endpoint (its POST with `step=sign-in`): limits first,
 * then the password on the password pool, then a session and the consent page.
 *
 * @module oauth/endpoints/sign-in
 */
import { PasswordHashingBusyError } from '../../password-pool.js'
import { showConsent } from '../consent.js'
import type { EndpointContext } from '../context.js'
import { signInPage } from '../pages.js'
import { OAUTH_PATHS } from '../paths.js'
import type { PendingRequest } from '../records.js'
import { startSession } from '../session.js'
import type { ClientRecord } from '../types.js'

/** The longest email an account can have (RFC 3696 errata: 64 + 1 + 255), as the account stores enforce. */
const MAX_EMAIL_LENGTH = 320

// A valid scrypt hash of a random password: verifying against it costs what a real check costs.
const DUMMY_HASH = 'scrypt$N=131072,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'

/** What the authorization endpoint already checked: the pending request, its CSRF token and its client. */
export interface VerifiedForm {
  form: URLSearchParams
  requestId: string
  csrf: string
  pending: PendingRequest
  client: ClientRecord
}

/** Checks the email and password of the form: the consent page with a new session, or the form again with the reason. */
export async function signIn({ form, requestId, csrf, pending, client }: VerifiedForm, { server, clientAddress }: EndpointContext): Promise<Response> {
  const { signInLimits, passwords } = server
  const action = server.endpointUrl(OAUTH_PATHS.authorize)
  const email = (form.get('email') ?? '').trim().toLowerCase()
  const password = form.get('password') ?? ''
  const again = (error: string, status: number, headers?: Record<string, string>) => signInPage({ action, requestId, csrf, clientName: client.clientName, email, error, status, ...(headers ? { headers } : {}) })
  if (!email || !password) return again('Enter your email and password.', 400)
  // The account store refuses (throws on) a longer email, which would be a 500; no account has one.
  if (email.length > MAX_EMAIL_LENGTH) return signInPage({ action, requestId, csrf, clientName: client.clientName, error: `Enter an email address of at most ${MAX_EMAIL_LENGTH} characters.`, status: 400 })
  // A full pool is refused first, before any lookup or counter: the cheapest answer to a flood.
  const busyFor = passwords.retryAfter?.()
  if (busyFor !== undefined) return again('The server is busy signing other people in. Try again in a few seconds.', 503, { 'retry-after': String(busyFor) })
  // Charged before hashing, atomically: N simultaneous attempts hash at most the limit.
  const charged = await signInLimits.charge(email, clientAddress)
  if ('retryAfterSeconds' in charged) {
    const wait = charged.retryAfterSeconds
    return again(`Too many sign-in attempts. Try again in ${wait < 120 ? `${wait} seconds` : `${Math.ceil(wait / 60)} minutes`}.`, 429, { 'retry-after': String(wait) })
  }
  const user = await server.accounts.findUserByEmail(email)
  let ok: boolean
  try {
    // Hash even for an unknown email, so timing does not tell which emails have accounts.
    ok = await passwords.verify(password, user ? user.passwordHash : DUMMY_HASH)
  } catch (error) {
    if (!(error instanceof PasswordHashingBusyError)) throw error
    await signInLimits.release(charged.charge)
    return again('The server is busy signing other people in. Try again in a few seconds.', 503, { 'retry-after': String(error.retryAfterSeconds) })
  }
  if (!user || !ok) {
    await signInLimits.failed(charged.charge)
    return again('Wrong email or password.', 401)
  }
  await signInLimits.succeeded(charged.charge)
  const sessionCookie = await startSession(server, user.id)
  return showConsent(server, requestId, pending, csrf, user.id, { 'set-cookie': sessionCookie })
}
