import { join } from 'node:path';
import type { ClusterPort } from './embedded-port';

/** What PostgreSQL or its tools said about a failure: the last lines, and where they were read. */
export interface Evidence {
  source: string;
  lines: string[];
}

/** A failure of the embedded PostgreSQL: one sentence naming the cause and the fix, and what PostgreSQL said. */
export class EmbeddedPostgresError extends Error {
  constructor(
    sentence: string,
    readonly evidence?: Evidence,
  ) {
    super(sentence);
    this.name = 'EmbeddedPostgresError';
  }

  /** The sentence, then PostgreSQL's own words indented below it: what a failed start prints. */
  report(): string {
    return [this.message, ...this.evidenceLines()].join('\n');
  }

  evidenceLines(): string[] {
    if (!this.evidence?.lines.length) return [];
    return [`Last lines of ${this.evidence.source}:`, ...this.evidence.lines.map((line) => `  ${line}`)];
  }
}

const inDir = (dataDir: string) => `The embedded PostgreSQL in ${dataDir}`;

function describePort({ port, source, file }: ClusterPort): string {
  if (source === 'EMBEDDED_PG_PORT') return `port ${port} (from EMBEDDED_PG_PORT)`;
  if (source === 'port file') return `port ${port} (remembered in ${file})`;
  return `port ${port} (the fixed port of data directories created before each remembered its own)`;
}

function anotherPort({ source, file }: ClusterPort): string {
  const always = source === 'EMBEDDED_PG_PORT' ? '' : ` (or write one into ${file} to keep it)`;
  return `set EMBEDDED_PG_PORT to a free port${always}`;
}

export const EmbeddedPostgresErrors = {
  noBinaries: (platform: string, pkg: string) =>
    new EmbeddedPostgresError(
      `The embedded PostgreSQL cannot run here: there is none for ${platform} (${pkg} is not installed); ` +
        `set DATABASE_URL to use another PostgreSQL.`,
    ),

  noPostgresUser: (cause: string) =>
    new EmbeddedPostgresError(
      `The embedded PostgreSQL cannot run as root, ` +
        `and the postgres user to run it as could not be created (${cause}); ` +
        `run as another user, create a postgres user, or set DATABASE_URL to use another PostgreSQL.`,
    ),

  cannotCreate: (dataDir: string, cause: string, writer: string, evidence?: Evidence) =>
    new EmbeddedPostgresError(
      `The embedded PostgreSQL could not create its data directory ${dataDir}: ${cause}; ` +
        `fix that, or set DATA_DIR to a directory ${writer} can write.`,
      evidence,
    ),

  notACluster: (dataDir: string) =>
    new EmbeddedPostgresError(
      `The embedded PostgreSQL could not create its data directory ${dataDir}: it exists, ` +
        `is not empty and holds no PostgreSQL data (no PG_VERSION); ` +
        `move it away, or set DATA_DIR to another directory.`,
    ),

  badPortFile: (dataDir: string, file: string, content: string) =>
    new EmbeddedPostgresError(
      `${inDir(dataDir)} did not start: ${file} holds ${JSON.stringify(content)}, not a port from 1 to 65535; ` +
        `write a free port into it, or set EMBEDDED_PG_PORT.`,
    ),

  unreadablePortFile: (dataDir: string, file: string, cause: string) =>
    new EmbeddedPostgresError(
      `${inDir(dataDir)} did not start: its port file ${file} cannot be read (${cause}); ` +
        `run as the user who created ${dataDir}, or set EMBEDDED_PG_PORT.`,
    ),

  portInUse: (dataDir: string, port: ClusterPort, evidence: Evidence) =>
    new EmbeddedPostgresError(
      `${inDir(dataDir)} did not start: ${describePort(port)} is in use by another process; ` +
        `stop that process, or ${anotherPort(port)}.`,
      evidence,
    ),

  startFailed: (dataDir: string, cause: string, evidence?: Evidence) =>
    new EmbeddedPostgresError(
      `${inDir(dataDir)} did not start: ${cause}; fix that, or set DATABASE_URL to use another PostgreSQL.`,
      evidence,
    ),

  notAnswering: (dataDir: string, port: number, pid: number, cause: string, evidence?: Evidence) => {
    const pidFile = join(dataDir, 'postmaster.pid');
    return new EmbeddedPostgresError(
      `${inDir(dataDir)} does not answer on port ${port} (${cause}) although ${pidFile} says process ${pid} runs it; ` +
        `if no PostgreSQL runs on that directory (a crash left the file behind), delete ${pidFile} and start again.`,
      evidence,
    );
  },
};
