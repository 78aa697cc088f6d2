import { withDeadline } from '../support/wait-for';

/** A spawned process whose output a failing step shows: a ServerProcess, or a child a spec spawned itself. */
export interface Printing {
  output(): string;
}

/** Runs `fn` as the step `name`, failing it past `deadlineMs`. */
export type Step = <T>(name: string, deadlineMs: number, fn: () => Promise<T>) => Promise<T>;

/**
 * Steps for a spec that drives spawned processes (`processes()`, those it started so far): a step that
 * throws or outlasts its deadline fails with an Error that names it and ends with what each process printed,
 * so a hung test says which step waited instead of running into Jest's timeout.
 */
export function stepsShowing(processes: () => ReadonlyArray<Printing | undefined>): Step {
  return async (name, deadlineMs, fn) => {
    try {
      return await withDeadline(`the step "${name}"`, deadlineMs, fn());
    } catch (error) {
      const printed = processes()
        .filter((p): p is Printing => p !== undefined)
        .map((p, n) => `--- process ${n + 1} printed:\n${p.output() || '(nothing)'}`);
      const message = `Step "${name}" failed: ${(error as Error).message}`;
      throw new Error([message, ...printed].join('\n'), { cause: error });
    }
  };
}
