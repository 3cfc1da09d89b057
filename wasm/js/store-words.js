// What the shared parts (shared.js) read and write of a local part, under a symbol no entry
// exports: its words (`part[STATE]()` a copy, `part[STATE](w)` replaced; `new Part({ [STATE]:
// words })` a part of those words).

export const STATE = /* @__PURE__ */ Symbol('seeded-backoff state words');

/** The words a part is made of, when `options` carries them (a copy), else undefined. */
export const wordsOf = (options) => (options !== null && typeof options === 'object' && options[STATE] ? options[STATE].slice() : undefined);

