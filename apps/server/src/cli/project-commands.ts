import type { Command } from './command'
import {
  type MemberJson,
  memberTable,
  type ProjectJson,
  projectDetails,
  projectTable,
} from './format'
import { id } from './request-parts'

const projectOf = (body: unknown) => (body as { project: ProjectJson }).project

/** `tis projects create|list|show|archive|restore`: the projects you own or share. */
export const PROJECT_COMMANDS: readonly Command[] = [
  {
    name: 'projects create',
    args: ['<name>'],
    options: '--kind <integration_kind>',
    summary: 'Create a project you own.',
    validate: ({ options }) =>
      options.kind ? undefined : 'projects create needs --kind <integration_kind> (e.g. node)',
    async run({ client, args, options }) {
      const json = await client.request('POST', '/api/v1/projects', {
        project: { name: args[0], integration_kind: options.kind },
      })
      const human = (project: ProjectJson) =>
        `Created project ${project.name} (${project.integration_kind}).\n  id: ${project.id}\nNext: tis keys create ${project.id}\n`
      return { json, human: () => human(projectOf(json)) }
    },
  },
  {
    name: 'projects list',
    args: [],
    summary: 'List the projects you own or share (every project for administrators).',
    async run({ client }) {
      const json = await client.request('GET', '/api/v1/projects')
      return { json, human: () => projectTable((json as { projects: ProjectJson[] }).projects) }
    },
  },
  {
    name: 'projects show',
    args: ['<project_id>'],
    summary: 'Show one project.',
    async run({ client, args }) {
      const json = await client.request('GET', `/api/v1/projects/${id(args[0]!)}`)
      return { json, human: () => projectDetails(projectOf(json)) }
    },
  },
  {
    name: 'projects archive',
    args: ['<project_id>'],
    summary: 'Archive a project: its API keys stop working at once.',
    async run({ client, args }) {
      const json = await client.request('POST', `/api/v1/projects/${id(args[0]!)}/archive`)
      return {
        json,
        human: () => `Archived project ${projectOf(json).name}; its API keys are revoked.\n`,
      }
    },
  },
  {
    name: 'projects restore',
    args: ['<project_id>'],
    summary: 'Restore an archived project; create a new API key to ingest again.',
    async run({ client, args }) {
      const json = await client.request('POST', `/api/v1/projects/${id(args[0]!)}/restore`)
      const human = (project: ProjectJson) =>
        `Restored project ${project.name}. Create a new key: tis keys create ${project.id}\n`
      return { json, human: () => human(projectOf(json)) }
    },
  },
]

/** `tis members list|add`: who may see a project. */
export const MEMBER_COMMANDS: readonly Command[] = [
  {
    name: 'members list',
    args: ['<project_id>'],
    summary: 'List who may see a project: the owner, then members.',
    async run({ client, args }) {
      const json = await client.request('GET', `/api/v1/projects/${id(args[0]!)}/members`)
      return { json, human: () => memberTable((json as { members: MemberJson[] }).members) }
    },
  },
  {
    name: 'members add',
    args: ['<project_id>', '<email>'],
    summary: 'Share a project with an existing user.',
    async run({ client, args }) {
      const json = await client.request('POST', `/api/v1/projects/${id(args[0]!)}/members`, {
        member: { email: args[1] },
      })
      return { json, human: () => `${args[1]} is a member of project ${args[0]}.\n` }
    },
  },
]
