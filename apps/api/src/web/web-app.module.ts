import { Module } from '@nestjs/common';
import { WebAppController } from './web-app.controller.js';
import { WebAppFiles } from './web-app-files.js';

/** The browser app (apps/web, built into dist/web): its pages here, its assets by `serveWebAssets`. */
@Module({
  controllers: [WebAppController],
  providers: [{ provide: WebAppFiles, useValue: new WebAppFiles() }],
})
export class WebAppModule {}
