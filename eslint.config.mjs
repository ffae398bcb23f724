import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '*.js', '*.mjs', 'test/client/generated/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['test/**/*.ts', 'src/**/*.spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // DESIGN §11: every outbound HTTP call goes through the guarded helper (allowed hosts, public
    // addresses, no redirects, size and time caps). Nothing else in src/ may open a request.
    files: ['src/**/*.ts'],
    ignores: ['src/common/http/outbound/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Use outboundRequest() from src/common/http/outbound/outbound-http.ts.' },
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...['http', 'https', 'node:http', 'node:https'].map((name) => ({
              name,
              importNames: ['request', 'get', 'Agent', 'globalAgent'],
              message: 'Use outboundRequest() from src/common/http/outbound/outbound-http.ts.',
            })),
            {
              name: 'undici',
              message: 'Use outboundRequest() from src/common/http/outbound/outbound-http.ts.',
            },
            {
              name: 'axios',
              message: 'Use outboundRequest() from src/common/http/outbound/outbound-http.ts.',
            },
          ],
          patterns: [
            {
              group: ['undici/*'],
              message: 'Use outboundRequest() from src/common/http/outbound/outbound-http.ts.',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          // `import * as https from 'node:https'; https.request(...)` and `require('http').get(...)`
          selector:
            'MemberExpression[object.name=/^(https?|undici)$/][property.name=/^(request|get|fetch)$/]',
          message: 'Use outboundRequest() from src/common/http/outbound/outbound-http.ts.',
        },
        {
          selector: "CallExpression[callee.name='require'][arguments.0.value=/^(node:)?(https?|undici)$/]",
          message: 'Use outboundRequest() from src/common/http/outbound/outbound-http.ts.',
        },
        {
          selector: "MemberExpression[object.name='globalThis'][property.name='fetch']",
          message: 'Use outboundRequest() from src/common/http/outbound/outbound-http.ts.',
        },
      ],
    },
  },
  {
    // The generated-client flow proves the generated types are enough: no any, no casts, no `!`.
    files: ['test/client/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-assertions': ['error', { assertionStyle: 'never' }],
      '@typescript-eslint/no-non-null-assertion': 'error',
    },
  },
);
