/**
 * Where one request path's CPU goes: the real BFF (production settings, request log at info)
 * under autocannon at 50 connections, with `--cpu-prof`, then the profile's heaviest functions
 * by self time (and by total time, for our own code), printed:
 *
 *   node --import tsx tests/bench/path-profile.ts [--path /trpc/account.auth.me] [--seconds 10]
 *        [--env KEY=VALUE]… [--keep <dir>]
 *
 * The database is a throwaway embedded PostgreSQL with the reference data only. The profile
 * is written into a temporary folder (or `--keep <dir>`, to open it in DevTools). Figures are
 * shares of the profile's samples: compare them within a profile, not across machines.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createDatabase } from '../../api/src/db/index.ts';
import { seedReferenceData } from '../../api/src/seed/demo.ts';
import { log, machine, startBff, stopBff, throwawayDatabase } from './harness.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  /** Microseconds between samples, the first from startTime. */
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** A script's place: `package/file` under node_modules, `api/…` in the project, `node:…` as is. */
function fileOf(url: string): string {
  const file = url.replace(/^file:\/\//, '');
  return file.includes('/node_modules/')
    ? file.slice(file.lastIndexOf('/node_modules/') + '/node_modules/'.length)
    : file.replace(/^.*?\/(api|packages)\//, '$1/');
}

/** `functionName file:line`. */
function frameName(frame: ProfileNode['callFrame']): string {
  const short = fileOf(frame.url);
  return `${frame.functionName || '(anonymous)'} ${short ? `${short}:${frame.lineNumber + 1}` : ''}`.trim();
}

/**
 * Self and total sample shares per function (by name and place), heaviest first, of the samples
 * taken from `from` to `to` microseconds before the profile's end (the measured load, not the
 * start-up or the shutdown).
 */
export function summarise(
  profile: Profile,
  window: { from: number; to: number },
): { self: [string, number][]; total: [string, number][]; byFile: [string, number][]; samples: number } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const hits = new Map<number, number>();
  let at = profile.startTime;
  let samples = 0;
  profile.samples.forEach((id, index) => {
    at += profile.timeDeltas[index] ?? 0;
    const before = profile.endTime - at;
    if (before > window.from || before < window.to) return;
    hits.set(id, (hits.get(id) ?? 0) + 1);
    samples += 1;
  });
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const [id, count] of hits) {
    const node = byId.get(id);
    if (!node) continue;
    const name = frameName(node.callFrame);
    self.set(name, (self.get(name) ?? 0) + count);
    const file = fileOf(node.callFrame.url) || node.callFrame.functionName;
    byFile.set(file, (byFile.get(file) ?? 0) + count);
    // Each function once per stack (recursion counted once).
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at);
      if (!frame) break;
      const frameKey = frameName(frame.callFrame);
      if (seen.has(frameKey)) continue;
      seen.add(frameKey);
      total.set(frameKey, (total.get(frameKey) ?? 0) + count);
    }
  }
  const all = samples || 1;
  const sorted = (map: Map<string, number>) =>
    [...map].map(([name, count]) => [name, count / all] as [string, number]).sort((a, b) => b[1] - a[1]);
  return { self: sorted(self), total: sorted(total), byFile: sorted(byFile), samples };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      path: { type: 'string', default: '/trpc/account.auth.me' },
      seconds: { type: 'string', default: '10' },
      env: { type: 'string', multiple: true, default: [] },
      keep: { type: 'string' },
      top: { type: 'string', default: '25' },
    },
  });
  const seconds = Number(values.seconds);
  const top = Number(values.top);
  const dir = values.keep
    ? path.resolve(values.keep)
    : await mkdtemp(path.join(tmpdir(), 'reshelf-profile-'));
  const env = Object.fromEntries(
    values.env.map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw new Error(`--env needs KEY=VALUE, not ${JSON.stringify(pair)}`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
  log(`Machine: ${machine()}; profiling ${values.path} for ${seconds} s`);
  const database = await throwawayDatabase('reshelf-profile-', 'reshelf_profile');
  let loadFrom = 0;
  let loadTo = 0;
  let stopped = 0;
  try {
    const seed = createDatabase(database.databaseUrl, { max: 2 });
    await seedReferenceData(seed.db);
    await seed.close();
    const bff = await startBff({
      databaseUrl: database.databaseUrl,
      env: {
        APP_SECRET: randomBytes(32).toString('hex'),
        MAX_EVENT_LOOP_DELAY_MS: '0',
        PUBLIC_CACHE_SECONDS: '0',
        ...env,
      },
      nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
    });
    try {
      const url = bff.url + values.path;
      const first = await fetch(url);
      if (!first.ok) throw new Error(`${values.path} answered ${first.status}`);
      await autocannon({ url, connections: 50, duration: 2 });
      loadFrom = performance.now();
      const result = (await autocannon({ url, connections: 50, duration: seconds })) as autocannon.Result;
      loadTo = performance.now();
      log(`${Math.round(result.requests.average)} req/s, non-2xx ${result.non2xx}`);
    } finally {
      await stopBff(bff.child);
      stopped = performance.now();
    }
  } finally {
    await database.stop();
  }
  const file = (await readdir(dir)).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no profile in ${dir}`);
  // The profile ends as the process exits: the measured load is this long before that.
  const { self, total, byFile, samples } = summarise(
    JSON.parse(await readFile(path.join(dir, file), 'utf8')) as Profile,
    { from: (stopped - loadFrom) * 1000, to: (stopped - loadTo) * 1000 },
  );
  const pct = (share: number) => `${(share * 100).toFixed(1)}%`;
  log(`\nProfile: ${path.join(dir, file)} (${samples} samples of the measured load)\n\nSelf time:`);
  for (const [name, share] of self.slice(0, top)) log(`  ${pct(share).padStart(6)}  ${name}`);
  log('\nSelf time by file:');
  for (const [name, share] of byFile.slice(0, top)) log(`  ${pct(share).padStart(6)}  ${name}`);
  log('\nTotal time (project code and the libraries it calls, not Node internals):');
  for (const [name, share] of total
    .filter(([name]) => /api\/|packages\/|fastify|trpc|pino|zod/.test(name))
    .slice(0, top)) {
    log(`  ${pct(share).padStart(6)}  ${name}`);
  }
}

await main();
