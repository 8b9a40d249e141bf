// ESLint for the whole tree. The rules are the ones that catch real bugs — unhandled promises,
// loose equality, unused code, malformed Lit templates, custom-element lifecycle mistakes — and
// leave layout to Prettier (.prettierrc.json). `npm test` runs it (test/lint.test.ts).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { configs as litConfigs } from 'eslint-plugin-lit';
import { configs as wcConfigs } from 'eslint-plugin-wc';
import globals from 'globals';

/** The browser side's sources and tests: Lit templates and custom elements live here. */
const BROWSER_FILES = [
  'src/ui/**/*.ts',
  'src/chatbot-widget/**/*.ts',
  'src/chatbot-usage/**/*.ts',
  'src/browser/**/*.ts',
  'test/chatbot-widget/**/*.ts',
  'test/chatbot-usage/**/*.ts',
  'test/helpers/browser/**/*.ts',
  'test/ui/locales/**/*.ts',
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/',
      '**/dist/',
      '.data/',
      'bench/.cache/',
      'test-results/',
      '**/.wrangler/',
      '**/.next/',
      // The widget's files, copied from the installed package by the example's [build] command.
      'examples/cloudflare-workers/public/chatbot-widget*.js',
      '**/next-env.d.ts',
      // Inputs kept byte for byte, some of which must fail to compile.
      'test/fixtures/',
    ],
  },
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node, ...globals.browser },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      eqeqeq: ['error', 'always'],
      'no-unused-vars': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        // A leading underscore marks a parameter a signature requires but this body does not use.
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // Non-null assertions follow index access under noUncheckedIndexedAccess where the index is known good.
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-console': 'off',
      // `declare global` / `declare module` augmentations (JSX, GlobalEventHandlersEventMap) need these forms.
      '@typescript-eslint/no-namespace': ['error', { allowDeclarations: true }],
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
    },
  },
  {
    // Tests read JSON bodies whose shape the assertions themselves check.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  // Type-aware rules for the TypeScript the root tsconfig.json covers.
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'demo/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts', '*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        // node:test collects and awaits the promises its registration calls return.
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }] },
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-for-in-array': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      // Passing on an abort signal's reason or a caught error as is, like fetch does, is intended.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      '@typescript-eslint/no-base-to-string': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  // One convention for classes in src/: what a class keeps to itself is an ES private name
  // (`#name`), and a constructor assigns its parameters to its fields itself (docs/architecture.md).
  {
    files: ['src/**/*.ts'],
    rules: {
      '@typescript-eslint/parameter-properties': ['error', { prefer: 'class-property' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "[accessibility='private']",
          message: "Keep it to the class with an ES private name (#name) rather than TypeScript's `private` (docs/architecture.md).",
        },
      ],
    },
  },
  // The widget: Lit templates and custom-element rules.
  {
    files: BROWSER_FILES,
    ...litConfigs['flat/recommended'],
  },
  {
    files: BROWSER_FILES,
    ...wcConfigs['flat/recommended'],
    rules: {
      ...wcConfigs['flat/recommended'].rules,
      'wc/no-closed-shadow-root': 'error',
      'wc/no-typos': 'error',
      'wc/attach-shadow-constructor': 'error',
      'wc/no-constructor-params': 'error',
      'wc/no-invalid-extends': 'error',
    },
    settings: { wc: { elementBaseClasses: ['LitElement'] } },
  },
);
