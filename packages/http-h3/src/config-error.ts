/**
 * The error of a configuration mistake, shared by the backends and the OAuth configuration.
 *
 * @module config-error
 */

/**
 * A mistake in the configuration (an environment variable missing or malformed). The message
 * names the variable and never contains a secret; the CLI prints it without a stack.
 *
 * @example throw new ConfigError('LITHO_S3_ENDPOINT: required when LITHO_S3_BUCKET is set')
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError'
  readonly code = 'ERR_LITHO_CONFIG'
}
