/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  // Checks made in every test file (test/support/setup.ts).
  setupFiles: ['<rootDir>/test/support/setup.ts'],
  // Integration files share one database per dialect; the MySQL server is one resource.
  maxWorkers: 2,
  testTimeout: 30000,
};
