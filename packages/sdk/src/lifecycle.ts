type Listener = () => void

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
export function onShutdown(onExit: Listener): () => void {
  const proc = (globalThis as { process?: EventHost }).process
  const win = globalThis as EventHost & { document?: unknown }
  const removers: Listener[] = []
  if (typeof proc?.on === 'function') {
    proc.on('beforeExit', onExit)
    removers.push(() => proc.off?.('beforeExit', onExit))
  }
  if (typeof win.addEventListener === 'function' && win.document !== undefined) {
    win.addEventListener('pagehide', onExit)
    removers.push(() => win.removeEventListener?.('pagehide', onExit))
  }
  return () => {
    for (const remove of removers) remove()
  }
}
