// The outbox's IndexedDB database, one per outbox name: 'requests' (one record per request) and
// 'meta' (the driver's lease where Web Locks are missing). IndexedDB serializes readwrite
// transactions on a store across every tab and worker of the origin, so a check and a write made
// in one transaction (the limits, the lease) hold for the whole origin.
import { OutboxError, storageError } from './error.js';

const DB_VERSION = 1;

/** The request's result, or its error as an OutboxError. */
const done = (req, what) => new Promise((resolve, reject) => {
  req.onsuccess = () => resolve(req.result);
  req.onerror = () => reject(storageError(req.error, what));
});

export async function openStore(name) {
  const idb = globalThis.indexedDB;
  if (!idb) throw new OutboxError('unavailable', 'outbox storage: IndexedDB is missing in this context');
  let req;
  try {
    req = idb.open(`seeded-backoff-outbox:${name}`, DB_VERSION);
  } catch (e) {
    throw storageError(e, 'open');
  }
  req.onupgradeneeded = () => {
    const db = req.result;
    for (const s of ['requests', 'meta']) if (!db.objectStoreNames.contains(s)) db.createObjectStore(s);
  };
  const db = await done(req, 'open');
  // Another version of the page upgrades the database: this one lets it.
  db.onversionchange = () => db.close();
  return new Store(db);
}

class Store {
  #db;

  constructor(db) {
    this.#db = db;
  }

  /** Runs `fn(store)` in one transaction on `name`; resolves with its result once committed. */
  #tx(name, mode, what, fn) {
    return new Promise((resolve, reject) => {
      let tx;
      let result;
      try {
        tx = this.#db.transaction(name, mode);
      } catch (e) {
        reject(storageError(e, what));
        return;
      }
      tx.oncomplete = () => resolve(result);
      tx.onabort = () => reject(tx.error ? storageError(tx.error, what) : result);
      Promise.resolve(fn(tx.objectStore(name), (v) => { result = v; })).catch((e) => {
        result = e;
        try {
          tx.abort();
        } catch {
          // Already finished.
        }
      });
    });
  }

  /** Every [key, record] of the requests, as stored (unchecked). */
  all() {
    return this.#tx('requests', 'readonly', 'read', async (s, set) => {
      const [keys, values] = await Promise.all([done(s.getAllKeys(), 'read'), done(s.getAll(), 'read')]);
      set(keys.map((k, i) => [k, values[i]]));
    });
  }

  get(id) {
    return this.#tx('requests', 'readonly', 'read', async (s, set) => set(await done(s.get(id), 'read')));
  }

  /** Adds `rec` if the outbox stays within `limits` ({ maxEntries, maxBytes }). */
  add(rec, { maxEntries, maxBytes }) {
    return this.#tx('requests', 'readwrite', 'write', async (s) => {
      const values = await done(s.getAll(), 'read');
      if (values.length + 1 > maxEntries) {
        throw new OutboxError('limit', `outbox full: ${values.length} of maxEntries ${maxEntries} requests pending`);
      }
      const bytes = values.reduce((n, v) => n + (Number.isSafeInteger(v?.bytes) ? v.bytes : 0), 0);
      if (bytes + rec.bytes > maxBytes) {
        throw new OutboxError('limit', `outbox full: ${bytes} + ${rec.bytes} bytes would exceed maxBytes ${maxBytes}`);
      }
      s.add(rec, rec.id);
    });
  }

  /** Writes `rec` over its stored version, only if that is still there; resolves with whether it was. */
  update(rec) {
    return this.#tx('requests', 'readwrite', 'write', async (s, set) => {
      const there = (await done(s.getKey(rec.id), 'read')) !== undefined;
      if (there) s.put(rec, rec.id);
      set(there);
    });
  }

  delete(id) {
    return this.#tx('requests', 'readwrite', 'delete', (s) => { s.delete(id); });
  }

  /**
   * Takes or renews the driver's lease for `me` (free, expired or already its own) for `ms`;
   * resolves with whether `me` holds it.
   */
  lease(me, ms) {
    return this.#tx('meta', 'readwrite', 'lease', async (s, set) => {
      const now = Date.now();
      const l = await done(s.get('driver'), 'read');
      const mine = !l || l.until < now || l.id === me;
      if (mine) s.put({ id: me, until: now + ms }, 'driver');
      set(mine);
    });
  }

  /** Gives the lease up, if `me` holds it. */
  release(me) {
    return this.#tx('meta', 'readwrite', 'lease', async (s) => {
      const l = await done(s.get('driver'), 'read');
      if (l?.id === me) s.delete('driver');
    });
  }

  close() {
    this.#db.close();
  }
}
