import type * as z from 'zod'
import { errorBodySchema, validationErrorBodySchema } from '../responses'
import type { ApiResponse } from './operations'

/**
 * An error response of the management, source-settings and account operations: 422 lists every
 * problem (`ValidationErrors`); any other status has one message (`Error`), shown with `example`.
 */
export function errorResponse(status: number, description: string, example?: string): ApiResponse {
  const body: z.ZodType =
    status === 422
      ? validationErrorBodySchema
      : example === undefined
        ? errorBodySchema
        : errorBodySchema.meta({ example: { error: example } })
  return { description, body }
}
