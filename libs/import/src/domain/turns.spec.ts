import { fingerprintLots, fingerprintTransactions, keyingSteps, transactionKeying, withLotFingerprints, withTransactionFingerprints } from './fingerprint.js';
import { ImportFileError } from './import.errors.js';
import { brokerageFormats, parseRealizedLotsFile, parseTransactionsFile } from './parsers/format-registry.js';
import { ROWS_PER_TURN, runSteps, runStepsWithTurns, type Steps, type Turns } from './turns.js';

const TX_HEADER = '"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"';
const LOT_HEADER =
  '"Symbol","Name","Closed Date","Opened Date","Quantity","Proceeds Per Share","Cost Per Share","Proceeds","Cost Basis (CB)",' +
  '"Gain/Loss ($)","Gain/Loss (%)","Long Term Gain/Loss","Short Term Gain/Loss","Term","Unadjusted Cost Basis","Wash Sale?",' +
  '"Disallowed Loss","Transaction Closed Date","Transaction Cost Basis","Total Transaction Gain/Loss ($)",' +
  '"Total Transaction Gain/Loss (%)","LT Transaction Gain/Loss ($)","LT Transaction Gain/Loss (%)",' +
  '"ST Transaction Gain/Loss ($)","ST Transaction Gain/Loss (%)"';
const LOT_ROW =
  '"PEP","PEPSICO INC","06/25/2024","04/03/2024","1","$176.5500","$175.3500","$176.55","$175.35","$1.20","0.68%","",' +
  '"$1.20","Short Term","$175.35","No","","06/25/2024","","","","","","",""';
// The same fill many times a day: the keys count occurrences, across the slices too.
const BUY = '"06/21/2024","Buy","PEP","PEPSICO INC","1","$174.44","$0.00","($174.44)"';
const ROWS = 2 * ROWS_PER_TURN + 7;

/** Turns that count how often the work stopped. */
function countingTurns(): Turns & { taken: number } {
  const turns = {
    taken: 0,
    pause: async () => {
      turns.taken += 1;
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
  return turns;
}

describe('work in turns', () => {
  const transactionsFile = [TX_HEADER, ...Array.from({ length: ROWS }, () => BUY)].join('\n');
  const lotsFile = [LOT_HEADER, ...Array.from({ length: ROWS }, () => LOT_ROW)].join('\n');

  it('runs steps at a stretch or with a pause at every yield, to the same result', async () => {
    function* counting(): Steps<string> {
      yield;
      yield;
      return 'done';
    }
    const turns = countingTurns();
    expect(runSteps(counting())).toBe('done');
    await expect(runStepsWithTurns(counting(), turns)).resolves.toBe('done');
    expect(turns.taken).toBe(2);
  });

  it('reads a large file with turns between its slices and gives the same rows as at a stretch', async () => {
    const turns = countingTurns();
    const sliced = await parseTransactionsFile('tx.csv', transactionsFile, undefined, turns);
    expect(sliced).toEqual(parseTransactionsFile('tx.csv', transactionsFile));
    expect(sliced.transactions).toHaveLength(ROWS);
    // Decoding, then every ROWS_PER_TURN rows (split into records as they are read).
    expect(turns.taken).toBe(1 + Math.floor((ROWS - 1) / ROWS_PER_TURN));

    const lotTurns = countingTurns();
    const lots = await parseRealizedLotsFile('lots.csv', lotsFile, undefined, lotTurns);
    expect(lots).toEqual(parseRealizedLotsFile('lots.csv', lotsFile));
    expect(lotTurns.taken).toBe(1 + Math.floor((ROWS - 1) / ROWS_PER_TURN));
  });

  it('refuses a bad row or the wrong kind of file the same way with turns', async () => {
    const bad = [TX_HEADER, ...Array.from({ length: ROWS_PER_TURN + 1 }, () => BUY), BUY.replace('$174.44', 'abc')].join('\n');
    const sliced = await parseTransactionsFile('tx.csv', bad, undefined, countingTurns()).catch((error: unknown) => error);
    expect(sliced).toBeInstanceOf(ImportFileError);
    expect(() => parseTransactionsFile('tx.csv', bad)).toThrow((sliced as Error).message);
    await expect(parseRealizedLotsFile('tx.csv', transactionsFile, undefined, countingTurns())).rejects.toMatchObject({
      importCode: 'IMPORT_WRONG_FILE_KIND',
    });
  });

  it('keys rows with turns exactly as at a stretch, counting identical rows across slices', async () => {
    const { transactions } = parseTransactionsFile('tx.csv', transactionsFile);
    const { lots } = parseRealizedLotsFile('lots.csv', lotsFile);
    const turns = countingTurns();
    const keyed = await withTransactionFingerprints('1', transactions, turns);
    expect(keyed.map((tx) => tx.fingerprint)).toEqual(fingerprintTransactions('1', transactions));
    expect(new Set(keyed.map((tx) => tx.fingerprint)).size).toBe(ROWS);
    // A turn every ROWS_PER_TURN rows keyed.
    expect(turns.taken).toBe(Math.floor((ROWS - 1) / ROWS_PER_TURN));
    expect((await withLotFingerprints('1', lots, countingTurns())).map((lot) => lot.fingerprint)).toEqual(fingerprintLots('1', lots));
    expect(withTransactionFingerprints('1', transactions)).toEqual(keyed);
  });

  it('tells the rows keyed a thousand at a time, each keyed as at a stretch, identical rows counted across the batches', async () => {
    const many = [TX_HEADER, ...Array.from({ length: 2_345 }, () => BUY)].join('\n');
    const { transactions } = parseTransactionsFile('tx.csv', many);
    const expected = fingerprintTransactions('1', transactions);
    const told: (string | undefined)[][] = [];
    const keyed = await runStepsWithTurns(
      keyingSteps(transactionKeying('1'), transactions, (batch) => told.push(batch.map((tx) => tx.fingerprint))),
      countingTurns(),
    );
    expect(told.map((batch) => batch.length)).toEqual([1_000, 1_000, 345]);
    expect(told.flat()).toEqual(expected);
    expect(keyed.map((tx) => tx.fingerprint)).toEqual(expected);
    expect(new Set(expected).size).toBe(2_345);
    // Keyed in slices of any size by one keying, the same keys.
    const again = parseTransactionsFile('tx.csv', many).transactions;
    const keying = transactionKeying('1');
    for (const [from, to] of [[0, 7], [7, 1_500], [1_500, 2_345]]) runSteps(keying.key(again, from, to));
    expect(again.map((tx) => tx.fingerprint)).toEqual(expected);
  });

  it('tells the transactions read so far at each step of a layout read under the account lock, which names no account', async () => {
    expect(brokerageFormats.identify('tx.csv', transactionsFile)?.readsUnderLock).toBe(true);
    const sizes: number[] = [];
    let seen: readonly unknown[] | undefined;
    const titled = `"Transactions  for account XXXX-1234 as of 06/29/2024 05:28:01 PM ET"\n${transactionsFile}`;
    const parsed = await parseTransactionsFile('tx.csv', titled, undefined, countingTurns(), undefined, (transactions) => {
      sizes.push(transactions.length);
      seen = transactions;
    });
    expect(sizes).toEqual([ROWS_PER_TURN, 2 * ROWS_PER_TURN]);
    expect(seen).toBe(parsed.transactions); // the same array, read on to its end: the rows told are final
    expect(parsed.transactions).toHaveLength(ROWS);
    expect(parsed.accountNumber).toBeUndefined();
  });

  it('tells the lots read so far at each step of a realized-lots file, in either layout', async () => {
    const fidelityLots = [
      'Symbol(CUSIP),Security Description,Quantity,Date Acquired,Date Sold,Proceeds,Cost Basis,Short Term Gain/Loss,Long Term Gain/Loss',
      ...Array.from({ length: ROWS }, (_, index) => `PEP,PEPSICO INC,${index + 1},04/03/2024,06/25/2024,$176.55,$175.35,$1.20,`),
    ].join('\n');
    for (const [name, file] of [
      ['lots.csv', lotsFile],
      ['fidelity.csv', fidelityLots],
    ]) {
      const sizes: number[] = [];
      let seen: readonly unknown[] | undefined;
      const parsed = await parseRealizedLotsFile(name, file, undefined, countingTurns(), undefined, (lots) => {
        sizes.push(lots.length);
        seen = lots;
      });
      expect(sizes).toEqual([ROWS_PER_TURN, 2 * ROWS_PER_TURN]);
      expect(seen).toBe(parsed.lots); // the same array, read on to its end
      expect(parsed.lots).toHaveLength(ROWS);
    }
  });
});
