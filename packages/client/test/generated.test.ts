// generated/openapi.ts is what openapi-typescript makes now from the route table's OpenAPI
// document: a route changed without regenerating fails here.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { GENERATED_FILE, generatePathsSource } from '../scripts/paths-source.js'

describe(GENERATED_FILE, () => {
  it('is up to date with the OpenAPI document (else run `npx tsx packages/client/scripts/gen-types.ts`)', async () => {
    const committed = readFileSync(new URL(`../${GENERATED_FILE}`, import.meta.url), 'utf8')
    const fresh = await generatePathsSource()
    expect(committed === fresh, 'run `npx tsx packages/client/scripts/gen-types.ts` from the repo root').toBe(true)
    // The operations the client calls are in it.
    for (const path of ['/v1/{design_id}', '/bulk', '/designs/v2/{id}/publish', '/designs/v2/{id}/export/jobs', '/analytics/exports/{exportId}', '/settings/api-keys/{id}']) expect(committed).toContain(`"${path}": {`)
  })
})
