// One lint config for the whole repository. The import rules below are the architecture's fences:
// shared/ stays pure TypeScript, the renderer never reaches into the main process or the server,
// and the server never imports client code.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import { builtinModules } from 'node:module';

const fence = (message, patterns, paths = []) => ({
  'no-restricted-imports': [
    'error',
    {
      paths: paths.map((name) => ({ name, message })),
      patterns: [{ group: patterns, message }],
    },
  ],
});

const RENDERER_FENCE =
  'The renderer talks to main only through window.tributary (shared/ipc); it never imports electron/, server/ or Node.';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', '.tsbuild/', 'bench/.out/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['shared/**/*.ts'],
    languageOptions: { globals: {} },
    rules: fence(
      'shared/ is pure TypeScript used by every side: no Node, DOM, React, Electron or side-specific code.',
      [
        'node:*',
        'electron',
        'electron/*',
        'react',
        'react-dom',
        'react-dom/*',
        '**/electron/**',
        '**/server/**',
        '**/renderer/**',
      ],
      [...builtinModules, 'electron', 'react', 'react-dom'],
    ),
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...fence(
        RENDERER_FENCE,
        ['**/electron/**', '**/server/**', 'node:*', 'electron', 'electron/*'],
        [...builtinModules, 'electron'],
      ),
    },
  },
  {
    // The renderer's floors: the shell (renderer/shell) imports every feature; features, the store,
    // the bridge and lib stand below it and never import it back. Repeats the fence above, since a
    // later block's no-restricted-imports replaces an earlier one's.
    files: ['renderer/{features,store,bridge,lib}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...builtinModules, 'electron'].map((name) => ({ name, message: RENDERER_FENCE })),
          patterns: [
            {
              group: ['**/electron/**', '**/server/**', 'node:*', 'electron', 'electron/*'],
              message: RENDERER_FENCE,
            },
            {
              regex: '^(\\.\\./)+shell(/|$)',
              message:
                'renderer/shell is the top floor (the app frame that imports every feature); nothing below imports it. Move what both need down into store/, bridge/ or lib/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: fence('The server is standalone: it never imports renderer/ or electron/ code.', [
      '**/renderer/**',
      '**/electron/**',
      'electron',
    ]),
  },
  {
    files: ['electron/**/*.ts'],
    rules: fence('The main process never imports renderer code.', ['**/renderer/**']),
  },
  prettier,
);
