import { ConflictError, ValidationError } from '../errors/domain.errors.js';
import { errorClasses, fromThreadError, toThreadError } from './thread-errors.js';

/** A refusal with fields of its own, as the import's file errors have. */
class LineError extends ValidationError {
  detail: string | null = null;

  constructor(
    readonly fileName: string,
    readonly line: number,
  ) {
    super(`${fileName}, line ${line}: not a number`);
  }
}

/** Through a real structured clone, as `postMessage` sends it. */
const across = (error: unknown, classes = errorClasses(LineError, ConflictError)) => fromThreadError(structuredClone(toThreadError(error)), classes);

describe('errors across threads', () => {
  it('makes an error again as its class, with its fields, message, name and stack', () => {
    const sent = new LineError('transactions.csv', 12);
    sent.detail = 'Both files must be CSV files';
    const received = across(sent);
    expect(received).toBeInstanceOf(LineError);
    expect(received).toBeInstanceOf(ValidationError);
    expect(received).toMatchObject({ fileName: 'transactions.csv', line: 12, detail: 'Both files must be CSV files', code: 'VALIDATION_ERROR' });
    expect(received.message).toBe('transactions.csv, line 12: not a number');
    expect(received.name).toBe('LineError');
    expect(received.stack).toBe(sent.stack);
  });

  it("keeps a driver error's code and its cause, itself an error, where a plain clone keeps neither", () => {
    const cause = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01', severity: 'FATAL' });
    const sent = Object.assign(new Error('query failed'), { driverError: cause, query: 'COPY t FROM STDIN', socket: { write: () => undefined } });
    const received = across(sent) as Error & { driverError: Error & { code: string }; query: string; socket?: unknown };
    expect(received.driverError).toBeInstanceOf(Error);
    expect(received.driverError).toMatchObject({ message: 'terminating connection due to administrator command', code: '57P01', severity: 'FATAL' });
    expect(received.query).toBe('COPY t FROM STDIN');
    expect(received.socket).toBeUndefined(); // a field a clone cannot carry is left out
    expect((structuredClone(sent) as unknown as { driverError?: unknown }).driverError).toBeUndefined();
  });

  it('makes a class it does not know a plain Error, and a thrown value that is not an error one with its text', () => {
    const unknown = across(new ConflictError('taken'), errorClasses(LineError));
    expect(unknown).not.toBeInstanceOf(ConflictError);
    expect(unknown).toBeInstanceOf(Error);
    expect(unknown).toMatchObject({ message: 'taken', code: 'CONFLICT' });
    expect(across('a string thrown').message).toBe('a string thrown');
  });
});
