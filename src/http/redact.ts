/**
 * What logs must not show: the values of secret-looking names (`password`, `token` …) wherever
 * they travel — query parameters, GraphQL arguments written inline in a document (`password:
 * "sesame"`), GraphQL variables by their name or by the secret argument they feed
 * (`event(password: $p)` hides `$p`), and any object a library hands the logger.
 */

export const REDACTED = '[redacted]';

/** Names whose values are never logged (query parameters, arguments, fields, variables). */
const SECRET_NAME = /pass|token|secret|key|auth|session|signature/i;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * `name:` in a GraphQL document: an argument or an input object field (an alias now and then,
 * which only hides a little more). Not a variable definition (`$password: String`).
 */
const NAME_COLON = /(?<![$\w])([_A-Za-z][_0-9A-Za-z]*)\s*:\s*/g;

export interface RedactedDocument {
  text: string;
  /** Variables that feed secret arguments: their values are secrets too. */
  secretVariables: Set<string>;
}

/** The document with the inline values of secret-named arguments and fields replaced. */
export function redactDocument(document: string): RedactedDocument {
  const secretVariables = new Set<string>();
  let text = '';
  let copied = 0;
  NAME_COLON.lastIndex = 0;
  for (let m = NAME_COLON.exec(document); m; m = NAME_COLON.exec(document)) {
    if (!isSecretName(m[1]!)) continue;
    const start = NAME_COLON.lastIndex;
    if (document[start] === '$') {
      secretVariables.add(/^\$(\w+)/.exec(document.slice(start))?.[1] ?? '');
      continue;
    }
    const end = valueEnd(document, start);
    text += `${document.slice(copied, start)}"${REDACTED}"`;
    copied = end;
    NAME_COLON.lastIndex = end;
  }
  return { text: text + document.slice(copied), secretVariables };
}

/** Where the GraphQL literal starting at `start` ends: a string, a list or object, or a word. */
function valueEnd(document: string, start: number): number {
  if (document.startsWith('"""', start)) {
    const close = document.indexOf('"""', start + 3);
    return close === -1 ? document.length : close + 3;
  }
  let depth = 0;
  for (let i = start; i < document.length; i++) {
    const c = document[i]!;
    if (c === '"') {
      i = stringEnd(document, i);
      if (depth === 0) return i + 1;
    } else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}' || c === ')') {
      if (depth === 0) return i;
      depth--;
      if (depth === 0) return i + 1;
    } else if (depth === 0 && /[\s,]/.test(c)) return i;
  }
  return document.length;
}

/** The index of the quote closing the string opened at `open` (or the last index). */
function stringEnd(document: string, open: number): number {
  for (let i = open + 1; i < document.length; i++) {
    if (document[i] === '\\') i++;
    else if (document[i] === '"' || document[i] === '\n') return i;
  }
  return document.length - 1;
}

/**
 * GraphQL variables (JSON text) with the values of secret-named variables and fields, and of
 * `secretVariables`, replaced; text that is not a JSON object is hidden whole.
 */
export function redactVariables(json: string, secretVariables: ReadonlySet<string>): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return REDACTED;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return REDACTED;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(parsed)) {
    const secret = secretVariables.has(name) || isSecretName(name);
    out[name] = secret ? REDACTED : redactValue(value);
  }
  return JSON.stringify(out);
}

/**
 * A copy of any value with secret-named keys hidden, at any depth (bounded), and GraphQL
 * documents under a `query` key redacted.
 */
export function redactValue(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth > 8) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  const record = value as Record<string, unknown>;
  // GraphQL parameters: the variables that feed secret arguments of the query are secrets too.
  const document = typeof record.query === 'string' ? redactDocument(record.query) : null;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(record)) {
    if (isSecretName(key)) out[key] = REDACTED;
    else if (key === 'query' && document) out[key] = document.text;
    else if (key === 'variables' && document && item !== null && typeof item === 'object') {
      out[key] = JSON.parse(redactVariables(JSON.stringify(item), document.secretVariables));
    } else out[key] = redactValue(item, depth + 1);
  }
  return out;
}
