/**
 * The cheapest tRPC query (`account.auth.me`, anonymous) through tRPC's stock Fastify plugin and through
 * the lean path (decision 0040), beside a raw Fastify "hello" route, in one run:
 *
 *   node --import tsx tests/bench/trpc-path.ts [--seconds 5] [--rounds 3]
 *
 * Three processes (raw Fastify; the real BFF with TRPC_PATH=stock; the same with TRPC_PATH=lean)
 * are loaded in turn, round after round (interleaved, so a busy machine weighs on all three
 * alike), by autocannon at 50 connections. CPU per request is the process's user + system time
 * from /proc/<pid>/stat over the round, divided by the requests answered. Figures are relative:
 * compare them within one run, never across machines.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { freePort } from '../../api/src/db/embedded.ts';
import { log, machine, ROOT, round2, startBff, stopBff, throwawayDatabase } from './harness.ts';

const CONNECTIONS = 50;
/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces), from field 3 on.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return (utime + stime) / TICKS_PER_SECOND;
}

async function startRawFastify(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const source = `
    import Fastify from 'fastify';
    const app = Fastify({ logger: false });
    app.get('/hello', async () => ({ hello: 'world' }));
    await app.listen({ port: ${port}, host: '127.0.0.1' });
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', source], {
    cwd: path.join(ROOT, 'api'),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 100; attempt += 1) {
    try {
      if ((await fetch(`${url}/hello`)).ok) return { url, child };
    } catch {
      /* not listening yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('raw Fastify did not start');
}

interface Target {
  name: string;
  url: string;
  path: string;
  child: ChildProcess;
  requests: number;
  cpu: number;
  seconds: number;
  non2xx: number;
}

async function round(target: Target, seconds: number): Promise<void> {
  const pid = target.child.pid;
  if (pid === undefined) throw new Error(`${target.name} has no process id`);
  const before = cpuSeconds(pid);
  const result = (await autocannon({
    url: `${target.url}${target.path}`,
    connections: CONNECTIONS,
    duration: seconds,
  })) as autocannon.Result;
  const after = cpuSeconds(pid);
  target.requests += result.requests.total;
  target.non2xx += result.non2xx;
  target.cpu += after - before;
  target.seconds += seconds;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { seconds: { type: 'string', default: '5' }, rounds: { type: 'string', default: '3' } },
  });
  const seconds = Number(values.seconds);
  const rounds = Number(values.rounds);
  log(`Machine: ${machine()}`);
  const database = await throwawayDatabase('reshelf-trpc-path-', 'reshelf');
  const children: ChildProcess[] = [];
  try {
    const env = {
      APP_SECRET: randomBytes(32).toString('hex'),
      // Measure the path, not the load shedder: a lagging loop would answer 503s.
      MAX_EVENT_LOOP_DELAY_MS: '0',
      PUBLIC_CACHE_SECONDS: '0',
    };
    const raw = await startRawFastify();
    children.push(raw.child);
    const stock = await startBff({ databaseUrl: database.databaseUrl, env: { ...env, TRPC_PATH: 'stock' } });
    children.push(stock.child);
    const lean = await startBff({ databaseUrl: database.databaseUrl, env: { ...env, TRPC_PATH: 'lean' } });
    children.push(lean.child);
    const targets: Target[] = [
      { name: 'raw Fastify hello', url: raw.url, path: '/hello', child: raw.child },
      {
        name: 'account.auth.me, stock plugin',
        url: stock.url,
        path: '/trpc/account.auth.me',
        child: stock.child,
      },
      { name: 'account.auth.me, lean path', url: lean.url, path: '/trpc/account.auth.me', child: lean.child },
    ].map((target) => ({ ...target, requests: 0, cpu: 0, seconds: 0, non2xx: 0 }));
    // Warm up each (JIT, pools), then interleaved rounds.
    for (const target of targets) await round({ ...target }, 2);
    for (let index = 0; index < rounds; index += 1) {
      for (const target of targets) await round(target, seconds);
    }
    const rawTarget = targets[0]!;
    const rawRps = rawTarget.requests / rawTarget.seconds;
    log('');
    log(`| what | requests/s | % of raw | CPU µs/request | non-2xx |`);
    log(`| --- | ---: | ---: | ---: | ---: |`);
    for (const target of targets) {
      const rps = target.requests / target.seconds;
      log(
        `| ${target.name} | ${Math.round(rps)} | ${round2((100 * rps) / rawRps)}% | ${round2((1e6 * target.cpu) / Math.max(target.requests, 1))} | ${target.non2xx} |`,
      );
    }
    log('');
    log(
      `${rounds} interleaved rounds of ${seconds} s each, ${CONNECTIONS} connections, load ${readFileSync('/proc/loadavg', 'utf8').trim()}`,
    );
  } finally {
    for (const child of children) await stopBff(child);
    await database.stop();
  }
}

await main();
