import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/**
 * Import boundaries are the point here: `shared` imports neither app, the web app never imports
 * server code, and the server never imports the web app.
 */
const boundary = (group, message) => ['error', { patterns: [{ group, message }] }];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['packages/shared/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': boundary(
        ['@gradewise/server*', '@gradewise/web*', '**/apps/**'],
        'packages/shared must not import either app.',
      ),
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': boundary(
        ['@gradewise/server*', '**/apps/server/**', '**/server/src/**'],
        'The web app never imports server code.',
      ),
    },
  },
  {
    files: ['apps/server/**/*.ts'],
    rules: {
      'no-restricted-imports': boundary(
        ['@gradewise/web*', '**/apps/web/**', '**/web/src/**'],
        'The server never imports web code.',
      ),
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
