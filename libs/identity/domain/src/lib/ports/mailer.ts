export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends e-mail (SMTP), or writes it to the log where no mail server is configured. */
export abstract class Mailer {
  abstract send(message: MailMessage): Promise<void>;
}
