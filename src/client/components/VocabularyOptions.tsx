// The <option> lists of the vocabulary's choices, for the selects that offer them (a form adds its
// own first option, "No preference" or "All Regions", before them).
import { EGG_TYPE_LABELS, EGG_TYPE_SLUGS, EGG_TYPES, REGION_LABELS, REGIONS } from '#shared/vocabulary.ts';

/** One option per region, its value the region's id. */
export function RegionOptions() {
  return REGIONS.map((region) => (
    <option key={region} value={region}>
      {REGION_LABELS[region]}
    </option>
  ));
}

/** One option per egg type, its value the type's slug (as the URLs and the REST paths spell it). */
export function EggTypeSlugOptions() {
  return EGG_TYPES.map((type) => (
    <option key={type} value={EGG_TYPE_SLUGS[type]}>
      {EGG_TYPE_LABELS[type]}
    </option>
  ));
}
