import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';

const SRC = join(__dirname, '..');

/** The compiler, the one place that numbers parameters. */
const COMPILER = 'database/named-parameters.ts';

/** Positional text that is no query parameter, by file and literal, each with why. */
const ALLOWED: Record<string, string> = {
  'sql-catalogue/snapshots.ts: `$${i + 1} :${name}`':
    "a snapshot's `-- Parameters:` comment, showing how PostgreSQL numbers the names; no query runs it",
};

/**
 * Each string or template literal in `source` that holds a positional parameter (`$1`) or builds one
 * (`$${i}`, `'$' + i`), as `line: literal`. A `.replace()` replacement (`'$1***@'`) is a back-reference.
 */
function positionalLiterals(fileName: string, source: string): Array<{ line: number; literal: string }> {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const found: Array<{ line: number; literal: string }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
      if (!isReplacement(node) && (hasPositional(node) || buildsPositional(node))) {
        found.push({ line: file.getLineAndCharacterOfPosition(node.getStart()).line + 1, literal: node.getText() });
      }
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

type Literal = ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | ts.TemplateExpression;

const pieces = (node: Literal): string[] =>
  ts.isTemplateExpression(node)
    ? [node.head.text, ...node.templateSpans.map((span) => span.literal.text)]
    : [node.text];

const hasPositional = (node: Literal) => pieces(node).some((text) => /\$\d/.test(text));

/** `$${n}`, or `'$' + n`: a `$` right before a value joined in. */
function buildsPositional(node: Literal): boolean {
  const beforeValues = pieces(node).slice(0, -1);
  if (ts.isTemplateExpression(node)) return beforeValues.some((text) => text.endsWith('$'));
  const parent = node.parent;
  const joined = ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.PlusToken;
  return joined && parent.left === node && node.text.endsWith('$');
}

/** The replacement argument of `x.replace(pattern, '...')` or `x.replaceAll(...)`. */
function isReplacement(node: Literal): boolean {
  const call = node.parent;
  return (
    ts.isCallExpression(call) &&
    call.arguments[1] === node &&
    ts.isPropertyAccessExpression(call.expression) &&
    ['replace', 'replaceAll'].includes(call.expression.name.text)
  );
}

describe('positionalLiterals', () => {
  it.each([
    ['a literal', `db.query('SELECT 1 FROM t WHERE id = $1', [id]);`],
    ['a template', 'db.query(`SELECT 1 FROM t WHERE id = ANY($1)`, [ids]);'],
    ['a template with values', 'db.query(`SELECT ${columns} FROM t WHERE id = $1`, [id]);'],
    ['a number built in a template', 'const p = `jsonb_to_recordset($${param}::jsonb)`;'],
    ['a number built by +', "const p = '$' + (i + 1);"],
    ['a query beside a .replace()', `db.query('SELECT $1', [name.replace(/"/g, '')]);`],
  ])('finds %s', (_, source) => {
    expect(positionalLiterals('x.ts', source)).toHaveLength(1);
  });

  it.each([
    ['a back-reference', `url.replace(/^(a):b@/, '$1***@');`],
    ['a replaceAll back-reference', `s.replaceAll(/(x)/g, '$1y');`],
    ['a named parameter and a cast', 'db.query(...named(`SELECT :id::text, $$a$$ FROM t`, { id }));'],
    ['a comment', '// `:name` becomes $1\nconst a = 1;'],
    ['a price', "const label = 'costs $' ;"],
  ])('passes %s', (_, source) => {
    expect(positionalLiterals('x.ts', source)).toEqual([]);
  });
});

describe('SQL in src/', () => {
  const found = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .map((path) => path.split('\\').join('/'))
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.spec.ts') && path !== COMPILER)
    .flatMap((path) =>
      positionalLiterals(path, readFileSync(join(SRC, path), 'utf8')).map(({ line, literal }) => ({
        key: `${path}: ${literal}`,
        where: `src/${path}:${line}: ${literal}`,
      })),
    );

  it('names its parameters: no positional $n, typed or built, outside the compiler', () => {
    expect(found.filter(({ key }) => !(key in ALLOWED)).map(({ where }) => where)).toEqual([]);
  });

  it('allows only what is still there', () => {
    const present = new Set(found.map(({ key }) => key));
    expect(Object.keys(ALLOWED).filter((allowed) => !present.has(allowed))).toEqual([]);
  });
});
