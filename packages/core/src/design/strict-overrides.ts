/**
 * Strict overrides: a render that asks for them (`strict=true`, or a server default) refuses
 * override keys that name nothing instead of ignoring them, naming each with the closest
 * overridable key.
 *
 * @module design/strict-overrides
 */
import { LithoError, type LithoIssue } from '../errors.js'
import type { IgnoredOverride } from './overrides.js'

/** How many valid keys a strict refusal lists in its message (all of them are in `details.valid`). */
const LISTED_VALID_KEYS = 20

/**
 * Throws when `ignored` holds a key that names no overridable field (render parameters, which a
 * nested body may repeat, are not refused).
 *
 * @throws LithoError `ERR_INVALID_OVERRIDE` (400) with one issue per key (`path` the key, the
 * message with "did you mean"), `details.unknown` (`{ key, suggestion? }` each) and `details.valid`.
 * @example refuseIgnoredOverrides(applied.ignored, dynamicOverrideKeys(document))
 */
export function refuseIgnoredOverrides(ignored: readonly IgnoredOverride[], valid: readonly string[]): void {
  const unknown = ignored.filter((entry) => entry.reason !== 'reserved')
  if (unknown.length === 0) return
  const issues: LithoIssue[] = unknown.map((entry) => ({ path: entry.key, message: entry.message }))
  const listed = valid.length === 0 ? 'this design has no overridable fields' : `valid keys: ${valid.slice(0, LISTED_VALID_KEYS).join(', ')}${valid.length > LISTED_VALID_KEYS ? `, and ${valid.length - LISTED_VALID_KEYS} more` : ''}`
  const count = unknown.length === 1 ? '1 override names' : `${unknown.length} overrides name`
  throw new LithoError('ERR_INVALID_OVERRIDE', `Strict overrides: ${count} no overridable field:\n${issues.map((i) => `  - ${i.path}: ${i.message}`).join('\n')}\n${listed}`, {
    issues,
    details: { unknown: unknown.map((entry) => ({ key: entry.key, ...(entry.suggestion ? { suggestion: entry.suggestion } : {}) })), valid: [...valid] },
  })
}
