export * from './lib/typeorm-domain.repository';
