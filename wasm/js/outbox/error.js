// OutboxError: every failure the outbox reports, with a `code` a program can branch on:
//   'unavailable'  IndexedDB is missing or refused here (a private mode, an opaque origin)
//   'quota'        the browser refused the write: the origin's storage quota is full
//   'version'      the database belongs to a newer version of the outbox
//   'storage'      another IndexedDB failure
//   'limit'        an outbox limit (maxEntries, maxBytes) would be exceeded
//   'gave-up'      the run gave up (`reason`: the core's give-up reason, SPEC.md §5, §15.2)
//   'closed'       the outbox was closed
export class OutboxError extends Error {
  constructor(code, message, extra) {
    super(message, extra?.cause ? { cause: extra.cause } : undefined);
    this.name = 'OutboxError';
    this.code = code;
    if (extra) for (const k of Object.keys(extra)) if (k !== 'cause') this[k] = extra[k];
  }
}

/** An IndexedDB failure (`e`, a DOMException or anything thrown) during `what`, as an OutboxError. */
export function storageError(e, what) {
  const name = e?.name;
  const code = name === 'QuotaExceededError' ? 'quota'
    : name === 'VersionError' ? 'version'
      : name === 'SecurityError' || name === 'InvalidStateError' || name === 'NotAllowedError' ? 'unavailable'
        : 'storage';
  const said = e?.message || (code === 'quota' ? "the origin's storage quota is full" : String(e));
  return new OutboxError(code, `outbox storage: ${what} failed: ${name ?? 'Error'}: ${said}`, { cause: e });
}
