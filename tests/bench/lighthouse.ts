/**
 * Lighthouse (npm `lighthouse`, its CLI) against Debian's Chromium, default (mobile) config:
 * simulated slow 4G and 4x CPU slowdown, a phone screen. Only the performance category.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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
  /** Total blocking time: long tasks past 50 ms, between first paint and interactive. */
  tbtMs?: number;
  cls?: number;
  fcpMs?: number;
  /** JavaScript the page loaded (transfer size, every script), KiB. */
  scriptKiB?: number;
  error?: string;
}

/** Performance score (0–100) and LCP from a Lighthouse JSON result (lhr). */
export function summariseLighthouse(lhr: unknown): LighthouseFigures {
  const result = lhr as {
    runtimeError?: { code?: string; message?: string };
    categories?: { performance?: { score?: number | null } };
    audits?: Record<
      string,
      | {
          numericValue?: number;
          errorMessage?: string;
          details?: { items?: Array<{ resourceType?: string; transferSize?: number }> };
        }
      | undefined
    >;
  };
  const score = result.categories?.performance?.score;
  const lcp = result.audits?.['largest-contentful-paint'];
  const figures: LighthouseFigures = {};
  if (typeof score === 'number') figures.performance = Math.round(score * 100);
  if (typeof lcp?.numericValue === 'number') figures.lcpMs = Math.round(lcp.numericValue);
  const numeric = (id: string) => result.audits?.[id]?.numericValue;
  const tbt = numeric('total-blocking-time');
  if (typeof tbt === 'number') figures.tbtMs = Math.round(tbt);
  const cls = numeric('cumulative-layout-shift');
  if (typeof cls === 'number') figures.cls = Math.round(cls * 1000) / 1000;
  const fcp = numeric('first-contentful-paint');
  if (typeof fcp === 'number') figures.fcpMs = Math.round(fcp);
  const scripts = result.audits?.['resource-summary']?.details?.items?.find(
    (i) => i.resourceType === 'script',
  );
  if (typeof scripts?.transferSize === 'number')
    figures.scriptKiB = Math.round((scripts.transferSize / 1024) * 10) / 10;
  const error =
    result.runtimeError?.message ?? (figures.performance === undefined ? lcp?.errorMessage : undefined);
  if (error) figures.error = error;
  else if (figures.performance === undefined) figures.error = 'no performance score in the result';
  return figures;
}

/**
 * Lighthouse on `url`. `headers` go with every request the page makes (a signed-in page's
 * session cookies: Lighthouse's own `--extra-headers`).
 */
export async function runLighthouse(
  url: string,
  chromiumPath: string,
  headers?: Record<string, string>,
  /** Where to keep Lighthouse's whole JSON result (its traces and audits), for a closer look. */
  keepAs?: string,
): Promise<LighthouseFigures> {
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
          ...(headers ? [`--extra-headers=${JSON.stringify(headers)}`] : []),
        ],
        { env: { ...process.env, CHROME_PATH: chromiumPath }, timeout: 180_000 },
        (error, _stdout, stderr) =>
          error ? reject(new Error(`${error.message}\n${stderr.slice(-2000)}`)) : resolve(),
      );
    });
    const text = await readFile(output, 'utf8');
    if (keepAs) {
      await mkdir(path.dirname(keepAs), { recursive: true });
      await writeFile(keepAs, text);
    }
    return summariseLighthouse(JSON.parse(text));
  } catch (error) {
    return { error: (error as Error).message.split('\n')[0]!.slice(0, 300) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
