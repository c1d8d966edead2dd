export * from './lib/webhooks.module';
export * from './lib/webhooks.ports';
export * from './lib/webhooks.settings';
export * from './lib/webhooks.controller';
export * from './lib/webhooks.presenter';
export * from './lib/webhooks.schemas';
export * from './lib/webhooks.request.dto';
