// `npm test`: every project's tests in one Jest run (one worker pool, one database server choice).
module.exports = {
  projects: [
    '<rootDir>/apps/*/jest.config.js',
    '<rootDir>/libs/*/jest.config.js',
    '<rootDir>/libs/*/*/jest.config.js',
    '<rootDir>/tools/*/jest.config.js',
  ],
  reporters: ['default', '<rootDir>/tools/jest/summary-reporter.js'],
  // A global option: with projects, the preset's value does not apply. Under a loaded CI machine starting an
  // app, a browser or a built server takes more than Jest's default 5 s.
  testTimeout: 30_000,
};
