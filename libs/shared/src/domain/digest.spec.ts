import { createHash } from 'node:crypto';
import { Decimal } from './decimal.js';
import { DigestContent, digestPrefix } from './digest.js';

describe('digestPrefix', () => {
  it("gives a digest's first digits", () => {
    const digest = createHash('sha256').update('row').digest('hex');
    expect(digestPrefix(digest, 32)).toBe(digest.slice(0, 32));
    expect(digestPrefix(digest, 20)).toBe(digest.slice(0, 20));
    expect(digestPrefix('00ff', 32)).toBe('00ff');
  });
});

describe('DigestContent', () => {
  const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

  it('digests the lead and the fields between separators, as the joined text would be, one record after another', () => {
    const content = new DigestContent('kind\u001eACCOUNT\u001e', 0x1f);
    const records: [string, Decimal | null, Decimal, number, string][] = [
      ['AAPL', Decimal.parse('-12.5'), Decimal.parse('0.0001'), 0, 'Buy'],
      // As long as the one before: digested through the same view of the buffer, holding its own bytes.
      ['MSFT', Decimal.parse('-12.5'), Decimal.parse('0.0001'), 0, 'Buy'],
      ['', null, Decimal.parse('-123456789012345678901.0000000001'), 2 ** 31 - 1, 'Société Générale  ADR'],
      ['漢字 株式会社 and 𝄞', Decimal.parse('900719.9254740992'), Decimal.ZERO, -7, 'é'.repeat(700)],
      ['A'.repeat(33), Decimal.parse('3'), Decimal.parse('1000000.01'), 12, ''],
      // A length seen before the buffer grew.
      ['AAPL', Decimal.parse('-12.5'), Decimal.parse('0.0001'), 0, 'Buy'],
    ];
    for (const [text, figure, units, integer, last] of records) {
      content.begin().text(text).decimal(figure).units(units).integer(integer).text(last);
      const fields = [text, figure === null ? '' : figure.toString(), units.rawUnits.toString(), String(integer), last].join('\u001f');
      const joined = `kind\u001eACCOUNT\u001e${fields}`;
      expect(content.fieldsText()).toBe(Buffer.from(fields, 'utf8').toString('latin1'));
      expect(content.digest('hex')).toBe(sha256(joined).toString('hex'));
      expect(content.digest('binary')).toBe(sha256(joined).toString('latin1'));
    }
  });
});
