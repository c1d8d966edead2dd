import { MailMessage, Mailer } from '@lnk/identity/domain';

/** Where no mail server is configured (local use): the message goes to the log instead. */
export class LogMailer extends Mailer {
  constructor(private readonly log: (entry: MailMessage) => void) {
    super();
  }

  async send(message: MailMessage): Promise<void> {
    this.log({ to: message.to, subject: message.subject, text: message.text });
  }
}
