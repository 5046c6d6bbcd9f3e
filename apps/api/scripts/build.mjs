#!/usr/bin/env node
// Builds the service and the web app into a fresh folder under .builds/ and then points `dist` at it
// (a symbolic link, replaced in one rename). A service already running keeps running from its own
// build: nothing it loads later (a worker, the embedded engine's program, the web app's files) is
// deleted or changed under it, so several instances can be started from one checkout while another
// build is made.
//
//   node apps/api/scripts/build.mjs              build now (npm run build)
//   node apps/api/scripts/build.mjs --if-stale   build only when the sources differ from what `dist`
//                                                was built from (npm start, npm test, npm ci)
//
// The three newest builds are kept; older ones are removed.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, renameSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BUILDS = join(ROOT, '.builds');
const DIST = join(ROOT, 'dist');
const STAMP = '.sources';
const KEEP = 3;

/** What a build is made from: the sources it compiles and the settings and packages it compiles them with. */
const INPUTS = ['apps', 'libs', 'ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];
/** Files under the inputs that no build reads. */
const NOT_BUILT = /(\.spec\.ts|\.test\.tsx?|\.md)$|\/testing\//;

function sourcesDigest() {
  const digest = createHash('sha256');
  const visit = (path) => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat === undefined) return;
    if (stat.isDirectory()) {
      for (const name of readdirSync(path).sort()) visit(join(path, name));
      return;
    }
    const name = relative(ROOT, path);
    if (!NOT_BUILT.test(name)) digest.update(`${name}\t${stat.size}\t${stat.mtimeMs}\n`);
  };
  for (const input of INPUTS) visit(join(ROOT, input));
  return digest.digest('hex');
}

function builtFrom() {
  try {
    return readFileSync(join(DIST, STAMP), 'utf8').trim();
  } catch {
    return undefined;
  }
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) {
    throw new Error(`${[command, ...args].join(' ')} failed${result.signal ? ` (${result.signal})` : ''}`);
  }
}

function build(digest) {
  mkdirSync(BUILDS, { recursive: true });
  const id = `${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '')}-${randomBytes(3).toString('hex')}`;
  const out = join(BUILDS, id);
  const bin = (name) => join(ROOT, 'node_modules', '.bin', name);
  try {
    run(bin('tsc'), ['-p', 'tsconfig.build.json', '--outDir', out]);
    run(bin('tsc-alias'), ['-p', 'tsconfig.build.json', '--outDir', out]);
    run(bin('vite'), ['build', '--config', 'apps/web/vite.config.ts', '--logLevel', 'warn', '--outDir', join(out, 'web'), '--emptyOutDir']);
    writeFileSync(join(out, STAMP), `${digest}\n`);
  } catch (error) {
    rmSync(out, { recursive: true, force: true });
    throw error;
  }
  // The link is made aside and renamed over `dist`: whoever starts the service sees the old build or
  // the new one, never none. A `dist` folder of an older layout is replaced once.
  const link = join(ROOT, `.dist-${id}`);
  symlinkSync(relative(ROOT, out), link);
  if (existsSync(DIST) && !lstatSync(DIST).isSymbolicLink()) rmSync(DIST, { recursive: true, force: true });
  renameSync(link, DIST);
  removeOldBuilds(id);
}

function removeOldBuilds(current) {
  const older = readdirSync(BUILDS)
    .filter((name) => name !== current)
    .sort()
    .reverse()
    .slice(KEEP - 1);
  for (const name of older) rmSync(join(BUILDS, name), { recursive: true, force: true });
}

const ifStale = process.argv.includes('--if-stale');
if (!existsSync(join(ROOT, 'apps', 'api', 'src', 'main.ts'))) {
  // `npm ci` in an image before the sources are copied in: nothing to build yet.
  process.exit(0);
}
const digest = sourcesDigest();
if (ifStale && builtFrom() === digest && existsSync(join(DIST, 'apps', 'api', 'src', 'main.js'))) process.exit(0);
if (ifStale) console.log('building the service and the web app (sources changed since the last build) …');
try {
  build(digest);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
