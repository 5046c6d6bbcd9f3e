import { LISTED_WARNINGS, listedWarnings } from './import-brokerage-files.service.js';

describe('listedWarnings', () => {
  const numbered = (count: number) => Array.from({ length: count }, (_, index) => `warning ${index + 1}`);

  it('lists up to LISTED_WARNINGS as they are', () => {
    expect(listedWarnings([])).toEqual([]);
    expect(listedWarnings(numbered(LISTED_WARNINGS))).toEqual(numbered(LISTED_WARNINGS));
  });

  it('lists the first ones and counts the rest in a last one, however many', () => {
    expect(listedWarnings(numbered(LISTED_WARNINGS + 1)).at(-1)).toBe(`… and 1 more warning not listed (${LISTED_WARNINGS + 1} in all)`);
    const many = listedWarnings(numbered(250_000));
    expect(many).toEqual([...numbered(LISTED_WARNINGS), '… and 249,900 more warnings not listed (250,000 in all)']);
  });
});
