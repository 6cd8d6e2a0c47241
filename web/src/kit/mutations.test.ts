import { describe, expect, it } from 'vitest';
import { thenRefresh } from './mutations.ts';

describe('thenRefresh', () => {
  it('refreshes after success, then calls the page’s own callback with its arguments', () => {
    const calls: string[] = [];
    const options = thenRefresh(
      { onSuccess: (data: number, input: string) => calls.push(`own ${data} ${input}`) },
      () => calls.push('refresh'),
    );
    options.onSuccess?.(1, 'a');
    expect(calls).toEqual(['refresh', 'own 1 a']);
  });

  it('can refresh on settled instead, leaving onSuccess alone', () => {
    const calls: string[] = [];
    const options = thenRefresh(
      { onSuccess: () => calls.push('own') },
      () => calls.push('refresh'),
      'onSettled',
    );
    options.onSuccess?.();
    expect(calls).toEqual(['own']);
    (options as { onSettled?: () => void }).onSettled?.();
    expect(calls).toEqual(['own', 'refresh']);
  });

  it('refreshes when the page has no callback', () => {
    let refreshed = 0;
    (thenRefresh({}, () => refreshed++) as { onSuccess?: () => void }).onSuccess?.();
    expect(refreshed).toBe(1);
  });
});
