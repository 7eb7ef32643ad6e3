/**
 * Small helpers of the authorization server: hashing and randomness from node:crypto, and
 * the response shapes of RFC 6749 (JSON errors), RFC 7591 and the HTML pages.
 *
 * @module oauth/_http
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { readBodyText } from '../read-body.js'

/** 32 random bytes as base64url (256 bits): codes, tokens, ids of pending requests, CSRF. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url')
}

/** SHA-256 of `value` as base64url: how codes, tokens and sessions are stored and looked up. */
export function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('base64url')
}

/** Constant-time equality of two strings (false when the lengths differ). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8')
  const right = Buffer.from(b, 'utf8')
  return left.length === right.length && timingSafeEqual(left, right)
}

/** Headers of every JSON endpoint a browser-based client may call (RFC 8414, 7591, 6749 token, 7009). */
export const CORS_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type, Accept, MCP-Protocol-Version',
  'access-control-max-age': '600',
})

/** A JSON response. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })
}

/** The answer to a CORS preflight of the JSON endpoints. */
export function preflight(): Response {
  return new Response(null, { status: 204, headers: { ...CORS_HEADERS } })
}

/** An OAuth error response (RFC 6749 §5.2): `{ error, error_description }`, never cached. */
export function oauthError(error: string, description: string, status = 400, headers: Record<string, string> = {}): Response {
  return jsonResponse({ error, error_description: description }, status, { ...CORS_HEADERS, 'cache-control': 'no-store', pragma: 'no-cache', ...headers })
}

/** The largest body of the authorization server's endpoints and forms: a form or client metadata is a few hundred bytes. */
export const MAX_BODY_BYTES = 64 * 1024

/**
 * Reads an `application/x-www-form-urlencoded` body (at most {@link MAX_BODY_BYTES}). Null when the type is wrong.
 *
 * @throws BodyTooLargeError over the limit.
 */
export async function readForm(request: Request): Promise<URLSearchParams | null> {
  const type = request.headers.get('content-type') ?? ''
  if (!/^application\/x-www-form-urlencoded\b/i.test(type)) return null
  return new URLSearchParams(await readBodyText(request, MAX_BODY_BYTES))
}

/**
 * Reads a body as text (at most {@link MAX_BODY_BYTES}).
 *
 * @throws BodyTooLargeError over the limit.
 */
export async function readText(request: Request): Promise<string> {
  return readBodyText(request, MAX_BODY_BYTES)
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}
