// `litho serve` settings: every flag has an environment variable (SERVE_ENV), the variable
// changes the setting the flag changes, the flag wins, and docs/serve.md and docs/cli.md name it.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { SERVE, SERVE_ENV } from '../src/commands/definitions.js'
import { readServeSettings, type ServeFlags } from '../src/commands/serve-settings.js'

const docs = (name: string) => readFileSync(new URL(`../../../docs/${name}`, import.meta.url), 'utf8')

/** For each flag: a value for the flag and for its variable, and the setting it moves. */
const SAMPLES: Record<string, { flag: string | true; env: string; read: (s: ReturnType<typeof readServeSettings>) => unknown }> = {
  port: { flag: '8081', env: '8081', read: (s) => s.port },
  host: { flag: '0.0.0.0', env: '0.0.0.0', read: (s) => s.host },
  data: { flag: '/srv/litho', env: '/srv/litho', read: (s) => s.dataDir },
  'public-url': { flag: 'https://render.example.com', env: 'https://render.example.com', read: (s) => s.publicUrl },
  threads: { flag: '3', env: '3', read: (s) => s.threads },
  'log-requests': { flag: true, env: '1', read: (s) => s.logRequests },
  'hosted-retention-days': { flag: '30', env: '30', read: (s) => s.hostedRetentionDays },
  'output-cache-mb': { flag: '8', env: '8', read: (s) => s.outputCache.maxBytes },
  'shared-output-cache': { flag: true, env: '1', read: (s) => s.outputCache.shared },
  'no-console': { flag: true, env: '0', read: (s) => s.console },
  'no-docs': { flag: true, env: '0', read: (s) => s.docs },
  metrics: { flag: true, env: '1', read: (s) => s.metrics.enabled },
  'metrics-port': { flag: '9464', env: '9464', read: (s) => s.metrics.port },
  'log-level': { flag: 'warn', env: 'warn', read: (s) => s.log.level },
  'log-format': { flag: 'json', env: 'json', read: (s) => s.log.format },
}

describe('serve settings', () => {
  const flags = Object.keys(SERVE.options).filter((flag) => flag !== 'json') as Array<keyof typeof SERVE_ENV>

  it('serve settings › every flag but --json has a variable, and only --json lacks one', () => {
    expect(SERVE_ENV.json).toBeNull()
    for (const flag of flags) expect(SERVE_ENV[flag], flag).toMatch(/^(PORT|LITHO_[A-Z_]+)$/)
    expect(Object.keys(SAMPLES).sort()).toEqual([...flags].sort())
  })

  it.each(Object.keys(SAMPLES))('serve settings › --%s and its variable move the same setting, away from the default', (flag) => {
    const sample = SAMPLES[flag]!
    const name = SERVE_ENV[flag as keyof typeof SERVE_ENV]!
    const defaults = sample.read(readServeSettings({}, {}))
    const fromFlag = sample.read(readServeSettings({ [flag]: sample.flag } as ServeFlags, {}))
    const fromEnv = sample.read(readServeSettings({}, { [name]: sample.env }))
    expect(fromFlag).not.toEqual(defaults)
    expect(fromEnv).toEqual(fromFlag)
  })

  it('serve settings › the flag wins over its variable', () => {
    expect(readServeSettings({ host: '127.0.0.1' }, { LITHO_HOST: '0.0.0.0' }).host).toBe('127.0.0.1')
    expect(readServeSettings({ port: '4000' }, { PORT: '5000' }).port).toBe(4000)
  })

  it.each(['serve.md', 'cli.md'])('serve settings › docs/%s names every variable', (page) => {
    const text = docs(page)
    for (const flag of flags) expect(text, `${SERVE_ENV[flag]} in docs/${page}`).toContain(`\`${SERVE_ENV[flag]}`)
  })

  it('serve settings › docs/serve.md has a row for every flag', () => {
    const text = docs('serve.md')
    for (const flag of flags) expect(text).toMatch(new RegExp(`^\\| \`--${flag}\` \\| \`${SERVE_ENV[flag]}`, 'm'))
  })

  it.each([
    [{ LITHO_LOG_LEVEL: 'loud' }, /--log-level: expected one of trace, debug, info/],
    [{ LITHO_LOG_FORMAT: 'xml' }, /--log-format: expected text or json/],
    [{ LITHO_METRICS_PORT: '70000' }, /--metrics-port: expected a whole number from 1 to 65535/],
    [{ LITHO_METRICS_PORT: '3000' }, /--metrics-port: expected a port other than the main one/],
    [{ LITHO_METRICS: '1', LITHO_METRICS_TOKEN: 'short' }, /LITHO_METRICS_TOKEN: expected 16 to 512/],
    [{ LITHO_HOST: 'a b' }, /--host: expected a host name or an IP address/],
  ])('serve settings › %o is refused before anything starts', (env, message) => {
    expect(() => readServeSettings({}, env)).toThrow(message)
  })

  it('serve settings › a token of 16 characters is accepted; --metrics-port alone turns metrics on', () => {
    expect(readServeSettings({}, { LITHO_METRICS: '1', LITHO_METRICS_TOKEN: 'a'.repeat(16) }).metrics).toEqual({ enabled: true, token: 'a'.repeat(16) })
    expect(() => readServeSettings({}, { LITHO_METRICS: '1', LITHO_METRICS_TOKEN: 'a'.repeat(15) })).toThrow(/LITHO_METRICS_TOKEN/)
    expect(readServeSettings({ 'metrics-port': '9464' }, {}).metrics).toEqual({ enabled: true, port: 9464 })
    expect(readServeSettings({}, {}).metrics).toEqual({ enabled: false })
  })
})
