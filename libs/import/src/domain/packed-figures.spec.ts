import { hash } from 'node:crypto';
import { Decimal, ExactUnits, writeDecimalText } from '@app/shared/domain';
import { brokerLot, TransactionsBuilder } from '../testing/transaction-builders.js';
import { packedTransaction, TransactionFigure, transactionFigureToWrite, type BrokerTransaction } from './broker-transaction.js';
import { FigureChunk, FigurePacking, TextTable } from './packed-figures.js';
import { LotFigure, lotFigureToWrite, packedLot, type RealizedLot } from './realized-lot.js';

/**
 * Figures at the edges: none, zero, signs, the smallest unit, whole ten-thousandths of 32 bits and
 * past them (the chunk's marks among them), a number's exact units and past them.
 */
const FIGURES: (Decimal | null)[] = [
  null,
  Decimal.ZERO,
  Decimal.parse('-0'),
  Decimal.parse('0.0000000001'),
  Decimal.parse('-0.0000000001'),
  Decimal.parse('123.45'),
  Decimal.parse('-98765.4321'),
  Decimal.parse('0.00005'),
  Decimal.parse('214748.3647'),
  Decimal.parse('214748.3648'),
  Decimal.parse('-214748.3646'),
  Decimal.parse('-214748.3647'),
  Decimal.parse('-214748.3648'),
  Decimal.parse('-214748.3649'),
  Decimal.parse('1000000'),
  Decimal.fromUnits(BigInt(Number.MAX_SAFE_INTEGER)),
  Decimal.fromUnits(-BigInt(Number.MAX_SAFE_INTEGER)),
  Decimal.fromUnits(BigInt(Number.MAX_SAFE_INTEGER) + 1n),
  Decimal.fromUnits(-(2n ** 61n)),
  Decimal.parse('123456789012345678901234567890.0000000001'),
];

const text = (figure: Decimal | null) => figure?.toString() ?? null;

/** A figure to write out as its writer writes it (`writeDecimalText`), or null. */
function writtenText(figure: Decimal | ExactUnits | null): string | null {
  if (figure === null) return null;
  const buffer = Buffer.alloc(64);
  return buffer.toString('latin1', 0, writeDecimalText(buffer, figure, 0));
}

describe('FigureChunk', () => {
  it('gives every figure back exactly, or null where none was put', () => {
    const chunk = new FigureChunk({ figures: FIGURES.length });
    FIGURES.forEach((figure, index) => chunk.putFigure(1, index, figure));

    expect(FIGURES.map((_, index) => text(chunk.figure(1, index)))).toEqual(FIGURES.map(text));
    FIGURES.forEach((figure, index) => {
      const read = chunk.figure(1, index);
      if (figure === null) expect(read).toBeNull();
      else expect(read?.rawUnits).toBe(figure.rawUnits);
    });
  });

  it('gives every figure to write out as its text, in one slot of exact units filled anew, without its Decimal but where a number cannot hold its units', () => {
    const chunk = new FigureChunk({ figures: FIGURES.length });
    FIGURES.forEach((figure, index) => chunk.putFigure(2, index, figure));
    const slot = new ExactUnits();
    FIGURES.forEach((figure, index) => {
      const read = chunk.figureInto(2, index, slot);
      expect(writtenText(read)).toBe(text(figure));
      expect(read === null ? null : read === slot).toBe(figure === null ? null : figure.exactUnits !== undefined);
    });
  });

  it('gives each figure back in a chunk of ten-thousandths only, and in one where each row has a wider figure', () => {
    const narrow = FIGURES.filter((figure) => figure === null || (figure.exactUnits !== undefined && figure.exactUnits % 1_000_000 === 0 && Math.abs(figure.exactUnits / 1_000_000) < 2 ** 31 - 1));
    const chunk = new FigureChunk({ figures: 2 });
    narrow.forEach((figure, row) => chunk.putFigure(row, 0, figure));
    expect(narrow.map((_, row) => text(chunk.figure(row, 0)))).toEqual(narrow.map(text));

    const mixed = new FigureChunk({ figures: 2 });
    FIGURES.forEach((figure, row) => {
      mixed.putFigure(row, 0, figure);
      mixed.putFigure(row, 1, Decimal.parse('0.00001').add(Decimal.fromUnits(BigInt(row))));
    });
    expect(FIGURES.map((_, row) => text(mixed.figure(row, 0)))).toEqual(FIGURES.map(text));
    expect(FIGURES.map((_, row) => mixed.figure(row, 1)?.rawUnits)).toEqual(FIGURES.map((_, row) => 100_000n + BigInt(row)));
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
    const chunk = new FigureChunk({ figures: 3 });
    KEYS.forEach((key, row) => chunk.putKey(row, key));

    expect(KEYS.map((_, row) => chunk.key(row))).toEqual(KEYS);
    expect(KEYS.map((_, row) => chunk.hasKey(row))).toEqual(KEYS.map((key) => key !== undefined));
  });

  it('gives a key put as a digest\'s bytes as their hexadecimal digits, and a key put after it as that key', () => {
    const chunk = new FigureChunk({ figures: 1 });
    const digest = hash('sha256', 'row', 'binary');
    chunk.putKeyBytes(0, digest);
    chunk.putKeyBytes(1, digest);
    chunk.putKey(1, KEYS[9]);

    expect(chunk.key(0)).toBe(hash('sha256', 'row', 'hex').slice(0, 32));
    expect(chunk.hasKey(0)).toBe(true);
    expect(chunk.key(1)).toBe(KEYS[9]);
    expect(chunk.hasKey(2)).toBe(false);
  });

  it('keeps the key of each row apart from its neighbours', () => {
    const chunk = new FigureChunk({ figures: 8 });
    for (let row = 0; row < 1024; row += 1) chunk.putKey(row, hexKey(row));

    for (let row = 0; row < 1024; row += 1) expect(chunk.key(row)).toBe(hexKey(row));
  });

  it('gives the last key put, whichever way the one before it was kept', () => {
    const chunk = new FigureChunk({ figures: 1 });
    const sequence = [KEYS[4], KEYS[1], undefined, KEYS[9], KEYS[2], KEYS[4], undefined];
    const read = sequence.map((key) => {
      chunk.putKey(0, key);
      return chunk.key(0);
    });

    expect(read).toEqual(sequence);
  });
});

describe('FigureChunk numbers and texts', () => {
  it('gives every number and text back as put, each row apart from its neighbours', () => {
    const chunk = new FigureChunk({ figures: 1, numbers: 2, texts: 3 });
    const numbers = (row: number) => [row === 7 ? undefined : row * 2_000_003, row % 5 === 0 ? undefined : -row - 0x7ffffbff];
    const texts = (row: number) => [`2024-01-${String(1 + (row % 28)).padStart(2, '0')}`, row % 3 === 0 ? null : 'Buy', row % 11 === 0 ? '' : `S${row}`];
    for (let row = 0; row < 1024; row += 1) {
      numbers(row).forEach((value, index) => chunk.putNumber(row, index, value));
      texts(row).forEach((value, index) => chunk.putText(row, index, value));
    }

    for (let row = 0; row < 1024; row += 1) {
      expect([chunk.number(row, 0), chunk.number(row, 1)]).toEqual(numbers(row));
      expect([0, 1, 2].map((index) => chunk.text(row, index))).toEqual(texts(row));
    }
  });

  it('refuses a number that is not a whole number of 32 bits, rather than keep another', () => {
    const chunk = new FigureChunk({ figures: 0, numbers: 1 });
    for (const value of [0.5, Number.NaN, 2 ** 31, -(2 ** 31), Number.POSITIVE_INFINITY]) {
      expect(() => chunk.putNumber(0, 0, value)).toThrow(RangeError);
    }
    chunk.putNumber(0, 0, 2 ** 31 - 1);
    chunk.putNumber(1, 0, -(2 ** 31) + 1);
    expect([chunk.number(0, 0), chunk.number(1, 0)]).toEqual([2 ** 31 - 1, -(2 ** 31) + 1]);
  });

  it('keeps a text once in a table chunks share, each chunk reading its own rows', () => {
    const table = new TextTable();
    const [first, second] = [new FigureChunk({ figures: 0, texts: 1 }, table), new FigureChunk({ figures: 0, texts: 1 }, table)];
    first.putText(0, 0, 'AAA');
    first.putText(1, 0, 'BBB');
    second.putText(0, 0, 'BBB');
    second.putText(1, 0, 'CCC');
    first.putText(2, 0, 'CCC');

    expect([0, 1, 2].map((row) => first.text(row, 0))).toEqual(['AAA', 'BBB', 'CCC']);
    expect([0, 1].map((row) => second.text(row, 0))).toEqual(['BBB', 'CCC']);
    expect(['AAA', 'BBB', 'CCC'].map((text) => table.placeOf(text))).toEqual([0, 1, 2]);
  });

  it('refuses a 65,536th text in a table, rather than give another a place', () => {
    const table = new TextTable();
    for (let text = 0; text < 65_535; text += 1) table.placeOf(`text ${text}`);
    expect(table.hasRoomFor(1)).toBe(false);
    expect(table.placeOf('text 65534')).toBe(65_534);
    expect(() => table.placeOf('one more')).toThrow(RangeError);
  });
});

describe('FigureChunk cells', () => {
  it('gives each row its cells back until they are written, then none, as a row read back', () => {
    const chunk = new FigureChunk({ figures: 1 });
    for (let row = 0; row < 3; row += 1) chunk.putCells(row, `["row ${row}"]`);
    chunk.putCells(1, '[]');
    expect([0, 1, 2, 3].map((row) => chunk.cells(row))).toEqual(['["row 0"]', '[]', '["row 2"]', '[]']);

    chunk.putCells(0, '[]');
    chunk.putCells(0, '[]');
    chunk.putCells(2, '[]');
    expect([0, 1, 2].map((row) => chunk.cells(row))).toEqual(['[]', '[]', '[]']);
    // Put again once all were written (the chunk let go of them): kept as the first were.
    chunk.putCells(2, '["again"]');
    chunk.putCells(1, '["and"]');
    chunk.putCells(2, '[]');
    expect([0, 1, 2].map((row) => chunk.cells(row))).toEqual(['[]', '["and"]', '[]']);
  });
});

describe('FigurePacking', () => {
  it('gives each row its own places, in chunk after chunk', () => {
    const packing = new FigurePacking({ figures: 3, numbers: 1, texts: 1 });
    const rows = Array.from({ length: 2_500 }, (_, row) => {
      const place = packing.place();
      for (let figure = 0; figure < 3; figure += 1) place.chunk.putFigure(place.row, figure, Decimal.fromExactUnits(row * 3 + figure));
      place.chunk.putNumber(place.row, 0, row);
      place.chunk.putText(place.row, 0, `row ${row % 700}`);
      return place;
    });

    expect(new Set(rows.map((row) => row.chunk)).size).toBe(3);
    rows.forEach(({ chunk, row: at }, row) => {
      for (let figure = 0; figure < 3; figure += 1) expect(chunk.figure(at, figure)?.exactUnits).toBe(row * 3 + figure);
      expect([chunk.number(at, 0), chunk.text(at, 0)]).toEqual([row, `row ${row % 700}`]);
    });
  });

  it('gives each row its texts back when they outgrow a table, the chunks after it taking a new one', () => {
    const packing = new FigurePacking({ figures: 0, texts: 2 });
    // 140,000 texts, all different: a table has room for 65,535.
    const rows = Array.from({ length: 70_000 }, (_, row) => {
      const place = packing.place();
      place.chunk.putText(place.row, 0, `first ${row}`);
      place.chunk.putText(place.row, 1, `second ${row}`);
      return place;
    });

    expect(rows.every(({ chunk, row: at }, row) => chunk.text(at, 0) === `first ${row}` && chunk.text(at, 1) === `second ${row}`)).toBe(true);
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
    // To write out: the same texts, packed or not.
    const slot = new ExactUnits();
    for (const figure of Object.values(LotFigure)) {
      expect(packed.map((lot) => writtenText(lotFigureToWrite(lot, figure, slot)))).toEqual(lots.map((lot) => writtenText(lotFigureToWrite(lot, figure, slot))));
    }
    expect(lots.map((lot) => writtenText(lotFigureToWrite(lot, LotFigure.disallowedLoss, slot)))).toEqual(lots.map((lot) => text(lot.disallowedLoss)));
    expect(packed.map((lot) => writtenText(lotFigureToWrite(lot, LotFigure.quantity, slot)))).toEqual(lots.map((lot) => text(lot.quantity)));
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
    const packed = rows.map((tx) => packedTransaction(tx));

    expect(packed.map(transactionFields)).toEqual(rows.map(transactionFields));
    const slot = new ExactUnits();
    for (const [name, figure] of Object.entries(TransactionFigure)) {
      const given = rows.map((tx) => text(tx[name as keyof typeof TransactionFigure]));
      expect(packed.map((tx) => writtenText(transactionFigureToWrite(tx, figure, slot)))).toEqual(given);
      expect(rows.map((tx) => writtenText(transactionFigureToWrite(tx, figure, slot)))).toEqual(given);
    }
  });
});
