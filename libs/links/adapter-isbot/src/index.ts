export * from './lib/isbot-bot-detector';
