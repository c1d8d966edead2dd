import { createTransport, Transporter } from 'nodemailer';
import { MailMessage, Mailer } from '@lnk/identity/domain';
import { parseUrl } from '@lnk/shared/kernel';

/** Plain-text mail through an SMTP server (SMTP_URL). */
export class SmtpMailer extends Mailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    super();
    this.transport = createTransport(smtpUrl);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text });
  }
}

/** Checks an SMTP_URL value: null when unset, the URL when it is smtp:// or smtps://. */
export function parseSmtpUrl(value: string | undefined): string | null {
  if (value === undefined || value.trim() === '') return null;
  if (!['smtp:', 'smtps:'].includes(parseUrl(value)?.protocol ?? '')) throw new Error('SMTP_URL must be an smtp:// or smtps:// URL');
  return value;
}
