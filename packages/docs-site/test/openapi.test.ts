import { createOpenApiDocument } from '@tis/schema'
import { describe, expect, it } from 'vitest'
import { openApiToMarkdown } from '../src/index'

describe('openApiToMarkdown', () => {
  const markdown = openApiToMarkdown(createOpenApiDocument())
  const paths = Object.entries(createOpenApiDocument().paths)

  it('documents every operation with its method, path and a curl example', () => {
    for (const [path, item] of paths) {
      for (const method of Object.keys(item as object)) {
        expect(markdown).toContain(`\`${method.toUpperCase()} ${path}\``)
        // Sentry's paths name the project by its number.
        const url = path.replace('{project}', '$PROJECT_NUMBER')
        expect(markdown).toContain(`curl -i -X ${method.toUpperCase()} "$TIS_URL${url}`)
      }
    }
  })

  it('shows authentication, the request fields and the responses of an ingest endpoint', () => {
    const section = markdown.slice(markdown.indexOf('`POST /api/v1/ingest_events`'))
    expect(section).toContain(
      '**Authentication:** `Authorization: Bearer $API_KEY` (a project API key) or `X-Api-Key: $API_KEY`',
    )
    expect(section).toContain('Wrapped in `{"event": …}`')
    expect(section).toContain('| `event_type` |')
    expect(section).toMatch(/\| 201 \| AcceptedEvent/)
    expect(section).toContain(`-d '{"event":{"event_type":"error","message":"Hello from tis"}}'`)
  })
})
