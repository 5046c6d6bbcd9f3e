import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Where `npm run build` puts the browser app (vite's outDir): dist/web beside dist/apps. */
export const WEB_APP_DIR = fileURLToPath(new URL('../../../../web/', import.meta.url));

/** Shown instead of the app when it was not built (e.g. after `tsc` alone). */
const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trading journal</title></head>
<body style="font-family:system-ui,sans-serif;max-width:34rem;margin:4rem auto;padding:0 1rem">
<h1>Trading journal</h1>
<p>The web app has not been built. Run <code>npm run build</code> (it builds the API and the web app) and restart the service.</p>
<p>The JSON API is under <code>/api</code>; <form method="post" action="/logout" style="display:inline"><button type="submit">Sign out</button></form></p>
</body></html>
`;

/** The app's index.html, read once (the build is immutable while the service runs). */
export class WebAppFiles {
  private cached: string | undefined;

  constructor(readonly directory: string = WEB_APP_DIR) {}

  get built(): boolean {
    return existsSync(`${this.directory}index.html`);
  }

  get assetsDirectory(): string {
    return `${this.directory}assets`;
  }

  indexHtml(): string {
    if (this.cached !== undefined) return this.cached;
    if (!this.built) return NOT_BUILT;
    this.cached = readFileSync(`${this.directory}index.html`, 'utf8');
    return this.cached;
  }
}
