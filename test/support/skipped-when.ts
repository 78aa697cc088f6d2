/**
 * Tests of what only some databases can show: skipped where `skipped` holds, the reason (`because`) in their
 * name, so a skipped run says what it did not check and why.
 */
export function describeSkippedWhen(skipped: boolean, name: string, because: string, fn: () => void): void {
  if (skipped) describe.skip(`${name} (${because})`, fn);
  else describe(name, fn);
}

/** One test of what only some databases can show: skipped where `skipped` holds, `because` in its name. */
export function itSkippedWhen(
  skipped: boolean,
  name: string,
  because: string,
  fn: jest.ProvidesCallback,
  timeout?: number,
): void {
  if (skipped) it.skip(`${name} (${because})`, fn, timeout);
  else it(name, fn, timeout);
}
