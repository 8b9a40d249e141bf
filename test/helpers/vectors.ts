// Loads the known answers of ../shared/signature-vectors.json (computed by an independent
// implementation). The file lives beside the repository, as on every developer machine and CI.
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface SignatureVector {
  name: string;
  secret: string;
  method: string;
  path: string;
  body: string;
  timestamp: number;
  signature: string;
}

const vectorFile = fileURLToPath(new URL('../../../shared/signature-vectors.json', import.meta.url));

export function loadVectors(): SignatureVector[] {
  if (!existsSync(vectorFile)) throw new Error(`signature vectors not found at ${vectorFile}`);
  return JSON.parse(readFileSync(vectorFile, 'utf8')).vectors;
}
