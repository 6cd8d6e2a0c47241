/** Book signing changes: each reloads the events. */
import { thenRefresh } from '../../../kit/mutations.ts';
import { trpc } from '../../../lib/trpc.ts';

function useRefresh() {
  const utils = trpc.useUtils();
  return () => {
    void utils.catalogue.discovery.bookSignings.invalidate();
  };
}

export function useSetSigningPublished(
  options: Parameters<typeof trpc.catalogue.discovery.bookSignings.setPublished.useMutation>[0] = {},
) {
  return trpc.catalogue.discovery.bookSignings.setPublished.useMutation(
    thenRefresh(options, useRefresh(), 'onSettled'),
  );
}

export function useCreateSigning(
  options: Parameters<typeof trpc.catalogue.discovery.bookSignings.create.useMutation>[0] = {},
) {
  return trpc.catalogue.discovery.bookSignings.create.useMutation(thenRefresh(options, useRefresh()));
}

export function useUpdateSigning(
  options: Parameters<typeof trpc.catalogue.discovery.bookSignings.update.useMutation>[0] = {},
) {
  return trpc.catalogue.discovery.bookSignings.update.useMutation(thenRefresh(options, useRefresh()));
}
