import fs from 'node:fs';
import path from 'node:path';

/** The folder holding package.json, whether we run from `src/` (tests, tsx) or `dist/src/`. */
function findProjectRoot(start: string): string {
  let dir = start;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`package.json not found above ${start}`);
    dir = parent;
  }
  return dir;
}

const projectRoot = findProjectRoot(__dirname);
export const schemaDir = path.join(projectRoot, 'schema');
