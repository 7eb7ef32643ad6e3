/**
 * `@litho/storage-adapters/fs`: the meter in files, one process per directory (`fs/meter.ts`).
 *
 * @module fs
 */
export { fsMeter, type FsMeter, type FsMeterOptions } from './fs/meter.js'
