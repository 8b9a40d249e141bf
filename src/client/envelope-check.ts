// Whether a 2xx answer is the API's envelope, with the `data` its endpoint promises: an answer
// that is not becomes a ChatbotResponseError naming what was wrong, rather than a result that
// breaks later in the caller's code.

/** Checks the `data` of a 2xx envelope; returns what is wrong, or null. */
export type DataCheck = (data: unknown) => string | null;

export const isArray: DataCheck = (data) => (Array.isArray(data) ? null : 'a "data" that is not a list');
export const isNumber: DataCheck = (data) => (typeof data === 'number' ? null : 'a "data" that is not a number');
export const isString: DataCheck = (data) => (typeof data === 'string' ? null : 'a "data" that is not a text');
export const isRecord: DataCheck = (data) =>
  typeof data === 'object' && data !== null && !Array.isArray(data) ? null : 'a "data" that is not a record';

/** 'error' when the envelope reports one, a description when the body is not a valid envelope, else null. */
export function envelopeProblem(body: unknown, check: DataCheck): string | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'JSON that is not an envelope';
  const record = body as Record<string, unknown>;
  if (!('data' in record)) return 'JSON without the envelope field "data"';
  if (typeof record.error === 'string' && record.error !== '') return 'error';
  if (record.error !== null && record.error !== undefined && record.error !== '') return 'an envelope whose "error" is not text';
  return check(record.data);
}
