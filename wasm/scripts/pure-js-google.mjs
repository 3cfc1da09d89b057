// A pure-JS implementation of the same strategy as Policy::google() with unlimited retries
// (SPEC.md §3, §4.2: SplitMix64 seeding, xoshiro128++, Lemire's bounded draw, google jitter), as a
// speed baseline for the benchmark. Not part of the package.

const M64 = (1n << 64n) - 1n;

function splitmix64(seed) {
  let x = BigInt.asUintN(64, seed);
  return () => {
    x = (x + 0x9e3779b97f4a7c15n) & M64;
    let z = x;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
    return z ^ (z >> 31n);
  };
}

// The high 32 bits of the 64-bit product of two u32s, exactly (a double would round).
function mulhi(a, b) {
  const a0 = a & 0xffff;
  const a1 = a >>> 16;
  const b0 = b & 0xffff;
  const b1 = b >>> 16;
  const mid1 = a1 * b0;
  const mid2 = a0 * b1;
  const carry = (((a0 * b0) >>> 16) + (mid1 & 0xffff) + (mid2 & 0xffff)) >>> 16;
  return (a1 * b1 + (mid1 >>> 16) + (mid2 >>> 16) + carry) >>> 0;
}

export class PureGoogleBackoff {
  constructor(seed, { initialMs = 1000, num = 2, den = 1, capMs = 32000, jitterMs = 1000 } = {}) {
    const next = splitmix64(BigInt(seed));
    const a = next();
    const b = next();
    this.s0 = Number(a & 0xffffffffn);
    this.s1 = Number(a >> 32n);
    this.s2 = Number(b & 0xffffffffn);
    this.s3 = Number(b >> 32n);
    Object.assign(this, { initialMs, num, den, capMs, jitterMs, level: initialMs });
  }

  nextU32() {
    const { s0, s1 } = this;
    const sum = (s0 + this.s3) >>> 0;
    const result = (((sum << 7) | (sum >>> 25)) + s0) >>> 0;
    const t = s1 << 9;
    this.s2 ^= s0;
    this.s3 ^= s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = (this.s3 << 11) | (this.s3 >>> 21);
    return result;
  }

  uniform(n) {
    if (n === 0xffffffff) return this.nextU32();
    const s = n + 1;
    let x = this.nextU32();
    let lo = Math.imul(x, s) >>> 0;
    if (lo < s) {
      const t = (4294967296 - s) % s;
      while (lo < t) {
        x = this.nextU32();
        lo = Math.imul(x, s) >>> 0;
      }
    }
    return mulhi(x, s);
  }

  nextDelay() {
    const L = this.level;
    const d = Math.min(L + this.uniform(this.jitterMs), this.capMs);
    this.level = Math.min(this.capMs, Math.floor((L * this.num) / this.den));
    return d;
  }
}
