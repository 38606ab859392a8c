type Listener = () => void

interface EventHost {
  document?: unknown
  on?(event: string, listener: Listener): unknown
  off?(event: string, listener: Listener): unknown
  addEventListener?(event: string, listener: Listener): unknown
  removeEventListener?(event: string, listener: Listener): unknown
}

/**
 * Calls `onExit` on Node's `beforeExit` (`pagehide` false) and the browser's `pagehide` (true),
 * without importing `node:` modules or keeping the process alive. Returns the function that
 * removes both listeners.
 */
export function onShutdown(onExit: (pagehide: boolean) => void): () => void {
  const win = globalThis as EventHost & { process?: EventHost }
  const proc = win.process
  const exit = () => onExit(false)
  const hide = () => onExit(true)
  proc?.on?.('beforeExit', exit)
  // Only a page has a document (Deno and workers have addEventListener too).
  if (win.document) win.addEventListener?.('pagehide', hide)
  return () => {
    proc?.off?.('beforeExit', exit)
    win.removeEventListener?.('pagehide', hide)
  }
}
