import { describe, expect, it } from 'vitest';
import { connectToastSink, queuedToasts, textBesideTitle, toaster, type ToastOptions } from './Toaster.tsx';

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

describe('a toast does not repeat its title as its text', () => {
  it('drops a description that only says the title again', () => {
    expect(textBesideTitle('Subscription updated', 'Subscription updated')).toBeUndefined();
    expect(textBesideTitle('Preferences saved', ' preferences saved. ')).toBeUndefined();
    expect(textBesideTitle('Logged out', 'Logged out!')).toBeUndefined();
  });

  it('keeps what follows the title when the text starts with it as a sentence of its own', () => {
    expect(
      textBesideTitle('Subscription created!', 'Subscription created! Alerts go to your verified email address.'),
    ).toBe('Alerts go to your verified email address.');
    expect(textBesideTitle('Subscription updated', 'Subscription updated. Alerts go to a@example.com.')).toBe(
      'Alerts go to a@example.com.',
    );
  });

  it('keeps every other text whole, failure texts included', () => {
    expect(textBesideTitle('Login failed', 'Login failed because the server is away')).toBe(
      'Login failed because the server is away',
    );
    expect(textBesideTitle('Authentication required', 'Please log in to access your profile.')).toBe(
      'Please log in to access your profile.',
    );
    expect(textBesideTitle('Scraper Error', 'Failed to start the Walmart scraper. Please try again later.')).toBe(
      'Failed to start the Walmart scraper. Please try again later.',
    );
    expect(textBesideTitle('Preferences saved', undefined)).toBeUndefined();
    expect(textBesideTitle('Preferences saved', '  ')).toBeUndefined();
  });

  it('applies to every toast raised', () => {
    const shown: ToastOptions[] = [];
    const disconnect = connectToastSink({ create: (options) => (shown.push(options), options.id!) });
    shown.length = 0; // any toast the test above left queued
    toaster.create({ type: 'success', title: 'Subscription updated', description: 'Subscription updated' });
    toaster.create({
      type: 'success',
      title: 'Subscription created!',
      description: 'Subscription created! Alerts go to your verified email address.',
    });
    toaster.create({ type: 'error', title: 'Update failed', description: 'Please try again later.' });
    disconnect();
    expect(shown.map((t) => [t.title, t.description])).toEqual([
      ['Subscription updated', undefined],
      ['Subscription created!', 'Alerts go to your verified email address.'],
      ['Update failed', 'Please try again later.'],
    ]);
  });
});
