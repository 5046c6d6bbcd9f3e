#!/usr/bin/env node
// Writes the OpenAPI document (docs/openapi.json) and the web app's types made from it
// (apps/web/src/api/schema.ts) from the built service: `npm run openapi` after changing a route, a
// DTO or a context's *.openapi.ts. The unit suite (apps/api/src/openapi.spec.ts) fails while either
// file differs from what the code describes.
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const { previewOpenApiDocument, OPENAPI_FILE, WEB_TYPES_FILE, documentText } = await import(join(ROOT, 'dist/apps/api/src/openapi.js'));
const { typescriptOf } = await import(join(ROOT, 'dist/apps/api/src/openapi-types.js'));
const { loadConfig } = await import(join(ROOT, 'dist/libs/shared/src/index.js'));

const document = await previewOpenApiDocument(loadConfig({}, ROOT));
writeFileSync(join(ROOT, OPENAPI_FILE), documentText(document));
writeFileSync(join(ROOT, WEB_TYPES_FILE), typescriptOf(document.components.schemas));
console.log(`${OPENAPI_FILE}: ${Object.keys(document.paths).length} paths, ${Object.keys(document.components.schemas).length} schemas; ${WEB_TYPES_FILE} written`);
