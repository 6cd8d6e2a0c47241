/** The feature flag changes, each reloading the staff list and the flags every visitor reads. */
import { trpc } from '../../lib/trpc.ts';

type ToggleOptions = Parameters<typeof trpc.platform.flags.toggle.useMutation>[0];
type DescribeOptions = Parameters<typeof trpc.platform.flags.describe.useMutation>[0];
type CreateOptions = Parameters<typeof trpc.platform.flags.create.useMutation>[0];

function useRefreshFlags() {
  const utils = trpc.useUtils();
  return () => {
    void utils.platform.flags.list.invalidate();
    void utils.platform.flags.public.invalidate();
  };
}

export function useToggleFlag(options: ToggleOptions = {}) {
  const refresh = useRefreshFlags();
  return trpc.platform.flags.toggle.useMutation({
    ...options,
    onSuccess: (...args) => {
      refresh();
      return options.onSuccess?.(...args);
    },
  });
}

export function useDescribeFlag(options: DescribeOptions = {}) {
  const refresh = useRefreshFlags();
  return trpc.platform.flags.describe.useMutation({
    ...options,
    onSuccess: (...args) => {
      refresh();
      return options.onSuccess?.(...args);
    },
  });
}

export function useCreateFlag(options: CreateOptions = {}) {
  const refresh = useRefreshFlags();
  return trpc.platform.flags.create.useMutation({
    ...options,
    onSuccess: (...args) => {
      refresh();
      return options.onSuccess?.(...args);
    },
  });
}
