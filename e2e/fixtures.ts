// Every journey fails on a page error, an unexpected console error, or a request from the page to
// any origin but the app's own (the page's scripts, styles, fonts, images and calls all come
// from the site: nothing fails offline, and no third party learns what shoppers look at).
import { test as base, expect } from '@playwright/test';
import { trackRequests } from './network.ts';

export const test = base.extend<{ pageProblems: string[] }>({
  pageProblems: [
    async ({ page, baseURL }, use) => {
      const problems: string[] = [];
      const origin = new URL(baseURL!).origin;
      trackRequests(page);
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
      });
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.protocol === 'data:' || url.protocol === 'blob:') return;
        if (url.origin !== origin)
          problems.push(
            `request to another origin: ${request.method()} ${url.origin}${url.pathname} (from ${page.url()})`,
          );
      });
      await use(problems);
      expect(problems).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
