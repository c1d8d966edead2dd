export * from './lib/model/domain-name';
export * from './lib/model/domain.entity';
export * from './lib/ports/domain.ports';
export * from './lib/use-cases/domains.use-cases';
