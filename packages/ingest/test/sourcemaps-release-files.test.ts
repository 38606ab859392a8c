import { describe, expect, it } from 'vitest'
import { DEBUG_ID, PROJECT, setup } from './upload-kit'

// sentry-cli 2's legacy per-file release upload (design note §2.11): each file a one-file bundle
// of the release, found by release, dist and URL.

async function post(
  api: ReturnType<typeof setup>['api'],
  headers: ReturnType<typeof setup>['headers'],
  who: string,
  parts: Record<string, string | string[]>,
  file: string | null = 'function o(){}',
) {
  const form = new FormData()
  if (file !== null) form.append('file', new Blob([file]), 'app.min.js')
  for (const [name, value] of Object.entries(parts)) {
    for (const v of Array.isArray(value) ? value : [value]) form.append(name, v)
  }
  const request = new Request('http://x/', { method: 'POST', body: form })
  return api.uploadReleaseFile({
    headers: headers(who, { 'content-type': request.headers.get('content-type') ?? '' }),
    params: { org: 'any', project: PROJECT.id, version: '3.1.0' },
    bytes: new Uint8Array(await request.arrayBuffer()),
  })
}

describe('POST …/releases/{version}/files/', () => {
  it('stores each file as a one-file bundle of the release, once', async () => {
    const { api, headers, memory } = setup()
    const parts = {
      name: '~/static/app.min.js',
      dist: 'web',
      header: ['Sourcemap:app.min.js.map', `debug-id:${DEBUG_ID}`],
    }
    const first = await post(api, headers, 'owner', parts)
    expect(first.status).toBe(201)
    expect(first.body).toMatchObject({ name: '~/static/app.min.js', dist: 'web', size: 14 })
    const again = await post(api, headers, 'owner', parts)
    expect(again.status).toBe(200)
    expect(memory.bundles.size).toBe(1)
    const found = await memory.store.findArtifactsByUrl(PROJECT.id, '3.1.0', 'web', [
      '~/static/app.min.js',
    ])
    expect(found.map((f) => [f.type, f.debugId, f.headers])).toEqual([
      ['minified_source', DEBUG_ID, { sourcemap: 'app.min.js.map', 'debug-id': DEBUG_ID }],
    ])
    // A map: `source_map`; no name: `~/` + the part's filename.
    expect((await post(api, headers, 'owner', { name: '~/static/app.min.js.map' })).status).toBe(
      201,
    )
    expect((await post(api, headers, 'owner', {}, 'other')).body).toMatchObject({
      name: '~/app.min.js',
    })
    expect(
      [...memory.files.values()]
        .flat()
        .map((f) => f.type)
        .sort(),
    ).toEqual(['minified_source', 'minified_source', 'source_map'])
  })

  it('refuses no file, a member, no token and a file over the bundle size', async () => {
    const { api, headers, memory } = setup({ maxBundleBytes: 5 })
    expect((await post(api, headers, 'owner', { name: '~/a.js' }, null)).status).toBe(400)
    expect((await post(api, headers, 'member', {})).status).toBe(403)
    expect((await post(api, headers, 'nobody', {})).status).toBe(401)
    expect((await post(api, headers, 'owner', {})).status).toBe(413)
    expect(memory.bundles.size).toBe(0)
  })
})
