import { random } from '../../../../../test/support/random.js';
import { ImportFileError } from '../import.errors.js';
import {
  cellOf,
  CheckedCsvArrival,
  CheckedCsvBytes,
  checkCsvTextInTurns,
  CsvTextChecker,
  CsvTextReceiver,
  decodeCsvHead,
  decodeCsvPieces,
  decodeCsvText,
  decodeCsvTextInTurns,
  PlainRecord,
  readCsvRows,
  rowCellsJson,
  splitPlainRecords,
  streamCsvRows,
  textHead,
  widthOf,
  type CsvRow,
  type TextPieces,
} from './csv-text.js';

/**
 * Cells of every kind the slicing must see through: quoted separators and line breaks, doubled quotes,
 * quotes inside unquoted cells, spaces after a closing quote (malformed in a slice cut before the separator
 * that follows them), blank lines.
 */
function csvText(seed: number, rows: number): string {
  const next = random(seed);
  const cell = (): string => {
    const pick = next();
    if (pick < 0.4) return `$${Math.floor(next() * 10_000) / 100}`;
    if (pick < 0.55) return `"a, ""quoted""\ncell ${Math.floor(next() * 100)}"`;
    if (pick < 0.65) return `5" screen`;
    if (pick < 0.7) return `"padded"  `;
    if (pick < 0.75) return '';
    return `word${Math.floor(next() * 1000)}`;
  };
  const lines: string[] = [];
  for (let row = 0; row < rows; row += 1) {
    lines.push(next() < 0.05 ? '' : Array.from({ length: 4 }, cell).join(','));
  }
  return lines.join('\n');
}

describe('streamCsvRows', () => {
  it('gives the records of reading the whole text, whatever the slices', () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const text = csvText(seed, 400);
      const whole = readCsvRows('t.csv', text, ',');
      for (const slice of [1, 7, 64, 500, 1_000_000]) {
        expect(cellsOf([...streamCsvRows('t.csv', text, ',', slice)])).toEqual(cellsOf(whole));
      }
    }
  });

  it('goes on from where the last taking stopped', () => {
    const text = 'a,b\n\nc,d\n"e\nf",g\nh,i\n';
    const rows = streamCsvRows('t.csv', text, ',', 1);
    for (const row of rows) {
      expect(cellsOf([row])).toEqual([{ line: 1, cells: ['a', 'b'] }]);
      break;
    }
    expect([...rows.entries()].map(([index, row]) => [index, ...cellsOf([row])])).toEqual([
      [0, { line: 3, cells: ['c', 'd'] }],
      [1, { line: 4, cells: ['e\nf', 'g'] }],
      [2, { line: 6, cells: ['h', 'i'] }],
    ]);
  });

  it('reports a malformed quote on the line of its record, as reading the whole text does', () => {
    const good = csvText(9, 300);
    for (const text of [`${good}\n"unterminated,x\n${good}`, `${good}\n"closed"then,x\n${good}`]) {
      const whole = (() => {
        try {
          readCsvRows('t.csv', text, ',');
        } catch (error) {
          return error;
        }
        throw new Error('the whole text read without an error');
      })();
      expect(whole).toBeInstanceOf(ImportFileError);
      expect(() => [...streamCsvRows('t.csv', text, ',', 50)]).toThrow((whole as Error).message);
      for (const seed of [1, 2, 3]) {
        expect(() => [...streamCsvRows('t.csv', piecesOf(text, seed), ',', 50)]).toThrow((whole as Error).message);
      }
    }
  });

  it('gives the records of reading the whole text from its pieces, wherever they cut, and lets each piece go once read', () => {
    for (const seed of [1, 2, 3, 4]) {
      for (const text of [csvText(seed, 300), plainText(seed, 400, ',', 0.01), plainText(seed, 400, ',')]) {
        const whole = cellsOf(readCsvRows('t.csv', text, ','));
        for (const slice of [1, 7, 64, 500, 1_000_000]) {
          const pieces = piecesOf(text, seed * 31 + slice);
          const rows = streamCsvRows('t.csv', pieces, ',', slice);
          const taken = [...rows];
          expect(cellsOf(taken)).toEqual(whole);
          expect(pieces).toEqual([]);
        }
      }
    }
    // The first record taken from a text of many pieces leaves the later ones to be read.
    const pieces = piecesOf(plainText(5, 2_000, ','), 5);
    const count = pieces.length;
    for (const row of streamCsvRows('t.csv', pieces, ',', 64)) {
      expect(row.line).toBeGreaterThan(0);
      break;
    }
    expect(pieces.length).toBeGreaterThan(count / 2);
  });
});

/** The text cut in pieces at random places (some empty), as decoding in slices gives it. */
function piecesOf(text: string, seed: number): string[] {
  const next = random(seed);
  const pieces: string[] = [];
  for (let at = 0; at < text.length; ) {
    const size = next() < 0.1 ? 0 : Math.floor(next() * 200);
    pieces.push(text.slice(at, at + size));
    at += size;
  }
  return pieces;
}

/**
 * Plain lines (csv-text.ts `splitPlainRecords`): quoted cells holding separators, unquoted ones, empty
 * ones, blank lines and a separator at a line's end; now and then (`messy`, per line) a line papaparse
 * alone reads: a doubled quote, a quoted line break, a quote inside an unquoted cell.
 */
function plainText(seed: number, rows: number, delimiter: string, messy = 0): string {
  const next = random(seed);
  const cell = (): string => {
    const pick = next();
    if (pick < 0.35) return `"$${Math.floor(next() * 10_000) / 100}"`;
    if (pick < 0.5) return `"a${delimiter} b ${Math.floor(next() * 100)}"`;
    if (pick < 0.6) return '""';
    if (pick < 0.7) return '';
    if (pick < 0.75) return ' ';
    return `word${Math.floor(next() * 1000)}`;
  };
  const lines: string[] = [];
  for (let row = 0; row < rows; row += 1) {
    if (next() < messy) {
      lines.push(['"a ""b"""', '"c\nd"', '5" screen'][Math.floor(next() * 3)]);
    } else {
      lines.push(next() < 0.05 ? '' : Array.from({ length: 1 + Math.floor(next() * 5) }, cell).join(delimiter));
    }
  }
  return lines.join('\n') + (next() < 0.5 ? '\n' : '');
}

/** The rows' lines and cells (the plain reading gives some rows their JSON as well, papaparse none). */
const cellsOf = (rows: readonly CsvRow[]) => rows.map(({ line, cells }) => ({ line, cells }));

/** The rows' lines, cells and JSON, whatever kind of record holds them. */
const recordsOf = (rows: Iterable<CsvRow>) => [...rows].map(({ line, cells, json }) => ({ line, cells, json }));

describe('splitPlainRecords', () => {
  it('reads plain lines as papaparse does', () => {
    for (const delimiter of [',', ';', '\t']) {
      for (const seed of [11, 12, 13, 14]) {
        const text = plainText(seed, 300, delimiter);
        const plain = splitPlainRecords(text, 0, text.length, true, delimiter);
        expect(plain).not.toBeNull();
        expect(plain?.cursor).toBe(text.length);
        expect(cellsOf([...streamCsvRows('t.csv', text, delimiter, 1_000_000)])).toEqual(cellsOf(readCsvRows('t.csv', text, delimiter)));
      }
    }
  });

  it('stops at the last line end of a slice that is not the last', () => {
    const text = '"a","b"\nc,d\n"e","f"';
    const records = (plain: ReturnType<typeof splitPlainRecords>) => plain && { rows: recordsOf(plain.rows), line: plain.line, cursor: plain.cursor };
    expect(records(splitPlainRecords(text, 0, 15, false, ','))).toEqual({
      rows: [
        { line: 1, cells: ['a', 'b'], json: '["a","b"]' },
        { line: 2, cells: ['c', 'd'], json: undefined },
      ],
      line: 3,
      cursor: 12,
    });
    expect(splitPlainRecords(text, 0, 5, false, ',')).toBeNull();
    expect(records(splitPlainRecords(text, 12, text.length, true, ',', 3))).toEqual({ rows: [{ line: 3, cells: ['e', 'f'], json: '["e","f"]' }], line: 4, cursor: text.length });
  });

  it("gives each row's cells as JSON text, as JSON.stringify does, taking a line of quoted cells as it is when it can", () => {
    const next = random(31);
    const quotedCell = (): string =>
      ['"$1,234.50"', '""', '"Buy"', '"AAPL"', '"naïve café 😀"', '"back\\slash"', '"tab\there"', '"a; b"', '"\u2028"', '"cr\rhere"'][Math.floor(next() * 10)];
    const lines = Array.from({ length: 400 }, () => {
      const cells = Array.from({ length: 1 + Math.floor(next() * 6) }, quotedCell);
      // Now and then an unquoted cell: the line is read cell by cell, its JSON made by JSON.stringify.
      if (next() < 0.2) cells[Math.floor(next() * cells.length)] = 'plain';
      return cells.join(',');
    });
    for (const delimiter of [',', ';']) {
      const text = lines.join('\n').replaceAll(',', delimiter);
      const rows = [...streamCsvRows('t.csv', text, delimiter, 1_000_000)];
      expect(rows.map(rowCellsJson)).toEqual(rows.map((row) => JSON.stringify(row.cells)));
      // Comma-separated lines of quoted cells with nothing to escape come with their JSON; no other line does.
      const taken = rows.filter((row) => row.json !== undefined);
      const expected = delimiter === ',' ? rows.filter((row) => !/plain|\\|\t|\r/.test(lines[row.line - 1])).length : 0;
      expect(taken.length).toBe(expected);
      if (delimiter === ',') expect(taken.length).toBeGreaterThan(50);
    }
  });

  it('cuts a cell only as it is read, to what the whole array of cells holds', () => {
    const text = plainText(15, 300, ',') + '\n"\u00a0", \u2003\n"x","\u00a0y"\n';
    const rows = [...streamCsvRows('t.csv', text, ',', 1_000_000)];
    expect(rows.every((row) => row instanceof PlainRecord)).toBe(true);
    // A line of white space only (as trim takes it, beyond ASCII too) is no record, as papaparse's reading leaves it out.
    expect(cellsOf(rows)).toEqual(cellsOf(readCsvRows('t.csv', text, ',')));
    expect(rows.at(-1)?.cells).toEqual(['x', '\u00a0y']);
    for (const row of rows) {
      expect(widthOf(row)).toBe(row.cells.length);
      expect(Array.from({ length: row.cells.length + 1 }, (_, index) => cellOf(row, index))).toEqual([...row.cells, undefined]);
    }
  });

  it('leaves to papaparse a line that is not plain', () => {
    for (const line of ['"a ""b"""', '"c\nd"', '5" screen', '"padded"  ,x', '"unterminated,x', 'x,"q"z']) {
      const text = `a,b\n${line}\n`;
      expect(splitPlainRecords(text, 0, text.length, true, ',')).toBeNull();
    }
  });

  it('gives, mixed with lines that are not plain, the records of reading the whole text, whatever the slices', () => {
    for (const seed of [21, 22, 23, 24]) {
      const text = plainText(seed, 600, ',', 0.01);
      const whole = readCsvRows('t.csv', text, ',');
      for (const slice of [1, 40, 300, 2_000, 1_000_000]) {
        expect(cellsOf([...streamCsvRows('t.csv', text, ',', slice)])).toEqual(cellsOf(whole));
      }
    }
  });
});

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const LINES = ['"Date","Action","Symbol"', '"01/02/2024","Buy","AAPL"', 'café,€ 5,"naïve 😀"', '', 'a,b'];
/** Files every decoding must read as decoding at once does: UTF-8 ones that it reads … */
const READ_FILES = [
  utf8(LINES.join('\r\n') + '\r\n'),
  utf8(LINES.join('\n')),
  utf8(LINES.join('\r') + '\r'),
  utf8(`\uFEFF${LINES.join('\r\n')}`),
  utf8(`\uFEFF\uFEFF${LINES.join('\r\n')}`),
  utf8(`a,b\r\n\uFEFFc,\uFEFFd\r\n`),
  utf8(`${LINES.join('\r\n')}\r\n\u001a`),
];
/** … and ones it refuses (a control character, a blank file) or reads as single-byte text. */
const REFUSED_OR_NOT_UTF8 = [
  utf8(`${LINES.join('\r\n')}\r\nbad\u0000cell,x\r\n`),
  utf8(`${LINES.join('\n')}\n\u0007`),
  utf8(' \r\n \t\r\n'),
  new Uint8Array([...utf8('a,b\r\nca'), 0xe9, ...utf8(',x\r\n'), 0x80, ...utf8('\r\n')]), // windows-1252, not UTF-8
];

/** The text a reading gives, or the message it refuses the bytes with. */
async function textOrRefusal(read: () => string | Promise<string>): Promise<string> {
  try {
    return await read();
  } catch (error) {
    return `refused: ${(error as Error).message} ${JSON.stringify((error as ImportFileError).detail ?? null)}`;
  }
}

/** Every piece taken, joined. */
function joined(pieces: TextPieces): string {
  let text = '';
  for (let piece = pieces.shift(); piece !== undefined; piece = pieces.shift()) text += piece;
  return text;
}

/** What `decodeCsvText` makes of the bytes. */
const atOnce = (bytes: Uint8Array): Promise<string> => textOrRefusal(() => decodeCsvText('f.csv', new Uint8Array(bytes)));

/**
 * A file as a large upload's receiver keeps it (`CheckedCsvArrival`), its bytes added `chunk` at a
 * time: `CheckedCsvBytes` where the check passed them, else the bytes joined.
 */
function arrived(bytes: Uint8Array, options: { slice?: number; blockBytes?: number; chunk?: number } = {}): Buffer | CheckedCsvBytes {
  const arrival = new CheckedCsvArrival(options.blockBytes, options.slice);
  const chunk = options.chunk ?? Math.max(1, bytes.length);
  for (let at = 0; at < bytes.length; at += chunk) arrival.add(new Uint8Array(bytes.subarray(at, at + chunk)));
  return arrival.whole();
}

/** The bytes of a file the check passes, as the receiver keeps them. */
function checkedBytes(bytes: Uint8Array, slice?: number, blockBytes?: number): CheckedCsvBytes {
  const file = arrived(bytes, { slice, blockBytes });
  if (!(file instanceof CheckedCsvBytes)) throw new Error('the check did not pass the bytes');
  return file;
}

describe('decodeCsvTextInTurns', () => {
  const inTurns = (bytes: Uint8Array, slice: number, pauses: { count: number }): Promise<string> =>
    textOrRefusal(() => decodeCsvTextInTurns('f.csv', new Uint8Array(bytes), async () => void (pauses.count += 1), slice));

  it('gives the text, or the refusal, that decoding at once gives, wherever the slices cut', async () => {
    for (const bytes of [...READ_FILES, ...REFUSED_OR_NOT_UTF8]) {
      for (const slice of [1, 2, 3, 5, 8, 64]) {
        expect(await inTurns(bytes, slice, { count: 0 })).toEqual(await atOnce(bytes));
      }
    }
  });

  it('pauses between slices, and decodes a file of one slice at once', async () => {
    const bytes = utf8('a,b\r\n'.repeat(10));
    const pauses = { count: 0 };
    expect(await inTurns(bytes, 16, pauses)).toBe('a,b\n'.repeat(10));
    expect(pauses.count).toBe(3); // 50 bytes: four slices
    const whole = { count: 0 };
    await inTurns(bytes, 50, whole);
    expect(whole.count).toBe(0);
  });
});

describe('decodeCsvPieces', () => {
  /** A file of more than one slice of bytes: line ends of every kind and characters of 1 to 4 bytes, one cut by each slice's end somewhere. */
  const large = (lineEnd: string) => utf8(`\uFEFF"Date","Name"${lineEnd}` + Array.from({ length: 60_000 }, (_, index) => `"${index}","café € 😀 ${index % 7}"${lineEnd}`).join(''));

  it('gives the text decoding at once gives, in pieces, or its refusal', async () => {
    for (const bytes of [...READ_FILES, ...REFUSED_OR_NOT_UTF8, large('\r\n'), large('\r'), large('\n')]) {
      const text = await atOnce(bytes);
      expect(await textOrRefusal(() => joined(decodeCsvPieces('f.csv', new Uint8Array(bytes))))).toBe(text);
    }
    expect(decodeCsvPieces('f.csv', large('\r\n')).length).toBeGreaterThan(1);
    expect(decodeCsvPieces('f.csv', 'a,b\r\nc,d')).toEqual(['a,b\nc,d']);
  });

  it('makes every CRLF and every lone CR an LF, a CR and an LF cut apart by two pieces one line end', () => {
    const text = 'a,b\r\nc\rd\r\r\ne\n\r\n\rf\r';
    const lf = 'a,b\nc\nd\n\ne\n\n\nf\n';
    expect(decodeCsvText('f.csv', utf8(text))).toBe(lf);
    const cut = utf8(`${'x'.repeat(1024 * 1024 - 1)}\r\n${text}`);
    expect(decodeCsvPieces('f.csv', cut).length).toBe(2);
    expect(joined(decodeCsvPieces('f.csv', cut))).toBe(`${'x'.repeat(1024 * 1024 - 1)}\n${lf}`);
  });

  it('gives the pieces a received file was decoded in as it arrived', () => {
    const content = new Uint8Array(large('\r\n'));
    const receiver = new CsvTextReceiver('f.csv', 1000);
    for (let at = 0; at < content.length; at += 4096) receiver.add(content.subarray(at, at + 4096));
    expect(receiver.end(content)).toBe(true);
    const pieces = decodeCsvPieces('f.csv', content);
    expect(pieces.length).toBeGreaterThan(1000);
    expect(joined(pieces)).toBe(decodeCsvText('f.csv', new Uint8Array(content)));
  });

  it('gives the head of the pieces to the end of a line', () => {
    expect(textHead(['a\nb', '\nc', '\nd\n'], 2)).toBe('a\nb\nc');
    expect(textHead(['a\nb', '\nc'], 5)).toBe('a\nb\nc');
    expect(textHead([], 1)).toBe('');
  });
});

describe('CheckedCsvBytes', () => {
  const large = (lineEnd: string) => utf8(`\uFEFF"Date","Name"${lineEnd}` + Array.from({ length: 3_000 }, (_, index) => `"${index}","café € 😀 ${index % 7}"${lineEnd}`).join(''));

  it('reads in pieces, decoding each as it is taken, the text decoding at once gives, wherever the pieces cut', async () => {
    for (const bytes of [...READ_FILES, large('\r\n'), large('\r'), large('\n')]) {
      const text = await atOnce(bytes);
      for (const [slice, blockBytes] of [[1, 7], [2, 2], [3, 100], [5, 1], [8, 4096], [64, 1000], [4096, 20_000], [4096, undefined]] as const) {
        const file = checkedBytes(bytes, slice, blockBytes);
        expect(file.length).toBe(bytes.length);
        expect(file.text('f.csv')).toBe(text);
        // The head: the first piece's whole lines where it has three, else the whole text.
        const fileHead = decodeCsvHead('f.csv', file, 3);
        expect(text.startsWith(fileHead) && (fileHead.split('\n').length > 3 || fileHead === text)).toBe(true);
        const pieces = decodeCsvPieces('f.csv', file);
        // Each block's pieces are a slice each but its last one.
        expect(pieces.length).toBeLessThanOrEqual(Math.ceil(bytes.length / slice) + Math.ceil(bytes.length / Math.max(1, (blockBytes ?? bytes.length) - 3)));
        expect(pieces.length).toBeGreaterThanOrEqual(Math.ceil(bytes.length / (slice + 3)));
        // Looked at ahead, as the layout's sniffing does, then taken: the same pieces.
        const head = textHead(pieces, 2);
        expect(text.startsWith(head)).toBe(true);
        expect(joined(pieces)).toBe(text);
        expect(pieces.length).toBe(0);
        expect(() => decodeCsvPieces('f.csv', file)).toThrow('read already');
      }
    }
  });

  it('gives the records of the whole text, and a head of whole lines from its first piece', () => {
    for (const bytes of [large('\r\n'), large('\r')]) {
      const whole = decodeCsvText('f.csv', new Uint8Array(bytes));
      const file = checkedBytes(bytes, 1000);
      const head = decodeCsvHead('f.csv', file, 13);
      expect(head.length).toBeLessThan(1000);
      expect(head.split('\n').length).toBeGreaterThan(13);
      expect(whole.startsWith(head)).toBe(true);
      expect(recordsOf(streamCsvRows('f.csv', decodeCsvPieces('f.csv', file), ',', 512))).toEqual(recordsOf(streamCsvRows('f.csv', whole, ',', 512)));
    }
    // A file whose first lines are longer than its first piece: its head is its whole text.
    const long = utf8(`${'x'.repeat(5_000)}\r\n`.repeat(3));
    expect(decodeCsvHead('f.csv', checkedBytes(long, 1000), 2)).toBe(decodeCsvText('f.csv', new Uint8Array(long)));
  });

  it('frees each block of bytes once its last piece is decoded, where the whole text keeps them', async () => {
    const bytes = large('\n');
    const text = await atOnce(bytes);
    const file = checkedBytes(bytes, 1000, 20_000);
    const first = file.head; // a view of the first block
    const length = first.byteLength;
    expect(file.text('f.csv')).toBe(text);
    expect(first.byteLength).toBe(length);

    const pieces = decodeCsvPieces('f.csv', file);
    let read = pieces.shift() ?? '';
    expect(first.byteLength).toBe(length);
    read += joined(pieces);
    expect(read).toBe(text);
    expect(first.byteLength).toBe(0);
  });

  it('refuses blank text as decoding at once does, when its last piece is read', async () => {
    // Bytes the check would not pass, made into pieces all the same. A control character is the
    // check's alone to refuse (the reading does not look for one again): bytes holding one are never
    // made pieces (`CheckedCsvArrival`, below).
    const blank = utf8(' \r\n \t\r\n');
    const refusal = await atOnce(blank);
    expect(refusal).toMatch(/^refused: /);
    for (const slice of [1, 3, 8, 64]) {
      expect(await textOrRefusal(() => joined(decodeCsvPieces('f.csv', CheckedCsvBytes.ofBlocks([new Uint8Array(blank)], slice))))).toBe(refusal);
    }
  });

  it('refuses an empty file as decoding at once does', async () => {
    const empty = CheckedCsvBytes.ofBlocks([]);
    const refusal = await atOnce(new Uint8Array(0));
    expect(await textOrRefusal(() => empty.text('f.csv'))).toBe(refusal);
    expect(await textOrRefusal(() => joined(decodeCsvPieces('f.csv', empty)))).toBe(refusal);
  });

  it('is passed by the precheck, which decodes none of it', async () => {
    const file = CheckedCsvBytes.ofBlocks([utf8('a,b\r\n\u0000')], 2);
    await expect(checkCsvTextInTurns('f.csv', file, async () => undefined)).resolves.toBeUndefined();
  });
});

describe('CsvTextReceiver', () => {
  /** The bytes received in chunks of `chunk` bytes with slices of `slice`; whether it decoded them, and what decoding then reads. */
  const received = async (bytes: Uint8Array, slice: number, chunk: number): Promise<{ decoded: boolean; text: string }> => {
    const content = new Uint8Array(bytes);
    const receiver = new CsvTextReceiver('f.csv', slice);
    for (let at = 0; at < content.length; at += chunk) receiver.add(content.subarray(at, at + chunk));
    const decoded = receiver.end(content);
    return { decoded, text: await textOrRefusal(() => decodeCsvText('f.csv', content)) };
  };

  it('decodes a file as it arrives to the text decoding it at once gives, wherever the chunks and slices cut', async () => {
    for (const bytes of READ_FILES) {
      const text = await atOnce(bytes);
      for (const slice of [1, 2, 3, 5, 8, 16]) {
        for (const chunk of [1, 2, 7, 64, bytes.length]) {
          // Decoded as it came whenever the file is more than a slice and a character's bytes.
          expect(await received(bytes, slice, chunk)).toEqual({ decoded: bytes.length > slice + 4, text });
        }
      }
    }
  });

  it('leaves what decoding refuses or reads otherwise to that decoding, which gives its refusal or its text', async () => {
    const utf16 = new Uint8Array([0xff, 0xfe, ...new Uint8Array(Buffer.from('a,b\r\nc,d\r\n', 'utf16le'))]);
    const blank = utf8(' \r\n \t\r\n'.repeat(4));
    for (const bytes of [...REFUSED_OR_NOT_UTF8, blank, utf16]) {
      const text = await atOnce(bytes);
      for (const slice of [1, 3, 8]) {
        for (const chunk of [1, 5, bytes.length]) {
          expect(await received(bytes, slice, chunk)).toEqual({ decoded: false, text });
        }
      }
    }
  });

  it('lets the precheck pass what it received (its pieces left unjoined) and refuse what decoding refuses, as decoding at once does', async () => {
    const pause = async () => undefined;
    for (const bytes of [...READ_FILES, ...REFUSED_OR_NOT_UTF8]) {
      const text = await atOnce(bytes);
      const content = new Uint8Array(bytes);
      const receiver = new CsvTextReceiver('f.csv', 3);
      for (let at = 0; at < content.length; at += 2) receiver.add(content.subarray(at, at + 2));
      receiver.end(content);
      const checked = await textOrRefusal(async () => {
        await checkCsvTextInTurns('f.csv', content, pause, 3);
        return 'passed';
      });
      expect(checked).toBe(text.startsWith('refused: ') ? text : 'passed');
      expect(await textOrRefusal(() => decodeCsvText('f.csv', content))).toBe(text);
    }
  });
});

describe('CheckedCsvArrival', () => {
  const many = utf8('"Date","Name"\r\n' + Array.from({ length: 500 }, (_, index) => `"${index}","café € 😀 ${index % 7}"\r\n`).join(''));

  it('keeps the bytes it passes in blocks cut between characters, read as decoding at once reads them', async () => {
    for (const bytes of [...READ_FILES, many]) {
      const text = await atOnce(bytes);
      for (const [chunk, blockBytes] of [[1, 4], [2, 5], [3, 7], [7, 64], [undefined, 4096], [1000, 1]] as const) {
        const file = arrived(bytes, { chunk, blockBytes });
        expect(file).toBeInstanceOf(CheckedCsvBytes);
        expect(file.length).toBe(bytes.length);
        expect((file as CheckedCsvBytes).text('f.csv')).toBe(text);
        expect(joined(decodeCsvPieces('f.csv', file))).toBe(text);
      }
    }
  });

  it('gives the bytes joined, for decoding as any file, where the check does not pass them', () => {
    for (const bytes of [...REFUSED_OR_NOT_UTF8, new Uint8Array([...many.subarray(0, 5000), 0xe2, 0x82]), new Uint8Array(0)]) {
      for (const [chunk, blockBytes] of [[1, 4], [3, 5], [undefined, 4096]] as const) {
        const file = arrived(bytes, { chunk, blockBytes });
        expect(file).toBeInstanceOf(Buffer);
        expect([...(file as Buffer)]).toEqual([...bytes]);
      }
    }
  });
});

describe('CsvTextChecker', () => {
  /** Whether the checker passed the bytes received in chunks of `chunk` bytes. */
  const checked = (content: Uint8Array, chunk: number): boolean => {
    const checker = new CsvTextChecker();
    for (let at = 0; at < content.length; at += chunk) checker.add(content.subarray(at, at + chunk));
    return checker.passed(content.length);
  };
  /** What the precheck makes of a file as the receiver keeps it, counting the slices it decoded (a pause between each two). */
  const prechecked = async (content: Uint8Array | CheckedCsvBytes): Promise<{ result: string; pauses: number }> => {
    let pauses = 0;
    const result = await textOrRefusal(async () => {
      await checkCsvTextInTurns('f.csv', content, async () => void (pauses += 1), 3);
      return 'passed';
    });
    return { result, pauses };
  };

  it('passes the UTF-8 text decoding reads, wherever the chunks cut its characters, and the precheck then decodes none of it', async () => {
    for (const bytes of READ_FILES) {
      const text = await atOnce(bytes);
      for (const chunk of [1, 2, 3, 7, bytes.length]) {
        const content = new Uint8Array(bytes);
        expect(checked(content, chunk)).toBe(true);
        expect(await prechecked(arrived(content, { chunk }))).toEqual({ result: 'passed', pauses: 0 });
        // The import's decoding (the thread's, of the same bytes) still reads the whole text.
        expect(decodeCsvText('f.csv', content)).toBe(text);
      }
    }
  });

  it('leaves what decoding refuses or reads otherwise to the precheck, which decodes it and gives its refusal', async () => {
    const utf16 = new Uint8Array([0xff, 0xfe, ...new Uint8Array(Buffer.from('a,b\r\nc,d\r\n', 'utf16le'))]);
    const others = [
      utf16,
      utf8(' \r\n \t\r\n'.repeat(4)), // blank
      utf8('\u00e9\u00e8\r\n'), // not blank, but no ASCII character to show it: decoded to tell
      utf8('a,b\r\n\u001ac,d\r\n'), // the end-of-file mark before the end
      utf8('a,b\r\nc,d\u001a\u001a'),
      new Uint8Array([...utf8('a,b\r\nc'), 0xe2, 0x82]), // a character cut off at the end
      new Uint8Array([...utf8('a,b\r\n'), 0xc0, 0xaf, ...utf8(',x\r\n')]), // an overlong form
      new Uint8Array([...utf8('a,b\r\n'), 0xed, 0xa0, 0x80, ...utf8(',x\r\n')]), // a surrogate
      new Uint8Array([...utf8('a,b\r\n'), 0xe2, 0x41, 0x82, ...utf8(',x\r\n')]), // a broken sequence
    ];
    for (const bytes of [...REFUSED_OR_NOT_UTF8, ...others]) {
      const text = await atOnce(bytes);
      for (const chunk of [1, 2, 5, bytes.length]) {
        const content = new Uint8Array(bytes);
        expect(checked(content, chunk)).toBe(false);
        const { result } = await prechecked(arrived(content, { chunk }));
        expect(result).toBe(text.startsWith('refused: ') ? text : 'passed');
        expect(await textOrRefusal(() => decodeCsvText('f.csv', content))).toBe(text);
      }
    }
  });

  it('passes exactly the random bytes with an ASCII character that decoding reads as UTF-8', async () => {
    const next = random(7);
    const pieces = ['a', ',', ' ', '\r\n', '\n', '\r', '\t', '"', '\u00e9', '\u20ac', '\u{1f600}', '\uFEFF', '\u0000', '\u001a', '\u007f', '\u0085'];
    for (let sample = 0; sample < 400; sample += 1) {
      const length = 1 + Math.floor(next() * 30);
      let text = '';
      for (let index = 0; index < length; index += 1) text += pieces[Math.floor(next() * pieces.length)];
      // Some with a byte replaced, which may break a character or start one that never ends.
      const bytes = utf8(text);
      if (sample % 2 === 1) bytes[Math.floor(next() * bytes.length)] = [0x41, 0x80, 0xa9, 0xc3, 0xe2, 0xf0, 0xff][Math.floor(next() * 7)];
      const strict = await textOrRefusal(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes));
      const decoded = await atOnce(bytes);
      const readAsUtf8 = !decoded.startsWith('refused: ') && !strict.startsWith('refused: ');
      const expected = readAsUtf8 && /[!-~]/.test(strict);
      for (const chunk of [1, 2, 3, 5, bytes.length]) {
        expect({ bytes: [...bytes], chunk, passed: checked(new Uint8Array(bytes), chunk) }).toEqual({ bytes: [...bytes], chunk, passed: expected });
      }
    }
  });

  it('lets the layout be told from the first lines only, which are those of the whole text', () => {
    const header = '"Date","Action","Symbol","Quantity"\r\n';
    const body = '"01/02/2024","Buy","AAPL","10"\r\n'.repeat(4_000); // beyond the bytes decoded for the head
    for (const bytes of [utf8(header + body), utf8(`\uFEFF${header}${body}`), utf8(`\uFEFF\uFEFF${header}${body.replace(/\r\n/g, '\r')}`)]) {
      const file = arrived(bytes, { chunk: 1000 });
      expect(file).toBeInstanceOf(CheckedCsvBytes);
      const head = decodeCsvHead('f.csv', file, 13);
      const whole = decodeCsvText('f.csv', new Uint8Array(bytes));
      expect(head.length).toBeLessThan(whole.length);
      expect(head.split('\n').length).toBeGreaterThan(13);
      expect(whole.startsWith(head)).toBe(true);
    }
    // A file whose first lines are longer than the head: decoded whole.
    const long = new Uint8Array(utf8(`${'x'.repeat(70_000)}\r\n`.repeat(3)));
    expect(decodeCsvHead('f.csv', checkedBytes(long), 13)).toBe(decodeCsvText('f.csv', new Uint8Array(long)));
  });
});
