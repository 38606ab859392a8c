// The import-graph check of `pnpm test` (`pnpm check:imports`): no import circle, and imports
// only inward along the layering of docs/architecture.md —
//   apps → adapters (storage-postgres, analytics-clickhouse, dashboard) → ingest → schema;
//   SDK packages (sdk, console, express, browser) never import server code;
//   packages never import apps; only tests import the test harness (@tis/test-utils).
// Paths are the resolved files (workspace siblings resolve to their `src` through the
// `@tis/source` export condition), so `@tis/ingest` and `../../ingest/src/x` count alike.

/**
 * Test code: test files, test and bench folders, test configuration — and the bench app
 * (apps/bench, private and never shipped), whose harness is @tis/test-utils.
 */
const TEST = '(\\.test\\.tsx?$|/test/|/bench/|^apps/bench/|/vitest\\.[a-z]+\\.ts$)'
const TEST_UTILS = '^packages/test-utils/'
/** Build configuration (the shared tsup factory) that any package's tsup.config.ts imports. */
const TOOLING = '^packages/tsconfig/'
const SERVER = '^(packages/(ingest|storage-postgres|analytics-clickhouse|dashboard)/|apps/)'

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import circle: split the shared part (often a type) into its own file.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'schema-is-innermost',
      comment: '@tis/schema imports no other workspace package.',
      severity: 'error',
      from: { path: '^packages/schema/' },
      to: { path: '^(packages/|apps/)', pathNot: ['^packages/schema/', TEST_UTILS, TOOLING] },
    },
    {
      name: 'ingest-imports-only-schema',
      comment: '@tis/ingest (the engine) imports only @tis/schema.',
      severity: 'error',
      from: { path: '^packages/ingest/' },
      to: {
        path: '^(packages/|apps/)',
        pathNot: ['^packages/(ingest|schema)/', TEST_UTILS, TOOLING],
      },
    },
    {
      name: 'adapters-import-inward',
      comment:
        'An adapter (storage-postgres, analytics-clickhouse, dashboard) imports only itself, @tis/ingest and @tis/schema; its tests may also use another adapter (e.g. a real store), never an app.',
      severity: 'error',
      from: { path: '^packages/(storage-postgres|analytics-clickhouse|dashboard)/', pathNot: TEST },
      to: {
        path: '^(packages/|apps/)',
        pathNot: ['^packages/(ingest|schema)/', '^packages/$1/', TOOLING],
      },
    },
    {
      name: 'sdk-never-imports-server',
      comment:
        'SDK packages (sdk, console, express, browser) never import server code (ingest, storage, analytics, dashboard, apps).',
      severity: 'error',
      from: { path: '^packages/(sdk|console|express|browser)/' },
      to: { path: SERVER },
    },
    {
      name: 'packages-never-import-apps',
      comment:
        'A package never imports an app; tests reach a running server through @tis/test-utils.',
      severity: 'error',
      from: { path: '^packages/', pathNot: TEST_UTILS },
      to: { path: '^apps/' },
    },
    {
      name: 'only-tests-import-test-utils',
      comment: 'The test harness (@tis/test-utils) is for tests, never for shipped code.',
      severity: 'error',
      from: { path: '^(packages|apps)/[^/]+/src/', pathNot: [TEST, TEST_UTILS] },
      to: { path: TEST_UTILS },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|coverage|\\.turbo)/' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      conditionNames: ['@tis/source', 'import', 'require', 'node', 'default', 'types'],
      exportsFields: ['exports'],
      mainFields: ['module', 'main', 'types'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
    },
  },
}
