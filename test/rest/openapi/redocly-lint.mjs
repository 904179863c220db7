// Runs Redocly's linter (@redocly/openapi-core, `recommended` rules) outside Jest, which cannot
// load this ES-module-only package on every supported Node.js. Reads `{source, rules}` as JSON
// on stdin, writes the problems as a JSON array on stdout.
import { createConfig, lintFromString } from '@redocly/openapi-core';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const { source, rules } = JSON.parse(input);
const config = await createConfig({ extends: ['recommended'], rules });
const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
process.stdout.write(
  JSON.stringify(
    problems.map((p) => ({
      ruleId: p.ruleId,
      severity: p.severity,
      message: p.message,
      pointer: p.location[0]?.pointer,
    })),
  ),
);
