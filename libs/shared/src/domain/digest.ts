import { hash } from 'node:crypto';
import type { Decimal } from './decimal.js';
import { decimalTextRoom, SMALL_INTEGER_ROOM, unitsTextRoom, writeDecimalText, writeSmallInteger, type ExactUnits } from './number-bytes.js';

/**
 * The first `digits` of a hexadecimal digest (a row's natural key, a trade's id), as a string of their
 * own. In V8 a slice of 13 characters or more keeps the string it was cut from alive: a key or id cut
 * from a 64-digit SHA-256 digest took 112 bytes instead of 48, for as long as it is held (the rows and
 * trades of an import, hundreds of thousands of them). Read as a JSON string, the digits are copied;
 * hexadecimal digits need no escaping.
 */
export function digestPrefix(hexDigest: string, digits: number): string {
  return JSON.parse(`"${hexDigest.slice(0, digits)}"`) as string;
}

/**
 * The bytes a digest is taken of (a row's natural key, a trade's id): a lead written once, then a
 * record's fields, written one after another between separators into one buffer that every record
 * reuses. Texts go in as UTF-8, figures as the text of their strings (`Decimal.toString`, or the count
 * of units), small integers in digits, without making those strings, an array of them or the joined
 * one: for a large import's rows and trades, those strings were a sixth of what it allocated.
 */
export class DigestContent {
  private bytes = Buffer.allocUnsafe(1024);
  /**
   * Views of `bytes` from its start, by their length, made once each: the content's bytes of each
   * length are digested through the same view (one made for every digest was 2% of what a
   * 100,000-row import allocated).
   */
  private views: (Buffer | undefined)[] = new Array<Buffer | undefined>(this.bytes.length + 1);
  private readonly start: number;
  private length: number;
  private fields = 0;

  /** `lead`: the text every record's content starts with; `separator`: the byte between two fields (ASCII). */
  constructor(
    lead: string,
    private readonly separator: number,
  ) {
    this.start = this.bytes.write(lead, 0, 'utf8');
    this.length = this.start;
  }

  /** Starts the next record's content (after the lead). */
  begin(): this {
    this.length = this.start;
    this.fields = 0;
    return this;
  }

  text(value: string): this {
    const at = this.field(3 * value.length);
    let index = 0;
    if (value.length <= SHORT_TEXT) {
      for (; index < value.length; index += 1) {
        const code = value.charCodeAt(index);
        if (code > 0x7f) break;
        this.bytes[at + index] = code;
      }
    }
    this.length = index === value.length ? at + index : at + this.bytes.write(value, at, 'utf8');
    return this;
  }

  /** A figure in its exact shortest form (`Decimal.toString`), '' when missing. */
  decimal(value: Decimal | ExactUnits | null): this {
    if (value === null) return this.text('');
    this.length = writeDecimalText(this.bytes, value, this.field(decimalTextRoom(value)));
    return this;
  }

  /** A figure as its count of units (`Decimal.rawUnits`, in digits). */
  units(value: Decimal): this {
    this.length = value.writeUnitsText(this.bytes, this.field(unitsTextRoom(value)));
    return this;
  }

  /** A small integer (`isSmallInteger`) in digits. */
  integer(value: number): this {
    this.length = writeSmallInteger(this.bytes, value, this.field(SMALL_INTEGER_ROOM));
    return this;
  }

  /**
   * The record's fields so far (after the lead) as a string of one character a byte (latin1): equal
   * for equal contents, and one string where their texts and joined text were several.
   */
  fieldsText(): string {
    return this.bytes.toString('latin1', this.start, this.length);
  }

  /** The SHA-256 digest of the content (the lead and the record's fields), in hexadecimal or as one character a byte ('binary'). */
  digest(encoding: 'hex' | 'binary'): string {
    const view = (this.views[this.length] ??= this.bytes.subarray(0, this.length));
    return hash('sha256', view, encoding);
  }

  /** Where the next field's bytes go (after its separator), with room for `room` of them. */
  private field(room: number): number {
    if (this.bytes.length < this.length + room + 1) {
      const grown = Buffer.allocUnsafe(2 * (this.length + room + 1));
      this.bytes.copy(grown, 0, 0, this.length);
      this.bytes = grown;
      this.views = new Array<Buffer | undefined>(grown.length + 1);
    }
    if (this.fields > 0) this.bytes[this.length++] = this.separator;
    this.fields += 1;
    return this.length;
  }
}

/** Texts up to this long are copied a character at a time while they are ASCII; a call into Buffer's UTF-8 writer costs more. */
const SHORT_TEXT = 32;
