// Navigation targets shared by the header, footer and pages.
import { EGG_TYPE_LABELS, EGG_TYPE_SLUGS, type EggType } from '#shared/vocabulary.ts';

/** The order the header menu and footer list egg types in. */
const COMPARE_ORDER: readonly EggType[] = ['standard', 'organic', 'cage_free', 'pasture_raised'];

export function compareHref(type: EggType): string {
  return `/compare/${EGG_TYPE_SLUGS[type]}`;
}

export const COMPARE_LINKS: ReadonlyArray<{ href: string; label: string }> = COMPARE_ORDER.map((type) => ({
  href: compareHref(type),
  label: EGG_TYPE_LABELS[type],
}));

/** A product's price history at one store location: /products/{id}/history?location={locationId}. */
export function historyHref(productId: number, locationId: number, days?: number): string {
  const query = new URLSearchParams({ location: String(locationId) });
  if (days !== undefined) query.set('days', String(days));
  return `/products/${productId}/history?${query.toString()}`;
}

/**
 * A download path with its query: parameters left undefined, empty or 'all' are dropped, so the
 * link asks exactly what the screen shows.
 */
export function downloadHref(path: string, params: Record<string, string | number | null | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '' || value === 'all') continue;
    query.set(name, String(value));
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
