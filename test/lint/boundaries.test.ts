import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The house rules hold because lint says so (docs/architecture.md, "Rules the build enforces"):
 * probe files that break each rule make ESLint report exactly that rule, and the real tree reports
 * none of them.
 */

const root = path.join(__dirname, '..', '..');
const HOUSE_RULES = new Set([
  'import-x/no-cycle',
  'import-x/no-restricted-paths',
  'no-restricted-imports',
]);

interface Finding {
  file: string;
  line: number;
  rule: string | null;
  message: string;
}

/**
 * ESLint's Node API (`new ESLint().lintFiles`), run in a child Node process: the flat config is
 * an ES module, which Jest's CommonJS sandbox cannot import.
 */
async function lint(patterns: string[]): Promise<Finding[]> {
  const program = `
    const { ESLint } = await import('eslint');
    const results = await new ESLint({ cwd: process.cwd() }).lintFiles(JSON.parse(process.argv[1]));
    const findings = results.flatMap((r) =>
      r.messages.map((m) => ({ file: r.filePath, line: m.line, rule: m.ruleId, message: m.message })),
    );
    process.stdout.write(JSON.stringify(findings));
  `;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', program, JSON.stringify(patterns)],
    { cwd: root, maxBuffer: 64 * 1024 * 1024 },
  );
  return (JSON.parse(stdout) as Finding[]).map((f) => ({
    ...f,
    file: path.relative(root, f.file),
  }));
}

/** Probe files, named so a stray one is easy to spot (and removed in afterAll). */
const PREFIX = `zz-lint-probe-${process.pid}`;
const PROBES: Record<string, string> = {
  // A domain importing a transport.
  [`src/events/${PREFIX}-transport.ts`]: `import { ROUTES } from '../rest/routes';\n\nexport const routeCount = ROUTES.length;\n`,
  // A domain importing Yoga, and the request context at run time.
  [`src/terms/${PREFIX}-yoga.ts`]: [
    `import { createYoga } from 'graphql-yoga';`,
    `import { createContext } from '../context';`,
    ``,
    `export const parts = [createYoga, createContext];`,
    ``,
  ].join('\n'),
  // Another room's internals instead of its door.
  [`src/places/${PREFIX}-door.ts`]: `import { listEvents } from '../events/queries';\n\nexport const list = listEvents;\n`,
  // A transport importing Knex.
  [`src/rest/${PREFIX}-knex.ts`]: `import knex from 'knex';\n\nexport const factory = knex;\n`,
  // Two files importing each other.
  [`src/users/${PREFIX}-cycle-a.ts`]: `import { b } from './${PREFIX}-cycle-b';\n\nexport const a = (): number => b() + 1;\n`,
  [`src/users/${PREFIX}-cycle-b.ts`]: `import { a } from './${PREFIX}-cycle-a';\n\nexport const b = (): number => a() - 1;\n`,
};

describe('lint keeps the house', () => {
  let findings: Finding[] = [];

  beforeAll(async () => {
    for (const [file, text] of Object.entries(PROBES))
      fs.writeFileSync(path.join(root, file), text);
    try {
      findings = await lint(['src', 'resolvers', 'test', 'migrations']);
    } finally {
      for (const file of Object.keys(PROBES)) fs.rmSync(path.join(root, file), { force: true });
    }
  }, 180_000);

  afterAll(() => {
    for (const file of Object.keys(PROBES)) fs.rmSync(path.join(root, file), { force: true });
  });

  const probe = (suffix: string): Finding[] =>
    findings.filter((f) => f.file.includes(`${PREFIX}-${suffix}`));

  it('stops a domain importing a transport', () => {
    expect(probe('transport')).toEqual([
      expect.objectContaining({
        rule: 'import-x/no-restricted-paths',
        line: 1,
        message: expect.stringContaining('Domains know no transport'),
      }),
    ]);
  });

  it('stops a kernel domain importing Yoga, or the request context at run time', () => {
    expect(probe('yoga')).toEqual([
      expect.objectContaining({
        rule: 'no-restricted-imports',
        line: 1,
        message: expect.stringContaining('graphql-yoga'),
      }),
      expect.objectContaining({
        rule: 'no-restricted-imports',
        line: 2,
        message: expect.stringContaining('AppContext as a type only'),
      }),
    ]);
  });

  it('stops code outside a room importing past its door', () => {
    expect(probe('door')).toEqual([
      expect.objectContaining({
        rule: 'import-x/no-restricted-paths',
        line: 1,
        message: expect.stringContaining('through its door, src/events/index.ts'),
      }),
    ]);
  });

  it('stops a transport importing Knex', () => {
    expect(probe('knex')).toEqual([
      expect.objectContaining({ rule: 'no-restricted-imports', line: 1 }),
    ]);
  });

  it('stops an import cycle, from either end', () => {
    for (const end of ['cycle-a', 'cycle-b']) {
      expect(probe(end)).toEqual([expect.objectContaining({ rule: 'import-x/no-cycle', line: 1 })]);
    }
  });

  it('finds no boundary or cycle problem in the real tree', () => {
    const real = findings.filter((f) => !f.file.includes(PREFIX) && HOUSE_RULES.has(f.rule ?? ''));
    expect(real).toEqual([]);
  });
});
