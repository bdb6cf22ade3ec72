// The Notifications switches of the Preferences page as real price alerts. For a signed-in
// shopper, saving creates the switch's subscription (to the account's email, from the
// preferences: alertFromPreferences), keeps it following the preferences while the switch is on,
// and pauses it when the switch goes off, all through the subscriptions procedures (double opt-in
// included: an unverified address confirms by email first). A visitor without an account has no
// address to write to: turning a switch on sends them to the alert form, filled in.
import { useState } from 'react';
import {
  PREFERENCE_ALERTS,
  alertFromPreferences,
  type PreferenceAlert,
  type Preferences,
} from '#shared/preferences.ts';
import type { SubscriptionInput } from '#shared/subscriptions.ts';
import { errorCode } from '#client/components/auth/errors.ts';
import { loadAlertLinks, saveAlertLinks, type AlertLinks } from '#client/lib/preferences.ts';
import { hasAuthToken } from '#client/lib/session.ts';
import { subscribeHref } from '#client/lib/subscribePrefill.ts';
import { trpc, type RouterOutputs } from '#client/lib/trpc.ts';

export const ALERT_KINDS = Object.keys(PREFERENCE_ALERTS) as PreferenceAlert[];

type Linked = RouterOutputs['alerts']['byId'];

export interface PreferenceAlertsApi {
  /** The signed-in account's email; null for a visitor (or while it loads: see `loading`). */
  email: string | null;
  loading: boolean;
  /** Each switch's subscription as it stands, when it has one. */
  linked: Partial<Record<PreferenceAlert, Linked>>;
  /**
   * Brings the subscriptions in line with the preferences about to be saved; returns what changed,
   * in words for the saved toast. Throws the failing call's error (what succeeded before it stays
   * linked, so trying again makes no second subscription).
   */
  sync: (preferences: Preferences) => Promise<string[]>;
  /** For a visitor: the alert form filled in for the first switch turned on since the last save. */
  formFor: (preferences: Preferences, saved: Preferences) => string | null;
}

/** The update of a subscription that changes only `patch` (the procedure takes every field). */
function updateOf(
  subscription: Linked,
  patch: Partial<Pick<SubscriptionInput, 'region' | 'egg_type' | 'preferred_stores' | 'active'>>,
) {
  const { id, email, region, egg_type, preferred_stores, notification_frequency, price_threshold, active } =
    subscription;
  return { id, email, region, egg_type, preferred_stores, notification_frequency, price_threshold, active, ...patch };
}

export function usePreferenceAlerts(): PreferenceAlertsApi {
  const [signedIn] = useState(hasAuthToken);
  const verify = trpc.auth.verify.useQuery(undefined, { enabled: signedIn, retry: false });
  const email = verify.data?.user.email ?? null;
  const [links, setLinks] = useState<AlertLinks>(loadAlertLinks);
  const utils = trpc.useUtils();
  const byId = (alert: PreferenceAlert) =>
    // Someone else's or a deleted subscription answers NOT_FOUND: the link is simply dropped on save.
    trpc.alerts.byId.useQuery(
      { id: links[alert] ?? 0 },
      { enabled: email !== null && links[alert] !== undefined, retry: false },
    );
  const queries = { notifyPriceDrops: byId('notifyPriceDrops'), weeklyReport: byId('weeklyReport') } satisfies Record<
    PreferenceAlert,
    unknown
  >;
  const linked: PreferenceAlertsApi['linked'] = {};
  for (const alert of ALERT_KINDS) {
    const data = queries[alert].data;
    if (data) linked[alert] = data;
  }

  async function current(id: number | undefined): Promise<Linked | null> {
    if (id === undefined) return null;
    try {
      return await utils.client.alerts.byId.query({ id });
    } catch (error) {
      if (errorCode(error) === 'NOT_FOUND') return null;
      throw error;
    }
  }

  async function sync(preferences: Preferences): Promise<string[]> {
    if (email === null) return [];
    const next: AlertLinks = { ...links };
    const notes: string[] = [];
    try {
      for (const alert of ALERT_KINDS) {
        const { label } = PREFERENCE_ALERTS[alert];
        const existing = await current(next[alert]);
        if (!existing) delete next[alert];
        const values = alertFromPreferences(preferences, alert);
        if (preferences[alert]) {
          if (existing) {
            // The alert follows the preferences; its address, frequency and threshold stay as set.
            await utils.client.alerts.update.mutate(
              updateOf(existing, {
                region: values.region,
                egg_type: values.egg_type,
                preferred_stores: values.preferred_stores,
                active: true,
              }),
            );
            if (!existing.active) notes.push(`${label} are on again.`);
          } else {
            const created = await utils.client.alerts.create.mutate({ email, ...values, active: true });
            if (created.subscription) {
              next[alert] = created.subscription.id;
              saveAlertLinks(next);
            }
            notes.push(
              created.status === 'exists'
                ? `${label}: ${created.message}`
                : created.status === 'confirmed'
                  ? `${label} go to ${email}.`
                  : `${label}: check your inbox to confirm them; nothing is sent until then.`,
            );
          }
        } else if (existing?.active) {
          await utils.client.alerts.update.mutate(updateOf(existing, { active: false }));
          notes.push(`${label} are off.`);
        }
      }
    } finally {
      saveAlertLinks(next);
      setLinks(next);
      void utils.alerts.byId.invalidate();
      void utils.users.alerts.invalidate();
    }
    return notes;
  }

  function formFor(preferences: Preferences, saved: Preferences): string | null {
    if (email !== null) return null;
    const alert = ALERT_KINDS.find((kind) => preferences[kind] && !saved[kind]);
    return alert ? subscribeHref(alertFromPreferences(preferences, alert)) : null;
  }

  return { email, loading: signedIn && verify.isPending, linked, sync, formFor };
}
