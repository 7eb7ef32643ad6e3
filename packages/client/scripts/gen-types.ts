/**
 * Writes `packages/client/generated/openapi.ts` (the `paths` types of the API) from the OpenAPI
 * document of the route table. Run from the repo root: `npx tsx packages/client/scripts/gen-types.ts`.
 */
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { GENERATED_FILE, generatePathsSource } from './paths-source.js'

writeFileSync(fileURLToPath(new URL(`../${GENERATED_FILE}`, import.meta.url)), await generatePathsSource())
console.log(`wrote packages/client/${GENERATED_FILE}`)
