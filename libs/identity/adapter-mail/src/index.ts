export * from './lib/smtp.mailer';
export * from './lib/log.mailer';
