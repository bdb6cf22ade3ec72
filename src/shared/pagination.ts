// Listing pagination: page size by screen width and the page buttons to render.

/** Breakpoints: below 768 px is mobile; 1024 px and above is desktop. */
export const BREAKPOINTS = { mobile: 768, desktop: 1024 } as const;

/** Page sizes: 4 on mobile, 9 on large screens, 6 otherwise. */
export const PAGE_SIZES = { mobile: 4, tablet: 6, desktop: 9 } as const;

/** At most 4 numbered page buttons, plus the last page. */
export const MAX_PAGE_BUTTONS = 4;

export function pageSizeForWidth(widthPx: number): number {
  if (widthPx < BREAKPOINTS.mobile) return PAGE_SIZES.mobile;
  if (widthPx < BREAKPOINTS.desktop) return PAGE_SIZES.tablet;
  return PAGE_SIZES.desktop;
}

function assertPageSize(size: number): void {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`Page size must be a positive integer, got ${size}`);
}

/** Number of pages for `total` items; 0 when there are none. */
export function pageCount(total: number, size: number): number {
  assertPageSize(size);
  return total > 0 ? Math.ceil(total / size) : 0;
}

/** A whole page number between 1 and totalPages (1 when there are no pages or it is not a number). */
export function clampPage(page: number, totalPages: number): number {
  const whole = Number.isFinite(page) ? Math.floor(page) : 1;
  return Math.min(Math.max(whole, 1), Math.max(totalPages, 1));
}

export type PageButton = number | 'ellipsis';

/**
 * The pagination buttons to render: a window of at most 4 numbered pages, then
 * the last page when the window does not include it, preceded by an 'ellipsis' marker when
 * pages are skipped. The window is 1-4 near the start, the 4 pages ending one after the
 * current page in the middle (current-2 .. current+1), and the last 4 pages near the end:
 *   current 1 of 10 -> 1 2 3 4 ... 10      current 6 of 10 -> 4 5 6 7 ... 10
 *   current 8 of 10 -> 6 7 8 9 10           current 10 of 10 -> 7 8 9 10
 * When only the last page lies beyond the window, it follows without an ellipsis.
 */
export function pageButtons(current: number, totalPages: number): PageButton[] {
  if (totalPages < 1) return [];
  const page = clampPage(current, totalPages);
  const start = Math.min(Math.max(page - 2, 1), Math.max(totalPages - MAX_PAGE_BUTTONS + 1, 1));
  const end = Math.min(start + MAX_PAGE_BUTTONS - 1, totalPages);
  const buttons: PageButton[] = [];
  for (let n = start; n <= end; n += 1) buttons.push(n);
  if (end < totalPages - 1) buttons.push('ellipsis');
  if (end < totalPages) buttons.push(totalPages);
  return buttons;
}

/**
 * 1-based positions of the first and last item on `page` for 'Showing X to Y of Z results';
 * 0 to 0 when there are no items. A page past the end is clamped to the last page.
 */
export function pageRange(page: number, size: number, total: number): { from: number; to: number } {
  const pages = pageCount(total, size);
  if (pages === 0) return { from: 0, to: 0 };
  const current = clampPage(page, pages);
  return { from: (current - 1) * size + 1, to: Math.min(current * size, total) };
}

/** 'Showing X to Y of Z results'. */
export function showingText(page: number, size: number, total: number): string {
  const { from, to } = pageRange(page, size, total);
  return `Showing ${from} to ${to} of ${total} results`;
}

/** The items shown on `page` (clamped like pageRange). */
export function pageItems<T>(items: readonly T[], page: number, size: number): T[] {
  const { from, to } = pageRange(page, size, items.length);
  return from === 0 ? [] : items.slice(from - 1, to);
}
