import type { DataScrubbingAnswer } from '@tis/schema'
import { json } from '../http'
import { type DataScrubbingSettings, DEFAULT_DATA_SCRUBBING, type ManagementStore } from '../ports'
import type { ManagementOperation, ProjectAccess } from './access'
import { readBody } from './body'

/** Options of {@link createDataScrubbingOperations}. */
export interface DataScrubbingOperationsOptions {
  readonly store: Pick<ManagementStore, 'getDataScrubbing' | 'setDataScrubbing'>
  readonly access: ProjectAccess
  /** Drops cached credentials (which carry the settings), so a change applies at once here. */
  readonly onChanged?: () => void
}

/** `GET` and `PUT /api/v1/projects/:id/data_scrubbing`. */
export interface DataScrubbingOperations {
  /** The settings in force, to anyone who sees the project. */
  getDataScrubbing: ManagementOperation
  /** Changes them: the owner or an administrator. */
  setDataScrubbing: ManagementOperation
}

const NOT_FOUND = { error: 'Not found' } as const

/** The settings as the API shows them. */
export function dataScrubbingJson(s: DataScrubbingSettings): DataScrubbingAnswer {
  return {
    data_scrubbing: {
      enabled: s.enabled,
      extra_fields: [...s.extraFields],
      safe_fields: [...s.safeFields],
      scrub_ip_addresses: s.scrubIpAddresses,
    },
  }
}

/** Names once each, in the order first given (compared case-insensitively). */
function distinct(names: readonly string[]): string[] {
  const seen = new Set<string>()
  return names.filter((n) => {
    const key = n.toLowerCase()
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** Creates the data-scrubbing operations of the management API. */
export function createDataScrubbingOperations(
  options: DataScrubbingOperationsOptions,
): DataScrubbingOperations {
  const { store, access } = options
  return {
    getDataScrubbing: access.project(false, async (_request, project) => {
      const own = await store.getDataScrubbing(project.id)
      if (own === undefined) return json(404, NOT_FOUND)
      return json(200, dataScrubbingJson(own ?? DEFAULT_DATA_SCRUBBING))
    }),

    setDataScrubbing: access.project(true, async (request, project) => {
      const parsed = readBody(request, 'data_scrubbing')
      if (!parsed.ok) {
        // Malformed JSON stays a 400; a body that is not the envelope is a 422, as for a field.
        if (parsed.response.status !== 400) return parsed.response
        if (request.text !== undefined && request.text.trim() !== '' && !isJson(request.text)) {
          return parsed.response
        }
        const body = parsed.response.body as { error?: string }
        return json(422, { errors: [body.error ?? 'data_scrubbing is missing'] })
      }
      const own = await store.getDataScrubbing(project.id)
      if (own === undefined) return json(404, NOT_FOUND)
      const current = own ?? DEFAULT_DATA_SCRUBBING
      const sent = parsed.value ?? {}
      const next: DataScrubbingSettings = {
        enabled: sent.enabled ?? current.enabled,
        extraFields: distinct(sent.extra_fields ?? current.extraFields),
        safeFields: distinct(sent.safe_fields ?? current.safeFields),
        scrubIpAddresses: sent.scrub_ip_addresses ?? current.scrubIpAddresses,
      }
      if (!(await store.setDataScrubbing(project.id, next))) return json(404, NOT_FOUND)
      options.onChanged?.()
      return json(200, dataScrubbingJson(next))
    }),
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}
