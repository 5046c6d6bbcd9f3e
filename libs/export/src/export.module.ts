import { Module } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { TradesModule } from '@app/trades';
import { ExportGenerators } from './application/export-generator.port.js';
import { ExportReports } from './application/export-reports.service.js';
import { ExportsController } from './http/exports.controller.js';
import { CsvExportGenerator } from './infrastructure/generators/csv-export.generator.js';
import { ExcelExportGenerator } from './infrastructure/generators/excel-export.generator.js';
import { FileExportGenerators } from './infrastructure/generators/export-generators.js';
import { PdfExportGenerator } from './infrastructure/generators/pdf-export.generator.js';

@Module({
  imports: [AuthModule, TradesModule],
  controllers: [ExportsController],
  providers: [
    ExportReports,
    CsvExportGenerator,
    ExcelExportGenerator,
    PdfExportGenerator,
    { provide: ExportGenerators, useClass: FileExportGenerators },
  ],
})
export class ExportModule {}
