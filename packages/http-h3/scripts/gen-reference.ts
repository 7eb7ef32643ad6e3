/**
 * Writes `docs/http-reference.md` from the OpenAPI document of the app.
 * Run from the repo root: `npx tsx packages/http-h3/scripts/gen-reference.ts`.
 */
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { HTTP_REFERENCE_FILE, renderHttpReference } from '../src/app/reference.js'

writeFileSync(fileURLToPath(new URL(`../../../${HTTP_REFERENCE_FILE}`, import.meta.url)), renderHttpReference())
console.log(`wrote ${HTTP_REFERENCE_FILE}`)
