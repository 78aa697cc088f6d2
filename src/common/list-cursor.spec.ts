import { DomainError } from '../errors/domain-error';
import { ListCursor } from './list-cursor';

const isIdPosition = (position: unknown[]): position is [string] =>
  position.length === 1 && typeof position[0] === 'string';

const refusal = (decode: () => unknown) => {
  try {
    decode();
  } catch (error) {
    return error instanceof DomainError ? error.code : error;
  }
  return 'accepted';
};

describe('ListCursor', () => {
  const filters = { project_id: 'p1', archived: false, all: undefined };
  const cursor = ListCursor.encode('pages', filters, ['42']);

  it('gives back the position it holds, for the same list and filters in any order', () => {
    expect(ListCursor.decode(cursor, 'pages', { archived: false, project_id: 'p1' }, isIdPosition)).toEqual(['42']);
  });

  it('is opaque: URL-safe characters only', () => {
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it.each([
    ['another list', () => ListCursor.decode(cursor, 'tags', filters, isIdPosition)],
    ['other filters', () => ListCursor.decode(cursor, 'pages', { project_id: 'p2' }, isIdPosition)],
    ['a filter added', () => ListCursor.decode(cursor, 'pages', { ...filters, archived: true }, isIdPosition)],
    [
      'a position of another shape',
      () => ListCursor.decode(ListCursor.encode('pages', filters, [42]), 'pages', filters, isIdPosition),
    ],
    ['not base64url', () => ListCursor.decode('not a cursor!', 'pages', filters, isIdPosition)],
    [
      'base64url of something else',
      () => ListCursor.decode(Buffer.from('[1]').toString('base64url'), 'pages', filters, isIdPosition),
    ],
    ['too long', () => ListCursor.decode('A'.repeat(8193), 'pages', filters, isIdPosition)],
  ])('refuses a cursor for %s', (_case, decode) => {
    expect(refusal(decode)).toBe('INVALID_CURSOR');
  });
});
