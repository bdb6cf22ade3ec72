// @vitest-environment happy-dom
// A remembered choice (Recent runs' store): kept across a reload (a new mount), and an unknown
// stored value falls back to the default.
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useStoredChoice } from './storedChoice.ts';

const KEY = 'eggwatch.test.choice';
let current: { value: string; choose: (value: 'walmart' | 'aldi' | 'target') => void };

function Probe() {
  const [value, choose] = useStoredChoice(KEY, ['walmart', 'aldi', 'target'] as const, 'walmart');
  current = { value, choose };
  return null;
}

beforeEach(() => window.localStorage.clear());
afterEach(cleanup);

describe('useStoredChoice', () => {
  it('remembers the last choice across reloads', () => {
    render(<Probe />);
    expect(current.value).toBe('walmart');
    act(() => current.choose('aldi'));
    expect(current.value).toBe('aldi');
    cleanup();
    render(<Probe />);
    expect(current.value).toBe('aldi');
  });

  it('ignores a stored value that is not a choice', () => {
    window.localStorage.setItem(KEY, 'costco');
    render(<Probe />);
    expect(current.value).toBe('walmart');
  });
});
