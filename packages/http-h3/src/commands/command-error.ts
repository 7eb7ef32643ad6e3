/**
 * A command that was called correctly but cannot do what was asked (a duplicate email, an
 * unknown user, a plan limit): printed without a stack, exit code 1. `code` is what
 * `--json` errors carry (default `ERR_COMMAND`), e.g. `ERR_USER_NOT_FOUND`.
 */
export class CommandError extends Error {
  override readonly name = 'CommandError'
  readonly code: string

  constructor(message: string, code = 'ERR_COMMAND') {
    super(message)
    this.code = code
  }
}
