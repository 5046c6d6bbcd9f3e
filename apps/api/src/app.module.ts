import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { AuthModule } from '@app/auth';
import { CalendarModule } from '@app/calendar';
import { ExportModule } from '@app/export';
import { HealthModule } from '@app/health';
import { ImportModule } from '@app/import';
import { PersistenceModule } from '@app/persistence';
import { PortfolioModule } from '@app/portfolio';
import { AppConfig, SharedModule } from '@app/shared';
import { TradesModule } from '@app/trades';
import { ApiExceptionFilter } from './api-exception.filter.js';
import { createValidationPipe } from './validation.js';
import { ENTITIES } from './entities.js';
import { WebAppModule } from './web/web-app.module.js';

/** Wiring only: each bounded context is a module of its own under libs/. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        SharedModule.forRoot(config),
        PersistenceModule.forRoot({ entities: ENTITIES }),
        AuthModule,
        HealthModule,
        CalendarModule,
        // Timed jobs (the portfolio's end-of-day snapshots).
        ScheduleModule.forRoot(),
        PortfolioModule,
        // The brokerage import, and the trading reports on what it stores (with their calendar views).
        ImportModule,
        TradesModule,
        // Day and month exports as files.
        ExportModule,
        // The browser app's pages (apps/web, built into dist/web).
        WebAppModule,
      ],
      providers: [
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}
