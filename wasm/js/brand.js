// The package's objects as every copy of it in one realm sees them. Node can load the package
// twice in one process (its ES module build by `import`, its CommonJS build by `require`: the
// dual-package hazard), and each copy has its own classes and engine, so a private field or a
// WeakMap of one copy cannot see the other's objects. Each class a user hands back (Policy,
// Backoff, Run, SendRate, Pacer) therefore answers a getter under a registry symbol, shared by all
// copies, with its kind, the package version and what the other copy needs: an object of the same
// version means the same in either copy; one of another version (whose words may differ) is a
// TypeError that says so, never read as something else.
export const BRAND = /* @__PURE__ */ Symbol.for('seeded-backoff');

/** The package version (package.json's, checked by the tests): objects are shared within one version. */
export const VERSION = '0.1.0';

/**
 * The brand of `v` if it is a `kind` of this package (made by any copy of this version), else
 * undefined; a TypeError naming `name` if it is one of another version. Reading the brand runs
 * the object's getter, so a value whose getter throws (a proxy, a forgery) is none.
 */
export function brandOf(v, kind, name) {
  let b;
  try {
    b = v?.[BRAND];
  } catch {}
  if (b?.kind !== kind) return undefined;
  if (b.version !== VERSION) throw new TypeError(`${name} is a ${kind} of seeded-backoff ${b.version}, not ${VERSION}: two versions cannot share objects`);
  return b;
}
