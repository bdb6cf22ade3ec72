// When something happened, as every screen words it: 'Just now', '5 minutes ago', 'Yesterday'
// (formatRelativeTime), from the one clock all of them share (lib/clock.ts), with the exact time on
// hover. Mid-sentence ('Updated just now') the wording starts in lower case.
import { formatExactTime, formatRelativeTime } from '#shared/format.ts';
import { useMinuteClock } from '#client/lib/clock.ts';

export interface RelativeTimeProps {
  iso: string | null | undefined;
  /** After other words ('Updated …'): the wording starts in lower case. */
  midSentence?: boolean;
}

export function RelativeTime({ iso, midSentence = false }: RelativeTimeProps) {
  const now = useMinuteClock();
  const text = formatRelativeTime(iso, new Date(now));
  return (
    <time dateTime={iso ?? undefined} title={iso ? formatExactTime(iso) : undefined}>
      {midSentence ? text.charAt(0).toLowerCase() + text.slice(1) : text}
    </time>
  );
}
