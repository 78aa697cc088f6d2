import fc from 'fast-check';
import { ThrottlerStorageService } from '@nestjs/throttler';
import { RateLimitStorage } from './rate-limit.storage';

/** One call to increment, after the clock moved by `advance` ms (backwards now and then). */
const step = fc.record({
  advance: fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min: 0, max: 400 }) },
    { weight: 1, arbitrary: fc.integer({ min: -300, max: 3_000 }) },
  ),
  key: fc.constantFrom('a', 'b'),
  throttler: fc.constantFrom('default', 'burst'),
});

describe('RateLimitStorage', () => {
  let now: number;
  beforeEach(() => {
    now = 1_767_225_600_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
  });
  afterEach(() => jest.restoreAllMocks());

  it.each([
    ['with a block', 1_000],
    ['without a block', 0],
  ])("answers every increment as @nestjs/throttler's own storage does (%s)", async (_, blockDuration) => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 500, max: 2_000 }),
        fc.array(step, { minLength: 20, maxLength: 150, size: 'max' }),
        async (limit, ttl, steps) => {
          const ours = new RateLimitStorage();
          const library = new ThrottlerStorageService();
          try {
            for (const { advance, key, throttler } of steps) {
              now += advance;
              const expected = await library.increment(key, ttl, limit, blockDuration, throttler);
              expect(await ours.increment(key, ttl, limit, blockDuration, throttler)).toEqual(expected);
            }
          } finally {
            ours.onApplicationShutdown();
            library.onApplicationShutdown();
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('counts a window of thousands of hits as the library does, while it slides', async () => {
    const ours = new RateLimitStorage();
    const library = new ThrottlerStorageService();
    for (let n = 0; n < 6_000; n++) {
      now += n % 7;
      const expected = await library.increment('k', 5_000, 2_000, 5_000, 'default');
      expect(await ours.increment('k', 5_000, 2_000, 5_000, 'default')).toEqual(expected);
    }
    ours.onApplicationShutdown();
    library.onApplicationShutdown();
  });
});
