// Browser journeys in Debian's Chromium (or CHROMIUM_PATH) against the production build, with
// the web process and the worker running on a fresh database (e2e/serve.ts).
import { defineConfig } from '@playwright/test';
import { midnightWait } from './test/midnight.ts';
import { E2E_MIDNIGHT_GUARD_MINUTES } from './e2e/midnight.ts';

const port = Number(process.env.E2E_PORT ?? 4310);

// Which journeys run at which width is said here and by tags, not by skips inside the tests (a
// skipped journey still costs its fixtures). Every journey runs once, at desktop width: a flow's
// logic is the same at every width, and a new journey covers a new flow, not an old one at another
// width. A journey whose screen is laid out differently on a phone (the navigation menu, the
// Filters dialog, cards instead of a table) is tagged @phone and runs at the phone's width too; one
// tagged @tablet also runs at the tablet's, between the two layouts.
/** The first-time admin setup: its own project, run before every other on the fresh database. */
const FIRST_ADMIN = 'first-admin.spec.ts';
const desktop = { viewport: { width: 1440, height: 900 } };

export default defineConfig({
  testDir: 'e2e',
  globalTeardown: './e2e/global-teardown.ts',
  outputDir: 'test-results',
  // Generous on purpose: CI runs on a 2-core machine that may be busy (a first page load there has
  // taken over 10 s). Passing journeys do not wait longer for it; only a real failure does.
  timeout: 60_000,
  expect: { timeout: 20_000 },
  // Two workers, one a core: a journey alone keeps the machine about three quarters busy (the
  // page's main thread is its critical path), two fill it. Files run side by side against the one
  // server; a file's own journeys run in order.
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: process.env.CI ? 'list' : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
      ],
    },
    // A trace is recorded for every journey and kept only when it fails: locally that is where
    // a failure is read. CI keeps only the text it prints, so it records none (recording cost 11
    // to 30% of the journeys' time in two paired runs of 48 of them on the 2-core machine).
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    // As a shopper who asks for less motion: the news strip stands still and the loading
    // placeholders stop pulsing. Their endless animations kept the browser drawing frames for as long
    // as a page was open, about a fifth of a core (the journey that checks the strip asks for motion).
    reducedMotion: 'reduce',
  },
  projects: [
    { name: 'first-admin', testMatch: FIRST_ADMIN, use: desktop },
    {
      name: 'phone',
      dependencies: ['first-admin'],
      testIgnore: FIRST_ADMIN,
      grep: /@phone\b/,
      use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
    },
    {
      name: 'tablet',
      dependencies: ['first-admin'],
      testIgnore: FIRST_ADMIN,
      grep: /@tablet\b/,
      use: { viewport: { width: 820, height: 1180 }, hasTouch: true },
    },
    { name: 'desktop', dependencies: ['first-admin'], testIgnore: [FIRST_ADMIN], use: desktop },
  ],
  webServer: {
    command: `node --import tsx e2e/serve.ts`,
    url: `http://127.0.0.1:${port}/api/stores`,
    env: { E2E_PORT: String(port) },
    // Longer by the wait for a UTC midnight when the run starts close to one (e2e/serve.ts).
    timeout: 180_000 + midnightWait(E2E_MIDNIGHT_GUARD_MINUTES),
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
