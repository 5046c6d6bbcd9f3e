import { Injectable } from '@nestjs/common';
import { ExportGenerator, ExportGenerators } from '../../application/export-generator.port.js';
import type { ExportFormat } from '../../domain/export-document.js';
import { CsvExportGenerator } from './csv-export.generator.js';
import { ExcelExportGenerator } from './excel-export.generator.js';
import { PdfExportGenerator } from './pdf-export.generator.js';

/** The three file formats, one adapter each. */
@Injectable()
export class FileExportGenerators extends ExportGenerators {
  private readonly byFormat: Map<ExportFormat, ExportGenerator>;

  constructor(csv: CsvExportGenerator, excel: ExcelExportGenerator, pdf: PdfExportGenerator) {
    super();
    this.byFormat = new Map<ExportFormat, ExportGenerator>([csv, excel, pdf].map((generator) => [generator.format, generator]));
  }

  forFormat(format: ExportFormat): ExportGenerator {
    const generator = this.byFormat.get(format);
    if (generator === undefined) throw new Error(`no generator for ${format}`);
    return generator;
  }
}
