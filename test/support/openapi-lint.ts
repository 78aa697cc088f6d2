import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const BIN = resolve(__dirname, '../../node_modules/.bin');
const RULESETS = resolve(__dirname, '../openapi/rulesets');

/** One linter finding, as both linters' JSON output can be reduced to. */
export interface Finding {
  rule: string;
  severity: 'error' | 'warning' | 'info' | 'hint';
  /** JSON path of the node it is about, as segments ("paths", "/v1/...", "patch", ...). */
  path: string[];
  message: string;
}

/** Offline and quiet: no telemetry, no update check, no banner. */
const LINTER_ENV = {
  ...process.env,
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  NO_UPDATE_NOTIFIER: '1',
  NO_COLOR: '1',
};

/** Writes the document to a fresh temporary directory (no redocly.yaml or .spectral file near it). */
export async function withDocumentFile<T>(document: object, use: (file: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
  try {
    const file = join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(document, null, 2));
    return await use(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const SPECTRAL_SEVERITIES = ['error', 'warning', 'info', 'hint'] as const;

/** Spectral CLI with one of test/openapi/rulesets; it exits non-zero when it finds something, so read stdout. */
export async function spectral(file: string, ruleset: string): Promise<Finding[]> {
  const args = ['lint', file, '--ruleset', join(RULESETS, ruleset), '--format', 'json', '--quiet'];
  const stdout = await output(join(BIN, 'spectral'), args, join(file, '..'));
  const results = JSON.parse(stdout || '[]') as Array<{
    code: string;
    severity: number;
    path: Array<string | number>;
    message: string;
  }>;
  return results.map((r) => ({
    rule: r.code,
    severity: SPECTRAL_SEVERITIES[r.severity],
    path: r.path.map(String),
    message: r.message,
  }));
}

/** Redocly CLI with its standard `recommended` ruleset and no configuration file. */
export async function redocly(file: string): Promise<Finding[]> {
  const args = ['lint', file, '--extends', 'recommended', '--format', 'json', '--max-problems', '1000'];
  const stdout = await output(join(BIN, 'redocly'), args, join(file, '..'));
  const report = JSON.parse(stdout) as {
    problems: Array<{
      ruleId: string;
      severity: 'error' | 'warn';
      message: string;
      location: Array<{ pointer: string }>;
    }>;
  };
  return report.problems.map((p) => ({
    rule: p.ruleId,
    severity: p.severity === 'warn' ? 'warning' : p.severity,
    path: pointerSegments(p.location[0]?.pointer ?? '#/'),
    message: p.message,
  }));
}

async function output(command: string, args: string[], cwd: string): Promise<string> {
  try {
    return (await run(command, args, { cwd, env: LINTER_ENV, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    // Both exit 1 when they report problems; anything else (no JSON on stdout) is a real failure.
    if (failed.stdout?.trim().startsWith('[') || failed.stdout?.trim().startsWith('{')) return failed.stdout;
    throw new Error(`${command} ${args.join(' ')} failed: ${failed.stderr ?? String(error)}`, { cause: error });
  }
}

function pointerSegments(pointer: string): string[] {
  return pointer
    .replace(/^#\/?/, '')
    .split('/')
    .filter((s) => s !== '')
    .map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** "rule at a.b.c: message", one a line, for a failure message a person can act on. */
export function listFindings(findings: Finding[]): string {
  return findings.map((f) => `${f.severity} ${f.rule} at ${f.path.join(' › ')}: ${f.message}`).join('\n');
}
