// Price-alert emails: the double opt-in confirmation, immediate alerts and daily/weekly digests.
// HTML and plain text, prices formatted as on the site. Every one of them carries a manage link and
// an unsubscribe link (with RFC 8058 one-click headers), both with the email's own link token, so
// a subscriber without an account can change or stop the alert from any email, the confirmation
// included. Everything that came from a user or a retailer is escaped in the HTML.
import { formatPrice } from '#shared/format.ts';
import { FREQUENCY_LABELS, pricePerDozen, type Subscription } from '#shared/subscriptions.ts';
import { EGG_TYPE_LABELS, EGG_TYPE_SLUGS, REGION_LABELS, type EggType, type Region } from '#shared/vocabulary.ts';
import type { EmailMessage } from './outbox.ts';
import { escapeHtml } from './templates.ts';

export interface AlertListing {
  store_id: string;
  store_name: string;
  region: Region;
  egg_type: EggType;
  count: number;
  price: number;
  title: string;
  reference_price: number | null;
}

type SubscriptionScope = Pick<
  Subscription,
  'region' | 'egg_type' | 'preferred_stores' | 'price_threshold' | 'notification_frequency'
>;

/** "Midwest · Cage-Free eggs · at or under $3.00 a dozen · Daily Digest". */
export function describeSubscription(s: SubscriptionScope, storeNames: Record<string, string> = {}): string {
  const parts = [
    s.region ? REGION_LABELS[s.region] : 'All regions',
    s.egg_type ? `${EGG_TYPE_LABELS[s.egg_type]} eggs` : 'All egg types',
    s.preferred_stores.length ? s.preferred_stores.map((id) => storeNames[id] ?? id).join(', ') : 'All stores',
    s.price_threshold !== null ? `at or under ${formatPrice(s.price_threshold)} a dozen` : 'drops of 5% or more',
    FREQUENCY_LABELS[s.notification_frequency],
  ];
  return parts.join(' · ');
}

const regionPhrase = (region: Region | null) => (region ? ` in the ${REGION_LABELS[region]}` : '');
const typeWord = (type: EggType | null) => (type ? `${EGG_TYPE_LABELS[type].toLowerCase()} egg` : 'egg');

/** The dashboard filtered to the listing's store, region and egg type. */
export function dashboardLink(
  publicUrl: string,
  listing: Pick<AlertListing, 'store_id' | 'region' | 'egg_type'>,
): string {
  const params = new URLSearchParams({
    store: listing.store_id,
    region: listing.region,
    type: EGG_TYPE_SLUGS[listing.egg_type],
  });
  return `${publicUrl}/?${params.toString()}`;
}

/** Where an email's links point, and the email's own link token (subscription_link_tokens). */
export interface Links {
  publicUrl: string;
  token: string;
}

export function unsubscribeUrl(links: Links): string {
  return `${links.publicUrl}/notifications/unsubscribe?token=${encodeURIComponent(links.token)}`;
}

export function manageUrl(links: Links): string {
  return `${links.publicUrl}/notifications/manage?token=${encodeURIComponent(links.token)}`;
}

/** RFC 8058: the mail client's one-click button POSTs "List-Unsubscribe=One-Click" to the URL. */
function unsubscribeHeaders(links: Links): Record<string, string> {
  return { 'List-Unsubscribe': `<${unsubscribeUrl(links)}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

const CELL = 'padding:6px 10px;border-bottom:1px solid #e5e7eb;text-align:left';

function listingRows(listings: AlertListing[], publicUrl: string): { html: string; text: string } {
  const html = `<table style="border-collapse:collapse;font-size:14px"><thead><tr>${['Store', 'Region', 'Pack', 'Per dozen', ''].map((h) => `<th style="${CELL}">${h}</th>`).join('')}</tr></thead><tbody>${listings
    .map(
      (l) =>
        `<tr><td style="${CELL}">${escapeHtml(l.store_name)}<br><span style="color:#555;font-size:12px">${escapeHtml(l.title)}</span></td>` +
        `<td style="${CELL}">${REGION_LABELS[l.region]}</td><td style="${CELL}">${formatPrice(l.price)} / ${l.count} ct</td>` +
        `<td style="${CELL}"><strong>${formatPrice(pricePerDozen(l.price, l.count))}</strong></td>` +
        `<td style="${CELL}"><a href="${escapeHtml(dashboardLink(publicUrl, l))}">View</a></td></tr>`,
    )
    .join('')}</tbody></table>`;
  const text = listings
    .map(
      (l) =>
        `- ${l.store_name}, ${REGION_LABELS[l.region]}: ${formatPrice(l.price)} / ${l.count} ct (${formatPrice(pricePerDozen(l.price, l.count))} a dozen) ${l.title}\n  ${dashboardLink(publicUrl, l)}`,
    )
    .join('\n');
  return { html, text };
}

function frame(title: string, body: string, links: Links, scope: string): string {
  return (
    `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111;max-width:640px">` +
    `<h2>${escapeHtml(title)}</h2>${body}` +
    `<p style="color:#555;font-size:13px">Your alert: ${escapeHtml(scope)}.<br>` +
    `<a href="${escapeHtml(manageUrl(links))}">Manage this alert</a> · ` +
    `<a href="${escapeHtml(unsubscribeUrl(links))}">Unsubscribe</a></p>` +
    `<p style="color:#777;font-size:12px">EggWatch: egg prices compared.</p></body></html>`
  );
}

function footerText(links: Links, scope: string): string {
  return `\n\nYour alert: ${scope}.\nManage this alert: ${manageUrl(links)}\nUnsubscribe: ${unsubscribeUrl(links)}\n`;
}

export function confirmSubscriptionEmail(to: string, scope: string, confirmUrl: string, links: Links): EmailMessage {
  const body =
    `<p>Someone, hopefully you, asked EggWatch to email egg price alerts to this address.</p>` +
    `<p><a href="${escapeHtml(confirmUrl)}" style="display:inline-block;padding:10px 18px;background:#15803d;color:#fff;border-radius:6px;text-decoration:none">Confirm the alert</a></p>` +
    `<p style="color:#555;font-size:13px">Or open this link: ${escapeHtml(confirmUrl)}<br>The link works for 7 days. If you did not ask for this, ignore this email: nothing will be sent.</p>`;
  return {
    to,
    subject: 'Confirm your EggWatch price alert',
    html: frame('Confirm your price alert', body, links, scope),
    text: `Someone, hopefully you, asked EggWatch to email egg price alerts to this address.\n\nConfirm the alert (the link works for 7 days):\n${confirmUrl}\n\nIf you did not ask for this, ignore this email: nothing will be sent.${footerText(links, scope)}`,
    headers: unsubscribeHeaders(links),
  };
}

/** Sent when someone subscribes again to an alert the address has: the link to manage it. */
export function existingSubscriptionEmail(to: string, scope: string, links: Links): EmailMessage {
  const url = manageUrl(links);
  const body =
    `<p>Someone, hopefully you, asked EggWatch for a price alert this address already has. Nothing new was added.</p>` +
    `<p><a href="${escapeHtml(url)}" style="display:inline-block;padding:10px 18px;background:#15803d;color:#fff;border-radius:6px;text-decoration:none">Manage the alert</a></p>` +
    `<p style="color:#555;font-size:13px">Or open this link: ${escapeHtml(url)}</p>`;
  return {
    to,
    subject: 'You already have this EggWatch price alert',
    html: frame('You already have this price alert', body, links, scope),
    text: `Someone, hopefully you, asked EggWatch for a price alert this address already has. Nothing new was added.\n\nManage the alert:\n${url}${footerText(links, scope)}`,
    headers: unsubscribeHeaders(links),
  };
}

/** An immediate alert: the best ten new matches of one scrape. */
export function immediateAlertEmail(
  to: string,
  s: SubscriptionScope,
  listings: AlertListing[],
  links: Links,
  scope: string,
): EmailMessage {
  const n = listings.length;
  const subject =
    s.price_threshold !== null
      ? `${n} ${typeWord(s.egg_type)} price${n === 1 ? '' : 's'} under ${formatPrice(s.price_threshold)}${regionPhrase(s.region)}`
      : `${n} ${typeWord(s.egg_type)} price drop${n === 1 ? '' : 's'}${regionPhrase(s.region)}`;
  const intro =
    s.price_threshold !== null
      ? `New prices at or under ${formatPrice(s.price_threshold)} a dozen:`
      : 'New prices at least 5% below a week ago:';
  const rows = listingRows(listings, links.publicUrl);
  return {
    to,
    subject,
    html: frame(subject, `<p>${escapeHtml(intro)}</p>${rows.html}`, links, scope),
    text: `${subject}\n\n${intro}\n${rows.text}${footerText(links, scope)}`,
    headers: unsubscribeHeaders(links),
  };
}

export interface DailyDigest {
  matches: AlertListing[];
  cheapest: AlertListing[];
}

/** A daily digest's two listing tables, HTML and text: the same for every email with the same listings. */
export interface DailyDigestTables {
  matches: { html: string; text: string };
  cheapest: { html: string; text: string };
}

export function dailyDigestTables(digest: DailyDigest, publicUrl: string): DailyDigestTables {
  return { matches: listingRows(digest.matches, publicUrl), cheapest: listingRows(digest.cheapest, publicUrl) };
}

/**
 * A daily digest. `tables` (dailyDigestTables of the same digest and links.publicUrl) lets a run
 * render the listing tables once for all the emails that list the same listings.
 */
export function dailyDigestEmail(
  to: string,
  s: SubscriptionScope,
  digest: DailyDigest,
  links: Links,
  scope: string,
  day: string,
  tables: DailyDigestTables = dailyDigestTables(digest, links.publicUrl),
): EmailMessage {
  const n = digest.matches.length;
  const subject =
    s.price_threshold !== null
      ? `Daily digest: ${n} ${typeWord(s.egg_type)} price${n === 1 ? '' : 's'} under ${formatPrice(s.price_threshold)}${regionPhrase(s.region)}`
      : `Daily digest: ${n} ${typeWord(s.egg_type)} price drop${n === 1 ? '' : 's'}${regionPhrase(s.region)}`;
  const { matches, cheapest } = tables;
  return {
    to,
    subject,
    html: frame(
      subject,
      `<p>Today's matches (${escapeHtml(day)}):</p>${matches.html}<p>The cheapest current listings for your alert:</p>${cheapest.html}`,
      links,
      scope,
    ),
    text: `${subject}\n\nToday's matches (${day}):\n${matches.text}\n\nThe cheapest current listings for your alert:\n${cheapest.text}${footerText(links, scope)}`,
    headers: unsubscribeHeaders(links),
  };
}

export interface WeeklySummary {
  /** The week's lowest price per dozen and where. */
  lowest: AlertListing & { per_dozen: number };
  /** Average price per dozen this week and the week before (null when there was no data). */
  average: number;
  previousAverage: number | null;
  cheapestStore: { store_name: string; per_dozen: number };
  underThreshold: AlertListing[];
}

export function weeklySummaryEmail(
  to: string,
  s: SubscriptionScope,
  summary: WeeklySummary,
  links: Links,
  scope: string,
  weekOf: string,
): EmailMessage {
  const change = summary.previousAverage
    ? ((summary.average - summary.previousAverage) / summary.previousAverage) * 100
    : null;
  const changeText =
    change === null
      ? 'no data for the week before'
      : `${change <= 0 ? 'down' : 'up'} ${Math.abs(change).toFixed(1)}% against the week before`;
  const subject = `Weekly summary: ${typeWord(s.egg_type)}s from ${formatPrice(summary.lowest.per_dozen)} a dozen${regionPhrase(s.region)}`;
  const lines = [
    `Lowest price this week: ${formatPrice(summary.lowest.per_dozen)} a dozen at ${summary.lowest.store_name} (${REGION_LABELS[summary.lowest.region]}).`,
    `Average: ${formatPrice(summary.average)} a dozen, ${changeText}.`,
    `Cheapest store on average: ${summary.cheapestStore.store_name} at ${formatPrice(summary.cheapestStore.per_dozen)} a dozen.`,
  ];
  const under = listingRows(summary.underThreshold, links.publicUrl);
  const underIntro =
    s.price_threshold !== null ? `Listings at or under ${formatPrice(s.price_threshold)} a dozen now:` : null;
  return {
    to,
    subject,
    html: frame(
      subject,
      `<p>Week of ${escapeHtml(weekOf)}</p><ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>` +
        (underIntro
          ? `<p>${escapeHtml(underIntro)}</p>${summary.underThreshold.length ? under.html : '<p>None this week.</p>'}`
          : ''),
      links,
      scope,
    ),
    text: `${subject}\n\nWeek of ${weekOf}\n${lines.map((l) => `- ${l}`).join('\n')}${underIntro ? `\n\n${underIntro}\n${summary.underThreshold.length ? under.text : 'None this week.'}` : ''}${footerText(links, scope)}`,
    headers: unsubscribeHeaders(links),
  };
}
