// What a list ranked by the like-with-like rule says it ranks (the rule itself:
// src/server/queries/cheapest.ts; docs/features/comparing.md, "Like with like"): every pack size
// by its price per dozen, or only the chosen pack size.

/** 'Cheapest first by observed price per dozen', or '12-packs, cheapest first' when a pack size is chosen. */
export function cheapestHeading(count: number | null | undefined): string {
  return count ? `${count}-packs, cheapest first` : 'Cheapest first by observed price per dozen';
}
