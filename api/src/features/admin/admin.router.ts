import { z } from 'zod';
import { router, staffProcedure } from '../../trpc.ts';

export const adminRouter = router({
  /** The staff guard of /admin: who the caller is as staff. */
  access: staffProcedure
    .input(z.void())
    .output(z.object({ roles: z.array(z.string()), isAdmin: z.boolean() }))
    .query(({ ctx }) => ({ roles: ctx.roles, isAdmin: ctx.isAdmin })),
});
