/**
 * Lighthouse (npm `lighthouse`, its CLI) against Debian's Chromium, default (mobile) config:
 * simulated slow 4G and 4x CPU slowdown, a phone screen. Only the performance category.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './harness.ts';

/** The browser tests' Chromium flags (tests/support/browser.ts): headless, as root, no background traffic. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface LighthouseFigures {
  performance?: number;
  lcpMs?: number;
  error?: string;
}

/** Performance score (0–100) and LCP from a Lighthouse JSON result (lhr). */
export function summariseLighthouse(lhr: unknown): LighthouseFigures {
  const result = lhr as {
    runtimeError?: { code?: string; message?: string };
    categories?: { performance?: { score?: number | null } };
    audits?: Record<string, { numericValue?: number; errorMessage?: string } | undefined>;
  };
  const score = result.categories?.performance?.score;
  const lcp = result.audits?.['largest-contentful-paint'];
  const figures: LighthouseFigures = {};
  if (typeof score === 'number') figures.performance = Math.round(score * 100);
  if (typeof lcp?.numericValue === 'number') figures.lcpMs = Math.round(lcp.numericValue);
  const error =
    result.runtimeError?.message ?? (figures.performance === undefined ? lcp?.errorMessage : undefined);
  if (error) figures.error = error;
  else if (figures.performance === undefined) figures.error = 'no performance score in the result';
  return figures;
}

export async function runLighthouse(url: string, chromiumPath: string): Promise<LighthouseFigures> {
  const dir = await mkdtemp(path.join(tmpdir(), 'reshelf-lighthouse-'));
  const output = path.join(dir, 'result.json');
  const bin = path.join(ROOT, 'tests/node_modules/.bin/lighthouse');
  try {
    await new Promise<void>((resolve, reject) => {
      execFile(
        bin,
        [
          url,
          '--only-categories=performance',
          '--output=json',
          `--output-path=${output}`,
          `--chrome-flags=${CHROMIUM_FLAGS.join(' ')}`,
          '--max-wait-for-load=60000',
          '--quiet',
        ],
        { env: { ...process.env, CHROME_PATH: chromiumPath }, timeout: 180_000 },
        (error, _stdout, stderr) =>
          error ? reject(new Error(`${error.message}\n${stderr.slice(-2000)}`)) : resolve(),
      );
    });
    return summariseLighthouse(JSON.parse(await readFile(output, 'utf8')));
  } catch (error) {
    return { error: (error as Error).message.split('\n')[0]!.slice(0, 300) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
