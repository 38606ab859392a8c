/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { DataScrubbing } from '@tis/schema'
import { CsrfField, type Html } from '../layout'
import { FILTERED } from './filtered'
import {
  type SectionContext,
  SectionMessages,
  typedChecked,
  typedValue,
} from './settings-section-parts'

/** A project's data-scrubbing settings, as `GET …/data_scrubbing` answers them. */
export type DataScrubbingJson = DataScrubbing

const SECTION = 'data-scrubbing'

/** Key names as typed in the form: one a line or separated by commas, blanks dropped. */
export const namesOf = (value: unknown): string[] =>
  typeof value === 'string'
    ? value
        .split(/[\n,]/)
        .map((name) => name.trim())
        .filter((name) => name !== '')
    : []

/**
 * The `PUT …/data_scrubbing` body of the settings form: the boxes as checked (an unchecked box is
 * not sent), the lists as typed (a list the form did not send keeps its value). The engine
 * validates the names and its 422 is shown on the page.
 */
export function dataScrubbingBody(form: Record<string, unknown>): Record<string, unknown> {
  return {
    data_scrubbing: {
      enabled: form['enabled'] === '1',
      ...('extra_fields' in form ? { extra_fields: namesOf(form['extra_fields']) } : {}),
      ...('safe_fields' in form ? { safe_fields: namesOf(form['safe_fields']) } : {}),
      scrub_ip_addresses: form['scrub_ip_addresses'] === '1',
    },
  }
}

const Names = ({ names }: { names: readonly string[] }) =>
  names.length === 0 ? (
    <span class="muted">none</span>
  ) : (
    <span>
      {names.map((name, i) => (
        <>
          {i > 0 && ', '}
          <code>{name}</code>
        </>
      ))}
    </span>
  )

/**
 * The settings in force to everyone who sees the project; the form to change them to owners and
 * administrators (docs/data-scrubbing.md).
 */
export function DataScrubbingSection(props: {
  ctx: SectionContext
  settings: DataScrubbingJson
  manages: boolean
}): Html {
  const { ctx, settings: s, manages } = props
  const checked = (name: string, stored: boolean) => typedChecked(ctx, SECTION, name, stored)
  const names = (name: string, stored: readonly string[]) =>
    typedValue(ctx, SECTION, name, stored.join('\n'))
  return (
    <>
      <h2 id="data-scrubbing">Data scrubbing</h2>
      <SectionMessages ctx={ctx} section={SECTION} />
      <p class="muted">
        {`Passwords, tokens, card numbers and other secrets in events are replaced by ${FILTERED} before they are stored; the original is never kept. See `}
        <a href="/docs/data-scrubbing.html">Data scrubbing</a> (docs/data-scrubbing.md).
      </p>
      <dl class="facts" id="data-scrubbing-facts">
        <dt>Scrubbing</dt>
        <dd>{s.enabled ? 'on' : 'off: values are stored as sent'}</dd>
        <dt>Extra fields</dt>
        <dd>
          <Names names={s.extra_fields} />
        </dd>
        <dt>Safe fields</dt>
        <dd>
          <Names names={s.safe_fields} />
        </dd>
        <dt>IP addresses</dt>
        <dd>{s.scrub_ip_addresses ? 'filtered' : 'kept'}</dd>
      </dl>
      {manages ? (
        <form
          class="stack"
          method="post"
          action={`${ctx.path}/data-scrubbing#data-scrubbing`}
          aria-labelledby="data-scrubbing"
        >
          <CsrfField csrf={ctx.csrf} />
          <label for="scrub-enabled" class="check">
            <span>
              <input
                id="scrub-enabled"
                name="enabled"
                type="checkbox"
                value="1"
                checked={checked('enabled', s.enabled)}
              />{' '}
              Filter secrets before events are stored
            </span>
          </label>
          <label for="scrub-extra">
            Extra fields: more names of keys to filter, one a line or separated by commas
            <textarea id="scrub-extra" name="extra_fields" rows={3} spellcheck={false}>
              {names('extra_fields', s.extra_fields)}
            </textarea>
          </label>
          <label for="scrub-safe">
            Safe fields: names of keys never filtered (exact match)
            <textarea id="scrub-safe" name="safe_fields" rows={3} spellcheck={false}>
              {names('safe_fields', s.safe_fields)}
            </textarea>
          </label>
          <label for="scrub-ip" class="check">
            <span>
              <input
                id="scrub-ip"
                name="scrub_ip_addresses"
                type="checkbox"
                value="1"
                checked={checked('scrub_ip_addresses', s.scrub_ip_addresses)}
              />{' '}
              Filter client IP addresses
            </span>
          </label>
          <p>
            <button type="submit">Save data scrubbing</button>
          </p>
        </form>
      ) : (
        <p class="muted" id="data-scrubbing-readonly">
          Only the project's owners and application administrators can change data scrubbing.
        </p>
      )}
    </>
  )
}
