/** Deeper than any body of ours; also keeps recursive code downstream from overflowing the stack. */
export const MAX_DEPTH = 32;

/** NUL and unpaired surrogates: PostgreSQL cannot store them in text or jsonb. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this pattern looks for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Keys that name Object.prototype's members; class-transformer drops them silently, so we refuse them first. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'prototype', ...Object.getOwnPropertyNames(Object.prototype)]);

export type BodyProblem =
  | { kind: 'too-deep'; path: string }
  | { kind: 'prototype-key'; path: string }
  | { kind: 'unstorable-text'; path: string };

/**
 * The first thing in a parsed JSON value that no DTO check can be trusted with, walking iteratively
 * (a hostile body may nest thousands of levels): excessive depth, prototype keys, unstorable text.
 */
export function findBodyProblem(body: unknown): BodyProblem | undefined {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: body, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      if (UNSTORABLE.test(value)) return { kind: 'unstorable-text', path: path || '(body)' };
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_DEPTH) return { kind: 'too-deep', path };
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
  }
}
