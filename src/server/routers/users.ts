// One account's profile, deletion and price alerts: that user or an admin (accountProcedure).
import { TRPCError } from '@trpc/server';
import { profileInput } from '#shared/auth.ts';
import { accountProcedure, router } from '../trpc.ts';
import { sendVerification } from '../auth/email-links.ts';
import { deleteUser, subscriptionsOf, updateProfile, userById } from '../queries/users.ts';
import { isUniqueViolation } from '../queries/errors.ts';

export const usersRouter = router({
  byId: accountProcedure.query(async ({ ctx, input }) => {
    const user = await userById(ctx.sql, input.id);
    if (!user) throw new TRPCError({ code: 'NOT_FOUND', message: 'User not found' });
    return user;
  }),

  update: accountProcedure.input(profileInput).mutation(async ({ ctx, input }) => {
    try {
      return await ctx.sql.begin(async (tx) => {
        const current = await userById(tx, input.id);
        if (!current) throw new TRPCError({ code: 'NOT_FOUND', message: 'User not found' });
        const emailChanged = current.email.toLowerCase() !== input.email.toLowerCase();
        await updateProfile(tx, input.id, {
          username: input.username,
          email: input.email,
          first_name: input.first_name,
          last_name: input.last_name,
          emailVerified: emailChanged ? false : current.email_verified,
        });
        // A new address must be confirmed again.
        if (emailChanged)
          await sendVerification(tx, ctx.config.publicUrl, {
            id: input.id,
            email: input.email,
            username: input.username,
          });
        return (await userById(tx, input.id))!;
      });
    } catch (error) {
      if (isUniqueViolation(error, 'users_username_key'))
        throw new TRPCError({ code: 'CONFLICT', message: 'That username is already taken.' });
      if (isUniqueViolation(error, 'users_email_key'))
        throw new TRPCError({ code: 'CONFLICT', message: 'That email address is already in use.' });
      throw error;
    }
  }),

  /**
   * Deletes the account and everything of it: sessions, tokens and its subscriptions (also those
   * made for its address without logging in) go with it; the email outbox forgets its address
   * and the confirmation emails of its alerts to other addresses;
   * scrape runs it started stay, without their requester.
   */
  delete: accountProcedure.mutation(async ({ ctx, input }) => {
    const deleted = await ctx.sql.begin((tx) => deleteUser(tx, input.id));
    if (!deleted) throw new TRPCError({ code: 'NOT_FOUND', message: 'User not found' });
    if (input.id === ctx.user.id) ctx.http.setCookie(ctx.config.sessions.blankCookie());
    return { success: true as const };
  }),

  alerts: accountProcedure.query(({ ctx, input }) => subscriptionsOf(ctx.sql, input.id)),
});
