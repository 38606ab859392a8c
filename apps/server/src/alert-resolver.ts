import { lookup } from 'node:dns/promises'
import type { HostResolver } from '@tis/ingest'

/**
 * Every address of a host name (A and AAAA, as the system resolver answers them): how the alerts
 * API checks that a channel's URL does not point inside the server's network.
 */
export const resolveHost: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address)
