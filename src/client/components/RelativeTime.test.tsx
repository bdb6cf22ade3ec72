// @vitest-environment happy-dom
// One wording for the same age: relative times drawn at different moments (a list at page load, a
// section a few seconds later) read the same for the same price, and move on together.
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RelativeTime } from './RelativeTime.tsx';

const observed = '2025-04-10T11:59:40Z';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(new Date('2025-04-10T12:00:30Z'));
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const text = (container: HTMLElement) => container.querySelector('time')!.textContent;

describe('RelativeTime', () => {
  it('reads the same for the same time, whenever each one was drawn, and all move on together', () => {
    const list = render(<RelativeTime iso={observed} />).container;
    expect(text(list)).toBe('Just now');

    // 40 s later (the minute has turned) another part of the page draws the same price.
    act(() => vi.advanceTimersByTime(40_000));
    const section = render(<RelativeTime iso={observed} />).container;
    expect(text(section)).toBe('1 minute ago');
    expect(text(list)).toBe(text(section));

    // Within the minute nothing moves; at the next one both do.
    act(() => vi.advanceTimersByTime(15_000));
    expect([text(list), text(section)]).toEqual(['1 minute ago', '1 minute ago']);
    act(() => vi.advanceTimersByTime(60_000));
    expect([text(list), text(section)]).toEqual(['2 minutes ago', '2 minutes ago']);
  });

  it('starts in lower case mid-sentence, carries the machine-readable time, and the exact time on hover', () => {
    const { container } = render(
      <p>
        Updated <RelativeTime iso={observed} midSentence />
      </p>,
    );
    expect(container.textContent).toBe('Updated just now');
    const time = container.querySelector('time')!;
    expect(time.getAttribute('datetime')).toBe(observed);
    expect(time.getAttribute('title')).toMatch(/Apr 10, 2025/);
  });

  it("reads 'Recently' for a missing date", () => {
    const { container } = render(<RelativeTime iso={null} />);
    expect(text(container)).toBe('Recently');
    expect(container.querySelector('time')!.hasAttribute('title')).toBe(false);
  });
});
