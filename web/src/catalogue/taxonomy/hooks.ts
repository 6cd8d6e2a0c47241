/** Taxonomy changes: each reloads the trees and the public pages built from them. */
import { thenRefresh } from '../../kit/mutations.ts';
import { trpc } from '../../lib/trpc.ts';

function useRefresh() {
  const utils = trpc.useUtils();
  return () => {
    void utils.catalogue.taxonomy.invalidate();
    void utils.discovery.public.invalidate();
    void utils.catalogue.public.invalidate();
  };
}

export function useMoveTaxonomyNode(
  options: Parameters<typeof trpc.catalogue.taxonomy.move.useMutation>[0] = {},
) {
  return trpc.catalogue.taxonomy.move.useMutation(thenRefresh(options, useRefresh(), 'onSettled'));
}

export function useRetireTaxonomyNode(
  options: Parameters<typeof trpc.catalogue.taxonomy.retire.useMutation>[0] = {},
) {
  return trpc.catalogue.taxonomy.retire.useMutation(thenRefresh(options, useRefresh(), 'onSettled'));
}

export function useAddTaxonomyNode(
  options: Parameters<typeof trpc.catalogue.taxonomy.add.useMutation>[0] = {},
) {
  return trpc.catalogue.taxonomy.add.useMutation(thenRefresh(options, useRefresh()));
}

export function useUpdateTaxonomyNode(
  options: Parameters<typeof trpc.catalogue.taxonomy.update.useMutation>[0] = {},
) {
  return trpc.catalogue.taxonomy.update.useMutation(thenRefresh(options, useRefresh()));
}
