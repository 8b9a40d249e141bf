/**
 * The demo's static files as sent: brotli or gzip when the browser accepts it (`Accept-Encoding`),
 * as they are otherwise. Each file is compressed once, on its first request, at the strongest
 * settings (what a site precompressing at build time would ship), and kept until it changes on
 * disk (a rebuild while `npm start` runs). Images are sent as they are: already compressed.
 */
import { statSync, readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** How a body is sent; `identity` is as it is. */
export type ContentEncoding = 'br' | 'gzip' | 'identity';

/** Content types worth compressing: text. */
const COMPRESSIBLE = /^(text\/|application\/json|image\/svg\+xml)/;

/**
 * The encoding to send for an `Accept-Encoding` header: the one with the highest weight among
 * brotli and gzip (brotli on a tie: smaller), `*` standing for those not named, `q=0` refusing.
 */
export function chooseEncoding(acceptEncoding: string | undefined): ContentEncoding {
  const weights = new Map<string, number>();
  for (const item of (acceptEncoding ?? '').split(',')) {
    const [name, ...params] = item.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(p)?.[1]).find((value) => value !== undefined);
    weights.set(name, q === undefined ? 1 : Number(q));
  }
  const weight = (name: string) => weights.get(name) ?? weights.get('*') ?? 0;
  const br = weight('br');
  const gzip = Math.max(weight('gzip'), weights.get('x-gzip') ?? 0);
  if (br > 0 && br >= gzip) return 'br';
  return gzip > 0 ? 'gzip' : 'identity';
}

interface Compressed {
  /** The file's size and modification time when read: a change is a new entry. */
  stamp: string;
  bodies: Partial<Record<ContentEncoding, Buffer>>;
  identity: Buffer;
}

export class CompressedFiles {
  readonly #files = new Map<string, Compressed>();

  /** The body of `file` to send for `acceptEncoding`, and its encoding (`identity` for one sent as it is). */
  read(file: string, contentType: string, acceptEncoding: string | undefined): { body: Buffer; encoding: ContentEncoding } {
    const { size, mtimeMs } = statSync(file);
    const stamp = `${size}:${mtimeMs}`;
    let entry = this.#files.get(file);
    if (entry?.stamp !== stamp) {
      entry = { stamp, bodies: {}, identity: readFileSync(file) };
      this.#files.set(file, entry);
    }
    const encoding = COMPRESSIBLE.test(contentType) ? chooseEncoding(acceptEncoding) : 'identity';
    if (encoding === 'identity') return { body: entry.identity, encoding };
    const body = (entry.bodies[encoding] ??= compress(entry.identity, encoding));
    return { body, encoding };
  }
}

function compress(body: Buffer, encoding: 'br' | 'gzip'): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : gzipSync(body, { level: constants.Z_BEST_COMPRESSION });
}
