import { createHash } from 'node:crypto';
import { Decimal } from '@app/shared/domain';
import { brokerLot, TransactionsBuilder } from '../testing/transaction-builders.js';
import { packedTransaction, type BrokerTransaction } from './broker-transaction.js';
import { fingerprintLots, fingerprintTransactions, withLotFingerprints, withTransactionFingerprints } from './fingerprint.js';
import { packedLot, type RealizedLot } from './realized-lot.js';

/**
 * The natural keys as they are stored (../shared/spec/decisions.md §3): the first 128 bits of the SHA-256
 * of `kind␞ACCOUNT␞` and the row's canonical fields joined by `␟`, the second and later identical rows
 * of a day with `#n` after that digest. Written out here as plainly as it can be, so a faster keying
 * that gave other keys (and so stored every row again on the next upload) fails.
 */
function storedKeys(kind: string, account: string, contents: readonly string[][]): string[] {
  const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
  const occurrences = new Map<string, number>();
  return contents.map((fields) => {
    const contentKey = sha256(`${kind}\u001e${canonical(account).toUpperCase()}\u001e${fields.join('\u001f')}`);
    const occurrence = (occurrences.get(`${fields[0]} ${contentKey}`) ?? 0) + 1;
    occurrences.set(`${fields[0]} ${contentKey}`, occurrence);
    return (occurrence === 1 ? contentKey : sha256(`${contentKey}#${occurrence}`)).slice(0, 32);
  });
}

const canonical = (text: string) => text.trim().replace(/\s+/g, ' ');
const figure = (value: Decimal | null) => (value === null ? '' : value.toString());

function transactionFields(tx: BrokerTransaction): string[] {
  const fees = tx.fees === null || tx.fees.isZero() ? '0' : tx.fees.toString();
  const texts = [tx.date, tx.asOfDate ?? '', canonical(tx.action).toLowerCase(), canonical(tx.symbol).toUpperCase(), canonical(tx.description)];
  return [...texts, figure(tx.quantity), figure(tx.price), fees, figure(tx.amount)];
}

function lotFields(lot: RealizedLot): string[] {
  const figures = [lot.quantity, lot.proceeds, lot.costBasis, lot.gainLoss].map(figure);
  return [lot.closedDate, lot.openedDate, canonical(lot.symbol).toUpperCase(), ...figures, canonical(lot.term ?? ''), lot.washSale ? 'yes' : 'no', figure(lot.disallowedLoss)];
}

describe('natural keys', () => {
  const transactions: BrokerTransaction[] = [
    ...new TransactionsBuilder()
      .add('2024-03-01', 'Buy', 'AAPL', '10', '181.25', '-1812.50')
      .add('2024-03-01', 'Buy', 'AAPL', '10', '181.25', '-1812.50') // a second identical fill of the day: #2
      .add('2024-03-01', 'Buy', 'AAPL', '10', '181.25', '-1812.50') // and #3
      .add('2024-03-04', 'Buy', 'AAPL', '10', '181.25', '-1812.50') // the same content another day
      .add('2024-03-04', '  Sell  Short ', ' brk.b ', '0.0001', '0.00001', '1234567.8912', '0.65')
      .add('2024-03-05', 'Qual Div Reinvest', 'VTI', undefined, undefined, '12.3400', '0')
      .add('2024-03-05', 'Stock Split', 'NVDA', '900', undefined, undefined)
      .add('2024-03-06', 'Sell', 'TSLA', '123456789.123', '-0.5', '-987654321012.0000000001', '1.2')
      .build(),
  ].map((tx, index) => ({
    ...tx,
    asOfDate: index === 5 ? '2024-03-04' : null,
    // Text past ASCII (two, three and four bytes a character, a lone surrogate), inner and outer space, longer than a short text, and longer than the content's first buffer.
    description: ['Société Générale  ADR', ' 漢字 \t 株式会社 ', 'CLEF 𝄞 and \ud800 alone', 'A'.repeat(40), `${'ü'.repeat(33)}`, 'é'.repeat(700), '', 'TESLA INC'][index],
  }));
  const lots: RealizedLot[] = [
    brokerLot('AAPL', '2024-01-02', '2024-03-01', '10', '1500', '1812.50'),
    brokerLot('AAPL', '2024-01-02', '2024-03-01', '10', '1500', '1812.50'),
    brokerLot('MSFT', '2023-01-02', '2024-03-01', '0.125', '1000000.01', '999999.99', { term: ' Long  Term ', washSale: true, disallowedLoss: Decimal.parse('0.02') }),
    brokerLot('çà', '2024-02-02', '2024-03-02', '3', '3', '3', { term: null }),
  ];

  it('are the digests of the rows’ canonical content, as stored by every import before', () => {
    expect(fingerprintTransactions('  xxxx-1234 ', transactions)).toEqual(storedKeys('transaction', 'XXXX-1234', transactions.map(transactionFields)));
    expect(fingerprintLots('XXXX-1234', lots)).toEqual(storedKeys('realized-lot', 'XXXX-1234', lots.map(lotFields)));
  });

  it('are set on the rows in place, the same with or without turns of the event loop', async () => {
    const keys = storedKeys('transaction', 'XXXX-1234', transactions.map(transactionFields));
    expect(withTransactionFingerprints('XXXX-1234', transactions.map((tx) => ({ ...tx }))).map((tx) => tx.fingerprint)).toEqual(keys);
    const turned = await withLotFingerprints('XXXX-1234', lots.map((lot) => ({ ...lot })), { pause: async () => undefined });
    expect(turned.map((lot) => lot.fingerprint)).toEqual(storedKeys('realized-lot', 'XXXX-1234', lots.map(lotFields)));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('are the same on packed rows, which keep them as bytes', () => {
    const packed = withTransactionFingerprints('XXXX-1234', transactions.map((tx) => packedTransaction(tx)));
    expect(packed.map((tx) => tx.fingerprint)).toEqual(storedKeys('transaction', 'XXXX-1234', transactions.map(transactionFields)));
    const packedLots = withLotFingerprints('XXXX-1234', lots.map(packedLot));
    expect(packedLots.map((lot) => lot.fingerprint)).toEqual(storedKeys('realized-lot', 'XXXX-1234', lots.map(lotFields)));
  });

  it('tell apart the rows of a day whose keys begin alike, and count the repeats among them', () => {
    // 40,000 contents in one day, some of whose keys share their first seven digits (checked below),
    // by which the keying files a day's rows; each content comes again after the next one, and a
    // tenth of them a third time.
    const prices = Array.from({ length: 40_000 }, (_, index) => `${100 + index / 100}`);
    const buy = (builder: TransactionsBuilder, price: string) => builder.add('2024-03-01', 'Buy', 'AAPL', '1', price, `-${price}`);
    const firsts = new TransactionsBuilder();
    const all = new TransactionsBuilder();
    prices.forEach((price, index) => {
      buy(firsts, price);
      buy(all, price);
      if (index > 0) buy(all, prices[index - 1]);
      if (index > 0 && index % 10 === 0) buy(all, prices[index - 1]);
    });
    const firstKeys = storedKeys('transaction', 'XXXX-1234', firsts.build().map(transactionFields));
    const rows = all.build();
    const expected = storedKeys('transaction', 'XXXX-1234', rows.map(transactionFields));

    expect(new Set(firstKeys.map((key) => key.slice(0, 7))).size).toBeLessThan(firstKeys.length);
    expect(fingerprintTransactions('XXXX-1234', rows)).toEqual(expected);
  });
});
