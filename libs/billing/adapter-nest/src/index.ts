export * from './lib/billing.module';
export * from './lib/billing.ports';
export * from './lib/billing.settings';
export * from './lib/billing.controller';
export * from './lib/billing.presenter';
export * from './lib/billing.schemas';
export * from './lib/billing.request.dto';
