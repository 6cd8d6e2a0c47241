/**
 * axe-core in a browser test page: the WCAG 2.2 AA rules the accessibility file checks every
 * page with (issue 35), and which violations fail a test. One place, so a page's own browser
 * test (a form opened in place, say) is held to the same rules as the route table.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(
  createRequire(new URL('../../web/package.json', import.meta.url)).resolve('axe-core/axe.min.js'),
  'utf8',
);
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
/** Violations of these impacts fail a test. */
export const FAILING_IMPACTS = new Set(['serious', 'critical']);

export interface AxeViolation {
  rule: string;
  impact: string;
  nodes: number;
  targets: string[];
}

/** axe over the whole document as it is now: every violation, with its first three targets. */
export async function runAxe(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    type AxeResult = {
      violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[];
    };
    const axe = (window as unknown as { axe: { run: (c: Document, o: unknown) => Promise<AxeResult> } }).axe;
    const results = await axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    });
    return results.violations.map((v) => ({
      rule: v.id,
      impact: v.impact ?? 'unknown',
      nodes: v.nodes.length,
      targets: v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)),
    }));
  }, WCAG_TAGS);
}
