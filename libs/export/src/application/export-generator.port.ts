import type { ExportDocument, ExportFormat } from '../domain/export-document.js';

export interface GeneratedFile {
  mediaType: string;
  fileName: string;
  content: Buffer;
}

/** Turns an export document into one file format. One adapter per format. */
export abstract class ExportGenerator {
  abstract readonly format: ExportFormat;
  abstract generate(document: ExportDocument, options: { paper: 'A4' | 'LETTER' }): Promise<GeneratedFile>;
}

/** All the generators, by format (the adapters are provided as a list). */
export abstract class ExportGenerators {
  abstract forFormat(format: ExportFormat): ExportGenerator;
}
