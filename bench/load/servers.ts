import { ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';

export interface ServerStats {
  queries: number;
  /** Requests the server answered (finished responses), in flight at the end of a turn or not. */
  answered: number;
  peakRssMb: number;
  rssMb: number;
  /** V8's heap in use (live objects and garbage not yet collected). */
  heapUsedMb: number;
  /** User + system CPU time of the server process since the last reset. */
  cpuMs: number;
}

export type ServerKind = 'app' | 'baseline' | 'floor';

/** A server under load in its own process (server-child.ts), and the driver's end of its IPC channel. */
export interface ServerProcess {
  kind: ServerKind;
  baseUrl: string;
  reset(): Promise<void>;
  stats(): Promise<ServerStats>;
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** Run the server under `node --cpu-prof`, its profile written here when it stops. */
  profileDir?: string;
  /** The app only: traced as src/main.ts traces (tracing-preload.ts), exporting by OTLP to this collector. */
  tracingEndpoint?: string;
}

/** The app's stdout (its request log, a line per request at info) goes to /dev/null; stderr stays. */
export async function startServer(
  kind: ServerKind,
  databaseUrl: string,
  { profileDir, tracingEndpoint }: ServerOptions = {},
): Promise<ServerProcess> {
  const traced = kind === 'app' && tracingEndpoint !== undefined;
  const child: ChildProcess = fork(join(__dirname, 'server-child.js'), [kind], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      ...(traced ? { OTEL_EXPORTER_OTLP_ENDPOINT: tracingEndpoint } : {}),
    },
    execArgv: [
      ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-name', `${kind}.cpuprofile`] : []),
      ...(traced ? ['-r', join(__dirname, 'tracing-preload.js')] : []),
    ],
    stdio: ['ignore', kind === 'app' ? 'ignore' : 'inherit', 'inherit', 'ipc'],
  });
  const reply = <T>(type: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const onMessage = (message: { type: string } & T) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message);
      };
      const onExit = (code: number | null) =>
        reject(new Error(`${kind} server exited (${code}) before answering ${type}`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const { port } = await reply<{ port: number }>('ready');
  return {
    kind,
    baseUrl: `http://127.0.0.1:${port}`,
    reset: async () => {
      const answered = reply('reset');
      child.send({ type: 'reset' });
      await answered;
    },
    stats: async () => {
      const answered = reply<ServerStats>('stats');
      child.send({ type: 'stats' });
      return answered;
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
