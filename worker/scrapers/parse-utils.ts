// Small helpers shared by the retailer parse functions.
import * as cheerio from 'cheerio';
import { decodeHTML } from 'entities';
import { StructureError } from './types.ts';

/** Decodes HTML entities (&#38; &#8482; &amp;) and collapses whitespace. */
export function cleanText(value: string): string {
  return decodeHTML(value).replace(/\s+/g, ' ').trim();
}

/**
 * A money amount from a number or a display string ("$4.99", "Now $159.00", "4.99"); null when
 * absent, not positive or unreadable. Cents strings ("64¢") are not prices of a pack.
 */
export function toPrice(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? Math.round(value * 100) / 100 : null;
  if (typeof value !== 'string') return null;
  const match = /\$\s*(\d{1,4}(?:,\d{3})*(?:\.\d{1,2})?)|^\s*(\d{1,4}(?:\.\d{1,2})?)\s*$/.exec(value);
  const text = match?.[1] ?? match?.[2];
  if (!text) return null;
  const amount = Number(text.replace(/,/g, ''));
  return amount > 0 ? Math.round(amount * 100) / 100 : null;
}

/** Five-digit ZIP from a postal code such as "10001-2345"; null otherwise. */
export function zip5(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const match = /^\s*(\d{5})(?:-\d{4})?\s*$/.exec(String(value));
  return match ? match[1]! : null;
}

export function toNumberOrNull(value: unknown): number | null {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

/** The JSON of a Next.js page's `<script id="__NEXT_DATA__">`; a StructureError naming `what` when it has none. */
export function nextData(html: string, what: string): unknown {
  // Matched by id only: the real tag may carry no type attribute.
  const script = cheerio.load(html)('script#__NEXT_DATA__').first();
  if (script.length === 0) throw new StructureError(`${what} has no __NEXT_DATA__ script`);
  try {
    return JSON.parse(script.text());
  } catch {
    throw new StructureError(`${what}: __NEXT_DATA__ is not valid JSON`);
  }
}
