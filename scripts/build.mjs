// Transpile-only build: src/, resolvers/ and migrations/ → dist/ in the layout tsc gave
// (dist/src/main.js, dist/migrations/*.js), plus the web page's static files. Type-checking is
// a separate step (`npm run typecheck`). esbuild turns the ~160 files around in well under a
// second, and the staleness check costs milliseconds, so `npm start`, the CLI and the migration
// scripts check on every run and never run code older than its sources.
//
//   node scripts/build.mjs             build everything
//   node scripts/build.mjs --if-stale  build only when an input is newer than the last build
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'dist');
const stampFile = path.join(outDir, '.build-stamp');
const sourceDirs = ['src', 'resolvers', 'migrations'];
const staticDir = path.join('src', 'web', 'static');
// A change to one of these may change the output too.
const buildInputs = ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.mjs'];

/** Paths below `base/dir`, relative to `base`, children before their folder. */
function walk(base, dir, into = []) {
  for (const entry of fs.readdirSync(path.join(base, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(base, rel, into);
    into.push(rel);
  }
  return into;
}

function mtime(file) {
  return fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs;
}

/** Output path of a source, relative to dist/. */
const outputOf = (rel) => rel.replace(/\.ts$/, '.js');
const isEntry = (rel) => rel.endsWith('.ts') && !rel.endsWith('.d.ts');

/**
 * Stale: no build yet, an input saved since, or an output gone. Folders count as inputs:
 * deleting or renaming a source changes its folder's mtime.
 */
function isStale(sources) {
  const built = mtime(stampFile);
  if (built === undefined) return true;
  const inputs = [...buildInputs, ...sourceDirs, ...sources];
  if (inputs.some((rel) => (mtime(path.join(root, rel)) ?? 0) > built)) return true;
  return sources.some((rel) => isEntry(rel) && !fs.existsSync(path.join(outDir, outputOf(rel))));
}

/** Removes what a deleted source left in dist/ (a stale compiled migration would still run). */
function removeOrphans(expected) {
  for (const dir of sourceDirs) {
    if (!fs.existsSync(path.join(outDir, dir))) continue;
    for (const rel of walk(outDir, dir)) {
      const target = path.join(outDir, rel);
      if (fs.statSync(target).isDirectory()) {
        if (fs.readdirSync(target).length === 0) fs.rmdirSync(target);
      } else if (!expected.has(rel)) fs.rmSync(target);
    }
  }
}

async function build(sources) {
  const started = new Date();
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    console.error('The build needs esbuild, a devDependency: run `npm install` first.');
    process.exit(1);
  }
  const isFile = (rel) => fs.statSync(path.join(root, rel)).isFile();
  const statics = sources.filter((rel) => rel.startsWith(staticDir + path.sep) && isFile(rel));
  const entries = sources.filter((rel) => isEntry(rel) && !statics.includes(rel));
  // esbuild prints what failed (file, line, column); a failed build leaves the stamp alone.
  await esbuild
    .build({
      absWorkingDir: root,
      entryPoints: entries,
      outbase: '.',
      outdir: 'dist',
      bundle: false,
      format: 'cjs',
      platform: 'node',
      target: 'node22', // the oldest Node line package.json's engines admit
      // Read for the settings that change emitted code: strict mode, class fields.
      tsconfig: 'tsconfig.build.json',
      logLevel: 'warning',
    })
    .catch(() => process.exit(1));
  for (const rel of statics) {
    fs.mkdirSync(path.dirname(path.join(outDir, rel)), { recursive: true });
    fs.copyFileSync(path.join(root, rel), path.join(outDir, rel));
  }
  removeOrphans(new Set([...entries.map(outputOf), ...statics]));
  // Stamped with the start time: a file saved while the build ran makes the next check build.
  fs.writeFileSync(stampFile, `${started.toISOString()}\n`);
  fs.utimesSync(stampFile, started, started);
  console.error(
    `Built ${entries.length} files into dist/ in ${Date.now() - started.getTime()} ms.`,
  );
}

const sources = sourceDirs.flatMap((dir) => walk(root, dir));
if (!process.argv.includes('--if-stale') || isStale(sources)) await build(sources);
