/**
 * For a feature's hooks.ts: a mutation's options with the feature's cache refresh added after
 * success (or after any answer, `onSettled`), the page's own callback still called.
 */
type Callback = (...args: never[]) => unknown;

export function thenRefresh<O extends { onSuccess?: Callback; onSettled?: Callback }>(
  options: O,
  refresh: () => void,
  when: 'onSuccess' | 'onSettled' = 'onSuccess',
): O {
  const own = options[when] as ((...args: unknown[]) => unknown) | undefined;
  return {
    ...options,
    [when]: (...args: unknown[]) => {
      refresh();
      return own?.(...args);
    },
  };
}
