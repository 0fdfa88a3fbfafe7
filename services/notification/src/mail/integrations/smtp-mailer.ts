import nodemailer from 'nodemailer';
import { MailDeliveryError, type Mailer, type OutgoingMail } from '../domain/mail-types';

export interface SmtpMailerOptions {
  /** smtp://[user:pass@]host[:port] (STARTTLS when the server offers it) or smtps://… (TLS) */
  url: string;
  from: string;
  replyTo?: string;
  timeoutMs: number;
}

/** nodemailer's transport options from an SMTP URL (credentials may be percent-encoded). */
export function transportOptions(url: string, timeoutMs: number) {
  const u = new URL(url);
  if (u.protocol !== 'smtp:' && u.protocol !== 'smtps:')
    throw new Error(`SMTP_URL must start with smtp:// or smtps:// (got ${u.protocol})`);
  const secure = u.protocol === 'smtps:';
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : secure ? 465 : 587,
    secure,
    auth: u.username
      ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) }
      : undefined,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
  };
}

/** The domain of the sender address (for Message-IDs). */
export function senderDomain(from: string): string {
  return /@([^\s>]+)\s*>?\s*$/.exec(from)?.[1] ?? 'localhost';
}

/**
 * Sends over SMTP with nodemailer, one connection per mail (mail volume is small and an SMTP
 * outage then costs nothing between attempts). SMTP 5xx answers (except 503) are permanent:
 * retrying the same mail would be refused again; other answers are temporary; no answer at all
 * means the server is unreachable.
 */
export function createSmtpMailer(opts: SmtpMailerOptions): Mailer {
  const transport = nodemailer.createTransport(transportOptions(opts.url, opts.timeoutMs));
  return {
    async send(mail: OutgoingMail) {
      try {
        const info = await transport.sendMail({
          from: opts.from,
          to: mail.to,
          replyTo: opts.replyTo || undefined,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: mail.messageId,
          headers: {
            // RFC 3834: no vacation replies to an automatic mail
            'Auto-Submitted': 'auto-generated',
            'X-Auto-Response-Suppress': 'All',
            'Content-Language': mail.language,
          },
        });
        return { response: String(info.response ?? '') };
      } catch (err) {
        const e = err as { message?: string; responseCode?: number };
        const code = e.responseCode;
        const failure =
          typeof code !== 'number'
            ? 'unreachable'
            : code >= 500 && code !== 503
              ? 'permanent'
              : 'temporary';
        throw new MailDeliveryError(e.message ?? String(err), failure);
      }
    },
    async verify() {
      await transport.verify();
    },
    close() {
      transport.close();
    },
  };
}
