export {
  type CallOptions,
  type Client,
  call,
  createClient,
  freshIp,
  type Reply,
  unique,
} from './client'
export {
  type DashboardSession,
  type Fetcher,
  openPage,
  serverFetcher,
  sessionsOf,
  signIn,
  submitForm,
} from './dashboard-session'
export { describeOnEachStore, describeOnPglite, describeOnPostgres } from './each-store'
export {
  ADMIN_EMAIL,
  ADMIN_TOKEN,
  ALERTS_TEST_ENV,
  type Harness,
  RETENTION_TEST_ENV,
  SPAWNED_SERVER_ENV,
  SUITE_ENV,
  startPgliteHarness,
  startPostgresHarness,
} from './harness'
export { CHECKED_TAGS, checkServerResponse, DOCUMENTED_PATHS } from './response-check'
export {
  APP_DIR,
  type Finished,
  projected,
  runTis,
  type ServerProcess,
  type ServerProcessOptions,
  startServerProcess,
  tsNode,
} from './spawn'
