import { compileNamedParameters } from './named-parameters';
import { statement } from './statement';

describe('compileNamedParameters', () => {
  it('numbers each name once, in the order of first use', () => {
    expect(compileNamedParameters('SELECT :b, :a, :b::text FROM t WHERE x = :a')).toEqual({
      text: 'SELECT $1, $2, $1::text FROM t WHERE x = $2',
      parameters: ['b', 'a'],
    });
  });

  it('leaves casts, string literals, quoted identifiers and comments alone', () => {
    const source = `SELECT x::int, ':not' AS "a:b", 'it''s :no' -- :none\n, :yes /* :nor */ FROM t WHERE a[1:2] = :yes`;
    expect(compileNamedParameters(source)).toEqual({
      text: `SELECT x::int, ':not' AS "a:b", 'it''s :no' -- :none\n, $1 /* :nor */ FROM t WHERE a[1:2] = $1`,
      parameters: ['yes'],
    });
  });

  it('refuses a positional parameter', () => {
    expect(() => compileNamedParameters('SELECT $1')).toThrow(/Positional parameter/);
  });
});

describe('statement', () => {
  const PAIR = statement<{ left: string; right: number }, never>('named_parameters_spec', 'SELECT :right, :left');

  it('puts a call’s values in the order of $n', () => {
    expect(PAIR.values({ left: 'l', right: 2 })).toEqual([2, 'l']);
  });

  it('refuses a call without a value for a name its text uses', () => {
    expect(() => PAIR.values({ left: 'l' } as never)).toThrow(
      'Statement named_parameters_spec was given no value for :right',
    );
  });
});
