/** A port another process listens on, named by the variable that chose it, with what to do. */
export class PortInUseError extends Error {
  readonly code = 'EADDRINUSE';

  constructor(
    readonly variable: string,
    readonly port: number,
    readonly host: string,
    fix: string,
  ) {
    super(`${variable}=${port}: port ${port} on ${host} is in use by another process; ${fix}`);
    this.name = 'PortInUseError';
  }
}

export const isPortInUse = (error: unknown): boolean => (error as { code?: unknown })?.code === 'EADDRINUSE';
