/**
 * Signed render links (docs/signed-render-links.md): a GET render URL that carries no secret,
 * only `exp` (optional), `kid` (the render key's id) and `sig`, an HMAC-SHA256 over the
 * canonical form of the path and query. This module is the client side and the canonical form
 * both sides share: it imports nothing, and signs with Web Crypto (`globalThis.crypto.subtle`),
 * so it runs in Node, browsers, Deno and workers alike. It is the `@litho/core/signing` entry.
 *
 * @module signing/render-link
 */

/** The query parameters of a signed link that are not overrides (only when `sig` is present). */
export const RENDER_LINK_PARAMS = ['exp', 'kid', 'sig'] as const

/**
 * The query names that carry a render key: a signed link must not carry one too (the link
 * replaces the key; a page that shows both leaks the key anyway).
 */
export const RENDER_KEY_QUERY_NAMES = ['dma-api-key', 'key', 'api-key'] as const

/** Key ids: the render key's `_id`, `[A-Za-z0-9_-]{1,64}`. */
export const RENDER_LINK_KID = /^[A-Za-z0-9_-]{1,64}$/

/** A signature: 32 bytes of HMAC-SHA256 in base64url without padding, 43 characters. */
export const RENDER_LINK_SIG = /^[A-Za-z0-9_-]{43}$/

/** An expiry: unix seconds, 1 to 12 digits (no sign, no fraction, no exponent). */
export const RENDER_LINK_EXP = /^[0-9]{1,12}$/

/** The path segment before the design's render code. */
const VERSION_SEGMENT = 'v1'

/**
 * RFC 3986 percent-encoding: `encodeURIComponent`, which leaves `!'()*` alone, plus those
 * five. Only `A-Z a-z 0-9 - . _ ~` stay as they are; every other UTF-8 byte is `%XX` (upper case).
 *
 * @example encodeRfc3986("it's (1)") // 'it%27s%20%281%29'
 */
export function encodeRfc3986(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}

/**
 * The string a signed render link signs: `/v1/<design id>` (relative to `{render_url}`, so a
 * mount prefix or a proxy does not change it), `?`, then every query parameter except `sig`,
 * name and value each percent-encoded by {@link encodeRfc3986}, sorted by encoded name then
 * encoded value (plain code-unit order), as `name=value` joined with `&`.
 *
 * Names and values are taken decoded (as `URLSearchParams` reads a query: `+` is a space).
 *
 * @example
 * renderLinkStringToSign('og-card', [['title.text', 'Hello world'], ['kid', 'key_1'], ['exp', '1798761600']])
 * // '/v1/og-card?exp=1798761600&kid=key_1&title.text=Hello%20world'
 */
export function renderLinkStringToSign(designId: string, params: Iterable<readonly [string, string]>): string {
  const pairs: Array<[string, string]> = []
  for (const [name, value] of params) if (name !== 'sig') pairs.push([encodeRfc3986(name), encodeRfc3986(value)])
  pairs.sort(([an, av], [bn, bv]) => (an < bn ? -1 : an > bn ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
  return `/${VERSION_SEGMENT}/${encodeRfc3986(designId)}?${pairs.map(([name, value]) => `${name}=${value}`).join('&')}`
}

/** Options of {@link signRenderUrl}: a render URL, or its parts. */
export type SignRenderUrlOptions = (
  | {
      /** A GET render URL, `{render_url}/v1/{design_id}` with overrides in its query. */
      url: string | URL
      baseUrl?: never
      designId?: never
      params?: never
    }
  | {
      url?: never
      /** `{render_url}`, e.g. `https://render.example.com` (a path prefix is kept). */
      baseUrl: string | URL
      /** The design's render code. */
      designId: string
      /** Overrides and render parameters, e.g. `{ 'title.text': 'Hello', format: 'png' }`. */
      params?: Record<string, string> | URLSearchParams | Iterable<readonly [string, string]>
    }
) & {
  /** The render key's id (`_id` in the key list, `id` from `litho keys create`). */
  keyId: string
  /** The key's link secret (`linkSecret`, shown when the key is created or its link secret rotated). */
  secret: string
  /** When the link stops working: a Date or unix seconds. Absent: no `exp`, the link lives until the key is revoked or its link secret rotated. */
  expiresAt?: Date | number
}

/** The parts of a render URL to sign: where it points, its design id, its parameters. */
interface LinkParts {
  base: URL
  designId: string
  params: Array<[string, string]>
}

function invalid(message: string): TypeError & { code: string } {
  return Object.assign(new TypeError(message), { code: 'ERR_INVALID_ARG_VALUE' })
}

function partsOf(options: SignRenderUrlOptions): LinkParts {
  if (options.url !== undefined) {
    let url: URL
    try {
      url = new URL(String(options.url))
    } catch {
      throw invalid('Expected url to be an absolute render URL like https://render.example.com/v1/og-card')
    }
    const segments = url.pathname.split('/')
    const designId = segments.pop()
    if (segments.pop() !== VERSION_SEGMENT || designId === undefined || designId === '') throw invalid(`Expected url to end in /${VERSION_SEGMENT}/<design id> but its path is ${JSON.stringify(url.pathname)}`)
    const base = new URL(url.href)
    base.pathname = segments.join('/')
    base.search = ''
    base.hash = ''
    let decoded: string
    try {
      decoded = decodeURIComponent(designId)
    } catch {
      throw invalid('Expected the design id in url to be validly percent-encoded')
    }
    return { base, designId: decoded, params: [...url.searchParams] }
  }
  let base: URL
  try {
    base = new URL(String(options.baseUrl))
  } catch {
    throw invalid('Expected baseUrl to be an absolute URL like https://render.example.com')
  }
  if (typeof options.designId !== 'string' || options.designId === '') throw invalid('Expected designId to be a non-empty string')
  const given = options.params ?? []
  const params = Symbol.iterator in given ? [...(given as Iterable<readonly [string, string]>)] : Object.entries(given)
  return { base, designId: options.designId, params: params.map(([name, value]) => [String(name), String(value)]) }
}

/** Checks the options and returns the link's parameters and the string to sign. */
function prepare(options: SignRenderUrlOptions): { parts: LinkParts; params: Array<[string, string]>; stringToSign: string } {
  if (typeof options !== 'object' || options === null) throw invalid('Expected an options object')
  if (typeof options.keyId !== 'string' || !RENDER_LINK_KID.test(options.keyId)) throw invalid('Expected keyId to be a render key id, 1-64 of A-Z a-z 0-9 _ -')
  // Never echo the secret, only what is wrong with it.
  if (typeof options.secret !== 'string' || options.secret.length < 32) throw invalid('Expected secret to be the key’s link secret (at least 32 characters)')
  const parts = partsOf(options)
  if (parts.base.protocol !== 'https:' && parts.base.protocol !== 'http:') throw invalid(`Expected an http(s) render URL but received a ${parts.base.protocol} URL`)
  for (const [name] of parts.params) {
    if ((RENDER_LINK_PARAMS as readonly string[]).includes(name)) throw invalid(`Expected the parameters to leave "${name}" to the signer`)
    if ((RENDER_KEY_QUERY_NAMES as readonly string[]).includes(name)) throw invalid(`Expected no render key in a signed link, but the parameters hold "${name}"`)
  }
  const params: Array<[string, string]> = [...parts.params]
  if (options.expiresAt !== undefined) {
    const seconds = options.expiresAt instanceof Date ? Math.floor(options.expiresAt.getTime() / 1000) : options.expiresAt
    if (!Number.isSafeInteger(seconds) || seconds < 0 || !RENDER_LINK_EXP.test(String(seconds))) throw invalid('Expected expiresAt to be a valid Date or whole unix seconds (at most 12 digits)')
    params.push(['exp', String(seconds)])
  }
  params.push(['kid', options.keyId])
  return { parts, params, stringToSign: renderLinkStringToSign(parts.designId, params) }
}

/** The signed URL: the base, `/v1/<design id>`, the canonical query and `sig`. */
function assemble(prepared: ReturnType<typeof prepare>, sig: string): string {
  const query = prepared.stringToSign.slice(prepared.stringToSign.indexOf('?') + 1)
  const href = prepared.parts.base.href
  const cut = [href.indexOf('?'), href.indexOf('#')].filter((i) => i >= 0)
  const base = trimEnd(cut.length > 0 ? href.slice(0, Math.min(...cut)) : href, '/')
  return `${base}/${VERSION_SEGMENT}/${encodeRfc3986(prepared.parts.designId)}?${query}&sig=${sig}`
}

function base64url(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return trimEnd(btoa(binary).replace(/\+/g, '-').replace(/\//g, '_'), '=')
}

/** `text` without the run of `char` at its end (a loop, not an end-anchored pattern: linear on any input). */
function trimEnd(text: string, char: string): string {
  let end = text.length
  while (end > 0 && text[end - 1] === char) end--
  return text.slice(0, end)
}

/**
 * Signs a render URL with a render key's link secret, offline: the result can go in an
 * `<img src>` or an `og:image` tag, and shows no secret. Uses Web Crypto, so it works in
 * Node 20+, browsers, Deno and edge workers. The server refuses an `exp` further away than
 * its limit (365 days unless configured).
 *
 * @throws TypeError `ERR_INVALID_ARG_VALUE` for a bad key id, a short secret, a URL that is
 * not `…/v1/<design id>`, a parameter named `exp`, `kid`, `sig`, `key`, `dma-api-key` or
 * `api-key`, or an invalid `expiresAt`.
 * @example
 * const src = await signRenderUrl({
 *   baseUrl: 'https://render.example.com', designId: 'og-card', params: { 'title.text': 'Hello' },
 *   keyId: 'key_3Jx9Qm2L', secret: process.env.LITHO_LINK_SECRET!, expiresAt: new Date(Date.now() + 30 * 86_400_000),
 * })
 */
export async function signRenderUrl(options: SignRenderUrlOptions): Promise<string> {
  const prepared = prepare(options)
  const subtle = globalThis.crypto?.subtle
  if (subtle === undefined) throw Object.assign(new Error('Web Crypto (globalThis.crypto.subtle) is not available here: use signRenderUrlSync of @litho/core in Node'), { code: 'ERR_NO_CRYPTO' })
  const encoder = new TextEncoder()
  const key = await subtle.importKey('raw', encoder.encode(options.secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const mac = new Uint8Array(await subtle.sign('HMAC', key, encoder.encode(prepared.stringToSign)))
  return assemble(prepared, base64url(mac))
}

/**
 * The pieces {@link signRenderUrl} is built from, for a signer with another HMAC (Node's
 * `createHmac`, in `signRenderUrlSync` of `@litho/core`): checks the options, then returns the
 * string to sign and a function that makes the URL from the base64url signature.
 *
 * @example const { stringToSign, toUrl } = prepareRenderLink(options); toUrl(hmacBase64url(options.secret, stringToSign))
 */
export function prepareRenderLink(options: SignRenderUrlOptions): { stringToSign: string; toUrl: (sig: string) => string } {
  const prepared = prepare(options)
  return { stringToSign: prepared.stringToSign, toUrl: (sig) => assemble(prepared, sig) }
}
