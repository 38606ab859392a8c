import { type ManagementStore, StoreError } from '@tis/ingest'
import type { SqlExecutor } from './executor'
import { toUser, USER_COLUMNS } from './records'

/** The user methods of the management port. */
export type UserQueries = Pick<
  ManagementStore,
  'findUserByTokenDigest' | 'findUserByEmail' | 'createUser' | 'addUserToken' | 'hasUsers'
>

/** Users and their access tokens. Emails match case-insensitively (`lower()` on both sides). */
export function createUserQueries(db: SqlExecutor): UserQueries {
  return {
    async findUserByTokenDigest(digest) {
      const rows = await db.query(
        `select ${USER_COLUMNS} from user_tokens t join users u on u.id = t.user_id
          where t.digest = $1::text`,
        [digest],
      )
      return rows[0] ? toUser(rows[0]) : null
    },

    async findUserByEmail(email) {
      const rows = await db.query(
        `select ${USER_COLUMNS} from users u
          where md5(lower(u.email)) = md5(lower($1::text)) and lower(u.email) = lower($1::text)`,
        [email],
      )
      return rows[0] ? toUser(rows[0]) : null
    },

    createUser(input) {
      return db.transaction(async (tx) => {
        const rows = await tx.query(
          `insert into users as u (id, email, created_at) values ($1::uuid, $2::text, $3::timestamptz)
           on conflict do nothing
           returning ${USER_COLUMNS}`,
          [input.id, input.email, input.createdAt],
        )
        const user = rows[0]
        if (!user) throw new StoreError('conflict', 'a user with this email already exists')
        const token = await tx.query(
          `insert into user_tokens (digest, user_id, created_at)
           values ($1::text, $2::uuid, $3::timestamptz)
           on conflict do nothing
           returning digest`,
          [input.tokenDigest, input.id, input.createdAt],
        )
        if (token.length === 0) throw new StoreError('conflict', 'this access token is taken')
        return toUser(user)
      })
    },

    async addUserToken(userId, tokenDigest, createdAt) {
      await db.query(
        `insert into user_tokens (digest, user_id, created_at)
         values ($1::text, $2::uuid, $3::timestamptz)
         on conflict (digest) do nothing`,
        [tokenDigest, userId, createdAt],
      )
    },

    async hasUsers() {
      const rows = await db.query('select exists (select 1 from users) as any')
      return rows[0]?.['any'] === true
    },
  }
}
