/**
 * The design document schemas, defined in the contracts entry
 * (`../contracts/schemas/design-document.ts`) and re-exported here, where the renderer imports them.
 *
 * @module design/schema
 */
export * from '../contracts/schemas/design-document.js'
