// Price-alert subscriptions and their email links.
import { z } from 'zod';
import {
  NOTIFICATION_FREQUENCIES,
  subscriptionInput,
  subscriptionManageInput,
  subscriptionTokenInput,
} from '#shared/subscriptions.ts';
import { EGG_TYPES, REGIONS, STORE_IDS } from '#shared/vocabulary.ts';
import { route, type RestRoute } from '../route.ts';

export const subscriptionSchema = z.object({
  id: z.number(),
  email: z.string(),
  region: z.enum(REGIONS).nullable(),
  egg_type: z.enum(EGG_TYPES).nullable(),
  preferred_stores: z.array(z.enum(STORE_IDS)),
  notification_frequency: z.enum(NOTIFICATION_FREQUENCIES),
  notification_channel: z.literal('email'),
  price_threshold: z.number().nullable(),
  active: z.boolean(),
  confirmed_at: z.string().nullable(),
  created_at: z.string(),
});

const SUBSCRIPTION_ID = "The subscription's id";
const LINK = 'The link is not valid (or its subscription is gone)';
const TOO_MANY = 'The address has as many active price alerts as it may';

const saved = z.object({
  subscription: subscriptionSchema,
  status: z.enum(['confirmed', 'pending']),
  message: z.string(),
});

const created = z.object({
  subscription: subscriptionSchema
    .nullable()
    .describe('The subscription; null when one with these settings exists and the caller may not manage it here'),
  status: z
    .enum(['confirmed', 'pending', 'exists'])
    .describe(
      'exists: the address already has a subscription with these settings, and nothing was added (the link to manage it is mailed to the address, unless the caller owns it)',
    ),
  manageable: z.boolean().describe('Whether the caller may manage the existing subscription (status exists) here'),
  message: z.string(),
});

export const alertRoutes: RestRoute[] = [
  route({
    method: 'POST',
    path: '/subscribers',
    summary:
      "Subscribe to price alerts. An address that is not the signed-in user's verified email is confirmed by a link sent to it before any alert (status pending). Subscribing again with the same settings adds nothing (status exists)",
    procedure: 'alerts.create',
    body: subscriptionInput,
    response: created,
    status: 201,
    created: {
      when: (answer) => answer.status !== 'exists',
      otherwise: 'Nothing added: the address already has a subscription with these settings (status exists)',
    },
    errors: { 409: TOO_MANY, 429: 'Too many subscriptions from this address or for this email' },
  }),
  route({
    method: 'GET',
    path: '/subscribers/unsubscribe',
    private: true,
    summary: 'What an unsubscribe link points at',
    procedure: 'alerts.unsubscribeInfo',
    query: subscriptionTokenInput,
    response: z.object({ email: z.string(), active: z.boolean(), summary: z.string() }),
    errors: { 404: LINK },
  }),
  route({
    method: 'POST',
    path: '/subscribers/unsubscribe',
    summary: 'Unsubscribe with the token of an email link (no login)',
    procedure: 'alerts.unsubscribe',
    body: subscriptionTokenInput,
    response: z.object({ success: z.literal(true), email: z.string(), summary: z.string() }),
    errors: { 404: LINK },
  }),
  route({
    method: 'POST',
    path: '/subscribers/confirm',
    summary:
      'Confirm a subscription with the token of its confirmation email (status already-confirmed when the link was followed before)',
    procedure: 'alerts.confirm',
    body: subscriptionTokenInput,
    response: z.object({
      status: z.enum(['confirmed', 'already-confirmed']),
      subscription: subscriptionSchema,
      summary: z.string(),
    }),
    errors: { 404: LINK },
  }),
  route({
    method: 'GET',
    path: '/subscribers/manage',
    private: true,
    summary: 'The subscription a manage link (the token of one of its emails) points at',
    procedure: 'alerts.manage',
    query: subscriptionTokenInput,
    response: z.object({ subscription: subscriptionSchema, summary: z.string() }),
    errors: { 404: LINK },
  }),
  route({
    method: 'PUT',
    path: '/subscribers/manage',
    summary: 'Change a subscription with the token of one of its emails (no login; the address stays)',
    procedure: 'alerts.manageUpdate',
    body: subscriptionManageInput,
    response: z.object({ subscription: subscriptionSchema, summary: z.string(), message: z.string() }),
    errors: { 404: LINK, 409: TOO_MANY },
  }),
  route({
    method: 'GET',
    path: '/subscribers/:id',
    summary: 'One subscription (its owner or an admin)',
    procedure: 'alerts.byId',
    params: { id: SUBSCRIPTION_ID },
    response: subscriptionSchema,
    auth: 'user',
    errors: { 404: "No such subscription, or another user's" },
  }),
  route({
    method: 'PUT',
    path: '/subscribers/:id',
    summary: 'Change a subscription (its owner or an admin); a new unproven address is confirmed again',
    procedure: 'alerts.update',
    params: { id: SUBSCRIPTION_ID },
    body: subscriptionInput,
    response: saved,
    auth: 'user',
    errors: { 404: "No such subscription, or another user's", 409: TOO_MANY },
  }),
  route({
    method: 'DELETE',
    path: '/subscribers/:id',
    summary: 'Delete a subscription (its owner or an admin)',
    procedure: 'alerts.delete',
    params: { id: SUBSCRIPTION_ID },
    response: z.object({ success: z.literal(true) }),
    auth: 'user',
    errors: { 404: "No such subscription, or another user's" },
  }),
];
