import { startTestPostgres } from '@tis/test-utils/postgres'
import { envelopeBodies, envelopePath, nativeBodies, sentryHeaders } from './envelope-bodies'
import { load } from './ingest-load'
import { ADMIN_TOKEN, SERVER_MAIN, serverEnv } from './ingest-servers'
import { createProjectWithKey } from './management-client'
import { startNode } from './processes'

const pg = await startTestPostgres({ durable: true })
for (const side of ['envelope', 'native'] as const) {
  const server = await startNode(
    ['--cpu-prof', `--cpu-prof-dir=/tmp/envbench/prof-${side}`, SERVER_MAIN],
    { ...serverEnv, DATABASE_URL: pg.url },
  )
  const p = await createProjectWithKey(server.url, ADMIN_TOKEN, side)
  const dsn = p.dsn as string
  const r =
    side === 'native'
      ? await load(server.url, { authorization: `Bearer ${p.token}` }, { nextBody: nativeBodies() })
      : await load(server.url, sentryHeaders(dsn), {
          path: envelopePath(dsn),
          nextBody: envelopeBodies(dsn),
        })
  console.log(side, Math.round(r.requests.average), r.non2xx)
  await server.stop('SIGINT')
}
await pg.stop()
