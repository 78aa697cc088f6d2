/** A statement's text as PostgreSQL takes it: `:name` replaced by `$n`, and the names in the order of n. */
export interface CompiledText {
  text: string;
  parameters: string[];
}

/**
 * Compiles `:name` parameters to PostgreSQL's `$n`, one number per name however often it is used. A
 * cast (`::text`), a string literal (`':webhooks'`), a quoted identifier and a comment are left as they
 * are. The only place in src/ that numbers parameters.
 */
export function compileNamedParameters(source: string): CompiledText {
  const parameters: string[] = [];
  let text = '';
  let at = 0;
  while (at < source.length) {
    const skipped = skipQuotedOrComment(source, at);
    if (skipped > at) {
      text += source.slice(at, skipped);
      at = skipped;
      continue;
    }
    const name =
      source[at] === ':' && !/[:\w]/.test(source[at - 1] ?? '') ? /^[A-Za-z_]\w*/.exec(source.slice(at + 1)) : null;
    if (name) {
      let index = parameters.indexOf(name[0]);
      if (index < 0) index = parameters.push(name[0]) - 1;
      text += `$${index + 1}`;
      at += 1 + name[0].length;
    } else {
      if (source[at] === '$' && /\d/.test(source[at + 1] ?? '')) throw new Error(`Positional parameter in: ${source}`);
      text += source[at];
      at += 1;
    }
  }
  return { text, parameters };
}

/** Where the string literal, quoted identifier or comment starting at `at` ends (`at` itself when none starts). */
function skipQuotedOrComment(source: string, at: number): number {
  const quote = source[at];
  if (quote === "'" || quote === '"') {
    let end = at + 1;
    while (end < source.length) {
      if (source[end] === quote) {
        if (source[end + 1] !== quote) return end + 1;
        end += 1; // a doubled quote is one quote character
      }
      end += 1;
    }
    return source.length;
  }
  if (source.startsWith('--', at)) {
    const end = source.indexOf('\n', at);
    return end < 0 ? source.length : end;
  }
  if (source.startsWith('/*', at)) {
    const end = source.indexOf('*/', at + 2);
    return end < 0 ? source.length : end + 2;
  }
  return at;
}

/**
 * A one-off query (the import, the export, the CLI, which run on TypeORM or a bare pg client) with named
 * parameters, as the text and values those query functions take: `db.query(...named(sql, { teamId }))`.
 */
export function named(source: string, params: Record<string, unknown>): [text: string, values: unknown[]] {
  const { text, parameters } = compileNamedParameters(source);
  return [text, valuesInOrder(parameters, params, source)];
}

/** A call's values in the order of `$n`; a name without a value (undefined) is refused, naming `what`. */
export function valuesInOrder(parameters: readonly string[], params: object, what: string): unknown[] {
  return parameters.map((name) => {
    const value = (params as Record<string, unknown>)[name];
    if (value === undefined) throw new Error(`${what} was given no value for :${name}`);
    return value;
  });
}
