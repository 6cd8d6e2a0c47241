/** Taxonomy changes: each reloads the trees and the public pages built from them. */
import { thenRefresh } from '../../kit/mutations.ts';
import { trpc } from '../../lib/trpc.ts';

function useRefresh() {
  const utils = trpc.useUtils();
  return () => {
    void utils.catalogue.taxonomy.invalidate();
    void utils.catalogue.discovery.public.invalidate();
    void utils.catalogue.taxonomy.public.invalidate();
  };
}

export function useMoveTaxonomyNode(
  options: Parameters<typeof trpc.catalogue.taxonomy.staff.move.useMutation>[0] = {},
) {
  return trpc.catalogue.taxonomy.staff.move.useMutation(thenRefresh(options, useRefresh(), 'onSettled'));
}

export function useRetireTaxonomyNode(
  options: Parameters<typeof trpc.catalogue.taxonomy.staff.retire.useMutation>[0] = {},
) {
  return trpc.catalogue.taxonomy.staff.retire.useMutation(thenRefresh(options, useRefresh(), 'onSettled'));
}

export function useAddTaxonomyNode(
  options: Parameters<typeof trpc.catalogue.taxonomy.staff.add.useMutation>[0] = {},
) {
  return trpc.catalogue.taxonomy.staff.add.useMutation(thenRefresh(options, useRefresh()));
}

export function useUpdateTaxonomyNode(
  options: Parameters<typeof trpc.catalogue.taxonomy.staff.update.useMutation>[0] = {},
) {
  return trpc.catalogue.taxonomy.staff.update.useMutation(thenRefresh(options, useRefresh()));
}
