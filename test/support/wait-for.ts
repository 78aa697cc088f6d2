/** How a wait looks again: its deadline, and the pause between two looks. */
export interface Polling<Seen> {
  /** Past this the wait fails. */
  timeoutMs?: number;
  /** The pause before the next look; a function of the last look where what is watched says when to ask again. */
  everyMs?: number | ((seen: Seen) => number);
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What a wait saw, short enough for a failure message. */
function shown(seen: unknown): string {
  const text = typeof seen === 'string' ? seen : JSON.stringify(seen);
  return text === undefined ? String(seen) : text.length > 2000 ? `${text.slice(0, 2000)}...` : text;
}

/**
 * Looks with `look` until `done` holds for what it saw, and returns that; past the deadline (10 s unless
 * told) throws an Error that says what it waited for and what it saw last.
 */
export async function waitFor<Seen>(
  what: string,
  look: () => Seen | Promise<Seen>,
  done: (seen: Seen) => boolean,
  { timeoutMs = 10_000, everyMs = 25 }: Polling<Seen> = {},
): Promise<Seen> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const seen = await look();
    if (done(seen)) return seen;
    if (Date.now() >= deadline) throw new Error(`Waited ${timeoutMs} ms for ${what}; last saw: ${shown(seen)}`);
    await pause(typeof everyMs === 'function' ? everyMs(seen) : everyMs);
  }
}

/**
 * Waits for `event` at most `timeoutMs`; past it throws an Error that says what it waited for and, when
 * given, what `lastSeen` says then.
 */
export async function withDeadline<T>(
  what: string,
  timeoutMs: number,
  event: Promise<T>,
  lastSeen?: () => unknown,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const seen = lastSeen ? `; last saw: ${shown(lastSeen())}` : '';
      reject(new Error(`Waited ${timeoutMs} ms for ${what}${seen}`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([event, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Lets time pass that a scenario is made of (a database kept stopped, a client's pause between requests):
 * no wait for anything, so nothing to time out. `_why` names the duration, for the reader only.
 */
export function holdFor(ms: number, _why: string): Promise<void> {
  return pause(ms);
}
