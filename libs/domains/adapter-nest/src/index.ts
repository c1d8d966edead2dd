export * from './lib/domains.module';
export * from './lib/domains.ports';
export * from './lib/domains.settings';
export * from './lib/domains.controller';
export * from './lib/tls-ask.controller';
export * from './lib/domains.presenter';
export * from './lib/domains.schemas';
export * from './lib/domains.request.dto';
