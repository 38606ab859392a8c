import type { EngineResponse } from '@tis/ingest'
import type { DashboardContext, Deps } from '../context'
import { errorMessages } from '../engine-client'
import { DONE, type Done } from './settings-done'
import { settingsPage } from './settings-page'

/** A settings form's management call and what follows it. */
export interface Action {
  /** The engine call. */
  readonly run: () => Promise<EngineResponse>
  /** The notice of a success; its section is the anchor the redirect lands on. */
  readonly done: Done
  /** The form's fields as typed, shown again in its section on a refusal (`typedFields`). */
  readonly typed?: Readonly<Record<string, string>>
}

/**
 * Runs a management call from a form: a success redirects to `settings?done=<done>#<section>`,
 * a refusal re-renders the page with its message and the typed values in that section.
 */
export async function act(c: DashboardContext, deps: Deps, action: Action) {
  const response = await action.run()
  const [section] = DONE[action.done]
  if (response.status >= 200 && response.status < 300) {
    const settings = `${deps.base}/projects/${c.req.param('id')}/settings`
    return c.redirect(`${settings}?done=${action.done}#${section}`, 303)
  }
  return settingsPage(c, deps, {
    error: errorMessages(response).join('; '),
    status: response.status,
    section,
    ...(action.typed ? { typed: action.typed } : {}),
  })
}
