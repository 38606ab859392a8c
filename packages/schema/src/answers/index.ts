// The shapes of the answers of the read and management APIs (issue 20): one zod schema per
// answer, from which the OpenAPI document, the serialisers' types and the dashboard's types come.
export * from './common'
export * from './operations'
export * from './reads-components'
export * from './reads-deployments'
export * from './reads-event-detail'
export * from './reads-events'
export * from './reads-issues'
export * from './reads-limits'
export * from './reads-monitors'
export * from './reads-performance'
export * from './reads-traces'
