/**
 * The studio's files for npm start: the page at /studio, its modules at /studio/<name>.js (the
 * TypeScript of demo/studio/, compiled by TypeScript's transpiler when first asked for, again
 * when the file changed), its stylesheet, and the package's Custom Elements Manifest at
 * /custom-elements.json, which the studio builds its form from. The page and its modules are
 * served under the strict policy the widget is built for: no inline style or script, and Trusted
 * Types with the widget's own policy names only.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const studioDir = join(root, 'demo', 'studio');
export const manifestPath = join(root, 'dist', 'custom-elements.json');

export const STUDIO_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "require-trusted-types-for 'script'",
  'trusted-types lit-html chatbot-widget',
].join('; ');

/** A module name of the studio: letters, digits and dashes, no slash or dot. */
const MODULE = /^\/studio\/([a-z][a-z0-9-]*)\.js$/;

/** Builds the manifest when it is missing (a fresh clone that ran only the widget bundle's build). */
export function ensureManifest(): void {
  if (existsSync(manifestPath)) return;
  console.log('  building dist/custom-elements.json …');
  const result = spawnSync(join(root, 'node_modules/.bin/cem'), ['analyze', '--config', 'custom-elements-manifest.config.mjs', '--quiet'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('could not build dist/custom-elements.json (see the output above); try `npm run build`.');
}

type TypeScript = typeof import('typescript');
let typescript: Promise<TypeScript> | undefined;
const compiled = new Map<string, { mtimeMs: number; code: string }>();

async function compile(file: string): Promise<string> {
  const { mtimeMs } = statSync(file);
  const cached = compiled.get(file);
  if (cached?.mtimeMs === mtimeMs) return cached.code;
  typescript ??= import('typescript').then((module) => (module as { default?: TypeScript }).default ?? module);
  const ts = await typescript;
  const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
    fileName: file,
  });
  compiled.set(file, { mtimeMs, code: outputText });
  return outputText;
}

const send = (res: ServerResponse, status: number, type: string, body: string | Buffer) => {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': STUDIO_CONTENT_SECURITY_POLICY,
    'Referrer-Policy': 'no-referrer',
  });
  res.end(body);
};

/** Answers the studio's paths; false for any other path (the rest of the demo site serves it). */
export async function serveStudio(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
  let file: string | undefined;
  let type = '';
  if (path === '/studio' || path === '/studio/') [file, type] = [join(studioDir, 'studio.html'), 'text/html; charset=utf-8'];
  else if (path === '/studio/studio.css') [file, type] = [join(studioDir, 'studio.css'), 'text/css; charset=utf-8'];
  else if (path === '/custom-elements.json') [file, type] = [manifestPath, 'application/json; charset=utf-8'];
  else if (MODULE.test(path)) [file, type] = [join(studioDir, `${MODULE.exec(path)![1]}.ts`), 'text/javascript; charset=utf-8'];
  if (!file) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(res, 405, 'text/plain; charset=utf-8', 'Method not allowed');
  } else if (!existsSync(file)) {
    send(res, 404, 'text/plain; charset=utf-8', 'Not found');
  } else {
    send(res, 200, type, file.endsWith('.ts') ? await compile(file) : readFileSync(file));
  }
  return true;
}
