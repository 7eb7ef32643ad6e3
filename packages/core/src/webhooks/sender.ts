/**
 * Sends one signed webhook delivery (one attempt): a JSON POST with the Standard Webhooks
 * headers, signed by the `standardwebhooks` package, through the same connect-time network
 * guard as remote images. Retrying, persisting and scheduling are the caller's (see
 * {@link nextWebhookDelay}); this module makes one attempt and reports how it went.
 *
 * @module webhooks/sender
 */
import { checkOutboundUrl, classifyConnectFailure, loadHttpClient } from '../network/outbound.js'
import { describeReceived, invalidArgument } from '../_internal/argument-error.js'
import { assertNetworkPolicy, isAddressAllowed, type NetworkPolicy } from '../network/policy.js'
import { isWebhookSecret } from './secret-format.js'

/** The default whole-request timeout (Svix: 15 s to answer; Standard Webhooks: 15–30 s). */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 15_000

/** The default `user-agent` of deliveries. */
export const WEBHOOK_USER_AGENT = 'Litho-Webhooks/1'

/** Options of {@link createWebhookSender}. */
export interface WebhookSenderOptions {
  /** Which addresses deliveries may reach (https only unless `allowHttp`); required. */
  policy: NetworkPolicy
  /** The whole attempt: name resolution, connect, TLS, sending and the response headers. @default 15000 */
  timeoutMs?: number
  /** @default 'Litho-Webhooks/1' */
  userAgent?: string
}

/** One delivery attempt. */
export interface WebhookSendRequest {
  /** The receiver's endpoint, an absolute https: URL (http: only with `policy.allowHttp`). */
  url: string
  /** The signing secret, `whsec_` + base64 of 24–64 bytes. */
  secret: string
  /**
   * The event id, sent as `webhook-id`: the same on every attempt of one event, so receivers can
   * deduplicate on it. 1–255 characters of `[A-Za-z0-9_:-]` (never a `.`, which the signed
   * content uses as its separator).
   */
  id: string
  /** The body, sent as `JSON.stringify(payload)`. */
  payload: unknown
  /** The time of this attempt (`webhook-timestamp`, in whole seconds). @default new Date() */
  now?: Date
}

/** Why an attempt failed, for logs and for the caller's retry decision. */
export type WebhookFailureReason =
  /** The URL is not an acceptable webhook URL (scheme, credentials, unparseable). Permanent until changed. */
  | 'bad_url'
  /** The host is, or resolves to, an address the network policy refuses. No connection was made. */
  | 'blocked_address'
  /** The host name could not be resolved. */
  | 'dns_failure'
  /** No response headers within `timeoutMs`. */
  | 'timeout'
  /** The connection failed (refused, reset, TLS). */
  | 'network'
  /** The receiver answered 3xx; redirects are never followed. */
  | 'redirect'
  /** The receiver answered something other than 2xx or 3xx. */
  | 'http_status'

/** The outcome of one attempt. Delivery failures are reported here, never thrown. */
export interface WebhookDelivery {
  /** True only when the receiver answered 2xx. */
  ok: boolean
  /** The HTTP status, when the receiver answered at all. */
  status?: number
  /** A short reason when `ok` is false, e.g. `timeout after 15000 ms`, `HTTP 500`. */
  error?: string
  /** The machine-readable kind of `error`. */
  reason?: WebhookFailureReason
  /** Wall time of the attempt, in whole milliseconds. */
  durationMs: number
}

/** Sends webhook deliveries. */
export interface WebhookSender {
  /**
   * Makes one delivery attempt. Resolves with the outcome for every delivery failure (bad URL,
   * refused address, timeout, connection error, non-2xx); rejects only with a TypeError for bad
   * arguments (a secret that is not `whsec_…`, an id with a `.`, a payload JSON cannot encode).
   */
  send(request: WebhookSendRequest): Promise<WebhookDelivery>
}

/**
 * A webhook sender for one deployment's network policy.
 *
 * - POST, `content-type: application/json`, body `JSON.stringify(payload)`;
 * - headers `webhook-id`, `webhook-timestamp`, `webhook-signature` (`v1,<base64>`, from the
 *   `standardwebhooks` package) and `user-agent`;
 * - https: only, unless `policy.allowHttp`; URLs with credentials are refused;
 * - every connection goes through the pinned connector: loopback, private, link-local,
 *   unspecified (and every other non-public) address is refused when the socket is about to be
 *   opened, after DNS, unless it lies in `policy.allowNetworks`;
 * - redirects are not followed: a 3xx is a failure with its status recorded;
 * - the whole attempt is bounded by `timeoutMs`; response bodies are discarded unread.
 *
 * @example
 * const sender = createWebhookSender({ policy: networkPolicyFromEnv() })
 * const delivery = await sender.send({ url: 'https://example.com/hooks', secret, id: 'evt_123', payload: { type: 'export.succeeded' } })
 * if (!delivery.ok) schedule(nextWebhookDelay(attempts))
 */
export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  if (typeof options !== 'object' || options === null) throw invalidArgument(`Expected options to be an object but received ${describeReceived(options)}`)
  const policy = options.policy
  assertNetworkPolicy(policy, 'options.policy')
  const timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS
  if (typeof timeoutMs !== 'number' || !Number.isSafeInteger(timeoutMs) || timeoutMs < 1) {
    throw invalidArgument(`Expected options.timeoutMs to be a whole number of milliseconds >= 1 but received ${describeReceived(timeoutMs)}`)
  }
  const userAgent = options.userAgent ?? WEBHOOK_USER_AGENT
  if (typeof userAgent !== 'string' || !/^[\x20-\x7e]{1,200}$/.test(userAgent)) {
    throw invalidArgument(`Expected options.userAgent to be 1-200 printable ASCII characters but received ${describeReceived(userAgent)}`)
  }

  return {
    async send(request) {
      const { url, secret, id, body, now } = checkRequest(request)
      const started = performance.now()
      const elapsed = () => Math.round(performance.now() - started)
      const failed = (reason: WebhookFailureReason, error: string, status?: number): WebhookDelivery => ({
        ok: false,
        ...(status === undefined ? {} : { status }),
        error,
        reason,
        durationMs: elapsed(),
      })

      const target = webhookUrlProblem(url, policy)
      if (target !== undefined) return failed(target.reason, target.problem)

      // The signature covers `${id}.${seconds}.${body}`; standardwebhooks floors `now` to seconds
      // exactly as the header below does.
      // standardwebhooks loads with the first delivery, not with `import '@litho/core'`.
      const { Webhook } = await import('standardwebhooks')
      const signature = new Webhook(secret).sign(id, now, body)
      const { openGuardedAgent, outboundFetch } = await loadHttpClient()
      const controller = new AbortController()
      let timedOut = false
      const timer = setTimeout(() => {
        timedOut = true
        controller.abort(new Error('webhook timeout'))
      }, timeoutMs)
      // One Agent per attempt: its connector carries the policy, and destroying it afterwards
      // guarantees no socket outlives the attempt.
      const agent = openGuardedAgent(policy, timeoutMs)
      try {
        const response = await outboundFetch.raw<ReadableStream<Uint8Array>, 'stream'>(url.trim(), {
          method: 'POST',
          body,
          dispatcher: agent,
          signal: controller.signal,
          // A redirect is a failure to report (below), never a hop to follow.
          redirect: 'manual',
          // One attempt: retrying is the caller's, on its own schedule (retry-schedule).
          retry: 0,
          ignoreResponseError: true,
          responseType: 'stream',
          headers: {
            'content-type': 'application/json',
            'user-agent': userAgent,
            'webhook-id': id,
            'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
            'webhook-signature': signature,
          },
        })
        // The body is never used: cancel it rather than let a receiver stream at us.
        await response.body?.cancel().catch(() => {})
        const status = response.status
        if (status >= 200 && status <= 299) return { ok: true, status, durationMs: elapsed() }
        if (status >= 300 && status <= 399) return failed('redirect', `HTTP ${status}: redirects are not followed; update the webhook URL`, status)
        return failed('http_status', `HTTP ${status}`, status)
      } catch (error) {
        if (timedOut) return failed('timeout', `timeout after ${timeoutMs} ms`)
        const failure = classifyConnectFailure(error)
        if (failure.reason === 'connect_timeout') return failed('timeout', `timeout after ${timeoutMs} ms (connect)`)
        if (failure.reason === 'network') return failed('network', `connection failed${failure.code === undefined ? '' : ` (${failure.code})`}`)
        if (failure.reason === 'timeout') return failed('timeout', `timeout after ${timeoutMs} ms (name resolution)`)
        // The refusal message names the host the caller gave, never the internal address a
        // name resolved to.
        return failed(failure.reason, failure.reason === 'blocked_address' ? `blocked address: ${failure.message}` : failure.message)
      } finally {
        clearTimeout(timer)
        agent.destroy().catch(() => {})
      }
    },
  }
}

/**
 * Checks a webhook URL without any I/O: the scheme (https:, or http: with `policy.allowHttp`),
 * no credentials, and, when the host is an IP literal (`http://127.0.0.1/`, `http://[::1]/`,
 * `http://2130706433/`), the address against the policy. Returns the problem, or undefined when
 * the URL may be used. Meant for registration time (reject early with a clear message); delivery
 * checks again at connect time, where host names are resolved, since DNS can change.
 *
 * @example
 * webhookUrlProblem('http://169.254.169.254/', networkPolicyFromEnv())
 * // { reason: 'bad_url', problem: 'the scheme http: is not allowed (expected https:; to allow http: for local testing, set LITHO_ALLOW_HTTP=1)' }
 */
export function webhookUrlProblem(url: string, policy: NetworkPolicy): { reason: 'bad_url' | 'blocked_address'; problem: string } | undefined {
  if (typeof url !== 'string') throw invalidArgument(`Expected url to be a string but received ${describeReceived(url)}`)
  assertNetworkPolicy(policy, 'policy')
  const parsed = checkOutboundUrl(url.trim(), undefined, policy)
  if (typeof parsed === 'string') return { reason: 'bad_url', problem: parsed }
  // WHATWG URL parsing already normalised 0x7f000001, 2130706433 and 127.1 to dotted IPv4.
  const host = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname
  if (/^[\d.]+$/.test(host) || host.includes(':')) {
    if (!isAddressAllowed(host, policy)) return { reason: 'blocked_address', problem: `blocked address: ${host} is not allowed by the network policy` }
  }
  return undefined
}

interface CheckedRequest {
  url: string
  secret: string
  id: string
  body: string
  now: Date
}

function checkRequest(request: WebhookSendRequest): CheckedRequest {
  if (typeof request !== 'object' || request === null) throw invalidArgument(`Expected the request to be an object but received ${describeReceived(request)}`)
  const { url, secret, id, payload } = request
  if (typeof url !== 'string') throw invalidArgument(`Expected url to be a string but received ${describeReceived(url)}`)
  // Never echo the secret, not even a wrong one.
  if (!isWebhookSecret(secret)) throw invalidArgument('Expected secret to be "whsec_" followed by the base64 of 24 to 64 bytes')
  if (typeof id !== 'string' || !/^[A-Za-z0-9_:-]{1,255}$/.test(id)) {
    throw invalidArgument(`Expected id to be 1-255 characters of [A-Za-z0-9_:-] but received ${describeReceived(id)}`)
  }
  const now = request.now ?? new Date()
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) throw invalidArgument(`Expected now to be a valid Date but received ${describeReceived(now)}`)
  let body: string | undefined
  try {
    body = JSON.stringify(payload)
  } catch (error) {
    throw invalidArgument(`Expected payload to be JSON-serialisable, but JSON.stringify failed: ${(error as Error).message}`)
  }
  if (typeof body !== 'string') throw invalidArgument(`Expected payload to be JSON-serialisable but received ${describeReceived(payload)}`)
  return { url, secret, id, body, now }
}

