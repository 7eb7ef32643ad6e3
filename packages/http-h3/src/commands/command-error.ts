/**
 * A command that was called correctly but cannot do what was asked (a duplicate email, an
 * unknown user, a plan limit): printed without a stack, exit code 1.
 */
export class CommandError extends Error {
  override readonly name = 'CommandError'
}
