// A link to the price-alert form with its choices filled in (/notifications/subscribe?region=...),
// and the reading of one. The Preferences page sends a visitor without an account there when they
// turn on an alert switch: the alert needs an email address, which only the form asks for.
import { NOTIFICATION_FREQUENCIES, type NotificationFrequency } from '#shared/subscriptions.ts';
import {
  EGG_TYPE_SLUGS,
  STORE_IDS,
  parseEggType,
  parseRegion,
  type EggType,
  type Region,
  type StoreId,
} from '#shared/vocabulary.ts';

export const SUBSCRIBE_PATH = '/notifications/subscribe';

export interface SubscribePrefill {
  region?: Region;
  egg_type?: EggType;
  preferred_stores?: StoreId[];
  notification_frequency?: NotificationFrequency;
}

/** The form's link with these choices ('all' and empty ones left out). */
export function subscribeHref(prefill: {
  region?: Region | 'all';
  egg_type?: EggType | 'all';
  preferred_stores?: readonly StoreId[];
  notification_frequency?: NotificationFrequency;
}): string {
  const query = new URLSearchParams();
  if (prefill.region && prefill.region !== 'all') query.set('region', prefill.region);
  if (prefill.egg_type && prefill.egg_type !== 'all') query.set('egg_type', EGG_TYPE_SLUGS[prefill.egg_type]);
  if (prefill.preferred_stores?.length) query.set('stores', prefill.preferred_stores.join(','));
  if (prefill.notification_frequency) query.set('frequency', prefill.notification_frequency);
  const text = query.toString();
  return text ? `${SUBSCRIBE_PATH}?${text}` : SUBSCRIBE_PATH;
}

/** The choices a link fills in; anything unknown is left to the form's defaults. */
export function parseSubscribePrefill(search: string): SubscribePrefill {
  const query = new URLSearchParams(search);
  const prefill: SubscribePrefill = {};
  const region = parseRegion(query.get('region'));
  if (region) prefill.region = region;
  const eggType = parseEggType(query.get('egg_type'));
  if (eggType) prefill.egg_type = eggType;
  const stores = (query.get('stores') ?? '')
    .split(',')
    .filter((store): store is StoreId => (STORE_IDS as readonly string[]).includes(store));
  if (stores.length) prefill.preferred_stores = [...new Set(stores)];
  const frequency = query.get('frequency');
  if ((NOTIFICATION_FREQUENCIES as readonly string[]).includes(frequency ?? ''))
    prefill.notification_frequency = frequency as NotificationFrequency;
  return prefill;
}
