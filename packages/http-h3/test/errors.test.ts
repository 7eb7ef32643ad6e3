// The one error map (src/app/errors.ts): what a route throws, as the documented status and body,
// on a route served alone and mounted under a prefix (the map is route middleware).
import { LithoError } from '@litho/core'
import { BearerVerifierUnavailableError, BodyTooLargeError } from '@litho/auth-adapters'
import { H3 } from 'h3'
import * as z from 'zod'
import { describe, expect, it } from 'vitest'
import { BearerChallenge, mapErrors, toErrorResponse } from '../src/app/errors.js'

const throwing = (error: unknown, style: 'litho' | 'oauth' = 'litho') => {
  const reported: unknown[] = []
  const app = new H3().get(
    '/boom',
    () => {
      throw error
    },
    { middleware: [mapErrors(style, (e) => reported.push(e))] },
  )
  return { app, reported }
}

describe('the error map', () => {
  it('a LithoError keeps its message and gets the status of its code, unreported', async () => {
    const { app, reported } = throwing(new LithoError('ERR_DESIGN_NOT_FOUND', 'no published design has this render code'))
    const response = await app.request('/boom')
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ success: false, message: 'no published design has this render code', code: 'ERR_DESIGN_NOT_FOUND' })
    expect(reported).toEqual([])
  })

  it('the same answer when the app is mounted under a prefix (the parent has no hooks of ours)', async () => {
    const { app } = throwing(new LithoError('ERR_DESIGN_NOT_FOUND', 'no such design'))
    const parent = new H3().mount('/litho', app)
    const response = await parent.request('/litho/boom')
    expect(response.status).toBe(404)
    expect(await response.json()).toMatchObject({ success: false, code: 'ERR_DESIGN_NOT_FOUND' })
  })

  it('a zod error is a 400 ERR_INVALID_REQUEST naming each path', async () => {
    const parsed = z.object({ name: z.string() }).safeParse({ name: 1 })
    const response = toErrorResponse(parsed.error, () => {})
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ success: false, code: 'ERR_INVALID_REQUEST', message: expect.stringMatching(/^name: /), issues: [{ path: 'name' }] })
  })

  it('a bearer challenge is its status with WWW-Authenticate; an unavailable verifier a reported 503 with Retry-After', async () => {
    const challenge = toErrorResponse(new BearerChallenge(403, 'insufficient scope', 'Bearer error="insufficient_scope"'), () => {})
    expect(challenge.status).toBe(403)
    expect(challenge.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope"')
    expect(await challenge.json()).toEqual({ success: false, message: 'insufficient scope', code: 'ERR_INSUFFICIENT_SCOPE' })
    const reported: unknown[] = []
    const unavailable = toErrorResponse(new BearerVerifierUnavailableError('the JWKS could not be fetched'), (e) => reported.push(e))
    expect(unavailable.status).toBe(503)
    expect(unavailable.headers.get('retry-after')).toBe('5')
    expect(reported).toHaveLength(1)
  })

  it('a body over its limit is a 413; anything unexpected a reported 500 without details', async () => {
    expect(toErrorResponse(new BodyTooLargeError(1024), () => {}).status).toBe(413)
    const { app, reported } = throwing(new Error('secret internals'))
    const response = await app.request('/boom')
    expect(response.status).toBe(500)
    expect(await response.json()).toEqual({ success: false, message: 'internal error', code: 'ERR_INTERNAL' })
    expect(reported).toHaveLength(1)
  })

  it("the authorization server's routes answer OAuth's server_error, never cached", async () => {
    const { app, reported } = throwing(new Error('store down'), 'oauth')
    const response = await app.request('/boom')
    expect(response.status).toBe(500)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.json()).toEqual({ error: 'server_error', error_description: 'The server could not complete the request; try again' })
    expect(reported).toHaveLength(1)
  })
})
