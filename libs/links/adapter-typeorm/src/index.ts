export * from './lib/links.persistence';
export * from './lib/typeorm-link.repository';
export * from './lib/typeorm-tag.repository';
export * from './lib/typeorm-visit-limits';
export * from './lib/typeorm-expiring-links';
