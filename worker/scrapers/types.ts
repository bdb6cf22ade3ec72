// The contract every retailer module (worker/scrapers/<retailer>.ts) fulfils, and the errors
// that fail one ZIP code of a run. A module locates the store serving a ZIP with the retailer's
// own locator, then yields its egg listings page by page; its parse functions are pure (a body
// in, listings out) and throw StructureError when a body is not the documented structure.
import type { RetailerCredentials } from '#shared/scrape.ts';
import type { StoreId } from '#shared/vocabulary.ts';
import type { RetailerHttp } from './http.ts';

/** A store location as the retailer's locator describes it. */
export interface RetailerLocation {
  /** The retailer's own id of the store (Walmart store id, Target store_id, Kroger locationId...); null when the page names none. */
  retailerLocationId: string | null;
  /** Display name, e.g. "Cedar Rapids South" or "Walmart Supercenter #3081". */
  name: string | null;
  /** The store's own 5-digit ZIP code when the locator gives it (else null: the requested ZIP is used). */
  zip: string | null;
  city: string | null;
  /** Two-letter state code when given. */
  state: string | null;
  address: string | null;
  latitude: number | null;
  longitude: number | null;
}

/** One product tile or record of a listing page, before classification. */
export interface RawListing {
  /** The retailer's product id (Walmart usItemId, Target tcin, Kroger productId, ASIN, SKU, pid). */
  retailerProductId: string;
  /** The product title as shown, HTML entities decoded. */
  title: string;
  brand: string | null;
  /** Shelf price at this store: the promotion's price when one applies. Null when the store shows no price. */
  price: number | null;
  /** The regular (non-promotional) price when known. */
  regularPrice: number | null;
  /** A separate size/pack field when the retailer has one (Kroger items[].size, ALDI sellingSize). */
  sizeText: string | null;
  /** The retailer's own category or item type name when given (e.g. Target item_type "Eggs"). */
  category: string | null;
  /** Absolute URL of the product page on the retailer's real site (never a stand-in's). */
  url: string | null;
  /** true/false when the page says; null when it does not. */
  inStock: boolean | null;
  /**
   * Set when the tile is not the store's own shelf: 'marketplace' for a third-party seller's offer
   * on the retailer's site, 'online-only' for an item the retailer ships but the located store does
   * not stock. Such listings are counted as skipped with that reason, never recorded as a price.
   */
  notOnShelf?: NotOnShelf;
  /**
   * Set when the retailer prices the item by weight (Albertsons sellByWeight "P"): its price is
   * an estimate for an average weight, not a pack's. Counted as rejected, never recorded.
   */
  soldByWeight?: boolean;
}

export type NotOnShelf = 'marketplace' | 'online-only';

export interface ListingPage {
  listings: RawListing[];
  /** Tiles on the page that were not products (ads, placeholders), counted for the run's report. */
  nonProductTiles: number;
  /** What did not fail the ZIP but the run's outcome should say (e.g. why stock is unknown). */
  notes?: string[];
}

export interface ScrapeContext {
  http: RetailerHttp;
  /** Most listing pages fetched per ZIP (a bound against endless pagination). */
  maxPages: number;
  /** The search term, "eggs". */
  term: string;
  /** Configured keys and credentials (TARGET_API_KEY, ALBERTSONS_API_KEY, KROGER_CLIENT_ID/SECRET). */
  credentials: RetailerCredentials;
  /** Aborts when the worker shuts down. */
  signal?: AbortSignal | undefined;
}

export interface RetailerScraper {
  store: StoreId;
  /** The store's display name, for messages ("blocked by Walmart's bot protection"). */
  storeName: string;
  /** Every real origin the module requests (all of them go to the stand-in origin when one is set). */
  origins: readonly string[];
  /** Checks configuration before any request, throwing ConfigError (e.g. Kroger without credentials). */
  checkConfig?(credentials: RetailerCredentials): void;
  /** The store serving a ZIP code, or null when the retailer has none near it. */
  locate(zip: string, ctx: ScrapeContext): Promise<RetailerLocation | null>;
  /** The egg listings of that store, page by page (at most ctx.maxPages pages). */
  listings(location: RetailerLocation, zip: string, ctx: ScrapeContext): AsyncIterable<ListingPage>;
  /** How the chain's stores are discovered with its own locators (worker/scrapers/discovery.ts). */
  discovery?: RetailerDiscovery;
}

/** A store a discovery call found: a location with the retailer's id and its banner when the chain has several. */
export interface DiscoveredStore extends RetailerLocation {
  retailerLocationId: string;
  /** The banner as the locator names it (Kroger `chain`, Albertsons `domainName`); null for a one-banner chain. */
  banner: string | null;
}

/** A point a locator is asked from: a ZIP code and its centre (locators take ZIP codes; answers measure from its centre). */
export interface DiscoveryPoint {
  zip: string;
  latitude: number;
  longitude: number;
  /**
   * The radius to ask (miles), for a locator that takes one: within its documented bounds, as
   * small as the sweep's area needs (an answer short of the limit then proves all of it); the
   * locator's widest when absent.
   */
  radiusMiles?: number;
}

/** A store an answer listed that discovery could not keep, and why (counted in the run's figures). */
export interface SkippedStore {
  /** The retailer's id of the store; null when the answer gave none. */
  retailerLocationId: string | null;
  reason: string;
}

/** What one locator call answered, and what the answer proves (worker/scrapers/discovery.ts). */
export interface DiscoveryAnswer {
  /** The stores answered, each filed under a ZIP code and a state. */
  stores: DiscoveredStore[];
  /** The stores answered that could not be filed, with the reason. */
  skipped: SkippedStore[];
  /**
   * Miles around the point within which the answer holds every store of the chain: the radius
   * asked when it lists no store, else its farthest store (a nearest-only locator proves the
   * distance to its one store); 0 when it proves nothing.
   */
  provenMiles: number;
  /**
   * Whether every store's distance is measured (the answer's own, or from coordinates), not only
   * bounded from its ZIP code's or city's centres; absent for an answer without a store.
   */
  measured?: boolean;
}

/** A chain's store locator as discovery asks it: from ZIP codes, one answer at a time. */
export interface RetailerDiscovery {
  /** The widest radius asked (for a locator that takes none, how far it is known to look): what an answer without a store proves. */
  reachMiles: number;
  /** The smallest radius the locator takes (miles), when it takes one (DiscoveryPoint.radiusMiles); absent when it takes none. */
  minRadiusMiles?: number;
  discover(point: DiscoveryPoint, ctx: ScrapeContext): Promise<DiscoveryAnswer>;
}

/** Why one ZIP of a run failed; `message` is shown to administrators as is. */
export class ScrapeError extends Error {
  constructor(
    readonly kind: 'blocked' | 'structure' | 'http' | 'config' | 'rate-limited' | 'no-store' | 'aborted',
    message: string,
  ) {
    super(message);
    this.name = 'ScrapeError';
  }
}

/** A body that is not the documented structure: fails the ZIP, never a silent zero. */
export class StructureError extends ScrapeError {
  constructor(detail: string) {
    super('structure', `page structure not recognised (${detail})`);
    this.name = 'StructureError';
  }
}

export class ConfigError extends ScrapeError {
  constructor(message: string) {
    super('config', message);
    this.name = 'ConfigError';
  }
}
