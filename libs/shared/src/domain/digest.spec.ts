import { createHash } from 'node:crypto';
import { digestPrefix } from './digest.js';

describe('digestPrefix', () => {
  it("gives a digest's first digits", () => {
    const digest = createHash('sha256').update('row').digest('hex');
    expect(digestPrefix(digest, 32)).toBe(digest.slice(0, 32));
    expect(digestPrefix(digest, 20)).toBe(digest.slice(0, 20));
    expect(digestPrefix('00ff', 32)).toBe('00ff');
  });
});
