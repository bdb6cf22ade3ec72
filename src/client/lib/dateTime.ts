// Times shown to administrators: in the viewer's time zone, always with the zone named, so a
// time read off the screen means the same to someone elsewhere ('Nov 25, 2:05 PM EST').

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
      ...(timeZone ? { timeZone } : {}),
    });
    formatters.set(key, formatter);
  }
  return formatter;
}

/** 'Nov 25, 2:05 PM EST' in the viewer's time zone (or `timeZone`); the fallback when absent or unreadable. */
export function formatWhen(iso: string | null | undefined, fallback: string, timeZone?: string): string {
  if (!iso) return fallback;
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? fallback : formatterFor(timeZone).format(time);
}
