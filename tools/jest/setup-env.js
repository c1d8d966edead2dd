// Loaded before every test file: Nest and TypeORM need the metadata polyfill, and tests keep
// bcrypt cheap unless a test asks for more.
require('reflect-metadata');
process.env.LOG_LEVEL ??= 'silent';
