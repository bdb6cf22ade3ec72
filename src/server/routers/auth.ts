// Accounts: register, login, logout, session check, password change and reset, email
// verification. Failures never say whether an email is registered: register answers the same
// for a new and a known email (the owner of a known one gets an email), login has one message
// and costs the same time either way, and reset always answers the same text.
import { TRPCError } from '@trpc/server';
import { generateIdFromEntropySize } from 'lucia';
import { z } from 'zod';
import {
  adminPassword,
  changePasswordInput,
  loginInput,
  registerInput,
  requestResetInput,
  resetPasswordInput,
  verifyEmailInput,
  type PublicUser,
} from '#shared/auth.ts';
import { publicProcedure, router, userProcedure } from '../trpc.ts';
import { hashPassword, verifyNothing, verifyPassword } from '../auth/password.ts';
import { enforce, LIMITS } from '../auth/rate-limit.ts';
import { hashToken } from '../auth/tokens.ts';
import { sendPasswordReset, sendVerification } from '../auth/email-links.ts';
import { queueEmail } from '../email/outbox.ts';
import { accountExistsEmail } from '../email/templates.ts';
import {
  claimResetToken,
  expireResetTokens,
  insertUser,
  passwordHashOf,
  resetTokenRole,
  setPassword,
  userByEmail,
  userById,
  usernameTaken,
  verifyEmailByToken,
} from '../queries/users.ts';
import { isUniqueViolation } from '../queries/errors.ts';

export const REGISTERED_MESSAGE =
  'Registration successful! Please check your email to verify your address, then log in.';
export const RESET_REQUESTED_MESSAGE = 'If your email is registered, you will receive a password reset link shortly.';
const INVALID_LOGIN = 'Invalid email or password.';

const publicUser = (u: PublicUser): PublicUser => ({
  id: u.id,
  username: u.username,
  email: u.email,
  first_name: u.first_name,
  last_name: u.last_name,
  email_verified: u.email_verified,
  role: u.role,
});

/** Admin accounts keep the stronger password rule, whichever screen sets the password. */
function checkPasswordPolicy(role: string, password: string) {
  if (role !== 'admin') return;
  const result = adminPassword.safeParse(password);
  if (!result.success) throw new TRPCError({ code: 'BAD_REQUEST', message: result.error.issues[0]!.message });
}

export const authRouter = router({
  register: publicProcedure.input(registerInput).mutation(async ({ ctx, input }) => {
    await enforce(ctx, [[`register:ip:${ctx.http.ip}`, LIMITS.registerPerIp]]);
    const passwordHash = await hashPassword(input.password);
    try {
      await ctx.sql.begin(async (tx) => {
        const known = await userByEmail(tx, input.email);
        if (known) {
          const base = ctx.config.publicUrl;
          await queueEmail(tx, accountExistsEmail(known.email, `${base}/auth`, `${base}/forgot-password`));
          return;
        }
        if (await usernameTaken(tx, input.username))
          throw new TRPCError({ code: 'CONFLICT', message: 'That username is already taken. Please choose another.' });
        const id = generateIdFromEntropySize(10);
        await insertUser(tx, {
          id,
          username: input.username,
          email: input.email,
          passwordHash,
          firstName: input.first_name,
          lastName: input.last_name,
        });
        await sendVerification(tx, ctx.config.publicUrl, { id, email: input.email, username: input.username });
      });
    } catch (error) {
      // Two registrations racing for one username or email: the loser gets the same answers.
      if (isUniqueViolation(error, 'users_username_key'))
        throw new TRPCError({ code: 'CONFLICT', message: 'That username is already taken. Please choose another.' });
      if (!isUniqueViolation(error, 'users_email_key')) throw error;
    }
    return { message: REGISTERED_MESSAGE };
  }),

  login: publicProcedure.input(loginInput).mutation(async ({ ctx, input }) => {
    await enforce(ctx, [
      [`login:ip:${ctx.http.ip}`, LIMITS.loginPerIp],
      [`login:account:${input.email}`, LIMITS.loginPerAccount],
    ]);
    const user = await userByEmail(ctx.sql, input.email);
    const ok = user ? await verifyPassword(user.password_hash, input.password) : await verifyNothing(input.password);
    if (!user || !ok) throw new TRPCError({ code: 'UNAUTHORIZED', message: INVALID_LOGIN });
    const session = await ctx.config.sessions.create(user.id, input.remember ?? false);
    ctx.http.setCookie(session.cookie);
    return { token: session.id, expiresAt: session.expiresAt.toISOString(), user: publicUser(user) };
  }),

  /** Ends the caller's session, or the one whose token is given. */
  logout: publicProcedure
    .input(z.object({ token: z.string().max(200).optional() }).optional())
    .mutation(async ({ ctx, input }) => {
      let sessionId = ctx.session?.id;
      if (!sessionId && input?.token) sessionId = (await ctx.config.sessions.validate(input.token))?.session.id;
      if (sessionId) await ctx.config.sessions.invalidate(sessionId);
      ctx.http.setCookie(ctx.config.sessions.blankCookie());
      return { success: true as const };
    }),

  /** The signed-in user (GET /api/auth/verify). */
  verify: userProcedure.query(async ({ ctx }) => {
    const user = await userById(ctx.sql, ctx.user.id);
    if (!user) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Authentication required' });
    return { user: publicUser(user) };
  }),

  changePassword: userProcedure.input(changePasswordInput).mutation(async ({ ctx, input }) => {
    if (input.user_id && input.user_id !== ctx.user.id) {
      throw new TRPCError({ code: 'FORBIDDEN', message: 'You can only change your own password' });
    }
    const currentHash = await passwordHashOf(ctx.sql, ctx.user.id);
    if (!currentHash || !(await verifyPassword(currentHash, input.current_password))) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'Current password is incorrect' });
    }
    checkPasswordPolicy(ctx.user.role, input.new_password);
    const passwordHash = await hashPassword(input.new_password);
    await ctx.sql.begin(async (tx) => {
      // Every other session ends; this one stays signed in.
      await setPassword(tx, ctx.user.id, passwordHash, ctx.session.id);
      await expireResetTokens(tx, ctx.user.id);
    });
    return { success: true as const };
  }),

  requestReset: publicProcedure.input(requestResetInput).mutation(async ({ ctx, input }) => {
    await enforce(ctx, [
      [`reset:ip:${ctx.http.ip}`, LIMITS.resetPerIp],
      [`reset:account:${input.email}`, LIMITS.resetPerAccount],
    ]);
    const token = await ctx.sql.begin(async (tx) => {
      const user = await userByEmail(tx, input.email);
      return user ? sendPasswordReset(tx, ctx.config.publicUrl, user) : null;
    });
    return {
      message: RESET_REQUESTED_MESSAGE,
      // Demonstration mode only (EXPOSE_RESET_TOKEN=1): the token is normally only emailed.
      ...(ctx.config.exposeResetToken && token ? { resetToken: token } : {}),
    };
  }),

  resetPassword: publicProcedure.input(resetPasswordInput).mutation(async ({ ctx, input }) => {
    await enforce(ctx, [[`reset:ip:${ctx.http.ip}`, LIMITS.resetPerIp]]);
    const invalid = () => new TRPCError({ code: 'BAD_REQUEST', message: 'The reset token is invalid or has expired.' });
    const role = await resetTokenRole(ctx.sql, hashToken(input.token));
    if (role === null) throw invalid();
    checkPasswordPolicy(role, input.newPassword);
    const passwordHash = await hashPassword(input.newPassword);
    await ctx.sql.begin(async (tx) => {
      // Claiming the token and changing the password happen together, once.
      const userId = await claimResetToken(tx, hashToken(input.token));
      if (userId === null) throw invalid();
      await setPassword(tx, userId, passwordHash);
    });
    return { success: true as const };
  }),

  verifyEmail: publicProcedure.input(verifyEmailInput).mutation(async ({ ctx, input }) => {
    // Only the address the link was sent to is verified, even if the account changed since.
    const verified = await ctx.sql.begin((tx) => verifyEmailByToken(tx, hashToken(input.token)));
    if (!verified)
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'This verification link is invalid or has expired.' });
    return { success: true as const };
  }),

  resendVerification: userProcedure.mutation(async ({ ctx }) => {
    await enforce(ctx, [[`verify:account:${ctx.user.id}`, LIMITS.resetPerAccount]]);
    await ctx.sql.begin(async (tx) => {
      const user = await userById(tx, ctx.user.id);
      if (user && !user.email_verified) await sendVerification(tx, ctx.config.publicUrl, user);
    });
    return { success: true as const };
  }),
});
