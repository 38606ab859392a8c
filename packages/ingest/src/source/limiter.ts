/** Runs at most `concurrency` tasks at once; the others wait their turn in order. */
export function createConcurrencyLimit(concurrency: number) {
  let running = 0
  const waiting: Array<() => void> = []
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve))
    running++
    try {
      return await task()
    } finally {
      running--
      waiting.shift()?.()
    }
  }
}
