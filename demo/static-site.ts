/**
 * Serves the demo site: the pages in demo/ and the standalone widget bundle at /chatbot-widget.js
 * (with the chunks it loads on demand beside it).
 * Only files that exist in demo/ at start are served (no path from the request touches the disk,
 * but for the bundle's chunks, whose names are checked against a pattern without a slash),
 * and pages carry a strict Content-Security-Policy, which the widget is built to work under.
 * Text is sent compressed when the browser accepts it (compression.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readdirSync, statSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CompressedFiles } from './compression.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const demoDir = join(root, 'demo');
export const bundlePath = join(root, 'dist', 'chatbot-widget.js');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
};

const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** A chunk of the bundle, loaded on demand: `chatbot-widget-<name>-<content hash>.js`, no slash. */
const HASHED_CHUNK = /^\/chatbot-widget-[\w-]+\.js$/;

function newestChange(dir: string): number {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Rebuilds dist/chatbot-widget.js when it is missing or older than the widget's sources. */
export function ensureBundle(): void {
  const sources = Math.max(
    ...['ui', 'chatbot-widget', 'chatbot-usage', 'browser', 'shared'].map((folder) => newestChange(join(root, 'src', folder))),
  );
  if (existsSync(bundlePath) && statSync(bundlePath).mtimeMs >= sources) return;
  console.log('  building dist/chatbot-widget.js …');
  const result = spawnSync(join(root, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('could not build the widget bundle (see the output above); try `npm run build`.');
}

export interface StaticSite {
  serve(req: IncomingMessage, res: ServerResponse): void;
}

export async function createStaticSite(): Promise<StaticSite> {
  ensureBundle();
  const files = new Map<string, string>();
  for (const name of readdirSync(demoDir)) {
    if (TYPES[extname(name)] && statSync(join(demoDir, name)).isFile()) files.set(`/${name}`, join(demoDir, name));
  }
  files.set('/', join(demoDir, 'index.html'));
  files.set('/chatbot-widget.js', bundlePath);
  /**
   * The chunks the bundle loads on demand, relative to its own URL (e.g. <chatbot-usage>'s view),
   * looked up when asked: a rebuild while the server runs renames them (content hashes). The name
   * pattern has no slash, so a request can only ever name a file directly in dist/.
   */
  const fileOf = (path: string) => files.get(path) ?? (HASHED_CHUNK.test(path) ? join(root, 'dist', path.slice(1)) : undefined);
  const compressed = new CompressedFiles();

  return {
    serve(req, res) {
      const path = (req.url ?? '/').split(/[?#]/)[0]!;
      const file = fileOf(path);
      const found = file !== undefined && existsSync(file);
      if ((req.method !== 'GET' && req.method !== 'HEAD') || !file || !found) {
        res.writeHead(found ? 405 : 404, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end(found ? 'Method not allowed' : 'Not found');
        return;
      }
      const contentType = TYPES[extname(file)] ?? 'application/octet-stream';
      const { body, encoding } = compressed.read(file, contentType, req.headers['accept-encoding']);
      // The bundle is public and sent without credentials; a module script on another site
      // (the "embed it" snippet) may load it only if it says so.
      const crossOrigin = path.startsWith('/chatbot-widget')
        ? { 'Access-Control-Allow-Origin': '*', 'Cross-Origin-Resource-Policy': 'cross-origin' }
        : {};
      res.writeHead(200, {
        ...crossOrigin,
        'Content-Type': contentType,
        ...(encoding === 'identity' ? {} : { 'Content-Encoding': encoding }),
        // Caches keep one copy per encoding asked for.
        Vary: 'Accept-Encoding',
        'Content-Length': body.length,
        // A chunk's name holds a hash of its content: a new build is a new name, so a visitor's
        // browser may keep one for a year without asking again (a reload then opens the chat
        // without a round trip). Pages and chatbot-widget.js keep their names: asked again.
        'Cache-Control': HASHED_CHUNK.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache',
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': CONTENT_SECURITY_POLICY,
        'Referrer-Policy': 'no-referrer',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    },
  };
}
