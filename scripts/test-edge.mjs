#!/usr/bin/env node
// `pnpm test:edge`: the Edge Functions (supabase/functions, Deno), checked as they are tested and
// as they are deployed (decision 0031). Every Deno step uses functions/deno.lock, frozen: a
// step fails when the lock file does not already pin what it would resolve.
//
// 1. Type-check the tests and serve-all.ts with functions/deno.json (the tests' import map).
// 2. Type-check each function with its own deno.json, the import map `supabase functions deploy`
//    bundles it with, against the same lock: a bare import the deploy import map lacks, or a
//    version other than the tested one, fails here.
// 3. The Deno tests.
// 4. What the Supabase CLI would upload: `supabase functions deploy --use-api` run for real
//    against a local stand-in for the Management API (no Docker, no account, no network); each
//    function's upload must name its own deno.json, keep verify_jwt off (config.toml), and
//    type-check on its own, with only the files the CLI sent.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const functionsDir = path.join(root, 'supabase/functions');
const deno = path.join(root, 'node_modules/.bin/deno');
const lock = path.join(functionsDir, 'deno.lock');
const env = process.env;

const functionNames = readdirSync(functionsDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !entry.name.startsWith('_'))
  .filter((entry) => existsSync(path.join(functionsDir, entry.name, 'index.ts')))
  .map((entry) => entry.name)
  .sort();

function run(title, command, args, cwd = functionsDir, extraEnv = {}) {
  console.info(`\n▶ ${title}`);
  const result = spawnSync(command, args, { cwd, stdio: 'inherit', env: { ...env, ...extraEnv } });
  if (result.status !== 0) {
    console.error(`✗ ${title} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status || 1);
  }
}

function fail(message) {
  console.error(`✗ ${message}`);
  process.exit(1);
}

const tests = readdirSync(path.join(functionsDir, '_shared'))
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => `_shared/${name}`);

run('deno check: the tests and serve-all.ts (functions/deno.json)', deno, [
  'check',
  '--config',
  'deno.json',
  '--frozen',
  'serve-all.ts',
  ...tests,
]);
for (const name of functionNames) {
  run(`deno check: ${name} with its own deno.json (the deploy import map)`, deno, [
    'check',
    '--config',
    `${name}/deno.json`,
    `--lock=${lock}`,
    '--frozen',
    `${name}/index.ts`,
  ]);
}
run('deno test', deno, [
  'test',
  '--config',
  'deno.json',
  '--frozen',
  '--allow-env',
  '--allow-net=127.0.0.1',
  '_shared/',
]);

// 4. The upload `supabase functions deploy --use-api` makes, captured by a stand-in for the
// Management API (https://api.supabase.com/v1/projects/{ref}/functions/deploy).
const cli = existsSync(path.join(root, 'node_modules/.bin/supabase'))
  ? { command: path.join(root, 'node_modules/.bin/supabase'), args: [] }
  : { command: 'npx', args: ['-y', 'supabase@3.1.0'] };
const work = mkdtempSync(path.join(os.tmpdir(), 'reshelf-edge-deploy-'));
const PROJECT_REF = 'abcdefghijklmnopqrst';
const uploads = new Map();
const unexpected = [];
const api = createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const url = new URL(req.url ?? '/', 'http://api');
  res.setHeader('content-type', 'application/json');
  if (req.method === 'POST' && url.pathname === `/v1/projects/${PROJECT_REF}/functions/deploy`) {
    const slug = url.searchParams.get('slug') ?? '';
    const form = await new Request('http://api/', {
      method: 'POST',
      headers: { 'content-type': req.headers['content-type'] ?? '' },
      body: Buffer.concat(chunks),
    }).formData();
    const files = [];
    for (const file of form.getAll('file')) {
      if (typeof file !== 'string')
        files.push({ path: file.name, bytes: Buffer.from(await file.arrayBuffer()) });
    }
    uploads.set(slug, { metadata: JSON.parse(String(form.get('metadata'))), files });
    res.writeHead(201).end(JSON.stringify({ id: slug, slug, name: slug, version: 1, status: 'ACTIVE' }));
  } else if (req.method === 'GET' && url.pathname === `/v1/projects/${PROJECT_REF}/functions`) {
    res.writeHead(200).end('[]'); // none deployed yet
  } else if (req.method === 'PUT' && url.pathname === `/v1/projects/${PROJECT_REF}/functions`) {
    res.writeHead(200).end(JSON.stringify({ functions: [] }));
  } else if (req.method === 'GET' && url.pathname === `/v1/projects/${PROJECT_REF}`) {
    res.writeHead(200).end(JSON.stringify({ id: PROJECT_REF, ref: PROJECT_REF, name: 'reshelf' }));
  } else {
    unexpected.push(`${req.method} ${url.pathname}`);
    res.writeHead(404).end(JSON.stringify({ message: 'not part of the stand-in' }));
  }
});
await new Promise((resolve) => api.listen(0, '127.0.0.1', resolve));
try {
  // A copy of supabase/ (the CLI writes supabase/.temp), and a home of its own: no profile,
  // token or keyring of the machine's is read.
  cpSync(path.join(root, 'supabase/config.toml'), path.join(work, 'project/supabase/config.toml'));
  cpSync(functionsDir, path.join(work, 'project/supabase/functions'), { recursive: true });
  mkdirSync(path.join(work, 'home'));
  const profile = path.join(work, 'profile.json');
  writeFileSync(
    profile,
    JSON.stringify({
      name: 'reshelf-edge-test',
      api_url: `http://127.0.0.1:${api.address().port}`,
      dashboard_url: `http://127.0.0.1:${api.address().port}/dashboard`,
      project_host: 'localhost',
    }),
  );
  console.info(
    `\n▶ supabase functions deploy --use-api (${cli.command === 'npx' ? 'npx supabase@3.1.0' : 'supabase'})`,
  );
  // Not spawnSync: the stand-in answers from this process's event loop.
  const started = await new Promise((resolve) => {
    const child = spawn(
      cli.command,
      [
        ...cli.args,
        'functions',
        'deploy',
        ...functionNames,
        '--use-api',
        `--remote=${PROJECT_REF}`,
        '--profile',
        profile,
        '--yes',
      ],
      {
        cwd: path.join(work, 'project'),
        stdio: 'inherit',
        env: {
          ...env,
          HOME: path.join(work, 'home'),
          SUPABASE_ACCESS_TOKEN: `sbp_${'0'.repeat(40)}`,
          DO_NOT_TRACK: '1',
        },
      },
    );
    child.on('error', (error) => resolve({ status: null, error }));
    child.on('exit', (status, signal) => resolve({ status, error: signal }));
  });
  if (started.status !== 0)
    fail(`supabase functions deploy failed (exit ${started.status ?? started.error})`);
  if (unexpected.length) fail(`the CLI called what the stand-in does not answer: ${unexpected.join(', ')}`);

  for (const name of functionNames) {
    const upload = uploads.get(name);
    if (!upload) fail(`${name}: the CLI uploaded nothing`);
    const { metadata, files } = upload;
    const expected = {
      entrypoint_path: `supabase/functions/${name}/index.ts`,
      import_map_path: `supabase/functions/${name}/deno.json`,
      verify_jwt: false,
    };
    for (const [field, value] of Object.entries(expected)) {
      if (metadata[field] !== value) {
        fail(
          `${name}: the CLI sent ${field} ${JSON.stringify(metadata[field])}, expected ${JSON.stringify(value)}`,
        );
      }
    }
    // Only what was uploaded, where the bundler will see it.
    const bundle = path.join(work, 'uploaded', name);
    for (const file of files) {
      mkdirSync(path.join(bundle, path.dirname(file.path)), { recursive: true });
      writeFileSync(path.join(bundle, file.path), file.bytes);
    }
    console.info(`  ${name}: ${files.map((file) => file.path).join(', ')}`);
    run(
      `deno check: ${name} from its upload alone`,
      deno,
      ['check', '--config', metadata.import_map_path, `--lock=${lock}`, '--frozen', metadata.entrypoint_path],
      bundle,
    );
  }
  console.info(`✓ the deploy upload of ${functionNames.join(', ')} resolves and type-checks`);
} finally {
  api.close();
  rmSync(work, { recursive: true, force: true });
}
