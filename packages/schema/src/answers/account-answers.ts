import * as z from 'zod'
import { component, dateTimeField, uuidField } from './common'
import { userSchema } from './management-answers'

// The answers of the signed-in user's own account (`/api/v1/users/me/…`, docs/security.md).

/** A dashboard session of the user, never its secret id. */
export const sessionSchema = component(
  'Session',
  z.strictObject({
    id: uuidField.meta({ description: 'A public handle; it cannot sign in.' }),
    created_at: dateTimeField.meta({ description: 'Signed in at.' }),
    last_seen_at: dateTimeField.meta({
      description: 'Last request, updated at most once a minute.',
    }),
    expires_at: dateTimeField.meta({
      description:
        'When the session ends unless used again: the earlier of the idle and the absolute expiry.',
    }),
    user_agent: z.string().nullable().meta({ description: 'The browser at sign-in.' }),
    ip: z.string().nullable().meta({ description: 'The client address at sign-in.' }),
  }),
  'A dashboard session of the user: never its secret id (the cookie holds that; the server keeps only its SHA-256 digest).',
)
/** A dashboard session as `GET /api/v1/users/me/sessions` lists it. */
export type Session = z.output<typeof sessionSchema>

const sessionsEnded = z.int().min(0)

/** `GET /api/v1/users/me/sessions`. */
export const sessionListSchema = z.strictObject({ sessions: z.array(sessionSchema) })
/** The answer of `GET /api/v1/users/me/sessions`. */
export type SessionList = z.output<typeof sessionListSchema>

/** `DELETE /api/v1/users/me/sessions`. */
export const sessionsEndedSchema = z.strictObject({ sessions_ended: sessionsEnded })
/** The answer of `DELETE /api/v1/users/me/sessions`. */
export type SessionsEnded = z.output<typeof sessionsEndedSchema>

/** `POST /api/v1/users/me/token`: the new access token, shown once. */
export const rotatedTokenSchema = z.strictObject({
  user: userSchema,
  access_token: z.string().regex(/^tis_user_/),
  sessions_ended: sessionsEnded,
})
/** The answer of `POST /api/v1/users/me/token`. */
export type RotatedToken = z.output<typeof rotatedTokenSchema>
