/**
 * The breadcrumb trail: a separator between two links, never after the last one (a
 * trail ending in "/" points at nothing), the same on every page that has a trail.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { PageHeader } from './PageHeader.tsx';

function trail(crumbs: { to: string; label: string }[]): string {
  const html = renderToStaticMarkup(
    <MemoryRouter>
      <PageHeader title="Saved searches" crumbs={crumbs} />
    </MemoryRouter>,
  );
  const nav = html.match(/<nav aria-label="Breadcrumb"[^>]*>([\s\S]*?)<\/nav>/)?.[1] ?? '';
  return nav.replace(/<[^>]+>/g, '').trim();
}

describe('breadcrumbs', () => {
  it('separate their links and end with the last one, not with "/"', () => {
    expect(trail([{ to: '/account', label: 'Your account' }])).toBe('Your account');
    expect(
      trail([
        { to: '/account', label: 'Your account' },
        { to: '/account/orders', label: 'Your orders' },
      ]),
    ).toBe('Your account/Your orders');
  });
});
