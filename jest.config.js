// `npm test`: every project's tests in one Jest run (one worker pool, one database server choice).
module.exports = {
  projects: ['<rootDir>/apps/*/jest.config.js', '<rootDir>/libs/*/*/jest.config.js', '<rootDir>/tools/*/jest.config.js'],
  reporters: ['default', '<rootDir>/tools/jest/summary-reporter.js'],
};
