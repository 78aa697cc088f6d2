import type { Response } from 'supertest';
import { CATALOGUE, ErrorCode } from '../../src/errors/catalogue';

/** Asserts the contract's error body for a catalogue entry, and optionally what its message names. */
export function expectError(res: Response, code: ErrorCode, message?: string | RegExp): void {
  const { status, sec } = CATALOGUE[code];
  expect({ status: res.status, code: res.body?.error?.code, sec: res.body?.error?.sec }).toEqual({
    status,
    code: status,
    sec,
  });
  expect(res.body.error.id).toMatch(/^[0-9a-f-]{36}$/);
  expect(Math.abs(res.body.error.date - Date.now())).toBeLessThan(60_000);
  expect(res.body.error.message).toEqual(expect.any(String));
  if (message !== undefined) expect(res.body.error.message).toMatch(message);
}
