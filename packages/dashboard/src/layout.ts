import { html } from 'hono/html'
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
  ['settings', 'Settings'],
] as const

/** One of {@link PROJECT_TABS}. */
export type ProjectTab = (typeof PROJECT_TABS)[number][0]

/** What {@link layout} needs. */
export interface LayoutOptions {
  readonly base: string
  readonly title: string
  readonly body: Html
  /** The signed-in user; absent on the sign-in page. */
  readonly user?: { readonly email: string; readonly admin: boolean; readonly csrf: string }
  readonly project?: { readonly id: string; readonly name: string; readonly tab?: ProjectTab }
}

/** A hidden CSRF field for a form. */
export const csrfField = (csrf: string) =>
  html`<input type="hidden" name="${CSRF_FIELD}" value="${csrf}">`

/** The page shell: header with sign-out, project navigation, main landmark. */
export function layout(o: LayoutOptions): Html {
  const project = o.project
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${o.title} · tis</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="${o.base}/assets/dashboard.css"><script src="${o.base}/assets/dashboard.js" defer></script></head>
<body><a class="skip" href="#main">Skip to content</a>
<header class="top"><a class="brand" href="${o.base}/projects">tis</a>${
    project ? html`<span aria-hidden="true">/</span><span>${project.name}</span>` : ''
  }${
    o.user
      ? html`<span class="who">${o.user.email}${o.user.admin ? ' (administrator)' : ''}</span>
<form class="inline" method="post" action="${o.base}/logout">${csrfField(o.user.csrf)}<button type="submit">Sign out</button></form>`
      : ''
  }</header>
${
  project
    ? html`<nav class="project" aria-label="Project"><ul>${PROJECT_TABS.map(
        ([tab, label]) =>
          html`<li><a href="${o.base}/projects/${project.id}/${tab}"${
            project.tab === tab ? html` aria-current="page"` : ''
          }>${label}</a></li>`,
      )}</ul></nav>`
    : ''
}
<main id="main" tabindex="-1">${o.body}</main>
<div id="status-message" class="skip" role="status" aria-live="polite"></div>
</body></html>`
}

/** An `<time>` with the exact time as its title and datetime. */
export function time(iso: string | null | undefined, text: string): Html {
  if (!iso) return html`<span class="muted">—</span>`
  return html`<time datetime="${iso}" title="${iso}">${text}</time>`
}

/** A status badge: the text carries the meaning, the colour only repeats it. */
export function badge(value: string | null | undefined): Html {
  if (!value) return html`<span class="muted">—</span>`
  return html`<span class="badge s-${value}">${value}</span>`
}

/** A query string of the non-empty values. */
export function queryString(values: Record<string, string | undefined>): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(values)) if (value) params.set(key, value)
  const text = params.toString()
  return text ? `?${text}` : ''
}
