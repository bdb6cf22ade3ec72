import { describe, expect, it } from 'vitest';
import { formatWhen } from './dateTime.ts';

describe('formatWhen', () => {
  it('names the time zone of every time it shows', () => {
    expect(formatWhen('2026-11-25T19:05:00Z', 'Never', 'America/New_York')).toBe('Nov 25, 2:05 PM EST');
    expect(formatWhen('2026-07-04T19:05:00Z', 'Never', 'America/Los_Angeles')).toBe('Jul 4, 12:05 PM PDT');
    expect(formatWhen('2026-11-25T19:05:00Z', 'Never', 'UTC')).toBe('Nov 25, 7:05 PM UTC');
    expect(formatWhen('2026-11-25T19:05:00Z', 'Never')).toMatch(/^Nov 2[56], \d{1,2}:05 [AP]M \S+$/);
  });

  it('falls back when there is no time or it cannot be read', () => {
    expect(formatWhen(null, 'Never')).toBe('Never');
    expect(formatWhen(undefined, 'Not scheduled')).toBe('Not scheduled');
    expect(formatWhen('soon', '—')).toBe('—');
  });
});
