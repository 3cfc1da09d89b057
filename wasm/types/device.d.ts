// `seeded-backoff/device`: the preset for the device the page runs on.

/**
 * The preset for the device the page runs on: `'mobile'` on a phone or tablet (SPEC.md §2: Google's
 * advice that mobile clients need more retries and longer intervals — equal jitter on 2 s, cap 64 s,
 * 16 retries, jitter kept at the cap), `'google'` elsewhere.
 *
 * How it decides, in order:
 * 1. User-Agent Client Hints, where the browser has them (Chromium-based browsers):
 *    `navigator.userAgentData.mobile`.
 * 2. Elsewhere (Safari, Firefox): `'mobile'` if `navigator.userAgent` contains `"Mobi"` (MDN's
 *    advice: iPhone, Android phones) or the primary pointer is coarse,
 *    `matchMedia('(pointer: coarse)')` (a touch screen: phones and tablets, an iPad included,
 *    whose Safari sends a desktop User-Agent).
 * 3. With neither (Node, a worker without `matchMedia`): `'google'`.
 *
 * `nav` and `matchMedia` default to the page's; pass others to decide for another device.
 *
 * ```js
 * import { retry } from 'seeded-backoff';
 * import { devicePreset } from 'seeded-backoff/device';
 * const res = await retry(() => fetch('/api/items'), { preset: devicePreset() });
 * ```
 */
export function devicePreset(
  nav?: { userAgentData?: { mobile?: boolean }; userAgent?: string },
  matchMedia?: (query: string) => { matches: boolean },
): 'mobile' | 'google';
