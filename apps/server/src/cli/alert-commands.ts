import type {
  AlertChannelList,
  AlertDeliveryAnswer,
  AlertDeliveryPage,
  AlertRuleAnswer,
  AlertRuleList,
  CreatedAlertChannel,
} from '@tis/schema'
import type { Command } from './command'
import { alertChannelTable, alertDeliveryTable, alertRuleTable } from './format-alerts'
import { id, more, queryString } from './request-parts'

/** The flags of `alerts rules add` and `alerts deliveries` (sent as body fields or the query). */
export const ALERT_FLAGS = [
  'environment',
  'level',
  'threshold',
  'window-seconds',
  'quiet-seconds',
  'status',
  'limit',
  'cursor',
] as const
const RULE_NUMBERS = ['threshold', 'window-seconds', 'quiet-seconds'] as const

const path = (project: string, rest: string) => `/api/v1/projects/${id(project)}${rest}`
const needsName = (what: string) => (c: { options: { name?: string | undefined } }) =>
  c.options.name ? undefined : `${what} needs --name <name>`

/** `tis alerts channels|rules|deliveries|test`: a project's alerts. */
export const ALERT_COMMANDS: readonly Command[] = [
  {
    name: 'alerts channels list',
    args: ['<project_id>'],
    summary: "List a project's alert channels (never a webhook's secret).",
    async run({ client, args }) {
      const json = (await client.request(
        'GET',
        path(args[0]!, '/alert_channels'),
      )) as AlertChannelList
      return { json, human: () => alertChannelTable(json.alert_channels) }
    },
  },
  {
    name: 'alerts channels add',
    args: ['<project_id>', '<webhook|slack|email>', '<url_or_addresses>'],
    options: '--name <name>',
    summary:
      "Add a channel: a webhook or Slack URL, or comma-separated email addresses; prints a webhook's secret once.",
    validate: needsName('alerts channels add'),
    async run({ client, args, options }) {
      const [project, type, target] = args as [string, string, string]
      const body = {
        name: options.name,
        type,
        ...(type === 'email' ? { to: target } : { url: target }),
      }
      const json = (await client.request(
        'POST',
        path(project, '/alert_channels'),
        body,
      )) as CreatedAlertChannel
      const human = () =>
        [
          `Created ${json.alert_channel.type} channel ${json.alert_channel.name} (${json.alert_channel.id}).`,
          ...(json.secret
            ? [
                `Signing secret (shown only now): ${json.secret}`,
                'Verify X-Tis-Signature: sha256=<hex HMAC-SHA256 of the raw body> with it.',
              ]
            : []),
          '',
        ].join('\n')
      return { json, human }
    },
  },
  {
    name: 'alerts channels delete',
    args: ['<project_id>', '<channel_id>'],
    summary: 'Delete a channel: rules stop notifying it; its deliveries stay in the log.',
    async run({ client, args }) {
      const json = await client.request('DELETE', path(args[0]!, `/alert_channels/${id(args[1]!)}`))
      return { json, human: () => `Deleted channel ${args[1]}.\n` }
    },
  },
  {
    name: 'alerts rules list',
    args: ['<project_id>'],
    summary: "List a project's alert rules.",
    async run({ client, args }) {
      const json = (await client.request('GET', path(args[0]!, '/alert_rules'))) as AlertRuleList
      return { json, human: () => alertRuleTable(json.alert_rules) }
    },
  },
  {
    name: 'alerts rules add',
    args: ['<project_id>', '<trigger>', '<channel_ids>'],
    options:
      '--name <name> [--environment <e>] [--level <l>] [--threshold <n>] [--window-seconds <s>] [--quiet-seconds <s>]',
    summary:
      'Add a rule: new_issue, regression, spike, monitor_missed, monitor_failed or monitor_recovered, notifying the comma-separated channels.',
    validate: (c) => {
      const q = c.options.query ?? {}
      const bad = RULE_NUMBERS.find((f) => q[f] !== undefined && !/^\d+$/.test(q[f]!))
      return bad ? `--${bad} must be an integer` : needsName('alerts rules add')(c)
    },
    async run({ client, args, options }) {
      const [project, trigger, channels] = args as [string, string, string]
      const q = options.query ?? {}
      const number = (flag: (typeof RULE_NUMBERS)[number]) =>
        q[flag] === undefined ? {} : { [flag.replaceAll('-', '_')]: Number(q[flag]) }
      const body = {
        name: options.name,
        trigger,
        channel_ids: channels
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
        ...(q['environment'] === undefined ? {} : { environment: q['environment'] }),
        ...(q['level'] === undefined ? {} : { level: q['level'] }),
        ...number('threshold'),
        ...number('window-seconds'),
        ...number('quiet-seconds'),
      }
      const json = (await client.request(
        'POST',
        path(project, '/alert_rules'),
        body,
      )) as AlertRuleAnswer
      return { json, human: () => alertRuleTable([json.alert_rule]) }
    },
  },
  {
    name: 'alerts rules delete',
    args: ['<project_id>', '<rule_id>'],
    summary: 'Delete a rule; its deliveries stay in the log with its name.',
    async run({ client, args }) {
      const json = await client.request('DELETE', path(args[0]!, `/alert_rules/${id(args[1]!)}`))
      return { json, human: () => `Deleted rule ${args[1]}.\n` }
    },
  },
  {
    name: 'alerts deliveries',
    args: ['<project_id>'],
    options: '[--status pending|delivered|failed] [--limit <n>] [--cursor <c>]',
    summary: "A project's delivery log, newest first: status, attempts, response code, last error.",
    async run({ client, args, options }) {
      const query = queryString(['status', 'limit', 'cursor'], options.query ?? {})
      const json = (await client.request(
        'GET',
        path(args[0]!, `/alert_deliveries${query}`),
      )) as AlertDeliveryPage
      return {
        json,
        human: () => alertDeliveryTable(json.alert_deliveries) + more(json.next_cursor),
      }
    },
  },
  {
    name: 'alerts test',
    args: ['<project_id>', '<channel_id>'],
    summary: 'Send a test message to a channel; follow it with `tis alerts deliveries`.',
    async run({ client, args }) {
      const json = (await client.request(
        'POST',
        path(args[0]!, `/alert_channels/${id(args[1]!)}/test`),
      )) as AlertDeliveryAnswer
      return {
        json,
        human: () =>
          `Queued test delivery ${json.alert_delivery.id} to ${json.alert_delivery.channel_name}.\n`,
      }
    },
  },
]
