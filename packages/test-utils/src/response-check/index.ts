export {
  createResponseCheck,
  RESPONSE_CHECK_ENV,
  type ResponseCheckMode,
  type ResponseCheckOptions,
  ResponseMismatchError,
  responseCheckMode,
} from './mode'
export { createOperationFinder, type FoundOperation, type OpenApiLike } from './operations'
export {
  createResponseValidator,
  mismatchMessage,
  type ResponseExchange,
  type ResponseMismatch,
  type ResponseValidator,
  type ResponseValidatorOptions,
} from './validator'
