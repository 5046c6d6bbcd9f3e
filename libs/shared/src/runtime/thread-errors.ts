/**
 * An error as it crosses to another thread (`postMessage`): a structured clone keeps an Error's
 * message but drops its class and its own fields (a driver error's `code`, an import error's file and
 * line), which decide how it is answered (`describeFailure`). Here they travel as data, and the
 * receiving side makes the error again as the class of the same name it knows.
 */
export interface ThreadError {
  className: string;
  name: string;
  message: string;
  stack: string | undefined;
  /** The error's own fields that a clone keeps; errors among them (a driver's cause) as ThreadErrors. */
  fields: Record<string, unknown>;
  /** The names of the fields that are errors themselves. */
  errorFields: string[];
}

export function toThreadError(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { className: 'Error', name: 'Error', message: String(error), stack: undefined, fields: {}, errorFields: [] };
  const fields: Record<string, unknown> = {};
  const errorFields: string[] = [];
  for (const [key, value] of Object.entries(error)) {
    if (key === 'message' || key === 'name' || key === 'stack') continue;
    if (value instanceof Error) {
      if (value === error) continue;
      fields[key] = toThreadError(value);
      errorFields.push(key);
      continue;
    }
    if (typeof value === 'function' || typeof value === 'symbol') continue;
    try {
      fields[key] = structuredClone(value);
    } catch {
      // a field a clone cannot carry (a connection, a socket) says nothing the other side needs
    }
  }
  return { className: error.constructor.name, name: error.name, message: error.message, stack: error.stack, fields, errorFields };
}

/**
 * The error again, as an instance of the class of its name among `classes` (a plain Error when none
 * is), with its fields; no constructor runs, so the fields are exactly those it had.
 */
export function fromThreadError(sent: ThreadError, classes: ReadonlyMap<string, abstract new (...args: never[]) => Error>): Error {
  const prototype = (classes.get(sent.className) ?? Error).prototype as Error;
  const error = Object.create(prototype) as Error & Record<string, unknown>;
  for (const [key, value] of Object.entries(sent.fields)) {
    error[key] = sent.errorFields.includes(key) ? fromThreadError(value as ThreadError, classes) : value;
  }
  Object.defineProperty(error, 'message', { value: sent.message, writable: true, configurable: true, enumerable: false });
  Object.defineProperty(error, 'name', { value: sent.name, writable: true, configurable: true, enumerable: false });
  Object.defineProperty(error, 'stack', { value: sent.stack, writable: true, configurable: true, enumerable: false });
  return error;
}

/** Classes by name, for `fromThreadError`. */
export function errorClasses(...classes: (abstract new (...args: never[]) => Error)[]): ReadonlyMap<string, abstract new (...args: never[]) => Error> {
  return new Map(classes.map((each) => [each.name, each]));
}
