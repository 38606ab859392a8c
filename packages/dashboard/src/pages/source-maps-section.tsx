/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { ArtifactBundleJson } from '@tis/schema'
import { formatBytes, shortId } from '../format'
import type { Html } from '../layout'
import { PostButton, type SectionContext, SectionMessages, When } from './settings-section-parts'

/** One uploaded bundle (or legacy release upload), as `GET …/artifact_bundles` lists it. */
export type { ArtifactBundleJson }

/** More debug IDs than this fold into a `<details>`: a bundle of a large app holds dozens. */
const SHOWN_IDS = 3

/** Debug IDs shortened, each in full on hover (`title`) and for screen readers (the hidden rest). */
function DebugIds({ ids }: { ids: readonly string[] }): Html {
  if (ids.length === 0) return <span class="muted">none (by release and URL)</span>
  const list = (shown: readonly string[]) => (
    <ul class="ids">
      {shown.map((id) => (
        <li>
          <code title={id}>
            {shortId(id)}
            <span class="skip">{id.slice(8)}</span>
          </code>
        </li>
      ))}
    </ul>
  )
  if (ids.length <= SHOWN_IDS) return list(ids)
  return (
    <details>
      <summary>{`${ids.length} debug IDs`}</summary>
      {list(ids)}
    </details>
  )
}

/** How to upload; the guide holds the bundler plugins, our own CLI's options and a checklist. */
function UploadHint({ origin, projectId }: { origin: string; projectId: string }): Html {
  const commands = [
    'sentry-cli sourcemaps inject dist',
    `sentry-cli --url ${origin} --auth-token <your access token> \\`,
    `  sourcemaps upload --org tis --project ${projectId} dist`,
    '# or, without the Sentry tooling:',
    `tis sourcemaps upload dist --project ${projectId}`,
  ]
  return (
    <div id="source-maps-hint">
      <p class="muted">
        Upload with the Sentry tooling, unchanged (<code>sentry-cli</code> or a Sentry bundler
        plugin), or with tis's own CLI. The token is a user access token of an owner or
        administrator of this project.
      </p>
      <pre>{commands.join('\n')}</pre>
      <p class="muted">
        See <a href="/docs/sourcemaps.html">Source maps</a> for Vite, webpack and esbuild, and what
        to check when frames stay minified.
      </p>
    </div>
  )
}

/**
 * The project's uploaded source maps: release, dist, files, size, debug IDs, upload and last use,
 * newest first; "Delete" for owners and administrators (the API refuses others).
 */
export function SourceMapsSection(props: {
  ctx: SectionContext
  /** The engine's refusal instead of a list (the rest of the page still shows). */
  bundles: readonly ArtifactBundleJson[] | { readonly error: string }
  manages: boolean
  origin: string
  projectId: string
}): Html {
  const { ctx, bundles, manages } = props
  return (
    <>
      <h2 id="source-maps">Source maps</h2>
      <SectionMessages ctx={ctx} section="source-maps" />
      {'error' in bundles ? (
        <p class="alert">{`The bundles could not be listed: ${bundles.error}`}</p>
      ) : bundles.length ? (
        <table id="artifact-bundles">
          <caption class="skip">Uploaded source map bundles</caption>
          <thead>
            <tr>
              <th scope="col">Release</th>
              <th scope="col">Dist</th>
              <th scope="col" class="num">
                Files
              </th>
              <th scope="col" class="num">
                Size
              </th>
              <th scope="col">Debug IDs</th>
              <th scope="col">Uploaded</th>
              <th scope="col">Last used</th>
              {manages && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {bundles.map((b) => (
              <tr data-bundle={b.id}>
                <td>{b.release ?? <span class="muted">none</span>}</td>
                <td>{b.dist ?? <span class="muted">none</span>}</td>
                <td class="num">{b.file_count}</td>
                <td class="num">{formatBytes(b.size)}</td>
                <td>
                  <DebugIds ids={b.debug_ids} />
                </td>
                <td>
                  <When iso={b.uploaded_at} now={ctx.now} />
                </td>
                <td>
                  <When iso={b.last_used_at} now={ctx.now} />
                </td>
                {manages && (
                  <td>
                    <PostButton
                      ctx={ctx}
                      section="source-maps"
                      action={`source-maps/${b.id}/delete`}
                      label={`Delete bundle ${shortId(b.bundle_debug_id)}`}
                      danger
                    />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p class="muted">No source maps uploaded yet: JavaScript frames are shown as sent.</p>
      )}
      <UploadHint origin={props.origin} projectId={props.projectId} />
    </>
  )
}
