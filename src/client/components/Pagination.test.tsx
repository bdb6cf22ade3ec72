import { ChakraProvider } from '@chakra-ui/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { system } from '#client/theme.ts';
import { Pagination, type PaginationProps } from './Pagination.tsx';

const render = (props: Partial<PaginationProps>) =>
  renderToStaticMarkup(
    <ChakraProvider value={system}>
      <Pagination page={1} pageCount={1} pageSize={9} total={6} onPageChange={() => {}} {...props} />
    </ChakraProvider>,
  );

/** The page numbers rendered as buttons, in order. */
const numbers = (html: string) => [...html.matchAll(/aria-label="Page (\d+)"/g)].map((m) => Number(m[1]));

describe('Pagination', () => {
  it("shows 'Showing X to Y of Z results' with up to 4 numbered pages, an ellipsis and the last page", () => {
    const html = render({ page: 1, pageCount: 10, pageSize: 9, total: 90 });
    expect(html).toContain('Showing 1 to 9 of 90 results');
    expect(numbers(html)).toEqual([1, 2, 3, 4, 10]);
    expect(html).toMatch(/aria-label="Page 1"[^>]*aria-current="page"|aria-current="page"[^>]*aria-label="Page 1"/);
    expect(html).toContain('Previous');
    expect(html).toContain('Next');
    // The ellipsis is decoration, hidden from assistive technology.
    expect(html.match(/<span[^>]*aria-hidden="true"[^>]*class="[^"]*chakra-button/g)?.length).toBe(1);
  });

  it("on mobile shows 'Page N of M' instead of numbers", () => {
    const html = render({ page: 2, pageCount: 2, pageSize: 4, total: 6, mobile: true });
    expect(html).toContain('Page 2 of 2');
    expect(numbers(html)).toEqual([]);
    expect(html).toContain('Showing 5 to 6 of 6 results');
  });

  it('disables Previous on the first page and Next on the last', () => {
    const html = render({ page: 1, pageCount: 1, pageSize: 9, total: 6 });
    expect(html.match(/<button[^>]*disabled=""/g)?.length).toBe(2);
  });

  it('renders nothing without results', () => {
    expect(render({ total: 0, pageCount: 0 })).not.toContain('Showing');
  });
});
