export * from './lib/internal-addresses';
export * from './lib/node-destination.guard';
export * from './lib/http-webhook.sender';
export * from './lib/standard-webhooks.signer';
export * from './lib/servers-lookup';
