import { randomUUID } from 'node:crypto';
import { dataResponse } from './data-source.js';

/**
 * A response body, or a part of one, already serialised as JSON text: the report cache sends a body's
 * text as it is, where it serialises any other body (a month of 34,000 trades is made as JSON by the
 * database, not as objects). Serialised any other way, it is the value its text holds.
 */
export class JsonText {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/** Stands for a JsonText field while the rest of a body is serialised: no data can hold it (a fresh UUID). */
const MARK = `json-text-${randomUUID()}#`;
const MARKED = new RegExp(`"${MARK}(\\d+)"`, 'g');

/**
 * `dataResponse(body)` as JSON text, each of `body`'s JsonText fields put in as its text: the rest of
 * the body is serialised as usual, the large part not again.
 */
export function dataResponseText(body: Record<string, unknown>): JsonText {
  const texts: string[] = [];
  const marked = Object.fromEntries(Object.entries(body).map(([key, value]) => [key, value instanceof JsonText ? `${MARK}${texts.push(value.text) - 1}` : value]));
  return new JsonText(JSON.stringify(dataResponse(marked)).replace(MARKED, (_, index: string) => texts[Number(index)]));
}
