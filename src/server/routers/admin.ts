// The first administrator. Setup needs the setup key (ADMIN_SETUP_KEY, or the one generated and
// logged at start) and closes for good once any administrator exists.
import { TRPCError } from '@trpc/server';
import { generateIdFromEntropySize } from 'lucia';
import { adminSetupInput } from '#shared/auth.ts';
import { adminProcedure, publicProcedure, router } from '../trpc.ts';
import { hashPassword } from '../auth/password.ts';
import { enforce, LIMITS } from '../auth/rate-limit.ts';
import { safeEqual } from '../auth/tokens.ts';
import { adminExists, insertUser, lockAdminSetup, userCounts } from '../queries/users.ts';
import { isUniqueViolation } from '../queries/errors.ts';

export const adminRouter = router({
  setupStatus: publicProcedure.query(async ({ ctx }) => ({ open: !(await adminExists(ctx.sql)) })),

  setup: publicProcedure.input(adminSetupInput).mutation(async ({ ctx, input }) => {
    await enforce(ctx, [[`setup:ip:${ctx.http.ip}`, LIMITS.setupPerIp]]);
    if (!safeEqual(input.setupKey, ctx.config.adminSetupKey)) {
      throw new TRPCError({ code: 'FORBIDDEN', message: 'Invalid setup key' });
    }
    const passwordHash = await hashPassword(input.password);
    try {
      return await ctx.sql.begin(async (tx) => {
        // Serialises concurrent setups: exactly one can create the first admin.
        await lockAdminSetup(tx);
        if (await adminExists(tx))
          throw new TRPCError({ code: 'CONFLICT', message: 'Admin setup is closed: an administrator already exists.' });
        const id = generateIdFromEntropySize(10);
        await insertUser(tx, { id, username: input.username, email: input.email, passwordHash, role: 'admin' });
        return { user: { id, username: input.username, email: input.email, role: 'admin' as const } };
      });
    } catch (error) {
      if (isUniqueViolation(error, 'users_username_key') || isUniqueViolation(error, 'users_email_key')) {
        throw new TRPCError({ code: 'CONFLICT', message: 'That email or username is already in use.' });
      }
      throw error;
    }
  }),

  /** Accounts overview for the admin dashboard. */
  overview: adminProcedure.query(async ({ ctx }) => {
    return userCounts(ctx.sql);
  }),
});
