/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { raw } from 'hono/html'
import type { Child } from 'hono/jsx'
import type { HtmlEscapedString } from 'hono/utils/html'
import { CSRF_FIELD } from './session'

/** Rendered HTML (always synchronous here: data is fetched before rendering). */
export type Html = HtmlEscapedString | Promise<HtmlEscapedString>

/** The project pages' navigation entries. */
export const PROJECT_TABS = [
  ['issues', 'Issues'],
  ['activity', 'Activity'],
  ['performance', 'Performance'],
  ['monitors', 'Monitors'],
  ['deployments', 'Deployments'],
  ['releases', 'Releases'],
  ['settings', 'Settings'],
] as const

/** One of {@link PROJECT_TABS}. */
export type ProjectTab = (typeof PROJECT_TABS)[number][0]

/** What {@link Layout} needs. */
export interface LayoutOptions {
  readonly base: string
  readonly title: string
  readonly body: Child
  /** The signed-in user; absent on the sign-in page. */
  readonly user?: { readonly email: string; readonly admin: boolean; readonly csrf: string }
  readonly project?: { readonly id: string; readonly name: string; readonly tab?: ProjectTab }
  /** The projection lag when the page's data came before the projection caught up. */
  readonly behind?: { readonly records: number; readonly seconds: number }
}

/** A hidden CSRF field for a form. */
export const CsrfField = ({ csrf }: { csrf: string }) => (
  <input type="hidden" name={CSRF_FIELD} value={csrf} />
)

// The doctype is the one piece of markup JSX cannot express; it is a constant.
const DOCTYPE = raw('<!doctype html>')

/** The page shell: header with the account link and sign-out, project navigation, main landmark. */
export function Layout(o: LayoutOptions): Html {
  const project = o.project
  return (
    <>
      {DOCTYPE}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width,initial-scale=1" />
          <title>{`${o.title} · tis`}</title>
          <link rel="icon" href="data:," />
          <link rel="stylesheet" href={`${o.base}/assets/dashboard.css`} />
          <script src={`${o.base}/assets/dashboard.js`} defer></script>
        </head>
        <body>
          <a class="skip" href="#main">
            Skip to content
          </a>
          <header class="top">
            <a class="brand" href={`${o.base}/projects`}>
              tis
            </a>
            {project && (
              <>
                <span aria-hidden="true">/</span>
                <span>{project.name}</span>
              </>
            )}
            {o.user && (
              <>
                <span class="who">
                  {o.user.email}
                  {o.user.admin ? ' (administrator)' : ''}
                </span>
                <a href={`${o.base}/account`}>Account</a>
                <form class="inline" method="post" action={`${o.base}/logout`}>
                  <CsrfField csrf={o.user.csrf} />
                  <button type="submit">Sign out</button>
                </form>
              </>
            )}
          </header>
          {project && (
            <nav class="project" aria-label="Project">
              <ul>
                {PROJECT_TABS.map(([tab, label]) => (
                  <li>
                    <a
                      href={`${o.base}/projects/${project.id}/${tab}`}
                      aria-current={project.tab === tab ? 'page' : undefined}
                    >
                      {label}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          )}
          <main id="main" tabindex={-1}>
            {o.behind && <BehindNotice {...o.behind} />}
            {o.body}
          </main>
          <div id="status-message" class="skip" role="status" aria-live="polite"></div>
        </body>
      </html>
    </>
  )
}

/** Says that the page may miss the newest records, and by how much. */
function BehindNotice({ records, seconds }: { records: number; seconds: number }): Html {
  const count = records.toLocaleString('en-US')
  return (
    <p class="notice" role="status" data-projection-lag={String(seconds)}>
      {`Processing is ${seconds.toFixed(1)} s behind: ${count} recently received ${
        records === 1 ? 'record is' : 'records are'
      } not shown yet. Reload in a moment.`}
    </p>
  )
}

/** A `<time>` with the exact time as its title and datetime. */
export function Time({ iso, text }: { iso: string | null | undefined; text: string }): Html {
  if (!iso) return <span class="muted">—</span>
  return (
    <time datetime={iso} title={iso}>
      {text}
    </time>
  )
}

/** A status badge: the text carries the meaning, the colour only repeats it. */
export function Badge({ value }: { value: string | null | undefined }): Html {
  if (!value) return <span class="muted">—</span>
  return <span class={`badge s-${value}`}>{value}</span>
}

/** A query string of the non-empty values. */
export function queryString(values: Record<string, string | undefined>): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(values)) if (value) params.set(key, value)
  const text = params.toString()
  return text ? `?${text}` : ''
}
