/** Taxonomy changes: each reloads the trees and the public pages built from them. */
import { thenRefresh } from '../../../../kit/mutations.ts';
import { trpc } from '../../../../lib/trpc.ts';

function useRefresh() {
  const utils = trpc.useUtils();
  return () => {
    void utils.taxonomy.invalidate();
    void utils.discovery.invalidate();
    void utils.catalogue.invalidate();
  };
}

export function useMoveTaxonomyNode(options: Parameters<typeof trpc.taxonomy.move.useMutation>[0] = {}) {
  return trpc.taxonomy.move.useMutation(thenRefresh(options, useRefresh(), 'onSettled'));
}

export function useRetireTaxonomyNode(options: Parameters<typeof trpc.taxonomy.retire.useMutation>[0] = {}) {
  return trpc.taxonomy.retire.useMutation(thenRefresh(options, useRefresh(), 'onSettled'));
}

export function useAddTaxonomyNode(options: Parameters<typeof trpc.taxonomy.add.useMutation>[0] = {}) {
  return trpc.taxonomy.add.useMutation(thenRefresh(options, useRefresh()));
}

export function useUpdateTaxonomyNode(options: Parameters<typeof trpc.taxonomy.update.useMutation>[0] = {}) {
  return trpc.taxonomy.update.useMutation(thenRefresh(options, useRefresh()));
}
