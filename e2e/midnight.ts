// The browser journeys' midnight guard (test/midnight.ts): their run lasts longer than the unit
// tests', so a run starting within this many minutes of a UTC midnight first waits for the new day
// (TEST_MIDNIGHT_GUARD_MINUTES overrides it, as for the unit tests; 0 turns it off).
export const E2E_MIDNIGHT_GUARD_MINUTES = 20;
