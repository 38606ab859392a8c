import { type AlertMessageSource, alertFacts, alertText } from './message'

/** One email to send through the {@link Mailer} port. */
export interface AlertEmail {
  readonly to: readonly string[]
  readonly subject: string
  readonly text: string
  readonly html?: string
}

/** Sends email (SMTP in the reference server); rejects when the server did not accept it. */
export interface Mailer {
  send(email: AlertEmail): Promise<void>
}

const escapeHtml = (s: string) =>
  s
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')

/** Subject lines stay on one line and within what mail clients show. */
const SUBJECT_MAX = 200

/**
 * A delivery as an email: the one-line text as subject (line breaks folded, clipped), a
 * plain-text body of label/value lines, and the same facts as a simple HTML table.
 */
export function alertEmail(source: AlertMessageSource, to: readonly string[]): AlertEmail {
  const text = alertText(source)
  const subject = Array.from(`[tis] ${text.replace(/\s+/g, ' ')}`)
    .slice(0, SUBJECT_MAX)
    .join('')
  const facts = alertFacts(source)
  const body = [
    text,
    '',
    ...facts.map(([label, value]) => `${label}: ${value}`),
    '',
    `Delivery ${source.id}`,
  ]
  const rows = facts
    .map(
      ([label, value]) =>
        `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
    )
    .join('')
  const html = `<p>${escapeHtml(text)}</p><table>${rows}</table><p><small>Delivery ${source.id}</small></p>`
  return { to, subject, text: `${body.join('\n')}\n`, html }
}
