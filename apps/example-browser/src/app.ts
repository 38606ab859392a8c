import { capturePageLoad } from '@tis/browser'
import { createClient } from '@tis/sdk'

// Replaced at build time (see build.ts). Use a project API key made for this site: it is public.
declare const TIS_URL: string
declare const TIS_API_KEY: string

const tis = createClient({ baseUrl: TIS_URL, apiKey: TIS_API_KEY, environment: 'production' })

// One trace per page load, sent after `load` (or when the page is left before it).
capturePageLoad(tis, { route: location.pathname, maxResources: 10 })
