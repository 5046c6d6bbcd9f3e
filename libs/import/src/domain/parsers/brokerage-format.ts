import type { BrokerTransaction } from '../broker-transaction.js';
import type { RealizedLot } from '../realized-lot.js';
import type { CsvRecords, CsvRow } from './csv-text.js';
import type { FileDays, SeenDays } from './file-days.js';
import type { Steps } from '../turns.js';

export interface FormatInfo {
  readonly id: string;
  readonly label: string;
}

interface ParsedFileBase {
  readonly format: FormatInfo;
  readonly fileName: string;
  /** Physical line of the header row. */
  readonly headerLine: number;
  /** Data rows (footer and blank lines excluded), those put aside unread (`days`) included. */
  readonly dataRows: number;
}

export interface ParsedTransactionsFile extends ParsedFileBase {
  readonly kind: 'transactions';
  /** In file order. */
  readonly transactions: BrokerTransaction[];
  /** Closed lots the same file gives beside its trades (Interactive Brokers' ClosedLot rows). */
  readonly lots?: RealizedLot[];
  /** The brokerage account the file says it belongs to, where its layout carries one. */
  readonly accountNumber?: string;
  /** The file's days, where its layout dates each row: `transactions` leaves out the rows put aside. */
  readonly days?: FileDays<BrokerTransaction>;
}

export interface ParsedRealizedLotsFile extends ParsedFileBase {
  readonly kind: 'realized-lots';
  /** In file order. */
  readonly lots: RealizedLot[];
  /** The file's days (by closing date), where its layout dates each row: `lots` leaves out the rows put aside. */
  readonly days?: FileDays<RealizedLot>;
}

export type ParsedBrokerageFile = ParsedTransactionsFile | ParsedRealizedLotsFile;

export interface FormatInput {
  readonly fileName: string;
  /** Title lines before the header (`For Account:,####5678`). */
  readonly titles?: readonly CsvRow[];
  readonly header: CsvRow;
  /** The records after the header, blank lines dropped: taken once, in order (read as they are taken). */
  readonly rows: CsvRecords;
  /** Days an earlier import read in each layout: a layout that dates its rows puts theirs aside (file-days.ts). */
  readonly seen?: SeenDays;
  /**
   * Told the lots read so far at each step, by a realized-lots layout (the same array, growing): a
   * first import keys and writes them while the rest of the file is read.
   */
  readonly lotsSoFar?: (lots: readonly RealizedLot[]) => void;
  /** As `lotsSoFar`, the transactions read so far, by a transactions layout that `readsUnderLock`. */
  readonly transactionsSoFar?: (transactions: readonly BrokerTransaction[]) => void;
}

/** What a layout expects, for the list of supported layouts (`GET /api/import/formats`). */
export interface LayoutDescription {
  readonly broker: string;
  readonly kind: ParsedBrokerageFile['kind'];
  /** The header's columns as the broker writes them; the optional ones marked. */
  readonly columns: readonly { readonly name: string; readonly required: boolean }[];
}

/** One brokerage CSV layout: it says whether it recognises a header and turns the rows into records. */
export interface BrokerageFormat {
  readonly id: string;
  readonly label: string;
  readonly layout: LayoutDescription;
  /** False for a layout recognised only to be refused with advice (listed nowhere as understood). */
  readonly accepted: boolean;
  /**
   * True for a transactions layout that names no account and whose rows are final as they are read
   * (nothing completes them once the whole file is read): an import reads it under the account lock,
   * the account known before its first row, and tells `transactionsSoFar` the rows read at each step.
   * Such a layout carries no lots: the lots file is read and keyed before it (an import of one that
   * did would fail).
   */
  readonly readsUnderLock?: boolean;
  recognises(headerCells: readonly string[]): boolean;
  /**
   * Throws ImportFileError naming the file, line and reason for the first bad row. A generator of
   * steps (turns.ts): it yields every `ROWS_PER_TURN` rows, where a caller may take a turn.
   */
  parse(input: FormatInput): Steps<ParsedBrokerageFile>;
}
