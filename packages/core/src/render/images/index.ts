/**
 * Remote and inline images for the renderer: the network policy, the guarded fetcher and the
 * image loader that turns a source into a data: URI sized for its box.
 *
 * @module render/images
 */
export { isAddressAllowed, networkPolicyFromEnv, type NetworkPolicy } from '../../network/policy.js'
export { DEFAULT_FETCH_LIMITS, fetchRemote, type FetchFailureReason, type FetchLimits, type FetchRemoteOptions, type FetchedResource } from './fetch-remote.js'
export {
  DEFAULT_IMAGE_LIMITS,
  createImageLoader,
  type ImageBox,
  type ImageLimits,
  type ImageLoader,
  type ImageLoaderOptions,
  type PreparedImage,
} from './image-loader.js'
export type { ImageFailureReason } from './resize-image.js'
