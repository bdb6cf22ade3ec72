// Stock and promotions on a price: the three stock states as the retailer gave them (an unknown
// stock never reads as in stock), none for sample prices, and "was $x.xx" only beside a promotion.
import { ChakraProvider } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { system } from '#client/theme.ts';
import { StockBadge, WasPrice } from './StockAndPromotion.tsx';

const html = (node: ReactNode) => renderToStaticMarkup(<ChakraProvider value={system}>{node}</ChakraProvider>);
const text = (markup: string) => markup.replace(/<style[^>]*>[\s\S]*?<\/style>/g, '').replace(/<[^>]+>/g, '');

describe('StockBadge', () => {
  it('says in stock, out of stock or stock unknown, as badge or compact text', () => {
    for (const compact of [false, true]) {
      expect(text(html(<StockBadge entry={{ in_stock: true, source: 'scrape' }} compact={compact} />))).toBe(
        'In stock',
      );
      expect(text(html(<StockBadge entry={{ in_stock: false, source: 'scrape' }} compact={compact} />))).toBe(
        'Out of stock',
      );
      expect(text(html(<StockBadge entry={{ in_stock: null, source: 'scrape' }} compact={compact} />))).toBe(
        'Stock unknown',
      );
      expect(html(<StockBadge entry={{ in_stock: null, source: 'demo' }} compact={compact} />)).toContain(
        'data-stock="unknown"',
      );
    }
  });

  it('shows nothing for a sample price, which was never on a shelf', () => {
    expect(text(html(<StockBadge entry={{ in_stock: null, source: 'sample' }} />))).toBe('');
  });
});

describe('WasPrice', () => {
  it('shows the regular price only when a promotion lowers the shelf price', () => {
    expect(text(html(<WasPrice entry={{ regular_price: 5.19, price: 4.69 }} />))).toBe('was $5.19');
    expect(html(<WasPrice entry={{ regular_price: 5.19, price: 4.69 }} />)).toContain('line-through');
    expect(text(html(<WasPrice entry={{ regular_price: null, price: 4.69 }} />))).toBe('');
    expect(text(html(<WasPrice entry={{ regular_price: 4.69, price: 4.69 }} />))).toBe('');
  });
});
