type Listener = () => void

/** Which shutdown signal fired. */
export type ShutdownEvent = 'beforeExit' | 'pagehide'

interface EventHost {
  document?: unknown
  on?(event: string, listener: Listener): unknown
  off?(event: string, listener: Listener): unknown
  addEventListener?(event: string, listener: Listener): unknown
  removeEventListener?(event: string, listener: Listener): unknown
}

/**
 * Calls `onExit` on Node's `beforeExit` and the browser's `pagehide`, without importing `node:`
 * modules or keeping the process alive. Returns the function that removes both listeners.
 */
export function onShutdown(onExit: (event: ShutdownEvent) => void): () => void {
  const proc = (globalThis as { process?: EventHost }).process
  const win = globalThis as EventHost
  const exit = () => onExit('beforeExit')
  const hide = () => onExit('pagehide')
  proc?.on?.('beforeExit', exit)
  // Only a page has a document (Deno and workers have addEventListener too).
  if (win.document !== undefined) win.addEventListener?.('pagehide', hide)
  return () => {
    proc?.off?.('beforeExit', exit)
    win.removeEventListener?.('pagehide', hide)
  }
}
