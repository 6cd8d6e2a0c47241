/** The feature flag changes, each reloading the staff list and the flags every visitor reads. */
import { trpc } from '../../lib/trpc.ts';

type ToggleOptions = Parameters<typeof trpc.flags.toggle.useMutation>[0];
type DescribeOptions = Parameters<typeof trpc.flags.describe.useMutation>[0];
type CreateOptions = Parameters<typeof trpc.flags.create.useMutation>[0];

function useRefreshFlags() {
  const utils = trpc.useUtils();
  return () => {
    void utils.flags.list.invalidate();
    void utils.flags.public.invalidate();
  };
}

export function useToggleFlag(options: ToggleOptions = {}) {
  const refresh = useRefreshFlags();
  return trpc.flags.toggle.useMutation({
    ...options,
    onSuccess: (...args) => {
      refresh();
      return options.onSuccess?.(...args);
    },
  });
}

export function useDescribeFlag(options: DescribeOptions = {}) {
  const refresh = useRefreshFlags();
  return trpc.flags.describe.useMutation({
    ...options,
    onSuccess: (...args) => {
      refresh();
      return options.onSuccess?.(...args);
    },
  });
}

export function useCreateFlag(options: CreateOptions = {}) {
  const refresh = useRefreshFlags();
  return trpc.flags.create.useMutation({
    ...options,
    onSuccess: (...args) => {
      refresh();
      return options.onSuccess?.(...args);
    },
  });
}
