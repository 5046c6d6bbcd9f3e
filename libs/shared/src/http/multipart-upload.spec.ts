import type { FastifyRequest } from 'fastify';
import { PayloadTooLargeError, ServiceBusyError, TooManyRequestsError, ValidationError } from '../errors/domain.errors.js';
import { readUploadedFiles, UploadBudget } from './multipart-upload.js';

const MB = 1024 * 1024;
const declaring = (bytes?: number) => ({ headers: bytes === undefined ? {} : { 'content-length': String(bytes) } }) as unknown as FastifyRequest;

describe('UploadBudget', () => {
  it('refuses a declared body larger than the files it may hold', () => {
    const budget = new UploadBudget(10 * MB);
    expect(() => budget.reserve(1, declaring(21 * MB), 2)).toThrow(PayloadTooLargeError);
    expect(() => budget.reserve(1, declaring(11 * MB), 1)).toThrow('The upload is larger than the limit of 10 MB per file');
    expect(budget.reservedBytes).toBe(0);
  });

  it('lets one user hold two files of the largest size at once, then answers 429 until one ends', () => {
    const budget = new UploadBudget(10 * MB);
    const first = budget.reserve(1, declaring(15 * MB), 2);
    const second = budget.reserve(1, declaring(4 * MB), 2);
    expect(() => budget.reserve(1, declaring(2 * MB), 2)).toThrow(TooManyRequestsError);
    // Another user is not held back by this one's uploads.
    const other = budget.reserve(2, declaring(2 * MB), 2);
    first();
    first(); // a second release changes nothing
    budget.reserve(1, declaring(2 * MB), 2)();
    second();
    other();
    expect(budget.reservedBytes).toBe(0);
  });

  it('bounds everyone’s uploads together with a 503, and reserves the most for an undeclared length', () => {
    const budget = new UploadBudget(10 * MB);
    const releases = [budget.reserve(1, declaring(), 2), budget.reserve(2, declaring(18 * MB), 2)];
    expect(() => budget.reserve(3, declaring(3 * MB), 1)).toThrow(ServiceBusyError);
    releases.forEach((release) => release());
    // The first upload is never refused by the budget, however large (its own limit is checked above).
    budget.reserve(3, declaring(), 4)();
  });
});

describe('readUploadedFiles', () => {
  const RULES = { fields: ['report'], maxBytes: 50 * MB, notMultipart: 'Send a file' };
  const failingWith = (error: Error) =>
    ({
      isMultipart: () => true,
      // eslint-disable-next-line require-yield
      parts: async function* () {
        throw error;
      },
    }) as unknown as FastifyRequest;

  // The multipart plugin reports a file over the limit from the file's read or, when the request has
  // ended first, from the next step of the parts' iteration: either way it is the 413 that names the file.
  it('names the file that is too large, whichever step reports it', async () => {
    const tooLarge = Object.assign(new Error('request file too large'), { code: 'FST_REQ_FILE_TOO_LARGE', statusCode: 413, part: { filename: 'C:\\fakepath\\huge.csv' } });
    await expect(readUploadedFiles(failingWith(tooLarge), RULES)).rejects.toThrow(new PayloadTooLargeError('huge.csv is larger than the limit of 50 MB per file'));
  });

  it('refuses a body that is not multipart, and one whose framing is broken, as bad requests', async () => {
    await expect(readUploadedFiles({ isMultipart: () => false } as unknown as FastifyRequest, RULES)).rejects.toThrow(new ValidationError('Send a file'));
    await expect(readUploadedFiles(failingWith(new Error('Unexpected end of form')), RULES)).rejects.toThrow(
      new ValidationError('The upload is not a complete multipart/form-data body (Unexpected end of form)'),
    );
  });

  it("hands each file's chunks to its receiver as they arrive, then the whole file, by the file's own name", async () => {
    const filePart = (fieldname: string, filename: string, chunks: string[]) => ({
      type: 'file',
      fieldname,
      filename,
      file: Object.assign(
        (async function* () {
          for (const chunk of chunks) yield Buffer.from(chunk);
        })(),
        { truncated: false },
      ),
    });
    const request = {
      isMultipart: () => true,
      parts: async function* () {
        yield filePart('report', 'C:\\fakepath\\a.csv', ['ab', 'cd', 'e']);
        yield filePart('other', 'b.txt', ['xyz']);
      },
    } as unknown as FastifyRequest;
    const seen: string[] = [];
    const receiver = (name: string) =>
      name.endsWith('.csv')
        ? { add: (chunk: Uint8Array) => seen.push(`${name} +${Buffer.from(chunk).toString()}`), end: (content: Uint8Array) => seen.push(`${name} =${Buffer.from(content).toString()}`) }
        : undefined;
    const files = await readUploadedFiles(request, { ...RULES, fields: ['report', 'other'], receiver });
    expect(seen).toEqual(['a.csv +ab', 'a.csv +cd', 'a.csv +e', 'a.csv =abcde']);
    expect([...files.values()].map((file) => `${file.name}: ${file.content.toString()}`)).toEqual(['a.csv: abcde', 'b.txt: xyz']);
  });
});
