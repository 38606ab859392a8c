import type { Client, Integration } from '@tis/sdk'

/** Options of {@link browserIntegration}. */
export interface BrowserOptions {
  /**
   * Release-health sessions (sent only when the client has a `release`): `'page'` keeps one per
   * page load; `'navigation'` also starts a new one on each history navigation (`pushState`,
   * `popstate`), ending the previous one as `exited`; `false` sends none.
   * @default 'page'
   */
  readonly sessions?: false | 'page' | 'navigation'
  /** The user of the page, sent as each session's `did`. */
  readonly userId?: string | number
}

type Listener = () => void

/**
 * Browser release health, as `@sentry/browser`'s session integration: a session starts when the
 * client sets the integration up (its first update, `init: true`, is sent at once); every
 * `captureException` counts an error into it (the update follows within a second); an uncaught
 * error or unhandled rejection ends it as `crashed`; `pagehide` ends it as `exited` and starts
 * every queued request at once (`keepalive`), as does a page turning hidden for its pending
 * update. Outside a browser it does nothing, and it never throws into the page.
 *
 * @example createClient({ baseUrl, apiKey, release, integrations: [browserIntegration()] })
 */
export function browserIntegration(options: BrowserOptions = {}): Integration<Client> {
  return {
    name: 'browser',
    setup(client) {
      const page = globalThis as typeof globalThis & { document?: Document }
      const { history, location } = page
      if (options.sessions === false || !page.document) return
      const start = () =>
        client.startSession(options.userId === undefined ? {} : { userId: options.userId })
      const urgent = () => void client.flush(2000, { urgent: true })
      let url = location.href
      const navigated = () => {
        if (location.href !== url) start()
        url = location.href
      }
      const listeners: [EventTarget, string, Listener][] = [
        [page, 'error', () => client.endSession('crashed')],
        [page, 'unhandledrejection', () => client.endSession('crashed')],
        [
          page,
          'pagehide',
          () => {
            client.endSession()
            urgent()
          },
        ],
        [
          page.document,
          'visibilitychange',
          () => page.document?.visibilityState === 'hidden' && urgent(),
        ],
      ]
      const push = history.pushState
      const navigation = options.sessions === 'navigation'
      if (navigation) {
        listeners.push([page, 'popstate', navigated])
        history.pushState = function (this: History, ...args) {
          push.apply(this, args)
          navigated()
        }
      }
      for (const [target, type, listener] of listeners) target.addEventListener(type, listener)
      start()
      return () => {
        for (const [target, type, listener] of listeners) target.removeEventListener(type, listener)
        if (navigation) history.pushState = push
      }
    },
  }
}
