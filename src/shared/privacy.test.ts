import { describe, expect, it } from 'vitest';
import { mailboxAddress } from './privacy.ts';

describe('mailboxAddress', () => {
  it('reads the address of a sender with or without a display name', () => {
    expect(mailboxAddress('EggWatch <alerts@eggwatch.example>')).toBe('alerts@eggwatch.example');
    expect(mailboxAddress('"Egg Watch" <ops@example.com> ')).toBe('ops@example.com');
    expect(mailboxAddress('hello@example.org')).toBe('hello@example.org');
  });
  it('is null when the setting holds no address', () => {
    expect(mailboxAddress('EggWatch')).toBeNull();
    expect(mailboxAddress('EggWatch <not an address>')).toBeNull();
    expect(mailboxAddress('')).toBeNull();
  });
});
