// Bot walls: whether an answer is a wall rather than the page asked for, and whose. A wall is
// recognised by its vendor's documented markers (docs/features/scraping.md lists them, with the
// captured wall bodies in test/retailers/real/ that the tests read):
// - PerimeterX (HUMAN): the "Robot or human?" page with its "Press & Hold" px-captcha (served with
//   HTTP 200), its _pxAppId / px-captcha / px-cdn scripts, the JSON block answer with blockScript,
//   and HTTP 435 (Target's block of its whole RedSky API);
// - Akamai: the "Access Denied" page ("You don't have permission to access ... on this server",
//   "Reference #18...." and an errors.edgesuite.net link), the AkamaiGHost server, and the JSON
//   captcha answer with captchaRelativeURL;
// - Imperva (Incapsula): "Pardon Our Interruption", _Incapsula_Resource, "Incapsula incident ID",
//   and the X-CDN: Imperva / X-Iinfo headers;
// - Cloudflare: "Just a moment..." and "Attention Required! | Cloudflare", the challenge-platform
//   scripts (cf-chl, cf_chl_opt) and the cf-mitigated: challenge header;
// - DataDome: captcha-delivery.com and its X-DataDome header; F5: "Request Rejected".
// Several of these scripts also run on normal pages (Imperva's on Albertsons' home page,
// Cloudflare's on Target's, PerimeterX's on Walmart's store pages), so a marker alone makes a wall
// only on a short page without page data; a wall title or a blocking status always does.
import type { WallName } from '#shared/egress.ts';

/** 403/412 from a bot manager, 435 is Target's PerimeterX block of the whole RedSky API. */
const BLOCK_STATUS = new Set([403, 412, 435]);

/** Titles only bot walls and challenge pages carry, anchored at the start of the title. */
const WALL_TITLES: Array<[RegExp, WallName]> = [
  [/^Robot or human\?/i, 'PerimeterX'],
  [/^Access Denied/i, 'Akamai'],
  [/^Just a moment(?:\.\.\.|…|&hellip;)/i, 'Cloudflare'],
  [/^Attention Required!\s*(?:\||&#124;|&vert;)\s*Cloudflare/i, 'Cloudflare'],
  [/^Pardon Our Interruption/i, 'Imperva'],
  [/^Request Rejected/i, 'F5'],
];

/** Markers in a wall's body, by vendor. */
const BODY_MARKERS: Array<[RegExp, WallName]> = [
  [/Robot or human\?|px-captcha|_pxCaptcha|perimeterx|_pxAppId|px-cdn\.net|px-cloud\.net|Press & Hold/i, 'PerimeterX'],
  [/errors\.edgesuite\.net|Reference #18\.|You don't have permission to access .* on this server/i, 'Akamai'],
  [/_Incapsula_Resource|Incapsula incident ID|Pardon Our Interruption/i, 'Imperva'],
  [/cf-chl-|challenge-platform|cf_chl_opt|Attention Required! \| Cloudflare|<title>\s*Just a moment/i, 'Cloudflare'],
  [/geo\.captcha-delivery\.com|captcha-delivery\.com|datadome/i, 'DataDome'],
  [/The requested URL was rejected/i, 'F5'],
];

/** A captcha answer in a JSON body: PerimeterX's block JSON, or the captcha answer attributed to Akamai. */
const JSON_MARKERS: Array<[RegExp, WallName]> = [
  [/"blockScript"|"px_captcha"|"appId"\s*:\s*"PX/, 'PerimeterX'],
  [/"captchaRelativeURL"/, 'Akamai'],
];

/** Wall pages are small; a page this long (characters) is a wall only by its title. */
const WALL_SIZE_LIMIT = 40_000;
/** Page data no wall carries: Next.js data, JSON-LD, app state, the key configs read from home pages. */
const PAGE_DATA =
  /__NEXT_DATA__|application\/ld\+json|__PRELOADED_STATE__|__INITIAL_STATE__|__APOLLO_STATE__|__TGT_DATA__|SWY\.CONFIGSERVICE|apimProgramSubscriptionKey|redsky\.target\.com|"itemStacks"/;

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return (Array.isArray(value) ? value.join(', ') : (value ?? '')).toLowerCase();
}

/** A vendor named by the answer's headers (its edge's own headers), or null. */
function wallByHeaders(headers: Headers): WallName | null {
  const server = header(headers, 'server');
  if (header(headers, 'cf-mitigated') || server === 'cloudflare') return 'Cloudflare';
  if (server.startsWith('akamaighost') || header(headers, 'akamai-grn')) return 'Akamai';
  if (header(headers, 'x-cdn').includes('imperva') || header(headers, 'x-cdn').includes('incapsula')) return 'Imperva';
  if (header(headers, 'x-iinfo')) return 'Imperva';
  if (header(headers, 'x-datadome') || server === 'datadome') return 'DataDome';
  return null;
}

function titleOf(body: string): string | null {
  const match = /<title[^>]*>([^<]*)/i.exec(body);
  return match ? match[1]!.trim() : null;
}

export interface Wall {
  /** The vendor recognised, or null when the answer is a wall by its status alone. */
  name: WallName | null;
}

/**
 * The wall an answer is, or null when it is not one: a blocking status (403/412/435); in a JSON
 * body a captcha answer; in a page a wall title, or a vendor's marker when the page is short and
 * carries no page data (a normal page that merely loads the bot manager's scripts is not a wall).
 */
export function recognizeWall(status: number, headers: Headers, body: string): Wall | null {
  const start = body.trimStart()[0];
  const isJson = start === '{' || start === '[';
  const named = (markers: Array<[RegExp, WallName]>) => markers.find(([marker]) => marker.test(body))?.[1] ?? null;
  if (isJson) {
    const name = named(JSON_MARKERS);
    if (name) return { name };
    if (BLOCK_STATUS.has(status)) return { name: status === 435 ? 'PerimeterX' : wallByHeaders(headers) };
    return null;
  }
  const title = titleOf(body);
  const byTitle = title === null ? null : (WALL_TITLES.find(([pattern]) => pattern.test(title))?.[1] ?? null);
  if (byTitle) return { name: byTitle };
  const short = body.length < WALL_SIZE_LIMIT && !PAGE_DATA.test(body);
  const byMarker = short ? named(BODY_MARKERS) : null;
  if (byMarker) return { name: byMarker };
  if (BLOCK_STATUS.has(status)) return { name: status === 435 ? 'PerimeterX' : wallByHeaders(headers) };
  return null;
}

/** Whether an answer is a bot wall (recognizeWall, when its vendor does not matter). */
export function isBotWall(status: number, body: string, headers: Headers = {}): boolean {
  return recognizeWall(status, headers, body) !== null;
}

/** "PerimeterX", or "an unrecognised wall" for a wall known by its status alone. */
export function wallText(wall: Wall): string {
  return wall.name ?? 'an unrecognised wall';
}
