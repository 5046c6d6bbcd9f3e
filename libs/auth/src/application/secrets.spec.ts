import { codeChallengeOf, hashToken, randomToken, sameToken } from './secrets.js';

describe('secrets', () => {
  it('keeps a token as its SHA-256 in hexadecimal, so sessions stored before stay found', () => {
    // FIPS 180-2's example digest of "abc".
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const token = randomToken();
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(token)).not.toBe(hashToken(randomToken()));
  });

  it("makes RFC 7636's S256 code challenge (its appendix B example)", () => {
    expect(codeChallengeOf('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('compares tokens of any length', () => {
    expect(sameToken('abc', 'abc')).toBe(true);
    expect(sameToken('abc', 'abd')).toBe(false);
    expect(sameToken('abc', 'abcd')).toBe(false);
  });
});
