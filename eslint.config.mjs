// ESLint for shellgate: `npm run lint` (part of `npm test`).
//
// The base is @eslint/js `recommended` plus typescript-eslint `recommended` — the syntax-only set.
// The type-checked sets (`recommendedTypeChecked`, `stylisticTypeChecked`) were tried: they double
// the run time (a full type-check) and report about a hundred findings that are mostly style
// (`prefer-optional-chain`, `no-unnecessary-type-assertion`, `prefer-string-starts-ends-with`); they
// can be switched on later, one rule at a time, when someone takes the fixes.
//
// On top of that, two rules that issue 14 asks for in src/: no nested ternaries in decisions, and
// functions that fit on a screen (80 lines, blank lines and comments not counted). A function that
// reads best whole (a dispatch switch, a table) says so where it stands:
//   // eslint-disable-next-line max-lines-per-function -- <why>

import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Globals of Node that the plain .mjs/.cjs scripts use (the `globals` package is not a dependency). */
const NODE_GLOBALS = Object.fromEntries(
  [
    'AbortController',
    'Buffer',
    'URL',
    'URLSearchParams',
    'TextDecoder',
    'TextEncoder',
    'clearImmediate',
    'clearInterval',
    'clearTimeout',
    'console',
    'fetch',
    'globalThis',
    'performance',
    'process',
    'queueMicrotask',
    'setImmediate',
    'setInterval',
    'setTimeout',
    'structuredClone',
  ].map((name) => [name, 'readonly']),
);
const COMMONJS_GLOBALS = Object.fromEntries(['module', 'exports', 'require', '__dirname', '__filename'].map((name) => [name, 'readonly']));

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'corpus/**', 'bench/results/**', 'scratch/**', '.scratch/**'] },

  js.configs.recommended,
  ...tseslint.configs.recommended,

  // Everywhere.
  {
    rules: {
      // The code matches control characters on purpose: it strips or escapes them before a command
      // or a finding reaches a terminal, and rejects NUL in rules. A regex with \x00-\x1f is the point.
      'no-control-regex': 'off',
      // A leading underscore marks a binding kept for its position or to drop a key from a rest
      // spread (`const { cwd: _cwd, ...rest } = o`); everything else that is unused is an error.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },

  // The library and CLI: the rules of issue 14.
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-nested-ternary': 'error',
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },

  // Plain JavaScript run by Node (scripts, benches, the bin launcher, tool configs).
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: { globals: NODE_GLOBALS },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...NODE_GLOBALS, ...COMMONJS_GLOBALS } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },

  // Tests, scripts and benches keep the recommended sets but not the function-length and ternary
  // rules (those apply to src/ only, above): a test's table of cases or a script's report is read
  // top to bottom, not reused.
);
