// The projection's progress as `GET /health/ready` reports it.

/** The projection lag `GET /health/ready` reports: records not projected yet and seconds behind. */
export async function projectionLag(url: string): Promise<{ records: number; seconds: number }> {
  const res = await fetch(`${url}/health/ready`)
  const ready = (await res.json()) as { projection?: { records: number; seconds: number } }
  return ready.projection ?? { records: 0, seconds: 0 }
}

/** Waits until the projection caught up; resolves how long that took, in ms. */
export async function caughtUp(url: string, timeoutMs = 600_000): Promise<number> {
  const started = performance.now()
  while (performance.now() - started < timeoutMs) {
    if ((await projectionLag(url)).records === 0) return performance.now() - started
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error('the projection did not catch up')
}
