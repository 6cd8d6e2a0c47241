#!/usr/bin/env node
// `pnpm start`: builds the web client when it is missing or older than its sources (unless
// WEB_DIST names a build of its own), then serves the built web and the API on one port (PORT,
// default 3000) with data in DATA_DIR. Ctrl+C: the server drains and stops (api/src/main.ts),
// and this script ends with its exit code, 0, so pnpm reports no failure.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = path.join(root, 'web/dist/index.html');
// The server bundle that renders the public pages (docs/decisions/0041-server-rendered-public-pages.md).
const ssr = path.join(root, 'web/dist-ssr/entry-server.js');

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name === 'dist-ssr') continue;
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

const sources = process.env.WEB_DIST
  ? 0
  : Math.max(newest(path.join(root, 'web')), newest(path.join(root, 'packages')));
const stale = (file) => !existsSync(file) || statSync(file).mtimeMs < sources;
if (!process.env.WEB_DIST && (stale(dist) || stale(ssr))) {
  console.info('[reshelf] building the web client…');
  const vite = path.join(root, 'web/node_modules/vite/bin/vite.js');
  for (const args of [['build'], ['build', '--ssr', 'src/entry-server.tsx']]) {
    const build = spawnSync(process.execPath, [vite, ...args], {
      cwd: path.join(root, 'web'),
      stdio: 'inherit',
    });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
}

const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'api/src/main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
// Passed on (a SIGTERM sent to this script alone; the terminal's Ctrl+C reached the server too,
// which stops once however often it is asked), then this script waits for the server.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
