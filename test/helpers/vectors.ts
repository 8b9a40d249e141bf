// The known answers of signature-vectors.json, computed by an independent implementation.
// The project keeps a copy in test/fixtures so a clone tests on its own; where the shared
// original sits beside the repository (developer machines, CI), the copy must still equal it.
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

export const vectorCopy = fileURLToPath(new URL('../fixtures/signature-vectors.json', import.meta.url));
export const sharedVectors = fileURLToPath(new URL('../../../shared/signature-vectors.json', import.meta.url));

export function loadVectors(file: string = vectorCopy): SignatureVector[] {
  return JSON.parse(readFileSync(file, 'utf8')).vectors;
}

export const hasSharedVectors = existsSync(sharedVectors);
