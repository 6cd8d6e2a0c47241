#!/usr/bin/env node
// `pnpm dev`: the API with reload (port 3000) and Vite with hot reload (port 5173, proxying
// the API). Ctrl+C stops both, and the API stops its database.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const children = [
  spawn(
    process.execPath,
    [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'watch', '--clear-screen=false', 'api/src/main.ts'],
    {
      cwd: root,
      stdio: 'inherit',
      // The site is Vite's page: links in emails and back from the payment page lead there.
      env: { ...process.env, PUBLIC_ORIGIN: process.env.PUBLIC_ORIGIN || 'http://localhost:5173' },
    },
  ),
  spawn(process.execPath, [path.join(root, 'web/node_modules/vite/bin/vite.js')], {
    cwd: path.join(root, 'web'),
    stdio: 'inherit',
  }),
];
let stopping = false;
const stop = (signal) => {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill(signal);
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(signal));
for (const child of children) {
  child.on('exit', (code) => {
    stop('SIGTERM');
    process.exitCode = code ?? 0;
  });
}
