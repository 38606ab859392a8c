/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { Project as ProjectJson } from '@tis/schema'
import type { Context } from 'hono'
import type { Child } from 'hono/jsx'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { DashboardEnv, Deps, Session } from './context'
import { ok } from './engine-client'
import { Layout, type LayoutOptions, type ProjectTab } from './layout'

/** What a page hands {@link renderPage}. */
export interface PageOptions {
  readonly title: string
  readonly body: Child
  readonly project?: { readonly id: string; readonly name: string; readonly tab?: ProjectTab }
  /** @default 200 */
  readonly status?: number
}

/** Renders a full page in the layout, with the signed-in user when there is one. */
export function renderPage(c: Context<DashboardEnv>, deps: Deps, page: PageOptions) {
  const session = c.get('session') as Session | undefined
  const options: LayoutOptions = {
    base: deps.base,
    title: page.title,
    body: page.body,
    ...(session
      ? { user: { email: session.email, admin: session.admin, csrf: session.csrf } }
      : {}),
    ...(page.project ? { project: page.project } : {}),
    ...(session?.behind.lag ? { behind: session.behind.lag } : {}),
  }
  return c.html(<Layout {...options} />, (page.status ?? 200) as ContentfulStatusCode)
}

/** The project of `:id` as the signed-in user sees it (a 404 page otherwise). */
export async function loadProject(c: Context<DashboardEnv>, deps: Deps): Promise<ProjectJson> {
  const session = c.get('session')
  const { project } = ok<{ project: ProjectJson }>(
    await session.call(deps.engine.management.getProject, {
      params: { id: c.req.param('id') ?? '' },
    }),
  )
  return project
}

/** The current path and query, to come back to after a form (only local paths). */
export function returnTo(c: Context<DashboardEnv>, deps: Deps, fallback: string): string {
  const raw = c.req.query('return_to')
  return safeReturn(raw, deps, fallback)
}

/** `value` when it is a path of this dashboard, else `fallback` (no open redirects). */
export function safeReturn(value: unknown, deps: Deps, fallback: string): string {
  if (typeof value !== 'string') return fallback
  const prefix = `${deps.base}/projects/`
  return value.startsWith(prefix) && !value.includes('\\') && !value.startsWith('//')
    ? value
    : fallback
}
