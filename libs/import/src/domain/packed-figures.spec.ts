import { hash } from 'node:crypto';
import { Decimal } from '@app/shared/domain';
import { brokerLot, TransactionsBuilder } from '../testing/transaction-builders.js';
import { packedTransaction, type BrokerTransaction } from './broker-transaction.js';
import { FigureChunk, FigurePacking } from './packed-figures.js';
import { packedLot, type RealizedLot } from './realized-lot.js';

/** Figures at the edges: none, zero, signs, the smallest unit, a number's exact units and past them. */
const FIGURES: (Decimal | null)[] = [
  null,
  Decimal.ZERO,
  Decimal.parse('-0'),
  Decimal.parse('0.0000000001'),
  Decimal.parse('-0.0000000001'),
  Decimal.parse('123.45'),
  Decimal.parse('-98765.4321'),
  Decimal.fromUnits(BigInt(Number.MAX_SAFE_INTEGER)),
  Decimal.fromUnits(-BigInt(Number.MAX_SAFE_INTEGER)),
  Decimal.fromUnits(BigInt(Number.MAX_SAFE_INTEGER) + 1n),
  Decimal.fromUnits(-(2n ** 61n)),
  Decimal.parse('123456789012345678901234567890.0000000001'),
];

const text = (figure: Decimal | null) => figure?.toString() ?? null;

describe('FigureChunk', () => {
  it('gives every figure back exactly, or null where none was put', () => {
    const chunk = new FigureChunk(FIGURES.length);
    FIGURES.forEach((figure, place) => chunk.put(place, figure));

    expect(FIGURES.map((_, place) => text(chunk.get(place)))).toEqual(FIGURES.map(text));
    FIGURES.forEach((figure, place) => {
      const read = chunk.get(place);
      if (figure === null) expect(read).toBeNull();
      else expect(read?.rawUnits).toBe(figure.rawUnits);
    });
  });
});

describe('FigureChunk keys', () => {
  const hexKey = (row: number) => hash('md5', String(row), 'hex');
  const KEYS: (string | undefined)[] = [
    undefined,
    '0123456789abcdef0123456789abcdef',
    'ffffffffffffffffffffffffffffffff',
    '00000000000000000000000000000000',
    '0123456789ABCDEF0123456789ABCDEF', // upper case does not come back as itself from bytes: kept as text
    '0123456789abcdef0123456789abcdeg',
    '0123456789abcdef0123456789abcde',
    '0123456789abcdef0123456789abcdef0',
    '',
    'key 1',
    'é123456789abcdef0123456789abcdef',
  ];

  it('gives every key back as it was put, or undefined where none was', () => {
    const width = 3;
    const chunk = new FigureChunk(width);
    KEYS.forEach((key, row) => chunk.putKey(row * width, key));

    expect(KEYS.map((_, row) => chunk.key(row * width))).toEqual(KEYS);
  });

  it('keeps the key of each row apart from its neighbours', () => {
    const width = 8;
    const chunk = new FigureChunk(width);
    for (let row = 0; row < 1024; row += 1) chunk.putKey(row * width, hexKey(row));

    for (let row = 0; row < 1024; row += 1) expect(chunk.key(row * width)).toBe(hexKey(row));
  });

  it('gives the last key put, whichever way the one before it was kept', () => {
    const chunk = new FigureChunk(1);
    const sequence = [KEYS[4], KEYS[1], undefined, KEYS[9], KEYS[2], KEYS[4], undefined];
    const read = sequence.map((key) => {
      chunk.putKey(0, key);
      return chunk.key(0);
    });

    expect(read).toEqual(sequence);
  });
});

describe('FigurePacking', () => {
  it('gives each row its own places, in chunk after chunk', () => {
    const packing = new FigurePacking(3);
    const rows = Array.from({ length: 2_500 }, (_, row) => {
      const { chunk, at } = packing.place();
      for (let figure = 0; figure < 3; figure += 1) chunk.put(at + figure, Decimal.fromExactUnits(row * 3 + figure));
      return { chunk, at };
    });

    expect(new Set(rows.map((row) => row.chunk)).size).toBe(3);
    rows.forEach(({ chunk, at }, row) => {
      for (let figure = 0; figure < 3; figure += 1) expect(chunk.get(at + figure)?.exactUnits).toBe(row * 3 + figure);
    });
  });
});

describe('packed rows', () => {
  const lotFields = (lot: RealizedLot) => ({
    line: lot.line,
    symbol: lot.symbol,
    name: lot.name,
    closedDate: lot.closedDate,
    openedDate: lot.openedDate,
    quantity: text(lot.quantity),
    proceedsPerShare: text(lot.proceedsPerShare),
    costPerShare: text(lot.costPerShare),
    proceeds: text(lot.proceeds),
    costBasis: text(lot.costBasis),
    gainLoss: text(lot.gainLoss),
    gainLossPercent: text(lot.gainLossPercent),
    term: lot.term,
    washSale: lot.washSale,
    disallowedLoss: text(lot.disallowedLoss),
    cellsJson: lot.cellsJson,
    fingerprint: lot.fingerprint,
  });
  const transactionFields = (tx: BrokerTransaction) => ({
    line: tx.line,
    date: tx.date,
    asOfDate: tx.asOfDate,
    action: tx.action,
    kind: tx.kind,
    symbol: tx.symbol,
    description: tx.description,
    quantity: text(tx.quantity),
    price: text(tx.price),
    fees: text(tx.fees),
    amount: text(tx.amount),
    cellsJson: tx.cellsJson,
    fingerprint: tx.fingerprint,
    dayOrder: tx.dayOrder,
  });

  it('read as the lots they were made from, each figure in its own place', () => {
    const lots = FIGURES.filter((figure) => figure !== null).map((figure, index) =>
      brokerLot('PEP', '2024-01-02', '2024-03-04', String(index + 1), '100', '150', {
        proceedsPerShare: FIGURES[(index + 1) % FIGURES.length],
        costPerShare: null,
        gainLoss: figure,
        gainLossPercent: FIGURES[(index + 5) % FIGURES.length],
        disallowedLoss: FIGURES[(index + 7) % FIGURES.length],
        washSale: index % 2 === 0,
        term: index % 3 === 0 ? null : 'Long Term',
        fingerprint: index % 2 === 0 ? undefined : `key ${index}`,
      }),
    );
    const packed = lots.map(packedLot);

    expect(packed.map(lotFields)).toEqual(lots.map(lotFields));
    packed[1].fingerprint = 'a'.repeat(32);
    expect(packed.map((lot) => lot.fingerprint)).toEqual(lots.map((lot, index) => (index === 1 ? 'a'.repeat(32) : lot.fingerprint)));
    packed[0].fingerprint = 'keyed';
    packed[0].cellsJson = '[]';
    expect([packed[0].fingerprint, packed[0].cellsJson, text(packed[1].gainLoss)]).toEqual(['keyed', '[]', text(lots[1].gainLoss)]);
  });

  it('read as the transactions they were made from', () => {
    const rows = new TransactionsBuilder()
      .add('2024-03-04', 'Sell', 'PEP', '10', '150.25', '1502.49', '0.01')
      .add('2024-03-01', 'Buy', 'PEP', '10', '100')
      .add('2024-02-15', 'Qualified Dividend', 'PEP', undefined, undefined, '12.5')
      .add('2024-02-01', 'Buy', 'BRK.A', '1', '900719925.4740992', '-900719925.4740992')
      .build()
      .map((tx, index) => ({
        ...tx,
        asOfDate: index === 1 ? '2024-02-29' : null,
        dayOrder: index === 2 ? -4 : undefined,
        fingerprint: [undefined, 'key', '5d41402abc4b2a76b9719d911017c592', undefined][index],
      }));
    const packed = rows.map(packedTransaction);

    expect(packed.map(transactionFields)).toEqual(rows.map(transactionFields));
  });
});
