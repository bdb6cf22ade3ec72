import { describe, expect, it } from 'vitest';
import { connectToastSink, queuedToasts, toaster, type ToastOptions } from './Toaster.tsx';

describe('the toaster queue (Toaster.tsx)', () => {
  it('keeps toasts raised before the toast machinery loads, then shows them in order, then passes new ones straight on', () => {
    const first = toaster.create({ title: 'Authentication required', type: 'error' });
    const second = toaster.create({ title: 'Preferences saved', type: 'success', id: 'saved' });
    expect(second).toBe('saved');
    expect(first).not.toBe(second);
    expect(queuedToasts()).toBe(2);

    const shown: ToastOptions[] = [];
    const disconnect = connectToastSink({
      create: (options) => {
        shown.push(options);
        return options.id!;
      },
    });
    expect(queuedToasts()).toBe(0);
    expect(shown.map((t) => [t.id, t.title])).toEqual([
      [first, 'Authentication required'],
      ['saved', 'Preferences saved'],
    ]);

    expect(toaster.create({ title: 'Signed out' })).toBe(shown[2]!.id);
    expect(shown).toHaveLength(3);
    expect(queuedToasts()).toBe(0);

    disconnect();
    toaster.create({ title: 'Later' });
    expect(shown).toHaveLength(3);
    expect(queuedToasts()).toBe(1);
  });
});
