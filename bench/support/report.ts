import { mkdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { DataSource } from 'typeorm';
import { LatencySummary } from './latency';

/** CLI options shared by the benchmarks: `--n 300 --warmup 50`, also as `--n=300`. */
export function parseArgs<K extends string>(argv: string[], defaults: Record<K, number>): Record<K, number> {
  const options: Record<string, number> = { ...defaults };
  for (let i = 0; i < argv.length; i++) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i]);
    if (!match || !(match[1] in defaults))
      throw new Error(
        `Unknown argument ${argv[i]}; known: ${Object.keys(defaults)
          .map((k) => `--${k}`)
          .join(', ')}`,
      );
    const raw = match[2] ?? argv[++i];
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 0) throw new Error(`--${match[1]} needs a whole number, got ${raw}`);
    options[match[1]] = value;
  }
  return options;
}

const ms = (x: number) => x.toFixed(2);

/** A small fixed-width table: variant, n, median, p95, mean, min, max (ms). */
export function latencyTable(rows: Array<{ name: string; summary: LatencySummary }>): string {
  const header = ['variant', 'n', 'median ms', 'p95 ms', 'mean ms', 'min ms', 'max ms'];
  const body = rows.map(({ name, summary: s }) => [
    name,
    String(s.n),
    ms(s.median),
    ms(s.p95),
    ms(s.mean),
    ms(s.min),
    ms(s.max),
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...body.map((r) => r[c].length)));
  const line = (cells: string[]) =>
    cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

/** The repository root: the nearest directory above this file with a package.json (works from dist/ too). */
export function repoRoot(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No package.json above ${__dirname}`);
  }
}

/** Writes `bench/results/<name>.json` and returns its path. */
export async function writeResult(name: string, result: object): Promise<string> {
  const file = resolve(repoRoot(), 'bench', 'results', `${name}.json`);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
  return file;
}

/** Where a result was measured, so two result files can be told apart. */
export function environment(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: cpus().length,
    cpu: cpus()[0]?.model,
    date: new Date().toISOString(),
    ...extra,
  };
}

/** The PostgreSQL server's version, as `SHOW server_version` gives it. */
export async function postgresVersion(db: DataSource): Promise<string> {
  const [{ server_version: version }] = await db.query<Array<{ server_version: string }>>('SHOW server_version');
  return version;
}
