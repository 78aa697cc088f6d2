import { nonPublicRange, publicOnlyLookup } from './public-address';

describe('nonPublicRange', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['0.0.0.0', 'unspecified'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
  ])('%s is %s', (address, range) => {
    expect(nonPublicRange(address)).toBe(range);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) => {
    expect(nonPublicRange(address)).toBeNull();
  });
});

describe('publicOnlyLookup', () => {
  it('refuses a name that resolves to loopback, in both the single and the all form', async () => {
    for (const all of [false, true]) {
      const error = await new Promise<Error | null>((resolve) =>
        publicOnlyLookup('localhost', { all }, (e) => resolve(e)),
      );
      expect(error?.message).toMatch(/^localhost resolves to .*, a loopback address$/);
    }
  });
});
