import { describe, expect, it } from 'vitest';
import { parseSubscribePrefill, subscribeHref } from './subscribePrefill.ts';

describe('the alert form prefilled by its link', () => {
  it('writes the choices into the link and reads them back', () => {
    const href = subscribeHref({
      region: 'midwest',
      egg_type: 'cage_free',
      preferred_stores: ['aldi', 'kroger'],
      notification_frequency: 'immediately',
    });
    expect(href).toBe(
      '/notifications/subscribe?region=midwest&egg_type=cage-free&stores=aldi%2Ckroger&frequency=immediately',
    );
    expect(parseSubscribePrefill(href.slice(href.indexOf('?')))).toEqual({
      region: 'midwest',
      egg_type: 'cage_free',
      preferred_stores: ['aldi', 'kroger'],
      notification_frequency: 'immediately',
    });
  });

  it("leaves out 'all' and empty choices, and ignores what it does not know", () => {
    expect(subscribeHref({ region: 'all', egg_type: 'all', preferred_stores: [] })).toBe('/notifications/subscribe');
    expect(parseSubscribePrefill('?region=moon&egg_type=duck&stores=aldi,costco,aldi&frequency=hourly')).toEqual({
      preferred_stores: ['aldi'],
    });
    expect(parseSubscribePrefill('')).toEqual({});
  });
});
