#!/usr/bin/env node
// Browser tests drive Debian's Chromium. Installs it when missing and we may (root with
// apt-get); otherwise says exactly what to do.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const executable = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(executable)) process.exit(0);

const isRoot = process.getuid?.() === 0;
const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
if (!isRoot || !hasApt) {
  console.error(
    `Browser tests need Chromium at ${executable}. Install it (Debian/Ubuntu: sudo apt-get install -y chromium) ` +
      'or set CHROMIUM_PATH to a Chromium or Chrome binary.',
  );
  process.exit(1);
}
console.info('[reshelf] installing Chromium for the browser tests (apt-get)…');
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium', 'fonts-liberation'], {
  stdio: 'inherit',
  env,
});
if (!existsSync(executable)) {
  console.error(`apt-get finished but ${executable} is still missing.`);
  process.exit(1);
}
