/**
 * The browser session of the sign-in pages: a random token in the `litho_session` cookie,
 * stored as `session.<sha256(token)>` for `sessionTtl` seconds.
 *
 * @module oauth/session
 */
import { randomToken, sha256 } from './_http.js'
import type { OAuthContext } from './context.js'
import { SESSION_COOKIE, readCookie, setCookie } from './cookies.js'
import { TOKEN_32 } from './records.js'

/** The signed-in user of the request's session cookie, or null (no cookie, unknown session, deleted user). */
export async function currentSession(request: Request, context: OAuthContext): Promise<{ userId: string } | null> {
  const token = readCookie(request, SESSION_COOKIE)
  if (!token || !TOKEN_32.test(token)) return null
  const session = (await context.state.get(`session.${sha256(token)}`)) as { userId: string } | null
  if (!session) return null
  const user = await context.accounts.getUser(session.userId)
  return user ? session : null
}

/** Starts a session for `userId`: stores it and returns the `Set-Cookie` value that carries it. */
export async function startSession(context: OAuthContext, userId: string): Promise<string> {
  const token = randomToken()
  await context.state.set(`session.${sha256(token)}`, { userId, createdAt: context.now().toISOString() }, { ttlSeconds: context.limits.sessionTtl })
  return setCookie(SESSION_COOKIE, token, context.limits.sessionTtl, context.cookies)
}

/** Ends the request's session, if any, and returns the `Set-Cookie` value that clears the cookie. */
export async function endSession(request: Request, context: OAuthContext): Promise<string> {
  const token = readCookie(request, SESSION_COOKIE)
  if (token && TOKEN_32.test(token)) await context.state.delete(`session.${sha256(token)}`)
  return setCookie(SESSION_COOKIE, '', 0, context.cookies)
}
