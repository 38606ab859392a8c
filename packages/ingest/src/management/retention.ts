import type { RetentionAnswer } from '@tis/schema'
import { json } from '../http'
import { type ReadBarrier, readBehind } from '../log/read-barrier'
import type { RetentionStore, StorageUsage } from '../ports'
import type { ManagementOperation, ProjectAccess } from './access'
import { readBody } from './body'

/** Options of {@link createRetentionOperations}. */
export interface RetentionOperationsOptions {
  readonly store: Pick<
    RetentionStore,
    'getProjectRetention' | 'setProjectRetention' | 'storageUsage'
  >
  readonly access: ProjectAccess
  /** `SERVICE_RETENTION_DAYS`: the period of projects without their own (0: forever). */
  readonly defaultDays: number
  /** The projection's read barrier: the usage counts what was acknowledged before it. */
  readonly barrier?: ReadBarrier
}

/** `GET` and `PUT /api/v1/projects/:id/retention`. */
export interface RetentionOperations {
  /** The project's period and disk use, to anyone who sees the project. */
  getRetention: ManagementOperation
  /**
   * Sets the project's own period: its owner may shorten it or return to the default; keeping
   * data longer than the default, or forever, is for application administrators.
   */
  setRetention: ManagementOperation
}

const NOT_FOUND = { error: 'Not found' } as const

function usageJson(usage: StorageUsage): RetentionAnswer['retention']['usage'] {
  return {
    events: usage.events,
    spans: usage.spans,
    check_ins: usage.checkIns,
    artifacts: usage.artifacts,
    total_bytes: usage.totalBytes,
  }
}

/** Creates the retention operations of the management API. */
export function createRetentionOperations(
  options: RetentionOperationsOptions,
): RetentionOperations {
  const { store, access, defaultDays } = options

  async function answer(projectId: string, own: number | null) {
    const usage = await store.storageUsage(projectId)
    return json(200, {
      retention: {
        days: own ?? defaultDays,
        project_days: own,
        default_days: defaultDays,
        usage: usageJson(usage),
      },
    } satisfies RetentionAnswer)
  }

  return {
    getRetention: access.project(false, async (_request, project) => {
      const read = async () => {
        const own = await store.getProjectRetention(project.id)
        if (own === undefined) return json(404, NOT_FOUND)
        return answer(project.id, own)
      }
      return options.barrier ? readBehind(options.barrier, read) : read()
    }),

    setRetention: access.project(true, async (request, project, _user, admin) => {
      // `{"retention": null}` returns to the default, as `{"retention": {"days": null}}` does (an
      // envelope without `days` was refused by readBody).
      const parsed = readBody(request, 'retention', { nullClears: true })
      if (!parsed.ok) return parsed.response
      const days = parsed.value?.days ?? null
      const longer = days !== null && (days === 0 || (defaultDays !== 0 && days > defaultDays))
      if (longer && !admin) {
        const limit = defaultDays === 0 ? 'forever' : `${defaultDays} days`
        return json(403, {
          error: `only an administrator may keep data longer than the server default (${limit})`,
        })
      }
      if (!(await store.setProjectRetention(project.id, days))) return json(404, NOT_FOUND)
      return answer(project.id, days)
    }),
  }
}
