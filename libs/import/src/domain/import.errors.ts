import { ValidationError } from '@app/shared/domain';

export type ImportErrorCode =
  | 'IMPORT_EMPTY_FILE'
  | 'IMPORT_BINARY_CONTENT'
  | 'IMPORT_MALFORMED_CSV'
  | 'IMPORT_HEADER_NOT_RECOGNISED'
  | 'IMPORT_UNSUPPORTED_LAYOUT'
  | 'IMPORT_WRONG_FILE_KIND'
  | 'IMPORT_NO_DATA_ROWS'
  | 'IMPORT_INVALID_VALUE';

/**
 * An uploaded file that cannot be imported. The message reads
 * `<file>, line <n>: <reason>` (physical line, title line included, a BOM is not a line), so it can
 * be shown to the user as it is; `reason` is the same text without the prefix.
 * It is a ValidationError (`code` VALIDATION_ERROR, a 400 wherever it escapes); `importCode` says
 * which kind of problem it is.
 */
export class ImportFileError extends ValidationError {
  constructor(
    readonly importCode: ImportErrorCode,
    readonly fileName: string,
    readonly line: number,
    readonly reason: string,
    readonly column: string | null = null,
    readonly value: string | null = null,
  ) {
    super(`${fileName}, line ${line}: ${reason}`);
  }

  /**
   * What the problem is in other words, beside the message: set when the message is a sentence the
   * contract fixes (`underHeading`), so that the sentence stays exact and the file is still named.
   */
  detail: string | null = null;

  /**
   * The same problem answered with the contract's exact sentence as its message (e.g. "Both files must
   * be CSV files"); this error's own words (file, line, reason) become `detail`.
   */
  underHeading(heading: string): ImportFileError {
    const copy = new ImportFileError(this.importCode, this.fileName, this.line, this.reason, this.column, this.value);
    copy.message = heading;
    copy.detail = this.message;
    return copy;
  }

  /** A file refused by its name (not `.csv`): the detail names the file and the reason, no line. */
  static notCsvName(fileName: string): ImportFileError {
    const error = new ImportFileError('IMPORT_UNSUPPORTED_LAYOUT', fileName, 1, 'not a .csv file');
    error.message = `${fileName}: not a .csv file`;
    return error;
  }

  /** A JSON file that is not the export the import reads (ghostfolio-export.ts): the message names the file and the reason, no line. */
  static notAnExport(fileName: string, reason: string): ImportFileError {
    const error = new ImportFileError('IMPORT_UNSUPPORTED_LAYOUT', fileName, 1, reason);
    error.message = `${fileName}: ${reason}`;
    return error;
  }

  static emptyFile(fileName: string): ImportFileError {
    return new ImportFileError('IMPORT_EMPTY_FILE', fileName, 1, 'file is empty');
  }

  static binaryContent(fileName: string, line = 1): ImportFileError {
    return new ImportFileError('IMPORT_BINARY_CONTENT', fileName, line, 'binary content, not a CSV text file');
  }

  static malformedCsv(fileName: string, line: number, detail: string): ImportFileError {
    return new ImportFileError('IMPORT_MALFORMED_CSV', fileName, line, `malformed CSV (${detail})`);
  }

  /** The layout's header met again below the first: several exports pasted into one file. */
  static repeatedHeader(fileName: string, line: number): ImportFileError {
    return ImportFileError.malformedCsv(fileName, line, 'the header row appears again (several exports in one file?); upload one export per file');
  }

  static invalidNumber(fileName: string, line: number, column: string, value: string): ImportFileError {
    return new ImportFileError(
      'IMPORT_INVALID_VALUE',
      fileName,
      line,
      `column '${column}': cannot read '${value}' as a number`,
      column,
      value,
    );
  }

  static invalidDate(fileName: string, line: number, column: string, value: string): ImportFileError {
    return new ImportFileError(
      'IMPORT_INVALID_VALUE',
      fileName,
      line,
      `column '${column}': '${value}' is not a valid date`,
      column,
      value,
    );
  }

  static missingValue(fileName: string, line: number, column: string, why = ''): ImportFileError {
    return new ImportFileError(
      'IMPORT_INVALID_VALUE',
      fileName,
      line,
      `column '${column}' is empty${why ? ` (${why})` : ''}`,
      column,
      '',
    );
  }

  static invalidValue(fileName: string, line: number, column: string, value: string, why: string): ImportFileError {
    return new ImportFileError('IMPORT_INVALID_VALUE', fileName, line, `column '${column}': ${why}`, column, value);
  }
}
