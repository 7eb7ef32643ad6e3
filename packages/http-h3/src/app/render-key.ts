/**
 * Where each route takes its render key from (docs/authentication.md, "Render keys"), exactly:
 * GET render: header `dma-api-key`, or query `dma-api-key`, `key` or `api-key`;
 * POST render: the header only; bulk: the header or query `dma-api-key`.
 *
 * @module app/render-key
 */
import { LithoError } from '@litho/core'
import type { RenderKeyAuthenticator, RenderKeyPrincipal } from '@litho/auth-adapters'

/** The routes that take a render key. */
export type RenderKeyRoute = 'get-render' | 'post-render' | 'bulk'

const QUERY_NAMES: Record<RenderKeyRoute, readonly string[]> = {
  'get-render': ['dma-api-key', 'key', 'api-key'],
  'post-render': [],
  bulk: ['dma-api-key'],
}

/**
 * Authenticates a request of `route`.
 *
 * @throws LithoError `ERR_UNAUTHORIZED` when the key is missing, in a place this route does not accept, unknown or inactive.
 */
export async function requireRenderKey(request: Request, url: URL, route: RenderKeyRoute, authenticate: RenderKeyAuthenticator): Promise<RenderKeyPrincipal> {
  let secret = request.headers.get('dma-api-key')
  if (secret === null) {
    for (const name of QUERY_NAMES[route]) {
      secret = url.searchParams.get(name)
      if (secret !== null) break
    }
  }
  if (secret === null || secret === '') {
    const inQuery = ['dma-api-key', 'key', 'api-key'].some((name) => url.searchParams.has(name))
    const message =
      route === 'post-render' && inQuery
        ? 'missing render key: a POST render takes the key in the dma-api-key header only'
        : `missing render key: send it in the dma-api-key header${QUERY_NAMES[route].length ? ` or the ${QUERY_NAMES[route].join(', ')} query parameter` : ''}`
    throw new LithoError('ERR_UNAUTHORIZED', message)
  }
  const principal = await authenticate(secret.trim())
  if (principal === null) throw new LithoError('ERR_UNAUTHORIZED', 'invalid render key: unknown or deactivated')
  return principal
}
