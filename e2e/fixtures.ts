// Every journey fails on a page error or an unexpected console error. Store logos come from an
// outside icon service that this test machine cannot reach; those failures are expected.
import { test as base, expect } from '@playwright/test';

const EXPECTED = /icons\.duckduckgo\.com|ERR_NAME_NOT_RESOLVED|ERR_INTERNET_DISCONNECTED/;

export const test = base.extend<{ pageProblems: string[] }>({
  pageProblems: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error' && !EXPECTED.test(`${message.text()} ${message.location().url}`)) {
          problems.push(`console error: ${message.text()}`);
        }
      });
      await use(problems);
      expect(problems).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
