/**
 * The record sets of the Redis store. A set `S` is four Redis keys: the hash `S#records` (id to
 * the record as JSON), the sorted sets `S#all` and `S#tag:<tag>` (ids by score: the listings) and
 * `S#expiry` (ids by expiry time). A put or a delete is one Lua script, so a record and its
 * places in the listings change together; each also deletes up to 100 expired records, so expired
 * ones never pile up faster than new ones come. A page is ZREVRANGEBYSCORE … LIMIT, a count ZCOUNT:
 * both read the sorted index, never the whole set. Equal scores are listed by id descending, as
 * ZREVRANGEBYSCORE orders them.
 */
import type { RecordRange, SetRecord } from './store.js';

// Shared by put and delete: removes record `id` of the set `base` from the hash and every listing.
const REMOVE = `local function remove(base, id)
  local text = redis.call('HGET', base .. '#records', id)
  if not text then return false end
  local tag = cjson.decode(text).tag
  redis.call('HDEL', base .. '#records', id)
  redis.call('ZREM', base .. '#all', id)
  redis.call('ZREM', base .. '#expiry', id)
  if type(tag) == 'string' then redis.call('ZREM', base .. '#tag:' .. tag, id) end
  return text
end
local function sweep(base, now)
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', base .. '#expiry', '-inf', now, 'LIMIT', 0, 100)) do remove(base, id) end
end
`;

// KEYS[1] the set; ARGV: id, score, tag ('' for none), the record as JSON, expiry (Unix ms), now.
// Returns the replaced record's JSON, or false.
export const PUT_RECORD = `${REMOVE}
local base, id = KEYS[1], ARGV[1]
sweep(base, ARGV[6])
local replaced = remove(base, id)
redis.call('HSET', base .. '#records', id, ARGV[4])
redis.call('ZADD', base .. '#all', ARGV[2], id)
redis.call('ZADD', base .. '#expiry', ARGV[5], id)
if ARGV[3] ~= '' then redis.call('ZADD', base .. '#tag:' .. ARGV[3], ARGV[2], id) end
return replaced`;

// KEYS[1] the set; ARGV: id, now. Returns the deleted record's JSON, or false.
export const DELETE_RECORD = `${REMOVE}
sweep(KEYS[1], ARGV[2])
return remove(KEYS[1], ARGV[1])`;

// KEYS[1] the set; ARGV: the listing's key suffix, max (exclusive), min, offset, limit.
// Returns the records' JSON, newest first.
export const LIST_RECORDS = `local base = KEYS[1]
local ids = redis.call('ZREVRANGEBYSCORE', base .. ARGV[1], ARGV[2], ARGV[3], 'LIMIT', ARGV[4], ARGV[5])
local records = {}
for i, id in ipairs(ids) do records[i] = redis.call('HGET', base .. '#records', id) end
return records`;

/** The record as the hash keeps it (its expiry too, though only the expiry index reads it). */
export function recordText(record: SetRecord, expiresAt: number): string {
  return JSON.stringify({
    id: record.id,
    score: record.score,
    ...(record.tag === undefined ? {} : { tag: record.tag }),
    value: record.value,
    expiresAt,
  });
}

/** A record from the hash's JSON (undefined for false, null or a record deleted meanwhile). */
export function recordOf(text: unknown): SetRecord | undefined {
  if (typeof text !== 'string' && !(text instanceof Uint8Array)) return undefined;
  const { id, score, tag, value } = JSON.parse(typeof text === 'string' ? text : new TextDecoder().decode(text)) as SetRecord;
  return tag === undefined ? { id, score, value } : { id, score, tag, value };
}

/** The suffix of the listing a range reads: the whole set's or its tag's. */
export function listingOf(range: RecordRange): string {
  return range.tag === undefined ? '#all' : `#tag:${range.tag}`;
}

/** ZRANGEBYSCORE's bounds of [min, max): the lower included, the upper excluded. */
export function boundsOf(range: RecordRange): { min: string; max: string } {
  return {
    min: range.min === undefined ? '-inf' : String(range.min),
    max: range.max === undefined ? '+inf' : `(${range.max}`,
  };
}
