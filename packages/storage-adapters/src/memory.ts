/**
 * `@litho/storage-adapters/memory`: the meter in process memory (`memory/meter.ts`).
 *
 * @module memory
 */
export { memoryMeter, type MemoryMeterOptions } from './memory/meter.js'
