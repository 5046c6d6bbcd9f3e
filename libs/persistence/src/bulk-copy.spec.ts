import { Decimal } from '@app/shared/domain';
import { copyChunks, copyField, copyStatement, rowsOf, textOrNull } from './bulk-copy.js';

const noPause = async (): Promise<void> => undefined;

async function all(chunks: AsyncIterable<string>): Promise<string[]> {
  const collected: string[] = [];
  for await (const chunk of chunks) collected.push(chunk);
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

  it('builds rows chunk by chunk, each line ending in a newline, with the item index', async () => {
    expect(await all(copyChunks(rowsOf(['a', 'b', 'c'], (item, index) => [item, index, null]), 2, noPause))).toEqual(['a\t0\t\\N\nb\t1\t\\N\n', 'c\t2\t\\N\n']);
    expect(await all(copyChunks([], 2, noPause))).toEqual([]);
  });

  it('stops for a pause every hundred rows while it builds, and after each chunk', async () => {
    const items = Array.from({ length: 450 }, (_, index) => `row ${index}`);
    const built: number[] = [];
    let rowsSeen = 0;
    const rows = rowsOf(items, (item, index) => {
      rowsSeen = index + 1;
      return [item, index];
    });
    const chunks = await all(copyChunks(rows, 200, async () => void built.push(rowsSeen)));
    expect(chunks.map((chunk) => chunk.split('\n').length - 1)).toEqual([200, 200, 50]);
    expect(built).toEqual([100, 200, 300, 400]);
  });

  it('names only plain identifiers', () => {
    expect(copyStatement({ table: 'dividends', columns: ['user_id', 'amount'] }, 'STDIN')).toBe('COPY dividends (user_id, amount) FROM STDIN');
    expect(() => copyStatement({ table: 'dividends; DROP TABLE users', columns: ['x'] }, 'STDIN')).toThrow('not a plain SQL identifier');
    expect(() => copyStatement({ table: 'dividends', columns: ['"x"'] }, 'STDIN')).toThrow('not a plain SQL identifier');
  });

  it('writes an optional exact number as its text, and a missing one as null', () => {
    expect([textOrNull(Decimal.parse('-12.345')), textOrNull(null), textOrNull(undefined)]).toEqual(['-12.345', null, null]);
  });
});
