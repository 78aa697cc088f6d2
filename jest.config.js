/** e2e and service specs (test/) and unit specs (src/) in one run, on a real PostgreSQL started in global setup. */
module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  testMatch: [
    '<rootDir>/test/**/*.e2e-spec.ts',
    '<rootDir>/test/**/*.service-spec.ts',
    '<rootDir>/test/**/*.spec.ts',
    '<rootDir>/src/**/*.spec.ts',
  ],
  // Type checking is `npm run typecheck` (part of `npm test`); here we only transpile, fast.
  transform: { '^.+\\.[tj]s$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }] },
  // fractional-indexing ships ES modules only; transpile it like our own code.
  transformIgnorePatterns: ['/node_modules/(?!fractional-indexing/)'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 30000,
  maxWorkers: 2,
  // A worker that has run dozens of apps holds some 800 MB, and on a busy machine ending it takes longer than
  // jest's 500 ms: jest then calls it a leak. A worker that a handle keeps alive outlives 5 s as well.
  workerGracefulExitTimeout: 5000,
};
