/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { Project as ProjectJson } from '@tis/schema'
import { Badge, type Html } from '../layout'
import {
  PostButton,
  type SectionContext,
  type SectionId,
  SectionMessages,
} from './settings-section-parts'

/** The project's facts; archive or restore for those who may. */
export function ProjectSection(props: {
  ctx: SectionContext
  project: ProjectJson
  manages: boolean
}): Html {
  const { ctx, project, manages } = props
  const Form = (form: { action: string; section: SectionId; label: string; danger?: boolean }) => (
    <PostButton ctx={ctx} {...form} />
  )
  return (
    <>
      <h2 id="project">Project</h2>
      <SectionMessages ctx={ctx} section="project" />
      <dl class="facts">
        <dt>Name</dt>
        <dd>{project.name}</dd>
        <dt>Platform</dt>
        <dd>{project.integration_kind}</dd>
        <dt>Status</dt>
        <dd>
          <Badge value={project.status === 'active' ? 'ok' : project.status} />
        </dd>
        <dt>Id</dt>
        <dd>
          <code>{project.id}</code>
        </dd>
        {project.dsn && (
          <>
            <dt>Sentry DSN</dt>
            <dd>
              <code id="sentry-dsn">{project.dsn}</code>
              <br />
              <small>
                Give it to a Sentry SDK (any language) as its <code>dsn</code>: errors,
                transactions, cron check-ins and logs come here.
              </small>
            </dd>
          </>
        )}
      </dl>
      {manages && (
        <p>
          {project.status === 'active' ? (
            <Form action="archive" section="project" label="Archive project" danger />
          ) : (
            <Form action="restore" section="project" label="Restore project" />
          )}
        </p>
      )}
    </>
  )
}
