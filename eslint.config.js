import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import boundaries from 'eslint-plugin-boundaries';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

// Import directions (docs/decisions/018): the elements of each side and what each may import.
const sameSide = { side: '{{ from.element.captured.side }}' };
const common = { to: { element: { type: 'common' } } };
const sharedOfSide = { to: { element: { type: 'shared', captured: sameSide } } };
/** Another feature, through its public entry only. */
const featureEntry = {
  to: { element: { type: 'feature', captured: sameSide, fileInternalPath: 'index.ts' } },
};

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'drizzle/',
      'data/',
      'test-results/',
      'playwright-report/',
      '.data-*/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Two folders up or more: through the package's `#` imports instead (package.json "imports",
    // docs/decisions/019). `./x` and `../x` stay relative.
    files: ['src/**/*.{ts,tsx}', 'tests/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./){2,}',
              message: 'Import through #common/*.js, #server/*.js or #client/*.ts(x) (docs/decisions/019).',
            },
          ],
        },
      ],
    },
  },
  {
    // drizzle-orm's values come through src/server/db/drizzle.ts, which loads its CommonJS build (one copy, and
    // none of the ES build's per-module package.json reads: docs/decisions/002). Types may come from drizzle-orm.
    files: ['src/**/*.{ts,tsx}', 'tests/**/*.ts'],
    ignores: ['src/server/db/drizzle.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^drizzle-orm(/|$)',
              allowTypeImports: true,
              message: "Import drizzle-orm's values from #server/db/drizzle.js (docs/decisions/002).",
            },
          ],
        },
      ],
    },
  },
  {
    // The verifier and the witness are compiled on their own to dist/verifier and dist/witness
    // (tsconfig.verifier.json, tsconfig.witness.json), where the package's `#` imports do not lead: they
    // reach src/common by relative paths.
    files: ['src/verifier/**/*.ts', 'src/witness/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^#',
              message: 'Import common by a relative path (../common/...): see tsconfig.verifier.json.',
            },
          ],
        },
      ],
    },
  },
  {
    // No import cycles anywhere in src/ (docs/decisions/032): a feature that needs another's use-case imports its
    // entry, and the other never imports it back. The same resolver as the boundaries below (the `#` imports,
    // NodeNext `./x.js` to x.ts). Type-only imports are skipped: they vanish at run time.
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // The TypeScript preset's extensions and parser, so the rule follows imports into .ts and .tsx files.
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // A server feature's entry offers use-cases and named reads from its services, never its repository's
    // queries (docs/decisions/032): a row write another feature could call would bypass the owner's rules.
    files: ['src/server/features/*/index.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['ImportDeclaration', 'ExportNamedDeclaration', 'ExportAllDeclaration'].map((node) => ({
          selector: `${node}[source.value=/-repository\\.js$/]`,
          message:
            "An entry offers its feature's use-cases and reads through a service, not its repository (docs/decisions/032).",
        })),
      ],
    },
  },
  {
    // common imports neither side; a side's shared code (lib, components, db, plugins, media, payments) imports
    // no feature and no app; a feature imports another feature only through its index.ts; the app (router and
    // layout, app.ts, main.ts, scripts) imports features through their index.ts, and the router their pages/
    // (each a lazy chunk). The server's demo imports features through their index.ts and only the app imports it
    // (docs/decisions/034). The server and the client never import each other. Tests are outside the zones.
    files: ['src/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      // Resolves the server's NodeNext `./x.js` to x.ts, the client's extensionless imports, and the `#` imports
      // of package.json (docs/decisions/019).
      'import/resolver': { typescript: { project: 'tsconfig.json' } },
      // First match wins: the feature and app folders before the rest of each side.
      'boundaries/elements': [
        { type: 'common', pattern: 'src/common', partialMatch: false },
        // The independent verifier: trusts nothing of the server's, so it may import only common.
        { type: 'verifier', pattern: 'src/verifier', partialMatch: false },
        // The witness (docs/decisions/026): an outside party's program, so it too imports only common.
        { type: 'witness', pattern: 'src/witness', partialMatch: false },
        { type: 'feature', pattern: 'src/*/features/*', capture: ['side', 'feature'], partialMatch: false },
        { type: 'app', pattern: 'src/*/{app,scripts}', capture: ['side'], partialMatch: false },
        // The demo's content and seed (docs/decisions/034): a client of the features, which know nothing of it.
        { type: 'demo', pattern: 'src/server/demo', partialMatch: false },
        { type: 'shared', pattern: 'src/*/*', capture: ['side', 'folder'], partialMatch: false },
        // What sits at a side's root: app.ts, main.ts and config.ts; main.tsx and prerender-home.tsx.
        { type: 'app', pattern: 'src/*', capture: ['side'], partialMatch: false },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            { from: { element: { type: 'common' } }, allow: [common] },
            { from: { element: { type: 'verifier' } }, allow: [common] },
            { from: { element: { type: 'witness' } }, allow: [common] },
            { from: { element: { type: 'shared' } }, allow: [common, sharedOfSide] },
            { from: { element: { type: 'feature' } }, allow: [common, sharedOfSide, featureEntry] },
            {
              from: { element: { type: 'demo' } },
              allow: [
                common,
                { to: { element: { type: 'shared', captured: { side: 'server' } } } },
                {
                  to: {
                    element: { type: 'feature', captured: { side: 'server' }, fileInternalPath: 'index.ts' },
                  },
                },
                { to: { element: { type: 'demo' } } },
              ],
            },
            {
              from: { element: { type: 'app' } },
              allow: [
                common,
                sharedOfSide,
                featureEntry,
                { to: { element: { type: 'app', captured: sameSide } } },
                { to: { element: { type: 'demo', fileInternalPath: 'index.ts' } } },
                {
                  to: {
                    element: { type: 'feature', captured: { side: 'client' }, fileInternalPath: 'pages/*' },
                  },
                },
              ],
            },
          ],
        },
      ],
    },
  },
);
