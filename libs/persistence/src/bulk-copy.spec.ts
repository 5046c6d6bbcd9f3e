import { Decimal, ExactUnits } from '@app/shared/domain';
import { allRowsOfJob, COPY_PIECE_BYTES, copyField, copyPieces, copyStatement, filledRows, givePieceBufferBack, rowsOf, textAhead, textOrNull, type CopyPiece, type CopyValue } from './bulk-copy.js';

const noPause = async (): Promise<void> => undefined;

/** The pieces with their bytes read as UTF-8 text. */
async function all(pieces: AsyncIterable<CopyPiece>): Promise<{ text: string; rows: number }[]> {
  const collected: { text: string; rows: number }[] = [];
  for await (const piece of pieces) collected.push({ text: piece.bytes.toString('utf8'), rows: piece.rows });
  return collected;
}

describe('COPY text format', () => {
  it('writes null as \\N and escapes what the format gives a meaning to', () => {
    expect(copyField(null)).toBe('\\N');
    expect(copyField('\\N')).toBe('\\\\N');
    expect(copyField('ACME\tCORP\r\nLINE 2 C:\\x')).toBe('ACME\\tCORP\\r\\nLINE 2 C:\\\\x');
    expect(copyField('"quoted", plain; ünïcode')).toBe('"quoted", plain; ünïcode');
    expect(copyField(12)).toBe('12');
    expect(copyField(false)).toBe('false');
    expect(copyField('')).toBe('');
  });

  it('builds rows piece by piece, each line ending in a newline, with the item index', async () => {
    expect(await all(copyPieces(rowsOf(['a', 'b', 'c'], (item, index) => [item, index, null]), noPause, 12))).toEqual([
      { text: 'a\t0\t\\N\nb\t1\t\\N\n', rows: 2 },
      { text: 'c\t2\t\\N\n', rows: 1 },
    ]);
    expect(await all(copyPieces([], noPause))).toEqual([]);
  });

  it('writes rows filled anew in one array as it writes rows of their own, in batches or not, a figure given by its exact units as its Decimal', async () => {
    const items = Array.from({ length: 500 }, (_, index) => ({ name: `item ${index}`, price: Decimal.parse(`${index}.5`).neg(), gone: index % 3 === 0 }));
    const own = (item: (typeof items)[number]): CopyValue[] => [item.name, item.price, item.gone ? null : item.name.length];
    const units = new ExactUnits();
    const fill = (item: (typeof items)[number], row: CopyValue[]): void => {
      row[0] = item.name;
      units.units = item.price.exactUnits as number;
      row[1] = units;
      row[2] = item.gone ? null : item.name.length;
    };
    const whole = await all(copyPieces(rowsOf(items, own), noPause, 256));
    expect(await all(copyPieces(filledRows(items, 3, fill), noPause, 256))).toEqual(whole);
    async function* batches(): AsyncGenerator<Iterable<readonly CopyValue[]>> {
      for (let at = 0; at < items.length; at += 150) yield filledRows(items.slice(at, at + 150), 3, fill);
    }
    expect(await all(copyPieces(batches(), noPause, 256))).toEqual(whole);
    // Gathered, each row is a copy of its own.
    const asText = (rows: (readonly CopyValue[])[]) => rows.map((row) => row.map((value) => (value === null ? null : value.toString())));
    expect(asText(await allRowsOfJob({ target: { table: 't', columns: ['a', 'b', 'c'] }, rows: filledRows(items, 3, fill) }))).toEqual(asText(items.map(own)));
    expect(asText(await allRowsOfJob({ target: { table: 't', columns: ['a', 'b', 'c'] }, rows: batches() }))).toEqual(asText(items.map(own)));
    expect(copyField(units)).toBe(items[items.length - 1].price.toString());
    // Each item's place, as rowsOf gives it.
    const placed = filledRows(['a', 'b', 'c'], 3, (item, row, index) => {
      row[0] = item;
      row[1] = index;
    });
    expect(await all(copyPieces(placed, noPause))).toEqual(await all(copyPieces(rowsOf(['a', 'b', 'c'], (item, index) => [item, index, null]), noPause)));
  });

  it('cuts pieces of at most their size in bytes and the line that passes it', async () => {
    const line = 'x'.repeat(199);
    const pieces = await all(copyPieces(rowsOf(Array.from({ length: 1_000 }, () => line), (item) => [item]), noPause));
    expect(pieces.map((piece) => piece.rows).reduce((sum, rows) => sum + rows, 0)).toBe(1_000);
    expect(pieces.length).toBe(Math.ceil((1_000 * 200) / COPY_PIECE_BYTES));
    for (const piece of pieces) {
      expect(piece.text.length).toBeLessThan(COPY_PIECE_BYTES + 200);
      expect(piece.text.split('\n').length - 1).toBe(piece.rows);
    }
    expect(pieces.map((piece) => piece.text).join('')).toBe(`${line}\n`.repeat(1_000));
  });

  it('makes the same pieces of rows given in batches as they come, a piece sent once full whichever batch fills it', async () => {
    const rows = Array.from({ length: 1_000 }, (_, index) => [`row ${index}`, index, Decimal.parse(`${index}.25`)]);
    const whole = await all(copyPieces(rows, noPause, 256));
    let given = 0;
    const taken: number[] = [];
    async function* batches(): AsyncGenerator<CopyValue[][]> {
      for (const size of [1, 0, 17, 300, 2, 680]) {
        taken.push(given);
        yield rows.slice(given, (given += size));
      }
    }
    const pieces: { text: string; rows: number }[] = [];
    for await (const piece of copyPieces(batches(), noPause, 256)) {
      pieces.push({ text: piece.bytes.toString('utf8'), rows: piece.rows });
      // A piece holds no row of a batch not taken yet.
      expect(pieces.reduce((sum, each) => sum + each.rows, 0)).toBeLessThanOrEqual(given);
    }
    expect(taken).toEqual([0, 1, 1, 18, 318, 320]);
    expect(pieces).toEqual(whole);
  });

  it('makes rows given as they come into text ahead of the writer, the same pieces', async () => {
    const rows = Array.from({ length: 500 }, (_, index) => [`row ${index}`, index, Decimal.parse(`${index}.5`)]);
    const whole = await all(copyPieces(rows, noPause, COPY_PIECE_BYTES));
    let taken = 0;
    async function* batches(): AsyncGenerator<CopyValue[][]> {
      for (let at = 0; at < rows.length; at += 100) {
        await new Promise((resolve) => setImmediate(resolve));
        taken += 1;
        yield rows.slice(at, at + 100);
      }
    }
    const job = textAhead({ target: { table: 't', columns: ['a', 'b', 'c'] }, rows: batches() }, noPause);
    // No writer has asked for a piece: every batch is taken, made into text, all the same.
    for (let turn = 0; turn < 20 && taken < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(taken).toBe(5);
    expect(job.target.table).toBe('t');
    expect(await all(job.pieces)).toEqual(whole);
  });

  it('fails the pieces made ahead when their rows fail', async () => {
    async function* failing(): AsyncGenerator<CopyValue[][]> {
      yield [['first']];
      throw new Error('matching failed');
    }
    const taken: string[] = [];
    const job = textAhead({ target: { table: 't', columns: ['a'] }, rows: failing() }, noPause);
    await expect(
      (async () => {
        for await (const piece of job.pieces) taken.push(piece.bytes.toString('utf8'));
      })(),
    ).rejects.toThrow('matching failed');
    // The row before the failure made no whole piece: nothing of it is given.
    expect(taken).toEqual([]);
  });

  it('writes any text as UTF-8, lines longer than a piece included', async () => {
    // Two-byte and four-byte characters (a pair of UTF-16 units), a line of 3 bytes a character beyond
    // a new piece's room (6,000 bytes after two lines: the piece grows, keeping them), and lines around
    // the piece's size, in pieces of 64 bytes.
    const items = ['ünïcode €', '𝄞 clef', '€'.repeat(2_000), 'a'.repeat(63), 'b'.repeat(64), 'c', '漢字\tand \\ too'];
    const pieces = await all(copyPieces(rowsOf(items, (item) => [item]), noPause, 64));
    expect(pieces.map((piece) => piece.text).join('')).toBe(items.map((item) => `${copyField(item)}\n`).join(''));
    expect(pieces.map((piece) => piece.rows)).toEqual([3, 1, 1, 2]);
    for (const piece of pieces) expect(piece.text.split('\n').length - 1).toBe(piece.rows);
  });

  it('writes each field of a row as UTF-8, short and long, ASCII or not, wherever its first other character is', async () => {
    const rows: CopyValue[][] = [
      ['abc', 'caf\u00e9', 'x'.repeat(40), null, 'na\u00efve \u{1d11e}', 7, true],
      ['\u20ac', `${'y'.repeat(31)}\u00fc`, `${'z'.repeat(40)}\u00fc`, '', 'tab\there'],
    ];
    const pieces = await all(copyPieces(rows, noPause, 16));
    expect(pieces.map((piece) => piece.text).join('')).toBe(rows.map((row) => `${row.map(copyField).join('\t')}\n`).join(''));
  });

  it('stops for a pause every hundred rows while it builds, and after each piece', async () => {
    const items = Array.from({ length: 450 }, (_, index) => `row ${String(index).padStart(9, '0')}`);
    const built: number[] = [];
    let rowsSeen = 0;
    const rows = rowsOf(items, (item, index) => {
      rowsSeen = index + 1;
      return [item];
    });
    // Each line is 14 bytes with its newline: a piece of 2,800 bytes holds 200 rows.
    const pieces = await all(copyPieces(rows, async () => void built.push(rowsSeen), 2_800));
    expect(pieces.map((piece) => piece.rows)).toEqual([200, 200, 50]);
    expect(built).toEqual([100, 200, 300, 400]);
  });

  it("fills a piece's buffer given back (its bytes written) for the next piece, once", async () => {
    const old = Buffer.alloc(COPY_PIECE_BYTES + 4_096, 'x');
    givePieceBufferBack(old.buffer);
    const [first] = await all(copyPieces(rowsOf([1], (id) => [id, 'one']), noPause));
    expect(first.text).toBe('1\tone\n');
    expect(old.subarray(0, 7).toString('latin1')).toBe('1\tone\nx'); // the row written where the old bytes were
    const [next] = await all(copyPieces(rowsOf([2], (id) => [id, 'two']), noPause));
    expect(next.text).toBe('2\ttwo\n');
    expect(old.subarray(0, 7).toString('latin1')).toBe('1\tone\nx'); // taken once: the next piece has a buffer of its own
  });

  it('names only plain identifiers', () => {
    expect(copyStatement({ table: 'dividends', columns: ['user_id', 'amount'] }, 'STDIN')).toBe('COPY dividends (user_id, amount) FROM STDIN');
    expect(() => copyStatement({ table: 'dividends; DROP TABLE users', columns: ['x'] }, 'STDIN')).toThrow('not a plain SQL identifier');
    expect(() => copyStatement({ table: 'dividends', columns: ['"x"'] }, 'STDIN')).toThrow('not a plain SQL identifier');
  });

  it('writes an optional exact number as its text, and a missing one as null', () => {
    expect([textOrNull(Decimal.parse('-12.345')), textOrNull(null), textOrNull(undefined)]).toEqual(['-12.345', null, null]);
  });

  it('writes exact decimals as their shortest text and integers as String gives them, without making either', async () => {
    const decimals = [
      ...['0', '-0.0000000001', '0.0001', '12.5', '-12.345', '100', '0.1000000000'],
      ...['900719.9254740991', '-900719.9254740991', '900719.9254740992', '-123456789012345678901.0000000001'],
    ].map((text) => Decimal.parse(text));
    const integers = [
      ...[0, -0, 7, -42, 10, 1_000_000, 2 ** 31 - 1, -(2 ** 31) + 1],
      ...[2 ** 31, -(2 ** 31), 4_000_000_000, 99_999_999_999, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 60, 1.5, -0.25],
    ];
    const rows: CopyValue[][] = [decimals, integers, [Decimal.parse('-7.25'), null, true, 'x', 3, 'C:\\x', 'a\rb\nc\td']];
    const pieces = await all(copyPieces(rows, noPause, 16));
    expect(pieces.map((piece) => piece.text).join('')).toBe(rows.map((row) => `${row.map((value) => copyField(value)).join('\t')}\n`).join(''));
    expect(pieces[0].text.split('\t').slice(0, 4)).toEqual(['0', '-0.0000000001', '0.0001', '12.5']);
  });
});
