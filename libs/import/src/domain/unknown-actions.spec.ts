import { parseTransactionsFile } from './parsers/format-registry.js';
import { unknownActionWarnings } from './unknown-actions.js';

const HEADER = '"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"';

function warningsFor(...rows: string[]): string[] {
  const { transactions } = parseTransactionsFile('transactions.csv', `${HEADER}\n${rows.join('\n')}\n`);
  return unknownActionWarnings('transactions.csv', transactions);
}

describe('unknown actions', () => {
  it('says nothing about trades, dividends and the cash actions it knows', () => {
    expect(
      warningsFor(
        '"06/21/2024","Buy","PEP","PEPSICO INC","1","$174.44","","-$174.44"',
        '"06/21/2024","Qualified Dividend","PEP","PEPSICO INC","","","","$1.00"',
        '"06/21/2024","Bank Interest      ","","BANK INT","","","","$0.10"',
        '"06/21/2024","MoneyLink Transfer","","TFR","","","","$100.00"',
        '"06/21/2024","Foreign Tax Paid","NVO","NOVO","","","","-$0.10"',
      ),
    ).toEqual([]);
  });

  it('reports each unknown action once, with its rows', () => {
    const rows = Array.from({ length: 7 }, () => '"06/21/2024","Buy to Open","AAPL 01/17/2025 150.00 C","CALL","1","$2.00","","-$200.00"');
    expect(warningsFor('"06/21/2024","Exotic   Thing","","?","","","","$1.00"', ...rows)).toEqual([
      "transactions.csv: 1 row with the Action 'Exotic Thing' (line 2) not counted: the import does not know this action",
      "transactions.csv: 7 rows with the Action 'Buy to Open' (lines 3, 4, 5, 6, 7 and 2 more) not counted: the import does not know this action",
    ]);
  });

  it("counts an options trader's 50,000 rows of one unknown action, showing the first five lines", () => {
    const rows = Array.from({ length: 50_000 }, () => '"06/21/2024","Buy to Open","AAPL 01/17/2025 150.00 C","CALL","1","$2.00","","-$200.00"');
    expect(warningsFor(...rows)).toEqual([
      "transactions.csv: 50000 rows with the Action 'Buy to Open' (lines 2, 3, 4, 5, 6 and 49995 more) not counted: the import does not know this action",
    ]);
  });
});
