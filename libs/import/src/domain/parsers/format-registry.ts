import { ImportFileError } from '../import.errors.js';
import { runSteps, runStepsMaybeWithTurns, type Steps, type Turns } from '../turns.js';
import type {
  BrokerageFormat,
  FormatInfo,
  FormatInput,
  LayoutDescription,
  ParsedBrokerageFile,
  ParsedRealizedLotsFile,
  ParsedTransactionsFile,
} from './brokerage-format.js';
import { decodeCsvHead, decodeCsvPieces, decodeCsvText, forgetDecodedCsvText, readCsvRows, streamCsvRows, textHead, type CsvContent, type CsvRow, type TextPieces } from './csv-text.js';
import type { SeenDays } from './file-days.js';
import { etradeTransactionsFormat } from './etrade-transactions.format.js';
import { executionsTemplateFormat } from './executions-template.format.js';
import { fidelityHistoryFormat } from './fidelity-history.format.js';
import { firstradeHistoryFormat } from './firstrade-history.format.js';
import { fidelityRealizedLotsFormat } from './fidelity-realized-lots.format.js';
import { ghostfolioActivitiesFormat } from './ghostfolio-activities.format.js';
import { ibkrActivityStatementFormat, ibkrFlexTradesFormat } from './interactive-brokers.format.js';
import { lightspeedBlotterFormat } from './lightspeed-blotter.format.js';
import { merrillEdgeActivityFormat } from './merrill-edge-activity.format.js';
import { robinhoodActivityFormat } from './robinhood-activity.format.js';
import { schwabGainsSummaryFormat } from './schwab-gains-summary.format.js';
import { schwabLotDetailsFormat } from './schwab-lot-details.format.js';
import { schwabTransactionsFormat } from './schwab-transactions.format.js';
import { tastytradeTransactionsFormat } from './tastytrade-transactions.format.js';
import { thinkorswimStatementFormat } from './thinkorswim-statement.format.js';
import { tdAmeritradeTransactionsFormat } from './td-ameritrade-transactions.format.js';
import { vanguardTransactionsFormat } from './vanguard-transactions.format.js';
import { tradervueTradesFormat } from './tradervue-trades.format.js';
import { moomooHistoryFormat } from './moomoo-history.format.js';
import { webullOrdersFormat } from './webull-orders.format.js';

/** Comma first; a spreadsheet re-save in some locales writes `;`, an export to text writes tabs. */
const DELIMITERS = [',', ';', '\t'];
/** Title lines allowed before the header. */
const MAX_TITLE_LINES = 5;
const SNIFF_LINES = 12;

/**
 * A title line has one cell (`Transactions for account …`), or is a label and its value
 * (E*TRADE's `For Account:,XXXX-1234`, `Downloaded Date:,01/15/2025`).
 */
const NOT_A_TITLE = (row: CsvRow): boolean => {
  const filled = row.cells.filter((cell) => cell.trim() !== '');
  return filled.length > 2 || (filled.length === 2 && !filled[0].trim().endsWith(':'));
};

/**
 * The brokerage layouts the import understands. The layout is detected from the header row, never
 * from the file name; adding a broker is adding a `BrokerageFormat`.
 */
export class FormatRegistry {
  constructor(private readonly formats: readonly BrokerageFormat[]) {}

  /** The layouts that can be imported, with what each expects. */
  get layouts(): (FormatInfo & LayoutDescription)[] {
    return this.formats.filter((format) => format.accepted).map((format) => ({ id: format.id, label: format.label, ...format.layout }));
  }

  /** Labels of the layouts that can be imported. */
  get understood(): string[] {
    return this.formats.filter((format) => format.accepted).map((format) => format.label);
  }

  detect(headerCells: readonly string[]): BrokerageFormat | undefined {
    return this.formats.find((format) => format.recognises(headerCells));
  }

  /** Decodes, splits and parses one uploaded file. Throws ImportFileError. */
  parse(fileName: string, content: CsvContent): ParsedBrokerageFile {
    return runSteps(this.parsing(fileName, content));
  }

  /**
   * `parse` as steps (turns.ts): the file decoded at once (a refusal of its bytes thrown from the call),
   * then splitting, then every few thousand rows read. With `seen`, a
   * layout that dates its rows puts aside those of the days seen in it (file-days.ts); a realized-lots
   * layout tells `lotsSoFar` the lots read at each step, a transactions layout that `readsUnderLock`
   * `transactionsSoFar` its transactions.
   */
  parsing(fileName: string, content: CsvContent, seen?: SeenDays, soFar: Pick<FormatInput, 'lotsSoFar' | 'transactionsSoFar'> = {}): Steps<ParsedBrokerageFile> {
    const pieces = decodeCsvPieces(fileName, content);
    // The parse is the file's last reading: its text goes with the rows.
    if (typeof content !== 'string') forgetDecodedCsvText(content);
    // Decoded here, not in the steps: a generator keeps its arguments as long as it runs, and a
    // million-row file's bytes (140 MB) stayed alive until its last row was read.
    return this.parsingPieces(fileName, pieces, seen, soFar);
  }

  private *parsingPieces(fileName: string, pieces: TextPieces, seen: SeenDays | undefined, soFar: Pick<FormatInput, 'lotsSoFar' | 'transactionsSoFar'>): Steps<ParsedBrokerageFile> {
    yield;
    // The rows are read as the layout takes them: a large file's cells, and its text's pieces, are let go as they are read.
    const rows = streamCsvRows(fileName, pieces, this.sniffDelimiter(fileName, textHead(pieces, SNIFF_LINES)));
    const titles: CsvRow[] = [];
    for (const row of rows) {
      const format = this.detect(row.cells);
      if (format) {
        return yield* format.parse({ fileName, titles, header: row, rows, seen, ...soFar });
      }
      if (NOT_A_TITLE(row) || titles.length + 1 > MAX_TITLE_LINES) {
        throw this.notRecognised(fileName, row.line);
      }
      titles.push(row);
    }
    throw this.notRecognised(fileName, titles.length > 0 ? titles[titles.length - 1].line : 1);
  }

  /**
   * The layout of a file from its first lines, without reading the rest (which file of an upload is
   * which); undefined when no layout knows its header. Throws ImportFileError for a file that is not
   * text.
   */
  identify(fileName: string, content: CsvContent): BrokerageFormat | undefined {
    // One line more than `sniff` reads, which looks for the line ends after the first character.
    const head = typeof content === 'string' ? decodeCsvText(fileName, content) : decodeCsvHead(fileName, content, SNIFF_LINES + 1);
    return this.sniff(fileName, head)?.format;
  }

  /** The delimiter with which the first lines hold a known header. */
  private sniffDelimiter(fileName: string, text: string): string {
    return this.sniff(fileName, text)?.delimiter ?? DELIMITERS[0];
  }

  private sniff(fileName: string, text: string): { delimiter: string; format: BrokerageFormat } | undefined {
    let end = 0;
    for (let lines = 0; lines < SNIFF_LINES && end !== -1; lines += 1) {
      end = text.indexOf('\n', end + 1);
    }
    const head = end === -1 ? text : text.slice(0, end);
    for (const delimiter of DELIMITERS) {
      try {
        for (const row of readCsvRows(fileName, head, delimiter)) {
          const format = this.detect(row.cells);
          if (format) return { delimiter, format };
        }
      } catch {
        // A cut-off head can end inside quotes; that delimiter just does not prove itself here.
      }
    }
    return undefined;
  }

  private notRecognised(fileName: string, line: number): ImportFileError {
    return new ImportFileError(
      'IMPORT_HEADER_NOT_RECOGNISED',
      fileName,
      line,
      `header not recognised: expected the columns of one of these layouts: ${this.understood.join('; ')}`,
    );
  }
}

/** Everything the import understands (docs/formats.md), and the Schwab summary it refuses with advice. */
export const brokerageFormats = new FormatRegistry([
  schwabTransactionsFormat,
  schwabLotDetailsFormat,
  schwabGainsSummaryFormat,
  fidelityHistoryFormat,
  fidelityRealizedLotsFormat,
  ibkrFlexTradesFormat,
  ibkrActivityStatementFormat,
  robinhoodActivityFormat,
  etradeTransactionsFormat,
  webullOrdersFormat,
  tastytradeTransactionsFormat,
  vanguardTransactionsFormat,
  tdAmeritradeTransactionsFormat,
  firstradeHistoryFormat,
  thinkorswimStatementFormat,
  merrillEdgeActivityFormat,
  lightspeedBlotterFormat,
  ghostfolioActivitiesFormat,
  tradervueTradesFormat,
  moomooHistoryFormat,
  // Last: its few columns are a subset of what a broker's own layout may have.
  executionsTemplateFormat,
]);

export function parseBrokerageFile(
  fileName: string,
  content: CsvContent,
  registry: FormatRegistry = brokerageFormats,
): ParsedBrokerageFile {
  return registry.parse(fileName, content);
}

/** The upload's `transaction_history_file`: must be a transactions layout. Given turns, a promise (see `parsing`, also for `seen` and `transactionsSoFar`). */
export function parseTransactionsFile(fileName: string, content: CsvContent, registry?: FormatRegistry): ParsedTransactionsFile;
export function parseTransactionsFile(
  fileName: string,
  content: CsvContent,
  registry: FormatRegistry | undefined,
  turns: Turns,
  seen?: SeenDays,
  transactionsSoFar?: FormatInput['transactionsSoFar'],
): Promise<ParsedTransactionsFile>;
export function parseTransactionsFile(
  fileName: string,
  content: CsvContent,
  registry: FormatRegistry = brokerageFormats,
  turns?: Turns,
  seen?: SeenDays,
  transactionsSoFar?: FormatInput['transactionsSoFar'],
): ParsedTransactionsFile | Promise<ParsedTransactionsFile> {
  return runStepsMaybeWithTurns(ofKind(registry.parsing(fileName, content, seen, { transactionsSoFar }), 'transactions', 'a transaction history'), turns);
}

/** The upload's `realized_gains_file`: must be a realized-lots layout. Given turns, a promise (see `parsing`, also for `seen` and `lotsSoFar`). */
export function parseRealizedLotsFile(fileName: string, content: CsvContent, registry?: FormatRegistry): ParsedRealizedLotsFile;
export function parseRealizedLotsFile(
  fileName: string,
  content: CsvContent,
  registry: FormatRegistry | undefined,
  turns: Turns,
  seen?: SeenDays,
  lotsSoFar?: FormatInput['lotsSoFar'],
): Promise<ParsedRealizedLotsFile>;
export function parseRealizedLotsFile(
  fileName: string,
  content: CsvContent,
  registry: FormatRegistry = brokerageFormats,
  turns?: Turns,
  seen?: SeenDays,
  lotsSoFar?: FormatInput['lotsSoFar'],
): ParsedRealizedLotsFile | Promise<ParsedRealizedLotsFile> {
  return runStepsMaybeWithTurns(ofKind(registry.parsing(fileName, content, seen, { lotsSoFar }), 'realized-lots', 'a Realized Gain/Loss - Lot Details export'), turns);
}

function* ofKind<K extends ParsedBrokerageFile['kind']>(
  parsing: Steps<ParsedBrokerageFile>,
  kind: K,
  expected: string,
): Steps<Extract<ParsedBrokerageFile, { kind: K }>> {
  const parsed = yield* parsing;
  if (parsed.kind !== kind) {
    throw wrongKind(parsed, expected);
  }
  return parsed as Extract<ParsedBrokerageFile, { kind: K }>;
}

function wrongKind(parsed: ParsedBrokerageFile, expected: string): ImportFileError {
  return new ImportFileError(
    'IMPORT_WRONG_FILE_KIND',
    parsed.fileName,
    parsed.headerLine,
    `this is a ${parsed.format.label} file, but ${expected} was expected here (were the two files swapped?)`,
  );
}
