import { ValidationError } from '@app/shared/domain';
import { parseBrokerageAccountNumber } from './brokerage-account-number.js';

describe('parseBrokerageAccountNumber', () => {
  it.each([
    ['12345678', '12345678'],
    ['  1234-5678 ', '1234-5678'],
    ['XXXX-1234', 'XXXX-1234'],
    ['...123', '...123'],
    ['Individual   4567', 'Individual 4567'],
    ['x'.repeat(32), 'x'.repeat(32)],
  ])('accepts %j as %j', (raw, expected) => {
    expect(parseBrokerageAccountNumber(raw)).toBe(expected);
  });

  it.each([
    ['', /must not be empty/],
    ['   ', /must not be empty/],
    ['x'.repeat(33), /at most 32 characters \(got 33\)/],
    ['12<34>', /only letters, digits/],
    ['---', /only letters, digits/],
    ['1234\n5678x;DROP', /only letters, digits/],
    [12345678, /must be a string/],
    [null, /must be a string/],
  ])('refuses %j, naming the field', (raw, message) => {
    expect(() => parseBrokerageAccountNumber(raw)).toThrow(ValidationError);
    expect(() => parseBrokerageAccountNumber(raw)).toThrow(message);
    expect(() => parseBrokerageAccountNumber(raw)).toThrow(/^brokerage_account /);
  });
});
