/**
 * Where a `node --cpu-prof` profile spent its time, as text:
 *
 *   node dist/bench/bench/support/profile-summary.js DIR/app.cpuprofile [--top 40]
 *
 * Prints self time grouped by package (node_modules/<name>, our src/ files, node internals, GC,
 * idle); the same with node's internals (streams, sockets, promises, timers) charged to the nearest
 * caller that is not node itself, which says which library made node do that work; then the top
 * functions by self time. The profile is V8's: a tree of call frames and a list
 * of samples, each naming the frame that was running.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The package, or `src/<file>`, or `(node)`, that a frame's URL belongs to. */
function owner(url: string, functionName: string): string {
  if (!url) return `(${functionName || 'native'})`;
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const [first, second] = url.slice(modules + 'node_modules/'.length).split('/');
    return first.startsWith('@') ? `${first}/${second}` : first;
  }
  if (url.startsWith('node:')) return '(node)';
  const ours = url.match(/\/(src|bench)\/(.*)$/);
  return ours ? `${ours[1]}/${ours[2]}` : url;
}

function table(title: string, totals: Map<string, number>, all: number, top: number): void {
  console.log(`\n${title}`);
  for (const [name, micros] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(
      `${((100 * micros) / all).toFixed(1).padStart(6)}%  ${(micros / 1000).toFixed(0).padStart(7)} ms  ${name}`,
    );
  }
}

function main(): void {
  const [file, ...rest] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-summary <file.cpuprofile> [--top N]');
  const top = rest[0] === '--top' ? Number(rest[1]) : 30;
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  /** The owner of the nearest frame, from `id` up, that belongs to a package or to our code. */
  const caller = (id: number): string => {
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const { url, functionName } = byId.get(at)!.callFrame;
      const group = owner(url, functionName);
      if (group !== '(node)' && url) return group;
    }
    return owner(byId.get(id)!.callFrame.url, byId.get(id)!.callFrame.functionName);
  };
  const byOwner = new Map<string, number>();
  const byCaller = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let all = 0;
  profile.samples.forEach((id, i) => {
    const micros = profile.timeDeltas[i] ?? 0;
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const group = owner(url, functionName);
    byOwner.set(group, (byOwner.get(group) ?? 0) + micros);
    const charged = caller(id);
    byCaller.set(charged, (byCaller.get(charged) ?? 0) + micros);
    const name = `${functionName || '(anonymous)'}  ${url ? `${group}:${lineNumber + 1}` : ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
    all += micros;
  });
  const busy = all - (byOwner.get('(idle)') ?? 0);
  console.log(`${(all / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy`);
  table('Self time by package', byOwner, all, top);
  table('Self time by package, node internals charged to their caller', byCaller, all, top);
  table('Self time by function', byFunction, all, top);
}

main();
