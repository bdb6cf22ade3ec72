import { describe, expect, it } from 'vitest';
import { isAdminUserData } from './adminSession.ts';

describe('isAdminUserData', () => {
  it('is true only for stored user data with the admin role', () => {
    expect(isAdminUserData(JSON.stringify({ id: 1, role: 'admin' }))).toBe(true);
    expect(isAdminUserData(JSON.stringify({ id: 1, role: 'user' }))).toBe(false);
    expect(isAdminUserData(JSON.stringify({ id: 1, role: 'Admin ' }))).toBe(false);
    expect(isAdminUserData(null)).toBe(false);
    expect(isAdminUserData('not json')).toBe(false);
    expect(isAdminUserData('null')).toBe(false);
  });
});
