// What the PostgreSQL globalSetup provides to tests (`project.provide` / `inject`). Types only.
declare module 'vitest' {
  interface ProvidedContext {
    /** URL of the run's PostgreSQL server, or `null` when none could be started. */
    testDatabaseUrl: string | null
    /** Why `testDatabaseUrl` is `null`, with how to run the suites anyway. */
    testDatabaseSkipReason: string
    /** When true (CI), a missing server fails the suites instead of skipping them. */
    testDatabaseRequired: boolean
  }
}

export {}
