/**
 * `@litho/core/errors`: the error class and its codes alone. The one definition lives in the
 * contracts entry (`./contracts/errors.ts`); this entry re-exports it, so every entry of
 * `@litho/core` shares one {@link LithoError} class.
 *
 * @module errors
 */
export {
  LITHO_ERROR_CODES,
  LithoError,
  createTypeError,
  formatIssues,
  isLithoErrorCode,
  type CodedTypeError,
  type LithoErrorCode,
  type LithoErrorOptions,
  type LithoIssue,
  type TypeErrorCode,
} from './contracts/errors.js'
