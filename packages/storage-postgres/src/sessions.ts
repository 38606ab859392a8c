import type { SessionRecord, SessionStore } from '@tis/ingest'
import { type Row, type SqlExecutor, type SqlParam, sqlState, textOrNull } from './executor'
import { toUser, USER_COLUMNS } from './records'

// Prefixed, so they never collide with the user columns selected next to them.
const SESSION_COLUMNS = `s.id::text as s_id, s.user_id::text as s_user_id,
  s.created_at as s_created_at, s.last_seen_at as s_last_seen_at,
  s.idle_expires_at as s_idle_expires_at, s.expires_at as s_expires_at,
  s.user_agent as s_user_agent, s.ip as s_ip`

function toSession(row: Row): SessionRecord {
  return {
    id: row['s_id'] as string,
    userId: row['s_user_id'] as string,
    createdAt: row['s_created_at'] as Date,
    lastSeenAt: row['s_last_seen_at'] as Date,
    idleExpiresAt: row['s_idle_expires_at'] as Date,
    expiresAt: row['s_expires_at'] as Date,
    userAgent: textOrNull(row, 's_user_agent'),
    ip: textOrNull(row, 's_ip'),
  }
}

/** foreign_key_violation: the access token was deleted between the select and the insert. */
const FOREIGN_KEY_VIOLATION = '23503'

/** Runs a `delete` and resolves how many rows it deleted. */
async function deleted(db: SqlExecutor, where: string, params: SqlParam[]): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `with d as (delete from dashboard_sessions where ${where} returning 1)
     select count(*)::int as n from d`,
    params,
  )
  return rows[0]?.n ?? 0
}

/** Dashboard sessions, looked up by the digest of their secret id. */
export function createSessionQueries(db: SqlExecutor): SessionStore {
  return {
    async createSession(s) {
      try {
        // Selecting from user_tokens stores nothing when the token is gone; the foreign key
        // check (which locks the token row) covers a rotation committing in between.
        const rows = await db.query(
          `insert into dashboard_sessions as s (digest, id, user_id, token_digest, created_at,
             last_seen_at, idle_expires_at, expires_at, user_agent, ip)
           select $1::text, $2::uuid, t.user_id, t.digest, $4::timestamptz, $5::timestamptz,
                  $6::timestamptz, $7::timestamptz, $8::text, $9::text
             from user_tokens t where t.digest = $3::text and t.user_id = $10::uuid
           returning ${SESSION_COLUMNS}`,
          [
            s.digest,
            s.id,
            s.tokenDigest,
            s.createdAt,
            s.lastSeenAt,
            s.idleExpiresAt,
            s.expiresAt,
            s.userAgent,
            s.ip,
            s.userId,
          ],
        )
        return rows[0] ? toSession(rows[0]) : null
      } catch (error) {
        if (sqlState(error) === FOREIGN_KEY_VIOLATION) return null
        throw error
      }
    },

    async findSession(digest) {
      const rows = await db.query(
        `select ${SESSION_COLUMNS}, ${USER_COLUMNS}
           from dashboard_sessions s join users u on u.id = s.user_id
          where s.digest = $1::text`,
        [digest],
      )
      const row = rows[0]
      return row ? { session: toSession(row), user: toUser(row) } : null
    },

    async touchSession(digest, at, idleExpiresAt) {
      await db.query(
        `update dashboard_sessions set last_seen_at = $2::timestamptz,
                idle_expires_at = least($3::timestamptz, expires_at)
          where digest = $1::text and last_seen_at < $2::timestamptz`,
        [digest, at, idleExpiresAt],
      )
    },

    async deleteSession(digest) {
      return (await deleted(db, 'digest = $1::text', [digest])) > 0
    },

    deleteUserSessions: (userId) => deleted(db, 'user_id = $1::uuid', [userId]),

    async listUserSessions(userId, at) {
      const rows = await db.query(
        `select ${SESSION_COLUMNS} from dashboard_sessions s
          where s.user_id = $1::uuid and s.idle_expires_at > $2::timestamptz
          order by s.last_seen_at desc, s.id desc`,
        [userId, at],
      )
      return rows.map(toSession)
    },

    deleteExpiredSessions: (at) => deleted(db, 'idle_expires_at <= $1::timestamptz', [at]),

    rotateUserToken(userId, tokenDigest, at) {
      return db.transaction(async (tx) => {
        const ended = await deleted(tx, 'user_id = $1::uuid', [userId])
        // Deleting the tokens also removes (on delete cascade) any session a racing sign-in
        // stored after the statement above.
        await tx.query('delete from user_tokens where user_id = $1::uuid', [userId])
        await tx.query(
          `insert into user_tokens (digest, user_id, created_at)
           values ($1::text, $2::uuid, $3::timestamptz)`,
          [tokenDigest, userId, at],
        )
        return ended
      })
    },
  }
}
