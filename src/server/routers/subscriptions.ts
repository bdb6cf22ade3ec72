import { TRPCError } from '@trpc/server';
import { subscriptionIdInput } from '#shared/auth.ts';
import { router, userProcedure } from '../trpc.ts';

export const subscriptionsRouter = router({
  /** Deletes one of the caller's subscriptions (an admin may delete any). */
  delete: userProcedure.input(subscriptionIdInput).mutation(async ({ ctx, input }) => {
    const result = await ctx.sql`
      delete from subscriptions
      where id = ${input.id} and (user_id = ${ctx.user.id} or ${ctx.user.role === 'admin'})`;
    if (result.count === 0) throw new TRPCError({ code: 'NOT_FOUND', message: 'Subscription not found' });
    return { success: true };
  }),
});
