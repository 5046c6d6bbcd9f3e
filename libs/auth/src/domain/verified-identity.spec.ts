import { SignInRejectedError } from './auth.errors.js';
import { identityFromClaims } from './verified-identity.js';

describe('identityFromClaims', () => {
  it('takes the address lower-cased and the display name', () => {
    expect(identityFromClaims({ sub: '1', email: ' Alice@Example.COM ', email_verified: true, name: 'Alice Doe' })).toEqual({
      email: 'alice@example.com',
      name: 'Alice Doe',
    });
  });

  it('builds a name from given and family names, or has none', () => {
    expect(identityFromClaims({ email: 'a@example.com', given_name: 'Ann', family_name: 'Lee' }).name).toBe('Ann Lee');
    expect(identityFromClaims({ email: 'a@example.com' }).name).toBeNull();
  });

  it('requires an e-mail address', () => {
    expect(() => identityFromClaims({ sub: '1' })).toThrow(SignInRejectedError);
    expect(() => identityFromClaims({ sub: '1', email: 'not an address' })).toThrow(/did not return an e-mail address/);
  });

  it('refuses an address the provider says is unverified, and accepts one it says nothing about', () => {
    expect(() => identityFromClaims({ email: 'a@example.com', email_verified: false })).toThrow(/unverified/);
    expect(() => identityFromClaims({ email: 'a@example.com', email_verified: 'false' })).toThrow(/unverified/);
    expect(identityFromClaims({ email: 'a@example.com' }).email).toBe('a@example.com');
  });
});
