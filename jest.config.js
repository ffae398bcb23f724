/** Two projects: `unit` (pure logic, beside the code) and `e2e` (HTTP against the real services). */
const common = {
  moduleFileExtensions: ['js', 'json', 'ts'],
  transform: {
    '^.+\\.ts$': 'ts-jest',
    // content-disposition@3 (via @fastify/static, Swagger UI) ships ESM only: Node loads it, Jest's loader needs it as CJS.
    '^.+\\.js$': ['ts-jest', { tsconfig: '<rootDir>/../tsconfig.jest.json' }],
  },
  transformIgnorePatterns: ['/node_modules/(?!content-disposition/)'],
  testEnvironment: 'node',
};
module.exports = {
  // Booting the app creates every index on a fresh database, and the CLI tests boot it per command
  // (on a loaded 2-core machine, seconds). (A global option: Jest ignores it per project.)
  testTimeout: 60_000,
  projects: [
    { ...common, displayName: 'unit', rootDir: 'src', testRegex: '.*\\.spec\\.ts$' },
    {
      ...common,
      displayName: 'e2e',
      rootDir: 'test',
      testRegex: '.*\\.e2e-spec\\.ts$',
      setupFiles: ['<rootDir>/support/env.ts'],
      setupFilesAfterEnv: ['<rootDir>/support/database-per-file.ts'],
    },
  ],
};
