import { ValidationError } from '@app/shared/domain';
import { mergedNotes, noteOf, tagChangeOf, tagSetOf } from './journal.js';
import { parseTagImport } from './tag-import.js';

describe('journal input', () => {
  it('reads a set of tags: trimmed, inner spaces collapsed, one per key in the order given, shown as first written', () => {
    expect(tagSetOf(['  Breakout ', 'A+   setup', 'breakout', 'BREAKOUT'])).toEqual([
      { key: 'breakout', name: 'Breakout' },
      { key: 'a+ setup', name: 'A+ setup' },
    ]);
    expect(tagSetOf([])).toEqual([]);
  });

  it('refuses what is not a list of 1–40 character tags, counting characters as a person does', () => {
    expect(tagSetOf(['é'.repeat(40)])).toHaveLength(1);
    expect(tagSetOf(['📈'.repeat(40)])).toHaveLength(1);
    for (const [input, message] of [
      ['breakout', /must be a list of strings/],
      [['x'.repeat(41)], /at most 40 characters \(got 41/],
      [[' '], /must not be empty/],
      [['a\u0000b'], /control characters/],
      [[1], /must be a string/],
      [Array.from({ length: 51 }, (_, index) => `tag ${index}`), /at most 50 tags/],
    ] as const) {
      expect(() => tagSetOf(input)).toThrow(ValidationError);
      expect(() => tagSetOf(input)).toThrow(message);
    }
  });

  it("reads a selection's change of tags: either list may be left out, each read as a trade's set, no tag in both", () => {
    expect(tagChangeOf([' Review', 'review', 'A+  setup'], undefined)).toEqual({
      add: [
        { key: 'review', name: 'Review' },
        { key: 'a+ setup', name: 'A+ setup' },
      ],
      remove: [],
    });
    expect(tagChangeOf(undefined, ['FOMO'])).toEqual({ add: [], remove: [{ key: 'fomo', name: 'FOMO' }] });
    for (const [add, remove, message] of [
      [undefined, undefined, /^Give tags to add or to remove/],
      [[], [], /^Give tags to add or to remove/],
      ['review', undefined, /^add must be a list of strings/],
      [undefined, [7], /^Each tag in remove must be a string$/],
      [['x'.repeat(41)], undefined, /^Each tag in add must be at most 40 characters/],
      [Array.from({ length: 51 }, (_, index) => `tag ${index}`), undefined, /^add can name at most 50 tags \(got 51\)$/],
      [['Review', 'swing'], ['SWING '], /^'swing' is both to add and to remove: give it in one list$/],
    ] as const) {
      expect(() => tagChangeOf(add, remove)).toThrow(ValidationError);
      expect(() => tagChangeOf(add, remove)).toThrow(message);
    }
  });

  it('keeps a note as written, deletes it when blank, and refuses one over 20,000 characters', () => {
    expect(noteOf('  *Plan*\n<script>x</script>  ')).toBe('  *Plan*\n<script>x</script>  ');
    expect(noteOf(' \n\t')).toBe('');
    expect(noteOf('x'.repeat(20_000))).toHaveLength(20_000);
    expect(() => noteOf('x'.repeat(20_001))).toThrow('note must be at most 20000 characters (got 20001)');
    expect(() => noteOf(null)).toThrow('note must be a string');
  });

  it('joins distinct notes with a blank line, in order', () => {
    expect(mergedNotes([null, 'a', '', 'b', 'a'])).toBe('a\n\nb');
    expect(mergedNotes([null, ''])).toBeNull();
  });
});

describe('the tag file', () => {
  it('reads the four columns in any order and case, numbering lines as the file does', () => {
    const lines = parseTagImport(
      '\uFEFFTags,Side,Symbol,Close_Date,Notes\n"breakout; A+ setup",Long,nvda,2024-05-08,x\n\nscalp,short,SNOW,5/17/2024,\nx,sideways,AAPL,2024-01-02,\n,long,AAPL,2024-01-02,\nx,long,AAPL,2024-02-30,\n',
    );
    expect(lines).toEqual([
      {
        line: 2,
        symbol: 'NVDA',
        side: 'long',
        closeDate: '2024-05-08',
        tags: [
          { key: 'breakout', name: 'breakout' },
          { key: 'a+ setup', name: 'A+ setup' },
        ],
      },
      { line: 4, symbol: 'SNOW', side: 'short', closeDate: '2024-05-17', tags: [{ key: 'scalp', name: 'scalp' }] },
      { line: 5, error: "side 'sideways' is neither long nor short" },
      { line: 6, error: 'tags is empty' },
      { line: 7, error: "close_date '2024-02-30' is not a date (YYYY-MM-DD or MM/DD/YYYY)" },
    ]);
  });

  it("reads Tradervue's export of trades as it is: L and S, the close's day, tags between commas; bare or open trades passed over", () => {
    const lines = parseTagImport(
      [
        'Open Datetime,Close Datetime,Symbol,Side,Volume,Exec Count,Entry Price,Exit Price,Gross P&L,Gross P&L (%),Shared,Notes,Tags',
        '2025-10-24 08:00:00,2025-10-24 08:01:00,GNLN,L,200,2,4.4097,4.79,76.06,8.62,false,first trade,"personal, breakout"',
        '2025-10-24 08:05:00,2025-10-24 08:06:00,GNLN,L,200,2,4.9397,5.12,36.06,3.65,false,untagged,',
        '2025-10-24 09:00:00,,SOAR,S,200,1,4.36,,,,false,still open,fade',
        '2025-10-24 09:00:00,2025-10-24 09:04:00,SOAR,Short,200,2,4.36,4.13,46.0,5.28,false,,fade',
        '2025-10-24 09:00:00,2025-10-24 09:04:00,SOAR,X,200,2,4.36,4.13,46.0,5.28,false,,fade',
      ].join('\n'),
    );
    expect(lines).toEqual([
      {
        line: 2,
        symbol: 'GNLN',
        side: 'long',
        closeDate: '2025-10-24',
        tags: [
          { key: 'personal', name: 'personal' },
          { key: 'breakout', name: 'breakout' },
        ],
      },
      { line: 5, symbol: 'SOAR', side: 'short', closeDate: '2025-10-24', tags: [{ key: 'fade', name: 'fade' }] },
      { line: 6, error: "side 'X' is neither long nor short" },
    ]);
    expect(() => parseTagImport('Open Datetime,Close Datetime,Symbol,Volume\n')).toThrow('missing: side, tags');
  });

  it('refuses a file without the columns it needs', () => {
    expect(() => parseTagImport('symbol,date,tags\nNVDA,2024-05-08,x\n')).toThrow('missing: close_date, side');
    expect(() => parseTagImport('')).toThrow(ValidationError);
  });
});
