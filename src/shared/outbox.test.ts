import { describe, expect, it } from 'vitest';
import { emailPreviewDocument } from './outbox.ts';

describe('emailPreviewDocument', () => {
  it('makes every link of the email open in a new tab, whatever the document looks like', () => {
    expect(emailPreviewDocument('<!doctype html><html><body><a href="https://x.test/">x</a></body></html>')).toBe(
      '<!doctype html><html><head><base target="_blank"></head><body><a href="https://x.test/">x</a></body></html>',
    );
    expect(emailPreviewDocument('<html lang="en"><head><title>t</title></head><body></body></html>')).toBe(
      '<html lang="en"><head><base target="_blank"><title>t</title></head><body></body></html>',
    );
    expect(emailPreviewDocument('<p>bare</p>')).toBe('<base target="_blank"><p>bare</p>');
  });
});
