export * from './lib/model/plan';
export * from './lib/model/subscription';
export * from './lib/ports/billing.ports';
export * from './lib/use-cases/billing.use-cases';
export * from './lib/use-cases/account.use-cases';
