import type { ManagementStore } from '@tis/ingest'
import type { SqlExecutor } from './executor'
import { dataScrubbingColumn, PROJECT_COLUMNS, toDataScrubbing, toProject } from './records'
import { isUuid } from './uuid'

/** The project and membership methods of the management port. */
export type ProjectQueries = Pick<
  ManagementStore,
  | 'createProject'
  | 'findProject'
  | 'listProjects'
  | 'isMember'
  | 'addMember'
  | 'listMembers'
  | 'setProjectStatus'
  | 'setProjectRateLimit'
  | 'getDataScrubbing'
  | 'setDataScrubbing'
>

/** Projects, members, and the archive / restore transition. */
export function createProjectQueries(db: SqlExecutor): ProjectQueries {
  return {
    async createProject(input) {
      const rows = await db.query(
        // The project's DSN key is a credential too (migration 18), inserted with it.
        `with p as (
           insert into projects (id, name, integration_kind, owner_id, created_at)
           values ($1::uuid, $2::text, $3::text, $4::uuid, $5::timestamptz)
           returning *
         ), dsn_key as (
           insert into api_keys (id, project_id, kind, name, token_digest, created_at)
           select gen_random_uuid(), p.id, 'sentry', 'Sentry DSN',
             encode(sha256(convert_to(p.sentry_key, 'UTF8')), 'hex'), p.created_at from p
         )
         select ${PROJECT_COLUMNS} from p`,
        [input.id, input.name, input.integrationKind, input.ownerId, input.createdAt],
      )
      return toProject(rows[0]!)
    },

    async findProject(id) {
      if (!isUuid(id)) return null
      const rows = await db.query(
        `select ${PROJECT_COLUMNS} from projects p where p.id = $1::uuid`,
        [id],
      )
      return rows[0] ? toProject(rows[0]) : null
    },

    async listProjects(userId) {
      if (userId !== null && !isUuid(userId)) return []
      const rows =
        userId === null
          ? await db.query(`select ${PROJECT_COLUMNS} from projects p order by p.created_at, p.id`)
          : await db.query(
              `select ${PROJECT_COLUMNS} from projects p
                where p.owner_id = $1::uuid
                   or exists (select 1 from project_members m
                               where m.project_id = p.id and m.user_id = $1::uuid)
                order by p.created_at, p.id`,
              [userId],
            )
      return rows.map(toProject)
    },

    async isMember(projectId, userId) {
      if (!isUuid(projectId) || !isUuid(userId)) return false
      const rows = await db.query(
        `select exists (select 1 from project_members
                         where project_id = $1::uuid and user_id = $2::uuid) as member`,
        [projectId, userId],
      )
      return rows[0]?.['member'] === true
    },

    async addMember(projectId, userId, createdAt) {
      const rows = await db.query(
        `insert into project_members (project_id, user_id, created_at)
         values ($1::uuid, $2::uuid, $3::timestamptz)
         on conflict (project_id, user_id) do nothing
         returning user_id`,
        [projectId, userId, createdAt],
      )
      return rows.length > 0
    },

    async listMembers(projectId) {
      if (!isUuid(projectId)) return []
      const rows = await db.query(
        `select u.id as user_id, u.email, 'owner' as role, p.created_at as added_at, 0 as rank
           from projects p join users u on u.id = p.owner_id
          where p.id = $1::uuid
         union all
         select u.id, u.email, 'member', m.created_at, 1
           from project_members m join users u on u.id = m.user_id
          where m.project_id = $1::uuid
          order by rank, added_at, user_id`,
        [projectId],
      )
      return rows.map((r) => ({
        userId: String(r['user_id']),
        email: String(r['email']),
        role: r['role'] === 'owner' ? 'owner' : 'member',
        addedAt: new Date(r['added_at'] as string | Date),
      }))
    },

    async getDataScrubbing(projectId) {
      if (!isUuid(projectId)) return undefined
      const rows = await db.query('select data_scrubbing from projects where id = $1::uuid', [
        projectId,
      ])
      return rows[0] ? toDataScrubbing(rows[0]['data_scrubbing']) : undefined
    },

    async setDataScrubbing(projectId, settings) {
      if (!isUuid(projectId)) return false
      // As text, cast in SQL: postgres.js would encode a string bound to a jsonb parameter as a
      // JSON string (a jsonb scalar, refused by the column's check), PGlite would not.
      const rows = await db.query(
        'update projects set data_scrubbing = $2::text::jsonb where id = $1::uuid returning 1',
        [projectId, dataScrubbingColumn(settings)],
      )
      return rows.length > 0
    },

    async setProjectRateLimit(projectId, override) {
      if (!isUuid(projectId)) return null
      const rows = await db.query(
        `update projects p
            set rate_limit_requests = $2::int, rate_limit_period_seconds = $3::int,
                rate_limit_auth_failures = $4::int
          where p.id = $1::uuid
          returning ${PROJECT_COLUMNS}`,
        [
          projectId,
          override?.requests ?? null,
          override?.periodSeconds ?? null,
          override?.authFailureRequests ?? null,
        ],
      )
      return rows[0] ? toProject(rows[0]) : null
    },

    async setProjectStatus(projectId, status, at) {
      if (!isUuid(projectId)) return null
      return db.transaction(async (tx) => {
        const rows = await tx.query(
          `update projects p
              set status = $2::text,
                  archived_at = case when $2::text = 'archived'
                                     then coalesce(p.archived_at, $3::timestamptz) end
            where p.id = $1::uuid
            returning ${PROJECT_COLUMNS}`,
          [projectId, status, at],
        )
        const project = rows[0]
        if (!project) return null
        // Archiving revokes every active credential; restoring leaves them revoked.
        if (status === 'archived') {
          await tx.query(
            `update api_keys set revoked_at = $2::timestamptz
              where project_id = $1::uuid and revoked_at is null`,
            [projectId, at],
          )
        }
        return toProject(project)
      })
    },
  }
}
