import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'coverage/**', '*.js', '*.mjs'] },
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
    files: ['src/main.ts', 'src/http/cluster.ts', 'src/cli/**', 'src/db/migrate-cli.ts', 'test/**'],
    rules: { 'no-console': 'off' },
  },
  // Tests read GraphQL results dynamically.
  { files: ['test/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
);
