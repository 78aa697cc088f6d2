/** Deeper than any body of ours; also keeps recursive code downstream from overflowing the stack. */
export const MAX_DEPTH = 32;

/** NUL and unpaired surrogates: PostgreSQL cannot store them in text or jsonb. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this pattern looks for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * What the OpenAPI document says of every free-text field: no NUL. (Unpaired surrogates, also refused,
 * cannot be written in a pattern every tool reads; the field descriptions say so.)
 */
export const STORABLE_TEXT_PATTERN = '^[^\\u0000]*$';

/** Keys that name Object.prototype's members; class-transformer drops them silently, so we refuse them first. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'prototype', ...Object.getOwnPropertyNames(Object.prototype)]);

export type BodyProblem =
  | { kind: 'too-deep'; path: string }
  | { kind: 'prototype-key'; path: string }
  | { kind: 'unstorable-text'; path: string }
  | { kind: 'too-many-items'; path: string; count: number; max: number };

/**
 * The first thing in a parsed JSON value that no DTO check can be trusted with, walking iteratively
 * (a hostile body may nest thousands of levels): excessive depth, prototype keys, unstorable text,
 * and, given `maxItems`, a list longer than that, refused by its length before any of its items is looked at.
 */
export function findBodyProblem(body: unknown, { maxItems = Infinity } = {}): BodyProblem | undefined {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: body, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      if (UNSTORABLE.test(value)) return { kind: 'unstorable-text', path: path || '(body)' };
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_DEPTH) return { kind: 'too-deep', path };
    if (Array.isArray(value) && value.length > maxItems)
      return { kind: 'too-many-items', path: path || '(body)', count: value.length, max: maxItems };
    for (const key of Object.keys(value)) {
      const childPath = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      if (PROTOTYPE_KEYS.has(key)) return { kind: 'prototype-key', path: childPath };
      if (UNSTORABLE.test(key)) return { kind: 'unstorable-text', path: childPath };
      stack.push({ value: (value as Record<string, unknown>)[key], path: childPath, depth: depth + 1 });
    }
  }
  return undefined;
}

/** A BodyProblem as one sentence naming where it is. */
export function describeBodyProblem(problem: BodyProblem): string {
  switch (problem.kind) {
    case 'too-deep':
      return `${problem.path || 'The body'} is nested deeper than ${MAX_DEPTH} levels`;
    case 'prototype-key':
      return `Field ${problem.path} is not allowed`;
    case 'unstorable-text':
      return `${problem.path} contains a NUL character or an unpaired surrogate`;
    case 'too-many-items':
      return tooManyItems(problem.path, problem.count, problem.max);
  }
}

/** The one wording for a list past its limit, whichever check finds it. */
export const tooManyItems = (path: string, count: number, max: number) =>
  `${path} has ${count} entries; at most ${max} are accepted, duplicates included`;
