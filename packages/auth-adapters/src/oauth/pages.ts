/**
 * The HTML pages of the authorization endpoint: sign-in, consent and errors. Plain forms that
 * work without JavaScript (docs/connecting-a-client.md: inputs labelled `Email` and `Password`, buttons `Sign in`,
 * `Allow` and `Deny`), never framed, never cached.
 *
 * @module oauth/pages
 */
import { escapeHtml } from './_http.js'

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  // No form-action: browsers apply it to the redirect after Allow, which goes to the client.
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'referrer-policy': 'no-referrer',
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:26rem;margin:4rem auto;padding:0 1rem;color:#1a1a1a}
h1{font-size:1.4rem}label{display:block;margin:.8rem 0 .2rem}input[type=email],input[type=password]{width:100%;padding:.5rem;font:inherit;box-sizing:border-box}
button{font:inherit;padding:.5rem 1.2rem;margin:1rem .5rem 0 0;cursor:pointer}.link{background:none;border:0;padding:0;margin:0;color:#0645ad;text-decoration:underline}.error{color:#b00020}.muted{color:#555}code{background:#f2f2f2;padding:0 .2rem}`

function page(title: string, body: string, status = 200, headers: Record<string, string> = {}): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`
  return new Response(html, { status, headers: { ...PAGE_HEADERS, ...headers } })
}

/** The sign-in form; it posts back to the authorization endpoint. */
export function signInPage(options: { action: string; requestId: string; csrf: string; clientName: string; email?: string; error?: string; status?: number; headers?: Record<string, string> }): Response {
  return page(
    'Sign in',
    `<h1>Sign in</h1><p class="muted">to continue to <strong><bdi>${escapeHtml(options.clientName)}</bdi></strong></p>
${options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : ''}
<form method="post" action="${escapeHtml(options.action)}">
<input type="hidden" name="request_id" value="${escapeHtml(options.requestId)}"><input type="hidden" name="csrf" value="${escapeHtml(options.csrf)}"><input type="hidden" name="step" value="sign-in">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(options.email ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit" name="submit" value="sign-in">Sign in</button>
</form>`,
    options.status ?? 200,
    options.headers,
  )
}

/** The consent page: names the client, where it will send you back, and what it asks for. */
export function consentPage(options: { action: string; signOutAction: string; requestId: string; csrf: string; clientName: string; redirectHost: string; scopes: string[]; email: string; headers?: Record<string, string> }): Response {
  const describe: Record<string, string> = {
    read: 'read your designs, their render configuration, usage, export jobs and API keys, and preview designs',
    write: 'create, change, publish and delete designs, run exports (which count against your quota), and manage API keys and the webhook secret',
  }
  return page(
    'Allow access?',
    `<h1>Allow <bdi>${escapeHtml(options.clientName)}</bdi>?</h1>
<p><strong><bdi>${escapeHtml(options.clientName)}</bdi></strong> (returning to <code><bdi>${escapeHtml(options.redirectHost)}</bdi></code>) asks to access your Litho account <strong><bdi>${escapeHtml(options.email)}</bdi></strong>:</p>
<ul>${options.scopes.map((s) => `<li><code>${escapeHtml(s)}</code>: ${escapeHtml(describe[s] ?? s)}</li>`).join('')}</ul>
<form method="post" action="${escapeHtml(options.action)}">
<input type="hidden" name="request_id" value="${escapeHtml(options.requestId)}"><input type="hidden" name="csrf" value="${escapeHtml(options.csrf)}"><input type="hidden" name="step" value="consent">
<button type="submit" name="decision" value="allow">Allow</button><button type="submit" name="decision" value="deny">Deny</button>
</form>
<form method="post" action="${escapeHtml(options.signOutAction)}" class="muted">
<input type="hidden" name="request_id" value="${escapeHtml(options.requestId)}"><input type="hidden" name="csrf" value="${escapeHtml(options.csrf)}">
Not you? <button type="submit" class="link">Sign out</button>
</form>`,
    200,
    options.headers,
  )
}

/** The sign-out confirmation: a form, because a GET must never end a session. */
export function signOutPage(options: { action: string; csrf: string; fields: Record<string, string>; headers?: Record<string, string> }): Response {
  const hidden = Object.entries(options.fields)
    .filter(([, value]) => value !== '')
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('')
  return page(
    'Sign out',
    `<h1>Sign out</h1><p>End your Litho sign-in in this browser? Applications you allowed keep their access until you revoke it.</p>
<form method="post" action="${escapeHtml(options.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(options.csrf)}">${hidden}
<button type="submit">Sign out</button>
</form>`,
    200,
    options.headers,
  )
}

/** Shown after signing out when there is nowhere to go back to. */
export function signedOutPage(headers: Record<string, string>): Response {
  return page('Signed out', '<h1>Signed out</h1><p>You are signed out of Litho in this browser.</p><p class="muted">You can close this page.</p>', 200, headers)
}

/**
 * An error the user sees instead of a redirect (unknown client, unregistered redirect URI, an
 * error of a dynamically registered client…). With `returnTo`, a link the user may follow to
 * take the error back to the application (never followed automatically: RFC 9700 §4.11.2).
 */
export function errorPage(title: string, message: string, status = 400, returnTo?: { url: string; host: string }): Response {
  const back = returnTo ? `<p><a href="${escapeHtml(returnTo.url)}" rel="noreferrer">Return to the application</a> <span class="muted">(<bdi>${escapeHtml(returnTo.host)}</bdi>)</span></p>` : '<p class="muted">You can close this page.</p>'
  return page(title, `<h1>${escapeHtml(title)}</h1><p class="error">${escapeHtml(message)}</p>${back}`, status)
}
