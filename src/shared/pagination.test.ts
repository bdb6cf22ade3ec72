import { describe, expect, it } from 'vitest';
import {
  clampPage,
  pageButtons,
  pageCount,
  pageItems,
  pageRange,
  pageSizeForWidth,
  showingText,
} from './pagination.ts';

describe('pageSizeForWidth', () => {
  it.each([
    [320, 4],
    [767, 4],
    [768, 6],
    [1023, 6],
    [1024, 9],
    [1920, 9],
  ])('%i px -> %i per page', (width, size) => {
    expect(pageSizeForWidth(width)).toBe(size);
  });
});

describe('pageCount', () => {
  it('rounds up and is 0 for no items', () => {
    expect(pageCount(0, 9)).toBe(0);
    expect(pageCount(1, 9)).toBe(1);
    expect(pageCount(9, 9)).toBe(1);
    expect(pageCount(10, 9)).toBe(2);
    expect(pageCount(25, 4)).toBe(7);
  });

  it('rejects a page size that is not a positive integer', () => {
    expect(() => pageCount(10, 0)).toThrow(RangeError);
    expect(() => pageCount(10, 2.5)).toThrow(RangeError);
  });
});

describe('clampPage', () => {
  it('keeps a page within 1..totalPages', () => {
    expect(clampPage(3, 5)).toBe(3);
    expect(clampPage(0, 5)).toBe(1);
    expect(clampPage(-2, 5)).toBe(1);
    expect(clampPage(9, 5)).toBe(5);
    expect(clampPage(2.7, 5)).toBe(2);
    expect(clampPage(Number.NaN, 5)).toBe(1);
    expect(clampPage(4, 0)).toBe(1);
  });
});

describe('pageButtons', () => {
  it('shows nothing when there are no pages', () => {
    expect(pageButtons(1, 0)).toEqual([]);
  });

  it('shows every page when there are few', () => {
    expect(pageButtons(1, 1)).toEqual([1]);
    expect(pageButtons(2, 3)).toEqual([1, 2, 3]);
    expect(pageButtons(1, 4)).toEqual([1, 2, 3, 4]);
    expect(pageButtons(5, 5)).toEqual([2, 3, 4, 5]);
  });

  it('shows pages 1-4, an ellipsis and the last page near the start', () => {
    expect(pageButtons(1, 10)).toEqual([1, 2, 3, 4, 'ellipsis', 10]);
    expect(pageButtons(2, 10)).toEqual([1, 2, 3, 4, 'ellipsis', 10]);
    expect(pageButtons(3, 10)).toEqual([1, 2, 3, 4, 'ellipsis', 10]);
  });

  it('shows current-2..current+1 in the middle', () => {
    expect(pageButtons(4, 10)).toEqual([2, 3, 4, 5, 'ellipsis', 10]);
    expect(pageButtons(6, 10)).toEqual([4, 5, 6, 7, 'ellipsis', 10]);
  });

  it('shows the last page without an ellipsis when it directly follows the window', () => {
    expect(pageButtons(8, 10)).toEqual([6, 7, 8, 9, 10]);
    expect(pageButtons(1, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('shows the last 4 pages near the end', () => {
    expect(pageButtons(9, 10)).toEqual([7, 8, 9, 10]);
    expect(pageButtons(10, 10)).toEqual([7, 8, 9, 10]);
  });

  it('never shows more than 4 numbered pages before the last page', () => {
    for (let total = 1; total <= 20; total += 1) {
      for (let current = 1; current <= total; current += 1) {
        const buttons = pageButtons(current, total);
        const numbers = buttons.filter((b): b is number => b !== 'ellipsis');
        expect(numbers).toContain(current);
        expect(numbers.at(-1)).toBe(total);
        expect(numbers.filter((n) => n !== total).length).toBeLessThanOrEqual(4);
      }
    }
  });

  it('clamps an out-of-range current page', () => {
    expect(pageButtons(99, 10)).toEqual([7, 8, 9, 10]);
    expect(pageButtons(0, 10)).toEqual([1, 2, 3, 4, 'ellipsis', 10]);
  });
});

describe('pageRange / showingText', () => {
  it('gives 1-based first and last positions', () => {
    expect(pageRange(1, 9, 25)).toEqual({ from: 1, to: 9 });
    expect(pageRange(2, 9, 25)).toEqual({ from: 10, to: 18 });
    expect(pageRange(3, 9, 25)).toEqual({ from: 19, to: 25 });
  });

  it('is 0 to 0 when there are no results', () => {
    expect(pageRange(1, 9, 0)).toEqual({ from: 0, to: 0 });
    expect(showingText(1, 9, 0)).toBe('Showing 0 to 0 of 0 results');
  });

  it('clamps a page past the end', () => {
    expect(pageRange(5, 4, 10)).toEqual({ from: 9, to: 10 });
  });

  it("reads 'Showing X to Y of Z results'", () => {
    expect(showingText(2, 6, 14)).toBe('Showing 7 to 12 of 14 results');
    expect(showingText(1, 4, 3)).toBe('Showing 1 to 3 of 3 results');
  });
});

describe('pageItems', () => {
  it('slices the items of a page', () => {
    const items = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(pageItems(items, 1, 4)).toEqual([1, 2, 3, 4]);
    expect(pageItems(items, 3, 4)).toEqual([9, 10]);
    expect(pageItems(items, 9, 4)).toEqual([9, 10]);
    expect(pageItems([], 1, 4)).toEqual([]);
  });
});
