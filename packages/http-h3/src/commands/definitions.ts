/**
 * What each `litho` command accepts, in one place: its flags as `node:util` `parseArgs` reads
 * them (the parser of record: strict, so a mistyped flag is refused instead of ignored) and the
 * help text that citty prints for `--help`. Nothing heavy is imported here, so `litho --help`
 * and the dispatch in `cli.ts` never load the renderer or the stores (docs/cli.md).
 *
 * @module commands/definitions
 */
import type { ParseArgsConfig } from 'node:util'
import type { ArgsDef } from 'citty'

/** `parseArgs` options: flag name → type, `short`, `multiple`, `default`. */
type FlagOptions = NonNullable<ParseArgsConfig['options']>

/** How `--help` shows one flag or positional argument. */
export interface ArgHelp {
  /** What it does, with its default when it has one. */
  description: string
  /** The placeholder of its value, e.g. `DIR`. */
  valueHint?: string
  /** Shown as required (the command itself refuses it missing, with its own message). */
  required?: boolean
}

/** One command: what `--help` says about it and the flags its `parseArgs` accepts. */
export interface CommandSpec<O extends FlagOptions = FlagOptions> {
  /** One line, shown in the list of commands and at the top of the command's help. */
  description: string
  /** Positional arguments, in order; the command checks them itself. */
  positionals?: Readonly<Record<string, ArgHelp>>
  /** The flags, passed as is to `parseArgs({ strict: true })`. */
  options: O
  /** The help of every flag (the type makes a flag without help a compile error). */
  help: { readonly [K in keyof O]: ArgHelp }
}

/** Types a command's spec, keeping the flags' literal types for `parseArgs`. */
export function defineCommandSpec<const O extends FlagOptions>(definition: CommandSpec<O>): CommandSpec<O> {
  return definition
}

/**
 * A command's arguments as citty's `ArgsDef`, for `renderUsage`.
 *
 * @example toCittyArgs(KEYS_CREATE).email // { type: 'string', description: "the user's email", valueHint: 'EMAIL', required: true }
 */
export function toCittyArgs(definition: CommandSpec): ArgsDef {
  const args: ArgsDef = {}
  for (const [name, help] of Object.entries(definition.positionals ?? {})) {
    args[name] = { type: 'positional', description: help.description, required: help.required ?? false, ...(help.valueHint ? { valueHint: help.valueHint } : {}) }
  }
  // --json, common to every command, goes last in the help.
  const options = Object.entries(definition.options).sort(([a], [b]) => Number(a === 'json') - Number(b === 'json'))
  for (const [name, option] of options) {
    const help = definition.help[name]!
    const description = option.multiple ? `${help.description} (repeatable)` : help.description
    args[name] =
      option.type === 'boolean'
        ? { type: 'boolean', description }
        : { type: 'string', description, ...(option.short ? { alias: option.short } : {}), ...(help.valueHint ? { valueHint: help.valueHint } : {}), ...(help.required ? { required: true } : {}) }
  }
  return args
}

/** The `--data` flag of every command that opens the stores. */
export const DATA_OPTION = { data: { type: 'string' } } as const
const DATA_HELP: ArgHelp = { description: 'where everything is kept (default: $LITHO_DATA_DIR, else ./.litho)', valueHint: 'DIR' }
/** The `--json` flag of every command: answers are JSON already (`serve` logs lines); it makes errors JSON too. */
export const JSON_OPTION = { json: { type: 'boolean' } } as const
const JSON_HELP: ArgHelp = { description: 'errors as {"error":{"code","message"}} on stderr too (the answer is JSON anyway)' }
const EMAIL_HELP: ArgHelp = { description: "the user's email", valueHint: 'EMAIL', required: true }

/** `litho serve`. */
export const SERVE = defineCommandSpec({
  description: 'Serve the whole HTTP interface until SIGTERM/SIGINT (in-flight requests finish); expired stored files are swept every hour',
  options: {
    ...JSON_OPTION,
    port: { type: 'string' },
    host: { type: 'string' },
    ...DATA_OPTION,
    'public-url': { type: 'string' },
    threads: { type: 'string' },
    'log-requests': { type: 'boolean', default: false },
    'hosted-retention-days': { type: 'string' },
    'output-cache-mb': { type: 'string' },
    'shared-output-cache': { type: 'boolean', default: false },
    'no-console': { type: 'boolean', default: false },
    'no-docs': { type: 'boolean', default: false },
    metrics: { type: 'boolean', default: false },
    'metrics-port': { type: 'string' },
    'log-level': { type: 'string' },
    'log-format': { type: 'string' },
  },
  help: {
    json: { description: 'errors before it starts as {"error":{"code","message"}} on stderr (its log stays lines of text)' },
    port: { description: 'port to listen on (default: $PORT, else 3000; 0: any free port)', valueHint: 'N' },
    host: { description: 'address to listen on (default: $LITHO_HOST, else 127.0.0.1; 0.0.0.0 in a container)', valueHint: 'HOST' },
    data: DATA_HELP,
    'public-url': { description: 'the origin clients reach the service at (default: $LITHO_PUBLIC_URL, else the listening address)', valueHint: 'URL' },
    threads: { description: 'render worker threads (default: $LITHO_RENDER_THREADS, else one per core)', valueHint: 'N' },
    'log-requests': { description: 'log one line per request (or LITHO_LOG_REQUESTS=1)' },
    'hosted-retention-days': { description: 'delete hosted files older than N days (default: $LITHO_HOSTED_RETENTION_DAYS, else kept)', valueHint: 'N' },
    'output-cache-mb': { description: 'memory for repeated renders, in MiB; 0: none (default: $LITHO_OUTPUT_CACHE_MB, else 64)', valueHint: 'N' },
    'shared-output-cache': { description: 'also keep repeated renders in the file store, shared by instances on it (or LITHO_OUTPUT_CACHE_SHARED=1)' },
    'no-console': { description: 'do not serve the web console at /console nor register its OAuth client (or LITHO_CONSOLE=0)' },
    'no-docs': { description: 'do not serve the API reference page at /docs (or LITHO_DOCS=0)' },
    metrics: { description: 'serve Prometheus metrics at /metrics (or LITHO_METRICS=1; LITHO_METRICS_TOKEN asks scrapers for a bearer token)' },
    'metrics-port': { description: 'serve /metrics on this port instead of the main one; implies --metrics (default: $LITHO_METRICS_PORT)', valueHint: 'N' },
    'log-level': { description: 'trace, debug, info, warn, error, fatal or silent (default: $LITHO_LOG_LEVEL, else info)', valueHint: 'LEVEL' },
    'log-format': { description: 'text (lines for people) or json (one pino object per line, every request logged) (default: $LITHO_LOG_FORMAT, else text)', valueHint: 'FORMAT' },
  },
})

/**
 * The environment variable of each `litho serve` flag (the flag wins when both are given);
 * `json` has none: it shapes the command's own errors, not the server. docs/serve.md lists them.
 */
export const SERVE_ENV: { readonly [K in keyof (typeof SERVE)['options']]: string | null } = {
  json: null,
  port: 'PORT',
  host: 'LITHO_HOST',
  data: 'LITHO_DATA_DIR',
  'public-url': 'LITHO_PUBLIC_URL',
  threads: 'LITHO_RENDER_THREADS',
  'log-requests': 'LITHO_LOG_REQUESTS',
  'hosted-retention-days': 'LITHO_HOSTED_RETENTION_DAYS',
  'output-cache-mb': 'LITHO_OUTPUT_CACHE_MB',
  'shared-output-cache': 'LITHO_OUTPUT_CACHE_SHARED',
  'no-console': 'LITHO_CONSOLE',
  'no-docs': 'LITHO_DOCS',
  metrics: 'LITHO_METRICS',
  'metrics-port': 'LITHO_METRICS_PORT',
  'log-level': 'LITHO_LOG_LEVEL',
  'log-format': 'LITHO_LOG_FORMAT',
}

/** `litho gc`. */
export const GC = defineCommandSpec({
  description: 'Sweep now: delete expired signed files and hosted files past the retention, refunding their storage; prints {"scanned","deleted","freedBytes","failed","meterWindows"}',
  options: { ...JSON_OPTION, 'hosted-retention-days': { type: 'string' }, ...DATA_OPTION },
  help: {
    json: JSON_HELP,
    'hosted-retention-days': { description: 'delete hosted files older than N days (default: $LITHO_HOSTED_RETENTION_DAYS, else kept)', valueHint: 'N' },
    data: DATA_HELP,
  },
})

/** `litho render`. */
export const RENDER = defineCommandSpec({
  description: 'Render a design document in-process (no server, no quota); writes OUT, or the bytes to stdout',
  positionals: { file: { description: 'a DesignDocument, or a {"name","design"} record', required: true } },
  options: {
    ...JSON_OPTION,
    set: { type: 'string', multiple: true },
    format: { type: 'string' },
    quality: { type: 'string' },
    variation: { type: 'string' },
    output: { type: 'string', short: 'o' },
  },
  help: {
    json: JSON_HELP,
    set: { description: 'an override, e.g. title.text=Hi', valueHint: 'KEY.FIELD=VALUE' },
    format: { description: 'png, jpeg, webp or pdf (default: png)', valueHint: 'FORMAT' },
    quality: { description: 'JPEG quality, 1-100 (default: 80)', valueHint: 'N' },
    variation: { description: 'a variation id (default: master)', valueHint: 'ID' },
    output: { description: 'the file to write (its folder is created); prints one JSON object instead of the bytes', valueHint: 'OUT' },
  },
})

/** `litho users create`. */
export const USERS_CREATE = defineCommandSpec({
  description: 'Create a user; prints {"userId","plan"}',
  options: { ...JSON_OPTION, email: { type: 'string' }, password: { type: 'string' }, 'password-stdin': { type: 'boolean' }, plan: { type: 'string' }, ...DATA_OPTION },
  help: {
    json: JSON_HELP,
    email: EMAIL_HELP,
    password: { description: 'the password (visible to other local users: prefer --password-stdin or the prompt)', valueHint: 'P' },
    'password-stdin': { description: 'read the password from stdin (else it is asked for, not echoed, in a terminal)' },
    plan: { description: 'a plan of the server (LITHO_PLANS; default table: free, basic, pro, unlimited); default: LITHO_DEFAULT_PLAN, else free', valueHint: 'PLAN' },
    data: DATA_HELP,
  },
})

/** `litho users set-plan`. */
export const USERS_SET_PLAN = defineCommandSpec({
  description: 'Move a user to another plan; prints {"userId","plan","previousPlan"} (usage so far is kept)',
  options: { ...JSON_OPTION, email: { type: 'string' }, plan: { type: 'string' }, ...DATA_OPTION },
  help: {
    json: JSON_HELP,
    email: EMAIL_HELP,
    plan: { description: 'a plan of the server (LITHO_PLANS; default table: free, basic, pro, unlimited)', valueHint: 'PLAN', required: true },
    data: DATA_HELP,
  },
})

/** `litho keys create`. */
export const KEYS_CREATE = defineCommandSpec({
  description: 'Create a render key for a user; prints {"id","key","linkSecret"}, the only time the key and its link secret are shown',
  options: { ...JSON_OPTION, email: { type: 'string' }, name: { type: 'string' }, ...DATA_OPTION },
  help: {
    json: JSON_HELP,
    email: EMAIL_HELP,
    name: { description: 'a label for the key', valueHint: 'NAME' },
    data: DATA_HELP,
  },
})

/** `litho keys sign-url`: offline, no stores (docs/signed-render-links.md). */
export const KEYS_SIGN_URL = defineCommandSpec({
  description: 'Sign a render link offline (no server, no data directory); prints {"url","expiresAt"}',
  positionals: { target: { description: 'a GET render URL (…/v1/DESIGN_CODE?overrides), or a design render code with --base', required: true } },
  options: { ...JSON_OPTION, kid: { type: 'string' }, secret: { type: 'string' }, expires: { type: 'string' }, param: { type: 'string', multiple: true }, base: { type: 'string' } },
  help: {
    json: JSON_HELP,
    kid: { description: "the render key's id (id from keys create, _id in the key list)", valueHint: 'KEY_ID', required: true },
    secret: { description: "the key's link secret (default: $LITHO_LINK_SECRET; the flag is visible to other local users)", valueHint: 'LKS' },
    expires: { description: 'lifetime (30m, 12h, 7d, 3600s), an ISO date, or never (default: 7d)', valueHint: 'WHEN' },
    param: { description: 'an override or render parameter, e.g. title.text=Hi or format=png', valueHint: 'NAME=VALUE' },
    base: { description: 'the render URL with a design code (default: $LITHO_PUBLIC_URL)', valueHint: 'URL' },
  },
})

/** `litho keys link-secret`. */
export const KEYS_LINK_SECRET = defineCommandSpec({
  description: 'Give a render key a new link secret; prints {"id","linkSecret"}, shown once; links signed with the old one stop working',
  options: { ...JSON_OPTION, email: { type: 'string' }, id: { type: 'string' }, ...DATA_OPTION },
  help: {
    json: JSON_HELP,
    email: EMAIL_HELP,
    id: { description: "the key's id", valueHint: 'KEY_ID', required: true },
    data: DATA_HELP,
  },
})

/** `litho signing-keys rotate`. */
export const SIGNING_KEYS_ROTATE = defineCommandSpec({
  description: 'New keys for signed file URLs and/or OAuth access tokens; the old ones keep verifying what they signed until it expires',
  positionals: { which: { description: 'urls, tokens or all', required: true } },
  options: { ...JSON_OPTION, org: { type: 'string' }, ...DATA_OPTION },
  help: {
    json: JSON_HELP,
    org: { description: 'the org whose token key to rotate (default: the one litho serve created)', valueHint: 'ID' },
    data: DATA_HELP,
  },
})

/** `litho designs import`. */
export const DESIGNS_IMPORT = defineCommandSpec({
  description: 'Store a design document as a draft, or published with --publish; prints {"id","renderCode"}',
  positionals: { file: { description: 'a DesignDocument, or a {"name","design"} record', required: true } },
  options: { ...JSON_OPTION, email: { type: 'string' }, publish: { type: 'boolean', default: false }, id: { type: 'string' }, name: { type: 'string' }, ...DATA_OPTION },
  help: {
    json: JSON_HELP,
    email: EMAIL_HELP,
    publish: { description: 'publish it (else it becomes the draft)' },
    id: { description: 'import into this existing design of the user (else a new one)', valueHint: 'ID' },
    name: { description: "the design's name (default: the record's name, else the file name)", valueHint: 'NAME' },
    data: DATA_HELP,
  },
})

const URL_HELP: ArgHelp = { description: 'the address the service is reached at, as litho serve was started (default: $LITHO_PUBLIC_URL, else http://127.0.0.1:$PORT, PORT default 3000)', valueHint: 'URL' }

/** `litho token create`: an access token for scripts (docs/authentication.md). */
export const TOKEN_CREATE = defineCommandSpec({
  description: 'Mint an OAuth access token for a user, for scripts and curl; prints {"accessToken","tokenType","expiresAt","expiresIn","scope","audience"}',
  options: { ...JSON_OPTION, email: { type: 'string' }, scope: { type: 'string' }, ttl: { type: 'string' }, resource: { type: 'string' }, url: { type: 'string' }, ...DATA_OPTION },
  help: {
    json: JSON_HELP,
    email: EMAIL_HELP,
    scope: { description: 'read, write or "read write" (default: "read write")', valueHint: 'SCOPES' },
    ttl: { description: 'lifetime: 90s, 30m, 1h… up to 24h (default: 1h)', valueHint: 'TTL' },
    resource: { description: 'what the token is for: the base URL (bearer endpoints, the default), mcp or URL/api/mcp (the MCP endpoint)', valueHint: 'URL' },
    url: URL_HELP,
    data: DATA_HELP,
  },
})

/** `litho token revoke`. */
export const TOKEN_REVOKE = defineCommandSpec({
  description: 'Revoke an access token (and every token of its sign-in); prints {"revoked":true}',
  positionals: { token: { description: 'the access token (default: read from stdin when "-")', required: true } },
  options: { ...JSON_OPTION, url: { type: 'string' }, ...DATA_OPTION },
  help: { json: JSON_HELP, url: URL_HELP, data: DATA_HELP },
})

const LIMIT_HELP: ArgHelp = { description: 'items per page, 1-100 (default: 100)', valueHint: 'N' }
const PAGE_HELP: ArgHelp = { description: 'which page, from 1 (default: 1)', valueHint: 'N' }

/** `litho users list`. */
export const USERS_LIST = defineCommandSpec({
  description: 'List users in id order; prints {"users":[{"id","email","plan","createdAt"}],"next"} (next: the --after of the following page, or null)',
  options: { ...JSON_OPTION, limit: { type: 'string' }, after: { type: 'string' }, ...DATA_OPTION },
  help: { json: JSON_HELP, limit: LIMIT_HELP, after: { description: 'start after this cursor (the "next" of the previous page)', valueHint: 'CURSOR' }, data: DATA_HELP },
})

/** `litho users delete`. */
export const USERS_DELETE = defineCommandSpec({
  description: 'Delete a user and their render keys (which stop rendering at once); refused while they own designs unless --force, which deletes those too; prints {"deleted":true,"userId","keys","designs"}',
  options: { ...JSON_OPTION, email: { type: 'string' }, yes: { type: 'boolean' }, force: { type: 'boolean' }, ...DATA_OPTION },
  help: { json: JSON_HELP, email: EMAIL_HELP, yes: { description: 'confirm: required, since nothing deleted can be restored' }, force: { description: "also delete the user's designs (else refused while they own any)" }, data: DATA_HELP },
})

/** `litho keys list`. */
export const KEYS_LIST = defineCommandSpec({
  description: 'List a user\'s render keys, newest first; prints {"keys":[{"id","prefix","name","createdAt","lastUsedAt","active"}]} (never a secret)',
  options: { ...JSON_OPTION, email: { type: 'string' }, ...DATA_OPTION },
  help: { json: JSON_HELP, email: EMAIL_HELP, data: DATA_HELP },
})

/** `litho keys revoke`. */
export const KEYS_REVOKE = defineCommandSpec({
  description: 'Revoke (delete) a render key: it stops rendering at once; prints {"revoked":true,"id"}',
  options: { ...JSON_OPTION, email: { type: 'string' }, id: { type: 'string' }, ...DATA_OPTION },
  help: { json: JSON_HELP, email: EMAIL_HELP, id: { description: "the key's id (from keys list)", valueHint: 'KEY_ID', required: true }, data: DATA_HELP },
})

/** `litho designs list`. */
export const DESIGNS_LIST = defineCommandSpec({
  description: 'List a user\'s designs, most recently updated first; prints {"designs":[{"id","renderCode","name","published","draft","updatedAt"}],"page","totalPages","total"}',
  options: { ...JSON_OPTION, email: { type: 'string' }, limit: { type: 'string' }, page: { type: 'string' }, ...DATA_OPTION },
  help: { json: JSON_HELP, email: EMAIL_HELP, limit: LIMIT_HELP, page: PAGE_HELP, data: DATA_HELP },
})

/** `litho designs export`. */
export const DESIGNS_EXPORT = defineCommandSpec({
  description: 'Print a design as {"name","design"} (what designs import reads), or write it to FILE and print {"id","output"}',
  options: { ...JSON_OPTION, email: { type: 'string' }, id: { type: 'string' }, output: { type: 'string', short: 'o' }, draft: { type: 'boolean' }, ...DATA_OPTION },
  help: {
    json: JSON_HELP,
    email: EMAIL_HELP,
    id: { description: "the design's id (from designs list)", valueHint: 'ID', required: true },
    output: { description: 'the file to write (its folder is created)', valueHint: 'FILE' },
    draft: { description: 'export the draft (default: the published version)' },
    data: DATA_HELP,
  },
})

/** `litho designs delete`. */
export const DESIGNS_DELETE = defineCommandSpec({
  description: 'Delete a design, published version and draft: its render URL answers 404 at once; prints {"deleted":true,"id"}',
  options: { ...JSON_OPTION, email: { type: 'string' }, id: { type: 'string' }, ...DATA_OPTION },
  help: { json: JSON_HELP, email: EMAIL_HELP, id: { description: "the design's id (from designs list)", valueHint: 'ID', required: true }, data: DATA_HELP },
})

const OWNER_OPTIONS = { email: { type: 'string' }, owner: { type: 'string' } } as const
const OWNER_HELP = { email: { description: "the user's email (or --owner)", valueHint: 'EMAIL' }, owner: { description: "the user's id (or --email)", valueHint: 'ID' } } satisfies Record<string, ArgHelp>

/** `litho assets upload`. */
export const ASSETS_UPLOAD = defineCommandSpec({
  description: 'Store an image (PNG, JPEG, WebP, GIF or SVG, at most 10 MB) in a user\'s asset library; prints the asset with its "ref" (asset:<id>) for an image src',
  positionals: { file: { description: 'the image file', required: true } },
  options: { ...JSON_OPTION, ...OWNER_OPTIONS, name: { type: 'string' }, ...DATA_OPTION },
  help: { json: JSON_HELP, ...OWNER_HELP, name: { description: 'the name shown in lists (default: the file name)', valueHint: 'NAME' }, data: DATA_HELP },
})

/** `litho assets list`. */
export const ASSETS_LIST = defineCommandSpec({
  description: 'List a user\'s assets, newest first; prints {"assets":[{"id","name","contentType","width","height","bytes","createdAt","ref"}],"page","totalPages","total"}',
  options: { ...JSON_OPTION, ...OWNER_OPTIONS, limit: { type: 'string' }, page: { type: 'string' }, ...DATA_OPTION },
  help: { json: JSON_HELP, ...OWNER_HELP, limit: LIMIT_HELP, page: PAGE_HELP, data: DATA_HELP },
})

/** `litho assets delete`. */
export const ASSETS_DELETE = defineCommandSpec({
  description: 'Delete an asset (refused while a published design draws it, unless --force); prints {"deleted":true,"id"}',
  positionals: { id: { description: 'the asset id (from assets list)', required: true } },
  options: { ...JSON_OPTION, ...OWNER_OPTIONS, force: { type: 'boolean', default: false }, ...DATA_OPTION },
  help: { json: JSON_HELP, ...OWNER_HELP, force: { description: 'delete even when published designs draw it (their renders then fail)' }, data: DATA_HELP },
})

/** `litho usage`. */
export const USAGE = defineCommandSpec({
  description: 'A user\'s renders over a range in UTC buckets (as GET /analytics/api) and their plan\'s quota now; prints {"total","buckets","storage","plan",…}',
  options: { ...JSON_OPTION, email: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, 'group-by': { type: 'string' }, ...DATA_OPTION },
  help: {
    json: JSON_HELP,
    email: EMAIL_HELP,
    from: { description: 'first instant counted, ISO 8601, UTC without an offset (default: 7 days before --to)', valueHint: 'ISO' },
    to: { description: 'end of the range, exclusive (default: now)', valueHint: 'ISO' },
    'group-by': { description: 'hour, day, week, month or year (default: day)', valueHint: 'UNIT' },
    data: DATA_HELP,
  },
})
