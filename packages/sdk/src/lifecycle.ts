type Listener = () => void

/** Which shutdown signal fired. */
export type ShutdownEvent = 'beforeExit' | 'pagehide'

interface EventHost {
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
  const win = globalThis as EventHost & { document?: unknown }
  const removers: Listener[] = []
  if (typeof proc?.on === 'function') {
    const listener = () => onExit('beforeExit')
    proc.on('beforeExit', listener)
    removers.push(() => proc.off?.('beforeExit', listener))
  }
  if (typeof win.addEventListener === 'function' && win.document !== undefined) {
    const listener = () => onExit('pagehide')
    win.addEventListener('pagehide', listener)
    removers.push(() => win.removeEventListener?.('pagehide', listener))
  }
  return () => {
    for (const remove of removers) remove()
  }
}
