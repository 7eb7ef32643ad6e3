/**
 * sharp, loaded on first use: importing core must not load the native image stack (it costs
 * hundreds of milliseconds and tens of MB in a process that never renders).
 *
 * @module _internal/load-sharp
 */
import type sharpModule from 'sharp'

let loading: Promise<typeof sharpModule> | undefined

/** The sharp function, imported the first time it is asked for. */
export function loadSharp(): Promise<typeof sharpModule> {
  loading ??= import('sharp').then((module) => module.default)
  return loading
}
