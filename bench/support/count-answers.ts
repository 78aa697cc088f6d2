import { ServerResponse } from 'node:http';

/** Calls `onAnswer` once per response any server of this process ends: every answer goes through ServerResponse#end. */
export function countAnswers(onAnswer: () => void): void {
  const response = ServerResponse.prototype as { end: (this: ServerResponse, ...args: unknown[]) => ServerResponse };
  const end = response.end;
  response.end = function (this: ServerResponse, ...args: unknown[]) {
    if (!this.writableEnded) onAnswer();
    return end.apply(this, args);
  };
}
