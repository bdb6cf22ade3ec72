// Price-alert subscriptions:
// the form's and the API's one schema, and the matching rule shared by the emails and the screens.
import { z } from 'zod';
import { eggTypeSchema, regionSchema } from './schemas.ts';
import { STORE_IDS, type EggType, type Region, type StoreId } from './vocabulary.ts';

export const NOTIFICATION_FREQUENCIES = ['immediately', 'daily', 'weekly'] as const;
export type NotificationFrequency = (typeof NOTIFICATION_FREQUENCIES)[number];

export const FREQUENCY_LABELS: Record<NotificationFrequency, string> = {
  immediately: 'Immediately',
  daily: 'Daily Digest',
  weekly: 'Weekly Summary',
};

/** At most this many active subscriptions per email address. */
export const MAX_ACTIVE_SUBSCRIPTIONS = 20;
/** Without a threshold, a listing matches when its price fell at least this much in 7 days. */
export const DROP_MATCH_PERCENT = 5;
export const CONFIRMATION_DAYS = 7;

/** 'all', blank, null or absent mean any; anything else must be a valid value. */
const allOrNull = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === 'all' || v === '' ? null : v), schema.nullable().optional()).transform((v) => v ?? null);

/** A price threshold per dozen: a number (or numeric text) with at most two decimals, 0 or more; blank means none. */
const threshold = z
  .union([z.number(), z.string().trim().max(20), z.null()])
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || value === null || value === '') return null;
    const n = typeof value === 'number' ? value : Number(value);
    if (!Number.isFinite(n)) {
      ctx.addIssue({ code: 'custom', message: 'Price threshold must be a number' });
      return z.NEVER;
    }
    if (n < 0) {
      ctx.addIssue({ code: 'custom', message: 'Price threshold cannot be negative' });
      return z.NEVER;
    }
    if (n > 999.99) {
      ctx.addIssue({ code: 'custom', message: 'Price threshold must be under $1,000' });
      return z.NEVER;
    }
    if (Math.abs(Math.round(n * 100) - n * 100) > 1e-6) {
      ctx.addIssue({ code: 'custom', message: 'Price threshold can have at most two decimals' });
      return z.NEVER;
    }
    return Math.round(n * 100) / 100;
  });

/** POST /api/subscribers body. Region and egg type may be 'all' (or omitted) for any. */
export const subscriptionInput = z
  .object({
    email: z
      .string()
      .trim()
      .toLowerCase()
      .max(254, 'Please enter a valid email address')
      .pipe(z.email('Please enter a valid email address')),
    region: allOrNull(regionSchema),
    egg_type: allOrNull(eggTypeSchema),
    preferred_stores: z
      .array(
        z
          .string()
          .trim()
          .toLowerCase()
          .pipe(z.enum(STORE_IDS, { message: `preferred stores must be among ${STORE_IDS.join(', ')}` })),
        {
          message: 'preferred_stores must be a list of store ids',
        },
      )
      .max(STORE_IDS.length)
      .optional()
      .transform((list) => [...new Set(list ?? [])]),
    notification_frequency: z
      .enum(NOTIFICATION_FREQUENCIES, { message: 'Frequency must be immediately, daily or weekly' })
      .optional()
      .default('weekly'),
    notification_channel: z.literal('email', { message: 'The only channel is email' }).optional().default('email'),
    price_threshold: threshold,
    active: z.boolean({ message: 'active must be true or false' }).optional().default(true),
  })
  .strict();
export type SubscriptionInput = z.input<typeof subscriptionInput>;
export type SubscriptionValues = z.output<typeof subscriptionInput>;

export const subscriptionUpdateInput = subscriptionInput.extend({
  id: z.coerce.number({ message: 'Subscription id must be a number' }).int().positive().max(2_147_483_647),
});

const linkToken = z.string().trim().min(16, 'The link is incomplete').max(200, 'The link is not valid');

export const subscriptionTokenInput = z.object({ token: linkToken }).strict();

/** The manage page (an email's link token): every field but the address. */
export const subscriptionManageInput = subscriptionInput.omit({ email: true }).extend({ token: linkToken });

/** A subscription as the API answers it. */
export interface Subscription {
  id: number;
  email: string;
  region: Region | null;
  egg_type: EggType | null;
  preferred_stores: StoreId[];
  notification_frequency: NotificationFrequency;
  notification_channel: 'email';
  price_threshold: number | null;
  active: boolean;
  confirmed_at: string | null;
  created_at: string;
}

export function pricePerDozen(price: number, count: number): number {
  return (price / count) * 12;
}
