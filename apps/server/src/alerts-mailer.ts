import type { Mailer } from '@tis/ingest'
import { createTransport } from 'nodemailer'

/** The SMTP settings alert emails are sent with (`SERVICE_SMTP_*`). */
export interface SmtpSettings {
  readonly host: string
  readonly port: number
  /** TLS from the first byte (port 465); otherwise STARTTLS when the server offers it. */
  readonly secure: boolean
  /** Sign in with these when both are set. */
  readonly user?: string | null | undefined
  readonly password?: string | null | undefined
  /** The `From` address. */
  readonly from: string
}

/** Connection, greeting and socket timeouts of one SMTP exchange, in ms. */
export const SMTP_TIMEOUT_MS = 10_000

/** A {@link Mailer} that can be closed. */
export interface SmtpMailer extends Mailer {
  /** Closes pooled connections (none are kept: each message opens its own). */
  close(): void
}

/**
 * Sends alert emails over SMTP with nodemailer: one connection per message, 10 s timeouts, and
 * nothing logged (nodemailer's logger stays off, so the password never reaches a log).
 */
export function createSmtpMailer(settings: SmtpSettings): SmtpMailer {
  const auth =
    settings.user && settings.password
      ? { user: settings.user, pass: settings.password }
      : undefined
  const transport = createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    ...(auth ? { auth } : {}),
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
    logger: false,
    debug: false,
  })
  return {
    async send(email) {
      await transport.sendMail({
        from: settings.from,
        to: [...email.to],
        subject: email.subject,
        text: email.text,
        ...(email.html === undefined ? {} : { html: email.html }),
      })
    },
    close: () => transport.close(),
  }
}
