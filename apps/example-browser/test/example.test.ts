import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { launchTestChromium, type TestChromium } from '@tis/test-utils/chromium'
import { startTisServer, type TisServer } from '@tis/test-utils/tis-server'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { buildApp } from '../src/build'
import { createStaticServer } from '../src/server'

type Span = {
  trace_id: string
  span_id: string
  parent_span_id: string | null
  name: string
  kind: string
  duration_ms: number | null
  // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary context fields
  context: Record<string, any>
}

const chromium: TestChromium = await launchTestChromium()
let tis: TisServer
let site: Server
let siteUrl: string
let projectId: string

beforeAll(async () => {
  if (!chromium.browser) return
  tis = await startTisServer()
  const project = await tis.createProjectWithKey('example-browser', 'javascript')
  projectId = project.projectId
  site = createStaticServer(await buildApp({ tisUrl: tis.url, apiKey: project.apiKey }))
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
})
afterAll(async () => {
  await chromium.browser?.close()
  if (site) {
    site.closeAllConnections()
    await new Promise((resolve) => site.close(resolve))
  }
  await tis?.stop()
})

it.skipIf(!chromium.browser)(
  `a page load in headless Chromium is a trace in tis${chromium.skip ? ` (skipped: ${chromium.skip})` : ''}`,
  async () => {
    const page = await chromium.browser!.newPage()
    await page.goto(`${siteUrl}/products/7`)
    expect(await page.textContent('h1')).toBe('Acme shop')

    const roots = async () =>
      (await tis.read(`/api/v1/projects/${projectId}/traces?kind=browser`)).traces as Span[]
    await expect.poll(async () => (await roots()).length, { timeout: 10_000 }).toBe(1)
    const [root] = await roots()
    expect(root).toMatchObject({ name: '/products/7', kind: 'browser', parent_span_id: null })
    expect(root?.duration_ms).toBeGreaterThan(0)
    expect(root?.context['request']).toMatchObject({ url: `${siteUrl}/products/7` })
    expect(root?.context['web_vitals']?.['ttfb']).toBeGreaterThanOrEqual(0)

    // The resources of the page are child spans of the load, in the same trace. The SDK may
    // send them in another request than the load's own span (two requests in flight), so they
    // can be acknowledged a moment after it.
    const childrenOf = async () => {
      const trace = await tis.read(`/api/v1/projects/${projectId}/traces/${root?.trace_id}`)
      return (trace.spans as Span[]).filter((s) => s.span_id !== root?.span_id)
    }
    const resources = [`${siteUrl}/style.css`, `${siteUrl}/app.js`, `${siteUrl}/logo.svg`]
    await expect
      .poll(async () => (await childrenOf()).map((s) => s.name), { timeout: 10_000 })
      .toEqual(expect.arrayContaining(resources))
    const children = await childrenOf()
    for (const child of children) {
      expect(child).toMatchObject({ kind: 'resource', parent_span_id: root?.span_id })
    }
    await page.close()
  },
)
