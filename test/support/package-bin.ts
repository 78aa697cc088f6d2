import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

export interface BinOutput {
  stdout: string;
  stderr: string;
}

/**
 * Runs an installed package's command as `npx` would, on this Node, in `cwd`. A child process, not an import:
 * some tools (openapi-typescript) load ES modules that jest's CommonJS runtime cannot require on Node 20.
 */
export async function runPackageBin(pkg: string, bin: string, args: string[], cwd: string): Promise<BinOutput> {
  const manifest = require.resolve(`${pkg}/package.json`);
  const { bin: bins } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> };
  return promisify(execFile)(process.execPath, [join(dirname(manifest), bins[bin]), ...args], { cwd });
}

/** tsc on the tsconfig.json in `dir`: its error lines (paths relative to `dir`), [] when clean. */
export async function tscErrors(dir: string): Promise<string[]> {
  try {
    await runPackageBin('typescript', 'tsc', ['--pretty', 'false'], dir);
    return [];
  } catch (failure) {
    const { stdout } = failure as Partial<BinOutput>;
    if (!stdout) throw new Error('tsc did not run', { cause: failure });
    return stdout.split('\n').filter((line) => line.includes('error TS'));
  }
}
