import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';

// The house rules (../shared/ARCHITECTURE.md, "Rules of the house" 2): rooms, doors, no cycles.
// Boundaries use import-x's `no-restricted-paths` rather than eslint-plugin-boundaries: the cycle
// rule already needs import-x and its TypeScript resolver, so one plugin and one resolver do
// both jobs, and a zone is a plain folder pair anyone can read without learning element types.

/** Foundation and domain rooms, lowest first: each may use the ones before it at run time. */
const ROOMS = [
  'config',
  'lib',
  'db',
  'users',
  'posts',
  'places',
  'terms',
  'events',
  'context',
  'transfer',
];
/** Transports: they call the rooms, never the reverse. */
const TRANSPORTS = [
  'src/rest',
  'src/http',
  'src/graphql',
  'src/cli',
  'src/feeds',
  'src/web',
  'src/ops',
  'resolvers',
];
/** The kernel domains see a request's context as a type only (context itself imports them). */
const KERNEL = ['users', 'posts', 'places', 'terms', 'events'];

const srcOf = (rooms) => rooms.map((room) => `src/${room}/**`);

const transportZone = {
  target: ROOMS.map((room) => `src/${room}`),
  from: TRANSPORTS,
  message: 'Domains know no transport: throw a domain error, let the transport translate it.',
};
// One door per room: code outside a room imports `src/<room>` (its index.ts), never a file
// inside it. Tests are exempt (they may poke at internals); they are not exempt from no-cycle.
const doorZones = ROOMS.map((room) => ({
  target: [`src/!(${room})/**`, 'src/*.ts', 'resolvers/**'],
  from: `src/${room}`,
  except: ['./index.ts'],
  message: `Import src/${room} through its door, src/${room}/index.ts.`,
}));

const noYoga = {
  name: 'graphql-yoga',
  message: 'Domains know no transport: Yoga lives in src/graphql and src/http.',
};
const noGraphql = {
  name: 'graphql',
  message: 'Domains know no transport: throw a DomainError (src/lib), src/graphql maps it.',
};
const contextTypesOnly = {
  regex: '(^|/)context(/|$)',
  allowTypeImports: true,
  message:
    'Domains use AppContext as a type only (`import type`): context imports the domains at run time.',
};

export default tseslint.config(
  // test/bench/shared: a verbatim copy of the shared harness (its own style).
  { ignores: ['dist/**', 'data/**', 'coverage/**', '*.js', '*.mjs', 'test/bench/shared/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // Without these, import-x skips .ts files when it follows imports (and finds no cycle).
      'import-x/extensions': ['.ts'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
    },
    rules: {
      // Type-only imports vanish at run time, so they cannot form a cycle and are ignored.
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        { basePath: import.meta.dirname, zones: [transportZone, ...doorZones] },
      ],
    },
  },
  {
    files: srcOf(ROOMS.filter((room) => !KERNEL.includes(room))),
    rules: { 'no-restricted-imports': ['error', { paths: [noYoga, noGraphql] }] },
  },
  {
    files: srcOf(KERNEL),
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [noYoga, noGraphql], patterns: [contextTypesOnly] },
      ],
    },
  },
  {
    // Transports reach the database through src/db and the domains, never Knex itself.
    files: [...TRANSPORTS.map((dir) => `${dir}/**`), 'src/main.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'knex', message: 'Transports use src/db or a domain, not Knex.' }] },
      ],
    },
  },
  {
    // Only src/config reads the environment (docs/configuration.md): everything else gets a Config.
    files: ['src/**/*.ts', 'resolvers/**/*.ts'],
    ignores: ['src/config/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read settings through src/config.' },
      ],
    },
  },
  // Plain Node scripts (the build, test fixtures' fillers).
  { files: ['**/*.mjs'], languageOptions: { globals: globals.node } },
  {
    files: ['src/main.ts', 'src/http/cluster.ts', 'src/cli/**', 'src/db/migrate-cli.ts', 'test/**'],
    rules: { 'no-console': 'off' },
  },
  // Tests read GraphQL results dynamically.
  { files: ['test/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
);
