/**
 * /admin/accessibility (admins): the accessibility statement (the Markdown of
 * /pages/accessibility-policy, edited here) and an automated check of key pages. The check runs
 * axe-core in this browser: each page loads in an off-screen, same-origin frame, axe is added
 * to it from our own origin (so the content security rules allow it), and the violations are
 * listed by rule and impact.
 */
import { countOf } from '@reshelf/contracts';
import type { AxeResults, ImpactValue } from 'axe-core';
import axeScriptUrl from 'axe-core/axe.min.js?url';
import { LoaderCircle, Play } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { AdminPageFrame, EmptyState, formatDateTime } from '../../components/staff/AdminPageFrame.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input, Label, Textarea } from '../../components/ui/input.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { QueryView } from '../../kit/QueryView.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { trpc } from '../../lib/trpc.ts';
import { useSaveStatement } from './hooks.ts';

/** The pages most visitors see first, checked in this order. */
export const KEY_PAGES = [
  { path: '/', label: 'Home' },
  { path: '/categories', label: 'Categories' },
  { path: '/recently-added', label: 'Recently added' },
  { path: '/login', label: 'Sign in' },
  { path: '/pages/accessibility-policy', label: 'Accessibility statement' },
] as const;

const IMPACT_ORDER: ImpactValue[] = ['critical', 'serious', 'moderate', 'minor'];

interface Violation {
  id: string;
  impact: ImpactValue | null;
  help: string;
  helpUrl: string;
  nodes: number;
}

type PageCheck =
  | { state: 'waiting' }
  | { state: 'running' }
  | { state: 'done'; violations: Violation[]; passes: number }
  | { state: 'failed'; message: string };

type AxeWindow = Window & { axe?: { run: (context: Document) => Promise<AxeResults> } };

const SETTLE_LIMIT_MS = 15_000;

/** Resolves when `ready()` holds, checking every 100 ms; gives up (resolves) after the limit. */
function settle(ready: () => boolean): Promise<void> {
  const started = Date.now();
  return new Promise((resolve) => {
    const tick = () =>
      ready() || Date.now() - started > SETTLE_LIMIT_MS ? resolve() : setTimeout(tick, 100);
    tick();
  });
}

async function checkPage(path: string): Promise<PageCheck> {
  const frame = document.createElement('iframe');
  frame.title = `Accessibility check of ${path}`;
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  Object.assign(frame.style, {
    position: 'fixed',
    left: '-20000px',
    top: '0',
    width: '1280px',
    height: '800px',
  });
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  frame.src = path;
  document.body.append(frame);
  try {
    await loaded;
    const win = frame.contentWindow as AxeWindow | null;
    const doc = frame.contentDocument;
    if (!win || !doc) return { state: 'failed', message: 'The page could not be opened in a frame.' };
    // The app draws the page after loading its data: wait for a main heading, not a spinner.
    await settle(() => Boolean(doc.querySelector('main h1')) && !doc.querySelector('[aria-busy="true"]'));
    await new Promise<void>((resolve, reject) => {
      const script = doc.createElement('script');
      script.src = axeScriptUrl;
      script.addEventListener('load', () => resolve(), { once: true });
      script.addEventListener('error', () =>
        reject(new Error('axe-core could not be loaded into the page.')),
      );
      doc.head.append(script);
    });
    if (!win.axe) return { state: 'failed', message: 'axe-core did not start in the page.' };
    const results = await win.axe.run(doc);
    return {
      state: 'done',
      passes: results.passes.length,
      violations: results.violations
        .map((violation) => ({
          id: violation.id,
          impact: violation.impact ?? null,
          help: violation.help,
          helpUrl: violation.helpUrl,
          nodes: violation.nodes.length,
        }))
        .sort(
          (a, b) =>
            IMPACT_ORDER.indexOf(a.impact ?? 'minor') - IMPACT_ORDER.indexOf(b.impact ?? 'minor') ||
            a.id.localeCompare(b.id),
        ),
    };
  } catch (error) {
    return { state: 'failed', message: error instanceof Error ? error.message : String(error) };
  } finally {
    frame.remove();
  }
}

export function AccessibilityPage() {
  return (
    <AdminPageFrame
      title="Accessibility"
      description="The accessibility statement on /pages/accessibility-policy, and an automated check (axe-core) of the pages most people see first."
      testId="accessibility-page"
      actions={
        <Button asChild variant="outline">
          <Link to="/pages/accessibility-policy">See the statement</Link>
        </Button>
      }
    >
      <StatementEditor />
      <AutomatedCheck />
    </AdminPageFrame>
  );
}

function StatementEditor() {
  const statement = trpc.staff.accessibility.statement.useQuery();
  // The form follows the saved statement: filled when it loads, and again after each save.
  const form = useForm({
    values: statement.data
      ? {
          title: statement.data.title,
          description: statement.data.description,
          body: statement.data.bodyMarkdown,
        }
      : { title: '', description: '', body: '' },
  });
  const save = useSaveStatement({
    onSuccess: () => {
      toast({ title: 'Statement saved', description: 'The accessibility statement page shows it now.' });
    },
    onError: (error) =>
      toast({ variant: 'destructive', title: 'Statement not saved', description: apiErrorMessage(error) }),
  });
  const submit = form.handleSubmit(({ title, description, body }) =>
    save.mutate({ title, description, bodyMarkdown: body }),
  );
  return (
    <section className="flex flex-col gap-3" aria-labelledby="statement-title">
      <h2 id="statement-title" className="text-2xl font-semibold">
        Accessibility statement
      </h2>
      <QueryView query={statement} pending="Loading the statement…">
        {(data) => (
          <form className="flex flex-col gap-3 rounded-xl border border-line bg-paper p-4" onSubmit={submit}>
            <div className="grid gap-3 sm:grid-cols-2">
              <div className="flex flex-col gap-1">
                <Label htmlFor="statement-page-title">Title</Label>
                <Input id="statement-page-title" required maxLength={120} {...form.register('title')} />
              </div>
              <div className="flex flex-col gap-1">
                <Label htmlFor="statement-description">Summary</Label>
                <Input
                  id="statement-description"
                  required
                  maxLength={300}
                  {...form.register('description')}
                />
              </div>
            </div>
            <div className="flex flex-col gap-1">
              <Label htmlFor="statement-body">Statement (Markdown)</Label>
              <Textarea
                id="statement-body"
                required
                className="min-h-72 font-mono text-sm"
                {...form.register('body')}
              />
            </div>
            <div className="flex flex-wrap items-center gap-3">
              <Button type="submit" disabled={save.isPending}>
                Save statement
              </Button>
              <p className="text-xs text-ink-muted">
                Last changed {formatDateTime(data.updatedAt)}
                {data.updatedBy ? ` by ${data.updatedBy}` : ''}
              </p>
            </div>
          </form>
        )}
      </QueryView>
    </section>
  );
}

function AutomatedCheck() {
  const [checks, setChecks] = useState<Record<string, PageCheck> | null>(null);
  const running =
    checks !== null &&
    Object.values(checks).some((check) => check.state === 'running' || check.state === 'waiting');

  async function run() {
    setChecks(Object.fromEntries(KEY_PAGES.map((page) => [page.path, { state: 'waiting' } as PageCheck])));
    for (const page of KEY_PAGES) {
      setChecks((current) => ({ ...current, [page.path]: { state: 'running' } }));
      const result = await checkPage(page.path);
      setChecks((current) => ({ ...current, [page.path]: result }));
    }
  }

  return (
    <section className="flex flex-col gap-3" aria-labelledby="axe-title">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 id="axe-title" className="text-2xl font-semibold">
            Automated check
          </h2>
          <p className="text-sm text-ink-soft">
            axe-core checks each page as it appears in this browser, signed in as you. It finds about a third
            of problems; test with a keyboard and a screen reader too.
          </p>
        </div>
        <Button onClick={() => void run()} disabled={running}>
          {running ? (
            <LoaderCircle className="animate-spin" aria-hidden="true" />
          ) : (
            <Play aria-hidden="true" />
          )}
          {running ? 'Checking…' : 'Run the check'}
        </Button>
      </div>
      {checks === null ? (
        <EmptyState>Run the check to see the results for {KEY_PAGES.length} key pages.</EmptyState>
      ) : (
        <ul className="flex flex-col gap-3" data-testid="axe-results" aria-live="polite">
          {KEY_PAGES.map((page) => {
            const check: PageCheck = checks[page.path] ?? { state: 'waiting' };
            return (
              <li
                key={page.path}
                data-testid="axe-page"
                data-path={page.path}
                data-state={check.state}
                className="rounded-xl border border-line bg-paper p-4"
              >
                <p className="font-semibold">
                  {page.label}{' '}
                  <Link to={page.path} className="font-mono text-xs text-brand hover:underline">
                    {page.path}
                  </Link>
                </p>
                {check.state === 'waiting' ? (
                  <p className="text-sm text-ink-muted">Waiting…</p>
                ) : check.state === 'running' ? (
                  <p className="flex items-center gap-2 text-sm text-ink-muted">
                    <LoaderCircle className="size-4 animate-spin" aria-hidden="true" /> Checking…
                  </p>
                ) : check.state === 'failed' ? (
                  <p className="text-sm text-destructive">Could not check this page: {check.message}</p>
                ) : (
                  <>
                    <p className="text-sm" data-testid="axe-summary">
                      {check.violations.length === 0
                        ? `No violations found; ${countOf(check.passes, 'rule', 'rules')} passed.`
                        : `${countOf(check.violations.length, 'rule', 'rules')} violated; ${countOf(check.passes, 'rule', 'rules')} passed.`}
                    </p>
                    {check.violations.length > 0 ? (
                      <table className="mt-2 w-full text-left text-sm">
                        <thead className="text-xs text-ink-muted uppercase">
                          <tr>
                            <th className="py-1 pr-2">Impact</th>
                            <th className="py-1 pr-2">Rule</th>
                            <th className="py-1 pr-2">Elements</th>
                          </tr>
                        </thead>
                        <tbody>
                          {check.violations.map((violation) => (
                            <tr
                              key={violation.id}
                              data-testid="axe-violation"
                              className="border-t border-line align-top"
                            >
                              <td className="py-1 pr-2 font-semibold capitalize">
                                {violation.impact ?? 'unknown'}
                              </td>
                              <td className="py-1 pr-2">
                                <a
                                  href={violation.helpUrl}
                                  target="_blank"
                                  rel="noreferrer"
                                  className="font-mono text-brand hover:underline"
                                >
                                  {violation.id}
                                </a>
                                <span className="block text-ink-soft">{violation.help}</span>
                              </td>
                              <td className="py-1 pr-2 tabular-nums">{violation.nodes}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    ) : null}
                  </>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
