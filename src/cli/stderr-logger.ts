import { ConsoleLogger, LogLevel } from '@nestjs/common';

/** Nest's console logger, writing every level to stderr: stdout carries only a command's result. */
export class StderrLogger extends ConsoleLogger {
  protected override printMessages(
    messages: unknown[],
    context?: string,
    logLevel?: LogLevel,
    _stream?: 'stdout' | 'stderr',
    errorStack?: unknown,
  ): void {
    super.printMessages(messages, context, logLevel, 'stderr', errorStack);
  }
}
