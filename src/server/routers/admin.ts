// The first administrator. Setup needs the setup key (ADMIN_SETUP_KEY, or the one generated and
// logged at start) and closes for good once any administrator exists.
import { TRPCError } from '@trpc/server';
import { generateIdFromEntropySize } from 'lucia';
import { adminSetupInput } from '#shared/auth.ts';
import { adminProcedure, publicProcedure, router } from '../trpc.ts';
import { hashPassword } from '../auth/password.ts';
import { enforce, LIMITS } from '../auth/rate-limit.ts';
import { safeEqual } from '../auth/tokens.ts';
import { adminExists } from '../queries/users.ts';
import { isUniqueViolation } from '../queries/errors.ts';

const SETUP_LOCK = 7_345_113;

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
        await tx`select pg_advisory_xact_lock(${SETUP_LOCK})`;
        if (await adminExists(tx))
          throw new TRPCError({ code: 'CONFLICT', message: 'Admin setup is closed: an administrator already exists.' });
        const id = generateIdFromEntropySize(10);
        await tx`
          insert into users (id, username, email, password_hash, role, email_verified)
          values (${id}, ${input.username}, ${input.email}, ${passwordHash}, 'admin', true)`;
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
    const [row] = await ctx.sql<{ users: number; admins: number; subscriptions: number }[]>`
      select (select count(*)::int from users) as users,
             (select count(*)::int from users where role = 'admin') as admins,
             (select count(*)::int from subscriptions) as subscriptions`;
    return row!;
  }),
});
