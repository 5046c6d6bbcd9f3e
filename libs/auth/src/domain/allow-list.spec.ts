import { AllowList, DEMO_USER_EMAIL } from './allow-list.js';

describe('AllowList', () => {
  it('admits the listed addresses whatever their case and surrounding spaces', () => {
    const list = new AllowList(['alice@example.com', ' Bob@Example.org ']);
    expect(list.admits('ALICE@example.com')).toBe(true);
    expect(list.admits(' bob@example.org')).toBe(true);
    expect(list.admits('carol@example.com')).toBe(false);
    expect(list.admits('alice@example.com.evil')).toBe(false);
  });

  it('admits nobody when empty', () => {
    expect(new AllowList([]).admits('alice@example.com')).toBe(false);
    expect(AllowList.fromSettings([], false).isEmpty).toBe(true);
  });

  it('defaults to the demo address only with the built-in provider and nothing configured', () => {
    expect(AllowList.fromSettings([], true).entries).toEqual([DEMO_USER_EMAIL]);
    expect(AllowList.fromSettings(['alice@example.com'], true).admits(DEMO_USER_EMAIL)).toBe(false);
    expect(AllowList.fromSettings([], false).admits(DEMO_USER_EMAIL)).toBe(false);
  });
});
