import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';

/** Loads `.env` from `cwd` when present; variables already in the environment win. */
export function loadDotEnv(cwd = process.cwd(), env: NodeJS.ProcessEnv = process.env): void {
  const file = `${cwd}/.env`;
  if (!existsSync(file)) return;
  const values = parseEnv(readFileSync(file, 'utf8'));
  for (const [name, value] of Object.entries(values)) {
    if (env[name] === undefined) env[name] = value;
  }
}
