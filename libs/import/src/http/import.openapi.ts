import {
  arrayOf,
  boolean,
  dataEnvelope,
  instant,
  integer,
  literal,
  nullable,
  object,
  oneOfStrings,
  ref,
  string,
  type SchemaSet,
} from '@app/shared/openapi';

// The import's response bodies for the OpenAPI document: the NDJSON lines of `POST /api/upload-csv`
// and the upload history.

const count = integer({ minimum: 0 });

export const importSchemas: SchemaSet = {
  ImportStats: object({ transactions_inserted: count, realized_gains_lots: count, broker_verified_trades: count }),
  UploadProgressLine: object({
    type: literal('progress'),
    percentage: integer({ minimum: 0, maximum: 100 }),
    message: string(),
  }),
  UploadSuccessLine: object(
    {
      type: literal('success'),
      message: string(),
      stats: ref('ImportStats'),
      warnings: arrayOf(string(), { description: 'Rows kept with a caveat, when there are any.' }),
      detected: arrayOf(
        object({
          file: string(),
          broker: string(),
          kind: oneOfStrings(['transactions', 'realized-lots']),
          rows: count,
          account: string({ description: 'The brokerage account the file was imported into.' }),
        }),
        { description: '`POST /api/import` only: each file\'s broker and kind, detected from its content, the rows read and the account it went to.' },
      ),
    },
    ['warnings', 'detected'],
  ),
  UploadErrorLine: object(
    {
      type: literal('error'),
      message: string(),
      detail: string({ description: 'When `message` is a sentence of the contract (`Both files must be CSV files`): which file and why.' }),
    },
    ['detail'],
    { description: 'The import failed and nothing of it was kept; also the body of a 400, 413, 429 or 503 refused before the stream starts.' },
  ),
  UploadLine: {
    description: 'One line of the stream: progress lines, then one `success` or one `error` line.',
    oneOf: [ref('UploadProgressLine'), ref('UploadSuccessLine'), ref('UploadErrorLine')],
  },
  UploadHistoryEntry: object({
    transaction_filename: string(),
    gains_filename: string(),
    timestamp: instant(),
    transaction_file_size: count,
    gains_file_size: count,
    status: oneOfStrings(['success', 'failed']),
    user_email: string(),
    account_id: integer(),
    brokerage_account: string(),
    transactions_processed: count,
    months_updated: count,
    transactions_inserted: count,
    realized_gains_lots: count,
    broker_verified_trades: count,
    error: nullable(string()),
  }),
  UploadHistoryResponse: dataEnvelope({ history: arrayOf(ref('UploadHistoryEntry'), { description: 'Newest first.' }) }),
  ImportFormatsResponse: dataEnvelope({
    formats: arrayOf(
      object({
        id: string(),
        label: string(),
        broker: string(),
        kind: oneOfStrings(['transactions', 'realized-lots']),
        columns: arrayOf(object({ name: string(), required: boolean() }), { description: "The header's columns as the broker writes them." }),
      }),
    ),
  }),
  ImportedAccountEmptiedResponse: object({
    success: literal(true),
    account: string({ description: 'The account number.' }),
    transactions_removed: count,
    lots_removed: count,
    months_updated: integer({ minimum: 0, description: 'Months whose trades or dividends the account held.' }),
    message: string(),
  }),
  ImportPreviewResponse: dataEnvelope({
    files: arrayOf(
      object({
        file: string(),
        broker: nullable(string()),
        label: nullable(string()),
        kind: nullable(oneOfStrings(['transactions', 'realized-lots'])),
        rows: nullable(count),
        account: nullable(string({ description: 'The account number the file carries; null: the account field, or the profile\'s.' })),
        error: nullable(string({ description: 'Why the import would refuse this file.' })),
      }),
    ),
    problem: nullable(string({ description: 'Why the import would refuse these files together (lots without their history …).' })),
  }),
};
