/** Two projects: `unit` (pure logic, beside the code) and `e2e` (HTTP against the real services). */
const common = {
  moduleFileExtensions: ['js', 'json', 'ts'],
  transform: { '^.+\\.ts$': 'ts-jest' },
  testEnvironment: 'node',
};
module.exports = {
  projects: [
    { ...common, displayName: 'unit', rootDir: 'src', testRegex: '.*\\.spec\\.ts$' },
    {
      ...common,
      displayName: 'e2e',
      rootDir: 'test',
      testRegex: '.*\\.e2e-spec\\.ts$',
      setupFiles: ['<rootDir>/support/env.ts'],
    },
  ],
};
