// An outbox record: one request, its run (SPEC.md §15, as a run snapshot: the run alone counts
// its attempts) and when its next event is due (on nowMs(), the runs' clock), as stored in
// IndexedDB. Only plain values (structured clone): a record written by one tab, worker or page
// load is read by another. `v` names the format; a record of another format, or one whose fields
// are not what this format says, is skipped and reported, never guessed at.
// A request whose method is not one of RFC 9110 §9.2.2's idempotent methods (the core's list) gets
// an Idempotency-Key, so that the server applies it once however often it arrives.
import { nowMs } from '../clock.js';
import { IDEMPOTENT_METHODS } from '../retry.js';

export const RECORD_VERSION = 1;

/** A random id (crypto.randomUUID exists only in secure contexts; getRandomValues everywhere). */
export function uuid() {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** A random 64-bit seed as a decimal string (bigints are stored as strings). */
export function randomSeed() {
  const [lo, hi] = crypto.getRandomValues(new Uint32Array(2));
  return String((BigInt(hi) << 32n) | BigInt(lo));
}

/**
 * A new record for `req` (a Request) with its body `body` (an ArrayBuffer or null) and `run`, the
 * 100-byte snapshot of its run not yet started (SPEC.md §15).
 */
export function makeRecord(req, body, seed, run, owner) {
  const headers = [...req.headers];
  let key = req.headers.get('idempotency-key');
  if (key === null && !IDEMPOTENT_METHODS.includes(req.method)) {
    key = uuid();
    headers.push(['idempotency-key', key]);
  }
  const now = nowMs();
  const bytes = req.url.length + headers.reduce((n, [k, v]) => n + k.length + v.length, 0) + (body?.byteLength ?? 0);
  return {
    v: RECORD_VERSION, id: uuid(), method: req.method, url: req.url, headers, body, key,
    seed, run, created: now, due: now, bytes, owner,
  };
}

const isInt = (x) => Number.isSafeInteger(x) && x >= 0;
const isStr = (x) => typeof x === 'string';

/** Why `rec` (stored under `key`) cannot be used, or null if it can. */
export function fault(key, rec) {
  if (rec === null || typeof rec !== 'object') return 'not a record';
  if (rec.v !== RECORD_VERSION) return `record format ${String(rec.v)}, this outbox reads ${RECORD_VERSION}`;
  if (rec.id !== key) return 'id does not match its key';
  if (!isStr(rec.method) || !isStr(rec.url) || !isStr(rec.seed) || !/^\d{1,20}$/.test(rec.seed)) return 'method, url or seed missing';
  if (!Array.isArray(rec.headers) || !rec.headers.every((h) => Array.isArray(h) && h.length === 2 && h.every(isStr))) return 'headers malformed';
  if (rec.body !== null && !(rec.body instanceof ArrayBuffer)) return 'body malformed';
  if (rec.key !== null && !isStr(rec.key)) return 'idempotency key malformed';
  if (!(rec.run instanceof Uint8Array)) return 'run snapshot missing';
  for (const k of ['created', 'due', 'bytes']) if (!isInt(rec[k])) return `${k} malformed`;
  return null;
}
