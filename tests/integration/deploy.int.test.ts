/**
 * The self-hosting files in docker/, checked without a Docker engine: the compose file parses,
 * wires the BFF to PostgreSQL and gives it an environment that the BFF's own configuration
 * accepts in production; the Dockerfile is multi-stage, runs as a non-root user, checks
 * /readyz, uses the project's pnpm, and copies only paths that exist. Where the docker CLI
 * has the compose plugin, `docker compose config` validates the file too.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../api/src/config.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCKER = path.join(ROOT, 'docker');
const compose = parse(readFileSync(path.join(DOCKER, 'compose.yaml'), 'utf8')) as {
  services: Record<string, Record<string, unknown>>;
  volumes: Record<string, unknown>;
};
const dockerfile = readFileSync(path.join(DOCKER, 'Dockerfile'), 'utf8');

/** Compose's interpolation: ${VAR}, ${VAR:-default}, ${VAR:?error}. Unset required ones throw. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(
    /\$\{(\w+)(?::([-?])([^}]*))?\}/g,
    (_whole, name: string, kind?: string, rest?: string) => {
      const set = env[name];
      if (set !== undefined && set !== '') return set;
      if (kind === '-') return rest ?? '';
      if (kind === '?') throw new Error(`${name}: ${rest}`);
      return '';
    },
  );
}

const SAMPLE_ENV = {
  POSTGRES_PASSWORD: 'sample0password',
  APP_DB_PASSWORD: 'sample0runtime',
  APP_SECRET: 'a-sample-app-secret-that-is-long-enough-0123456789',
  STRIPE_SECRET_KEY: 'sk_test_sample',
  STRIPE_WEBHOOK_SECRET: 'whsec_sample',
  EASYPOST_API_KEY: 'EZTKoffline0123',
  EASYPOST_WEBHOOK_SECRET: 'carrier-webhook-offline',
  MAIL_FROM: 'Reshelf <no-reply@reshelf.example>',
};
/** Settings compose passes on when given (MAIL=smtp needs SMTP_URL; the app itself says so). */
const SAMPLE_MAIL = { SMTP_URL: 'smtp://postman:sample@smtp.example.com:587' };

function hasComposePlugin(): boolean {
  try {
    execFileSync('docker', ['compose', 'version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('docker/compose.yaml', () => {
  const app = compose.services.app as {
    build: { context: string; dockerfile: string };
    depends_on: Record<string, { condition: string }>;
    environment: Record<string, string>;
    ports: string[];
    volumes: string[];
  };
  const db = compose.services.db as { image: string; healthcheck: { test: string[] }; volumes: string[] };

  it('builds the app from the repository with the Dockerfile, after the database is healthy', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['app', 'db']);
    expect(path.resolve(DOCKER, app.build.context)).toBe(path.resolve(ROOT));
    expect(existsSync(path.join(ROOT, app.build.dockerfile))).toBe(true);
    expect(app.depends_on).toEqual({ db: { condition: 'service_healthy' } });
    expect(db.image).toMatch(/^postgres:\d+/);
    expect(db.healthcheck.test.join(' ')).toMatch(/pg_isready/);
    expect(app.ports).toEqual([['$', '{PORT:-3000}:3000'].join('')]);
    // Named volumes for the database and for stored photos, declared at the top level.
    for (const mount of [...db.volumes, ...app.volumes]) {
      expect(Object.keys(compose.volumes)).toContain(mount.split(':')[0]);
    }
  });

  it('gives the app an environment its configuration accepts in production, pointing at the db service', () => {
    const environmentWith = (env: Record<string, string>) =>
      Object.fromEntries(
        Object.entries(app.environment).map(([name, value]) => [name, interpolate(String(value), env)]),
      );
    const config = loadConfig(environmentWith({ ...SAMPLE_ENV, ...SAMPLE_MAIL }));
    expect(config.env).toBe('production');
    // Requests as the runtime role, migrations as the owner (decision 0026).
    expect(config.databaseUrl).toBe('postgres://reshelf_app:sample0runtime@db:5432/reshelf');
    expect(config.databaseMigrationUrl).toBe('postgres://reshelf:sample0password@db:5432/reshelf');
    expect(config.mail).toEqual({
      transport: 'smtp',
      from: SAMPLE_ENV.MAIL_FROM,
      smtpUrl: SAMPLE_MAIL.SMTP_URL,
    });
    expect(() => loadConfig(environmentWith(SAMPLE_ENV))).toThrow(/SMTP_URL is required when MAIL=smtp/);
    expect(config.payments.provider).toBe('stripe');
    expect(config.dataDir).toBe('/app/.data');
    // No proxy in front by default: X-Forwarded-For is believed only when TRUST_PROXY says so.
    expect(config.trustProxy).toBe(false);
    expect(
      loadConfig({ ...environmentWith({ ...SAMPLE_ENV, ...SAMPLE_MAIL }), TRUST_PROXY: 'uniquelocal' })
        .trustProxy,
    ).toEqual(['uniquelocal']);
    expect(app.volumes).toContain('app-data:/app/.data');
  });

  it('refuses to start without the secrets it needs, naming each', () => {
    for (const name of Object.keys(SAMPLE_ENV)) {
      const { [name as keyof typeof SAMPLE_ENV]: _dropped, ...rest } = SAMPLE_ENV;
      expect(() =>
        Object.values(app.environment).forEach((value) => {
          interpolate(String(value), rest);
        }),
      ).toThrow(new RegExp(`^${name}: Set ${name}`));
    }
  });

  it.runIf(hasComposePlugin())('passes docker compose config', () => {
    const output = execFileSync(
      'docker',
      ['compose', '-f', path.join(DOCKER, 'compose.yaml'), 'config', '--quiet'],
      {
        env: { ...process.env, ...SAMPLE_ENV },
        encoding: 'utf8',
      },
    );
    expect(output).toBe('');
  });
});

describe('docker/Dockerfile', () => {
  const stages = [...dockerfile.matchAll(/^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/gim)].map((match) => ({
    image: match[1],
    name: match[2],
  }));
  const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

  it('is multi-stage, the last stage the runtime', () => {
    expect(stages.length).toBeGreaterThanOrEqual(3);
    expect(stages.at(-1)?.name).toBe('runtime');
    expect(dockerfile).toMatch(/--from=build \/app\/web\/dist/);
  });

  it('runs as a non-root user', () => {
    const user = /^USER\s+(\S+)/m.exec(finalStage)?.[1];
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
  });

  it('checks health on /readyz and starts the BFF', () => {
    expect(finalStage).toMatch(/^HEALTHCHECK .*\n?.*\/readyz/m);
    const cmd = /^CMD\s+(\[.*\])/m.exec(finalStage)?.[1];
    const args = JSON.parse(cmd ?? '[]') as string[];
    // The compiled BFF (api/scripts/build.mjs), with plain node: no tsx at run time. Booted from
    // this file's own steps by docker-runtime.int.test.ts.
    expect(args[0]).toBe('node');
    expect(args).not.toContain('tsx');
    expect(args.at(-1)).toBe('api/dist/main.js');
  });

  it("installs the project's pnpm and copies only paths that exist", () => {
    const packageManager = (
      JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { packageManager: string }
    ).packageManager;
    expect(dockerfile).toContain(`pnpm@${packageManager.split('@')[1]}`);
    const nodeVersion = /^ARG NODE_VERSION=(\S+)/m.exec(dockerfile)?.[1];
    // The current LTS (26 since October 2026); engines keeps Node 20.19 and later working.
    expect(nodeVersion).toMatch(/^26\.\d+\.\d+$/);
    for (const match of dockerfile.matchAll(/^COPY\s+(?!--from)(.+)$/gm)) {
      const parts = match[1]!.trim().split(/\s+/);
      for (const source of parts.slice(0, -1)) expect(existsSync(path.join(ROOT, source)), source).toBe(true);
    }
  });
});
