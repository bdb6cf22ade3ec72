// Navigation targets shared by the header, footer and pages.
import { EGG_TYPE_LABELS, EGG_TYPE_SLUGS, type EggType } from '#shared/vocabulary.ts';

/** The order the header menu and footer list egg types in (SPEC §2). */
const COMPARE_ORDER: readonly EggType[] = ['standard', 'organic', 'cage_free', 'pasture_raised'];

export function compareHref(type: EggType): string {
  return `/compare/${EGG_TYPE_SLUGS[type]}`;
}

export const COMPARE_LINKS: ReadonlyArray<{ href: string; label: string }> = COMPARE_ORDER.map((type) => ({
  href: compareHref(type),
  label: EGG_TYPE_LABELS[type],
}));
