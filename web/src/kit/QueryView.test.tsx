import { TRPCClientError } from '@trpc/client';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CONNECTION_PROBLEM } from '../lib/api-errors.ts';
import { isEmptyData, type QueryLike, QueryView } from './QueryView.tsx';

type Rows = { rows: string[] };

function query(over: Partial<QueryLike<Rows>>): QueryLike<Rows> {
  return {
    data: undefined,
    error: null,
    isError: false,
    isPending: false,
    refetch: () => undefined,
    ...over,
  };
}

function render(q: QueryLike<Rows>, extra: { empty?: string } = { empty: 'Nothing here.' }) {
  return renderToStaticMarkup(
    <QueryView query={q} pending="Loading rows…" emptyTestId="rows-empty" {...extra}>
      {(data) => (
        <ul data-testid="rows">
          {data.rows.map((row) => (
            <li key={row}>{row}</li>
          ))}
        </ul>
      )}
    </QueryView>,
  );
}

function serverError(message: string) {
  return new TRPCClientError(message, {
    result: { error: { message, code: -32600, data: { code: 'BAD_REQUEST', httpStatus: 400 } } },
  } as never);
}

describe('QueryView', () => {
  it('while loading: the spinner line, announced as a status', () => {
    const html = render(query({ isPending: true }));
    expect(html).toContain('role="status"');
    expect(html).toContain('Loading rows…');
    expect(html).not.toContain('data-testid="rows"');
  });

  it('on failure: the server message as an alert with Try again', () => {
    const html = render(query({ isError: true, error: serverError('Order not found') }));
    expect(html).toContain('role="alert"');
    expect(html).toContain('Order not found');
    expect(html).toContain('Try again');
    expect(html).not.toContain('Loading rows…');
  });

  it('on failure without a server answer: the connection message', () => {
    const html = render(query({ isError: true, error: new TypeError('Failed to fetch') }));
    expect(html).toContain(CONNECTION_PROBLEM.replace("'", '&#x27;'));
  });

  it('shows "Trying again…" while the retry is running', () => {
    const html = render(query({ isError: true, error: serverError('Down'), isFetching: true }));
    expect(html).toContain('Trying again…');
  });

  it('with no rows: the empty message in the empty box', () => {
    const html = render(query({ data: { rows: [] } }));
    expect(html).toContain('Nothing here.');
    expect(html).toContain('data-testid="rows-empty"');
    expect(html).not.toContain('data-testid="rows"');
  });

  it('with no empty message: renders the data even when empty', () => {
    const html = render(query({ data: { rows: [] } }), {});
    expect(html).toContain('data-testid="rows"');
  });

  it('with data: the render prop', () => {
    const html = render(query({ data: { rows: ['a', 'b'] } }));
    expect(html).toBe('<ul data-testid="rows"><li>a</li><li>b</li></ul>');
  });

  it("while the previous filters' rows stay shown as new ones load: marks them stale, beside the rows", () => {
    const html = render(query({ data: { rows: ['a'] }, isPlaceholderData: true, isFetching: true }));
    expect(html).toBe(
      '<span role="status" class="sr-only" data-stale="">Updating…</span><ul data-testid="rows"><li>a</li></ul>',
    );
    expect(render(query({ data: { rows: [] }, isPlaceholderData: true }))).toContain('data-stale=""');
    expect(render(query({ data: { rows: ['a'] }, isFetching: true }))).not.toContain('data-stale');
  });

  it('takes a custom empty rule', () => {
    const html = renderToStaticMarkup(
      <QueryView query={query({ data: { rows: ['x'] } })} pending="…" empty="None" isEmpty={() => true}>
        {() => 'data'}
      </QueryView>,
    );
    expect(html).toContain('None');
  });
});

describe('isEmptyData', () => {
  it('knows arrays, rows/items lists and nulls', () => {
    expect(isEmptyData([])).toBe(true);
    expect(isEmptyData([1])).toBe(false);
    expect(isEmptyData({ rows: [] })).toBe(true);
    expect(isEmptyData({ items: [1] })).toBe(false);
    expect(isEmptyData(null)).toBe(true);
    expect(isEmptyData({ count: 0 })).toBe(false);
  });
});
