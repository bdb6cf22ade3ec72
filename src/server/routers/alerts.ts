// Price-alert subscriptions (the Subscribe screen, /api/subscribers). Anyone may subscribe; an
// address the subscriber has not proven (not the verified email of the signed-in user) stays
// pending until the link mailed to it is followed, so nobody can sign a stranger up for email.
// The answer is the same whether or not the address has an account. Editing and deleting: the
// subscription's owner or an admin (others get NOT_FOUND, so ids cannot be probed), or anyone
// holding the link token of one of its emails (the manage page: everything but the address).
import { TRPCError } from '@trpc/server';
import { subscriptionIdInput } from '#shared/auth.ts';
import {
  MAX_ACTIVE_SUBSCRIPTIONS,
  subscriptionInput,
  subscriptionManageInput,
  subscriptionTokenInput,
  subscriptionUpdateInput,
  type Subscription,
  type SubscriptionValues,
} from '#shared/subscriptions.ts';
import { publicProcedure, router, userProcedure } from '../trpc.ts';
import { enforce, LIMITS } from '../auth/rate-limit.ts';
import { queueEmail } from '../email/outbox.ts';
import { confirmSubscriptionEmail, describeSubscription, existingSubscriptionEmail } from '../email/alerts.ts';
import type { Db } from '../db.ts';
import {
  activeCountFor,
  confirmByToken,
  deleteSubscription,
  insertSubscription,
  issueConfirmation,
  issueLinkToken,
  lockSubscriptionsOf,
  sameSubscription,
  subscriptionById,
  subscriptionByLinkToken,
  unsubscribeByToken,
  updateSubscription,
} from '../queries/subscriptions.ts';
import { storeNames } from '../queries/stores.ts';
import type { Context } from '../context.ts';

const PENDING_MESSAGE =
  'Check your inbox: we sent a link to confirm this alert. Nothing is sent until it is confirmed.';
const CONFIRMED_MESSAGE = 'Subscription created! Alerts go to your verified email address.';
/** Said to whoever may manage the existing alert here (its owner, or the address's verified user). */
const EXISTS_YOURS = 'You already have this price alert: nothing new was added. Manage it below.';
/** Said to anyone else: the link to manage it goes to the address, never to the requester. */
const EXISTS_EMAILED =
  'This email already has a price alert with these settings: nothing new was added. We sent a link to manage it to that address.';
const INVALID_CONFIRMATION = 'This confirmation link is invalid or has expired.';
const INVALID_LINK = 'This link is invalid: open the link of a recent EggWatch email again.';

/** The signed-in user's own verified address needs no confirmation. */
function provenBy(ctx: Context, email: string): boolean {
  return Boolean(ctx.user && ctx.user.email_verified && ctx.user.email.toLowerCase() === email.toLowerCase());
}

async function sendConfirmation(tx: Db, ctx: Context, subscription: Subscription): Promise<void> {
  const token = await issueConfirmation(tx, subscription.id);
  const url = `${ctx.config.publicUrl}/notifications/confirm?token=${encodeURIComponent(token)}`;
  // Like every email of a subscription, the confirmation can manage or stop it.
  const links = { publicUrl: ctx.config.publicUrl, token: await issueLinkToken(tx, subscription.id) };
  await queueEmail(
    tx,
    confirmSubscriptionEmail(subscription.email, describeSubscription(subscription, await storeNames(tx)), url, links),
  );
}

/** Mails the address a link to manage its existing alert (someone subscribed to it again). */
async function sendManageLink(tx: Db, ctx: Context, subscription: Subscription): Promise<void> {
  const links = { publicUrl: ctx.config.publicUrl, token: await issueLinkToken(tx, subscription.id) };
  await queueEmail(
    tx,
    existingSubscriptionEmail(subscription.email, describeSubscription(subscription, await storeNames(tx)), links),
  );
}

/**
 * Saves new values of an existing subscription in one transaction: the per-address limit holds
 * when it becomes active or moves to another address, and a new, unproven address must be
 * confirmed before anything is sent to it.
 */
async function save(ctx: Context, current: Subscription, values: SubscriptionValues): Promise<Subscription> {
  const emailChanged = current.email.toLowerCase() !== values.email.toLowerCase();
  const confirmed = emailChanged ? provenBy(ctx, values.email) : ('keep' as const);
  return ctx.sql.begin(async (tx) => {
    await lockSubscriptionsOf(tx, values.email);
    if (
      values.active &&
      (!current.active || emailChanged) &&
      (await activeCountFor(tx, values.email, current.id)) >= MAX_ACTIVE_SUBSCRIPTIONS
    ) {
      throw new TRPCError({
        code: 'CONFLICT',
        message: `An address can have at most ${MAX_ACTIVE_SUBSCRIPTIONS} active price alerts.`,
      });
    }
    const updated = await updateSubscription(tx, current.id, values, confirmed);
    if (confirmed === false) await sendConfirmation(tx, ctx, updated);
    return updated;
  });
}

async function byLinkToken(ctx: Context, token: string): Promise<Subscription> {
  const subscription = await subscriptionByLinkToken(ctx.sql, token);
  if (!subscription) throw new TRPCError({ code: 'NOT_FOUND', message: INVALID_LINK });
  return subscription;
}

async function owned(ctx: Context & { user: NonNullable<Context['user']> }, id: number) {
  const subscription = await subscriptionById(ctx.sql, id);
  // Someone else's subscription is "not found", as if it did not exist.
  if (!subscription || (subscription.user_id !== ctx.user.id && ctx.user.role !== 'admin')) {
    throw new TRPCError({ code: 'NOT_FOUND', message: 'Subscription not found' });
  }
  return subscription;
}

export const alertsRouter = router({
  create: publicProcedure.input(subscriptionInput).mutation(async ({ ctx, input }) => {
    await enforce(ctx, [
      [`subscribe:ip:${ctx.http.ip}`, LIMITS.subscribePerIp],
      [`subscribe:email:${input.email}`, LIMITS.subscribePerEmail],
    ]);
    const confirmed = provenBy(ctx, input.email);
    type Outcome = { created: Subscription } | { exists: Subscription; mine: boolean };
    const outcome = await ctx.sql.begin(async (tx): Promise<Outcome> => {
      // Serialises subscriptions of one address so the limit holds, and no alert is added twice,
      // under concurrent requests.
      await lockSubscriptionsOf(tx, input.email);
      // The same alert twice is one: say so, and offer to manage the one there is.
      const existing = await sameSubscription(tx, input);
      if (existing) {
        const { user_id: owner, ...found } = existing;
        if (confirmed || (ctx.user && owner === ctx.user.id)) return { exists: found, mine: true };
        if (found.confirmed_at) await sendManageLink(tx, ctx, found);
        else await sendConfirmation(tx, ctx, found);
        return { exists: found, mine: false };
      }
      if (input.active && (await activeCountFor(tx, input.email)) >= MAX_ACTIVE_SUBSCRIPTIONS) {
        throw new TRPCError({
          code: 'CONFLICT',
          message: `An address can have at most ${MAX_ACTIVE_SUBSCRIPTIONS} active price alerts. Delete one to add another.`,
        });
      }
      const created = await insertSubscription(tx, input, { userId: ctx.user?.id ?? null, confirmed });
      if (!confirmed) await sendConfirmation(tx, ctx, created);
      return { created };
    });
    if ('exists' in outcome) {
      return {
        // Only whoever may manage it here sees the existing alert.
        subscription: outcome.mine ? outcome.exists : null,
        status: 'exists' as const,
        manageable: outcome.mine,
        message: outcome.mine ? EXISTS_YOURS : EXISTS_EMAILED,
      };
    }
    return {
      subscription: outcome.created,
      status: confirmed ? ('confirmed' as const) : ('pending' as const),
      manageable: false,
      message: confirmed ? CONFIRMED_MESSAGE : PENDING_MESSAGE,
    };
  }),

  byId: userProcedure.input(subscriptionIdInput).query(async ({ ctx, input }) => {
    const { user_id: _owner, ...subscription } = await owned(ctx, input.id);
    return subscription;
  }),

  update: userProcedure.input(subscriptionUpdateInput).mutation(async ({ ctx, input }) => {
    const { id, ...values } = input;
    const subscription = await save(ctx, await owned(ctx, id), values);
    return {
      subscription,
      status: subscription.confirmed_at ? ('confirmed' as const) : ('pending' as const),
      message: subscription.confirmed_at ? 'Subscription updated' : PENDING_MESSAGE,
    };
  }),

  /** Deletes one subscription (its owner or an admin). */
  delete: userProcedure.input(subscriptionIdInput).mutation(async ({ ctx, input }) => {
    await owned(ctx, input.id);
    await deleteSubscription(ctx.sql, input.id);
    return { success: true as const };
  }),

  /**
   * The link of the confirmation email (double opt-in). Opened again, it says the subscription is
   * already confirmed; an unknown or expired link is refused.
   */
  confirm: publicProcedure.input(subscriptionTokenInput).mutation(async ({ ctx, input }) => {
    const result = await confirmByToken(ctx.sql, input.token);
    if (!result) throw new TRPCError({ code: 'NOT_FOUND', message: INVALID_CONFIRMATION });
    return {
      status: result.outcome,
      subscription: result.subscription,
      summary: describeSubscription(result.subscription, await storeNames(ctx.sql)),
    };
  }),

  /** What an unsubscribe link points at (the page asks before unsubscribing; link scanners only GET). */
  unsubscribeInfo: publicProcedure.input(subscriptionTokenInput).query(async ({ ctx, input }) => {
    const subscription = await subscriptionByLinkToken(ctx.sql, input.token);
    if (!subscription) throw new TRPCError({ code: 'NOT_FOUND', message: 'This unsubscribe link is invalid.' });
    return {
      email: subscription.email,
      active: subscription.active,
      summary: describeSubscription(subscription, await storeNames(ctx.sql)),
    };
  }),

  /** The manage link of an email: the subscription it belongs to (no account needed). */
  manage: publicProcedure.input(subscriptionTokenInput).query(async ({ ctx, input }) => {
    const subscription = await byLinkToken(ctx, input.token);
    return { subscription, summary: describeSubscription(subscription, await storeNames(ctx.sql)) };
  }),

  /** Saves the manage page: everything but the address, which only its owner's account may change. */
  manageUpdate: publicProcedure.input(subscriptionManageInput).mutation(async ({ ctx, input }) => {
    const { token, ...values } = input;
    const current = await byLinkToken(ctx, token);
    const subscription = await save(ctx, current, { ...values, email: current.email });
    return {
      subscription,
      summary: describeSubscription(subscription, await storeNames(ctx.sql)),
      message: 'Your price alert is saved.',
    };
  }),

  /** Unsubscribes without a login: the link's token is the proof. */
  unsubscribe: publicProcedure.input(subscriptionTokenInput).mutation(async ({ ctx, input }) => {
    const subscription = await unsubscribeByToken(ctx.sql, input.token);
    if (!subscription) throw new TRPCError({ code: 'NOT_FOUND', message: 'This unsubscribe link is invalid.' });
    return {
      success: true as const,
      email: subscription.email,
      summary: describeSubscription(subscription, await storeNames(ctx.sql)),
    };
  }),
});
