import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/**
 * What an import's thread loads: its program's modules, followed from `import.thread.ts` through every
 * import and re-export that is kept at run time (`import type` and `export type` are not), each
 * resolved by TypeScript's own resolver with tsconfig.json's settings, the contexts' entries (`@app/…`)
 * included, as the build resolves them. A thread loads its own copy of each, so what it reaches costs
 * every large upload its start and its memory (docs/imports.md "A thread that loads what it runs").
 */
const ROOT = process.cwd();
const PROGRAM = join(ROOT, 'libs/import/src/infrastructure/thread/import.thread.ts');
const OPTIONS = ts.parseJsonConfigFileContent(ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile).config, ts.sys, ROOT).options;
const KEPT_IMPORT = /^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?'([^']+)';/gm;

/** Each source file the program reaches (with the file that reached it first) and each package it imports (with its importer). */
function reached(): { files: Map<string, string | null>; packages: Map<string, string> } {
  const files = new Map<string, string | null>();
  const packages = new Map<string, string>();
  const visit = (file: string, from: string | null) => {
    if (files.has(file)) return;
    files.set(file, from);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(KEPT_IMPORT)) {
      if (specifier.startsWith('node:')) continue;
      const resolved = ts.resolveModuleName(specifier, file, OPTIONS, ts.sys).resolvedModule;
      if (resolved === undefined) throw new Error(`${relative(ROOT, file)}: ${specifier} does not resolve`);
      if (!resolved.isExternalLibraryImport) visit(resolved.resolvedFileName, file);
      else {
        const name = specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
        if (!packages.has(name)) packages.set(name, file);
      }
    }
  };
  visit(PROGRAM, null);
  return { files, packages };
}

/** How `file` was reached from the program, for a failure's message. */
function chain(files: Map<string, string | null>, file: string | null): string {
  const steps: string[] = [];
  for (let at = file; at !== null && at !== undefined; at = files.get(at) ?? null) steps.push(relative(ROOT, at));
  return steps.join(' ← ');
}

describe("an import thread's modules", () => {
  const { files, packages } = reached();

  it('are what its import runs: parsers, matching, the SQL adapters and their tools', () => {
    const names = [...files.keys()].map((file) => relative(ROOT, file));
    expect(names).toEqual(
      expect.arrayContaining([
        'libs/import/src/application/import-brokerage-files.service.ts',
        'libs/import/src/domain/hybrid-matcher.ts',
        'libs/import/src/infrastructure/persistence/sql-import.store.ts',
        'libs/trades/src/infrastructure/persistence/sql-trade-ledger.ts',
        'libs/persistence/src/thread-database.ts',
      ]),
    );
  });

  it("load none of the contexts' Nest modules, HTTP layers or migrations (but the shared kernel's few helpers)", () => {
    const outer = [...files.keys()].filter((file) => !file.startsWith(join(ROOT, 'libs/shared/')) && /\.module\.ts$|\/http\/|\/migrations\//.test(file));
    expect(outer.map((file) => chain(files, file))).toEqual([]);
  });

  it('load only the packages its work needs (not Swagger, the validators, RxJS, luxon or the pg driver)', () => {
    const loaded = [...packages.keys()].sort();
    expect(loaded).toEqual(['@nestjs/common', 'papaparse', 'pg-copy-streams', 'reflect-metadata', 'typeorm']);
  });
});
