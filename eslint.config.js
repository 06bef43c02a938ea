// Lint: typescript-eslint's recommended rules, and the house's layout as import rules - no import
// cycles, and core folders never import the command line (src/cli) or the dashboard (src/tui).

import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const CORE = ['session', 'tokens', 'trim', 'graph', 'cost', 'store', 'analyze', 'config', 'hooks'];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', '.bench/', 'sample-sessions/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        URL: 'readonly',
        performance: 'readonly',
        queueMicrotask: 'readonly',
        structuredClone: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        AbortController: 'readonly',
        fetch: 'readonly',
        global: 'readonly',
        __dirname: 'readonly',
      },
    },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js'],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...CORE.map((dir) => ({ target: `./src/${dir}`, from: ['./src/cli', './src/tui'], message: 'core never imports the command line or the dashboard' })),
            { target: './src/errors.ts', from: ['./src/cli', './src/tui'] },
            { target: './src/tui', from: './src/cli', message: 'the dashboard shares code with the CLI through core (src/text), not src/cli' },
            { target: './src/cost', from: './src/config', message: 'cost never reads the config: the command passes what it needs (config validates against cost)' },
            {
              target: ['./src/session', './src/tokens', './src/trim'],
              from: ['./src/store', './src/analyze', './src/hooks'],
              message: 'data flows one way: reading logs, counting and trimming never reach into the store, batch analysis or the hooks',
            },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Terminal output is matched by its escape sequences (\u001b[...m) on purpose.
      'no-control-regex': 'off',
    },
  },
  {
    // Tests read JSON documents and raw API requests as they come.
    files: ['test/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
