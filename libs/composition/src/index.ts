// The composition root, shared by the apps (api, cli, the webhooks' worker): the settings read once into
// AppConfig, every context's ports bound to adapters, the Nest modules that hold them, the persistence list.
export * from './lib/config/app-config';
export { APP_CONFIG, LOGGER, ConfigModule } from './lib/config/config.module';
export { deriveKey, KEY_PURPOSES, secretKeyOf } from './lib/config/secret-key';
export { composeContexts, openBus, type Contexts, type Domains } from './lib/composition/contexts.composition';
export { CONTEXTS, ContextsModule } from './lib/composition/contexts.module';
export type { ClosableLoginThrottle, Identity } from './lib/composition/identity.composition';
export { DatabaseModule } from './lib/database/database.module';
export { PERSISTENCE_MODULES } from './lib/database/persistence-modules';
export { DeliveryWorkerModule } from './lib/worker/delivery-worker.module';
