/** The staff and account pages' kit (README.md beside this file). */

export { ChartArea } from './ChartArea.tsx';
export { FormDialog, type FormDialogProps, showServerError } from './FormDialog.tsx';
export { EmptyState, LoadingLine } from './feedback.tsx';
export {
  clearFilters,
  defaultFilters,
  type FilterSchema,
  PAGE_KEYS,
  readFilters,
  writeFilters,
} from './filter-params.ts';
export { thenRefresh } from './mutations.ts';
export {
  isEmptyData,
  QueryFailed,
  type QueryLike,
  QueryView,
  type QueryViewProps,
  StaleMark,
} from './QueryView.tsx';
export { TableScroll } from './TableScroll.tsx';
export { type FilterParams, useFilterParams } from './useFilterParams.ts';
