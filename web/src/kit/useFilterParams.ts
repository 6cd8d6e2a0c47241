/** useFilterParams(schema): a page's filters, typed, read from and written to the address. */
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { z } from 'zod';
import { clearFilters, type FilterSchema, readFilters, writeFilters } from './filter-params.ts';

export interface FilterParams<S extends FilterSchema> {
  /** The filters now, defaults filled in. */
  values: z.output<S>;
  /** Change some filters (any other filter change goes back to the first page unless keepPage). */
  set: (patch: Partial<z.output<S>>, options?: { keepPage?: boolean }) => void;
  /** Every filter back to its default. */
  reset: () => void;
  /** Whether any filter differs from its default (a "Clear filters" button shows then). */
  isFiltered: boolean;
}

export function useFilterParams<S extends FilterSchema>(
  schema: S,
  { replace = true }: { replace?: boolean } = {},
): FilterParams<S> {
  const [params, setParams] = useSearchParams();
  const key = params.toString();
  const values = useMemo(() => readFilters(schema, new URLSearchParams(key)), [schema, key]);
  const isFiltered = useMemo(() => {
    const now = new URLSearchParams(key);
    return Object.keys(schema.shape).some((name) => (now.get(name) ?? '') !== '');
  }, [schema, key]);
  const set = useCallback(
    (patch: Partial<z.output<S>>, options?: { keepPage?: boolean }) =>
      setParams((current) => writeFilters(schema, current, patch, options), { replace }),
    [schema, setParams, replace],
  );
  const reset = useCallback(
    () => setParams((current) => clearFilters(schema, current), { replace }),
    [schema, setParams, replace],
  );
  return { values, set, reset, isFiltered };
}
