// `seeded-backoff/device`: the preset for the device the page runs on, 'mobile' on a phone or
// tablet and 'google' elsewhere, for Google's advice that mobile clients need more retries and
// longer intervals (SPEC.md §2, the mobile preset). Its own module with no imports, so a program
// that does not call it carries none of it.

// MDN's advice for a User-Agent test: "Mobi" anywhere in the string (iPhone, Android phones, Firefox
// for Android, Opera Mobile); tablets are found by their pointer instead.
const MOBILE_UA = /Mobi/;

/**
 * 'mobile' or 'google'. User-Agent Client Hints decide where the browser has them
 * (`navigator.userAgentData.mobile`: Chromium-based browsers); elsewhere (Safari, Firefox) the
 * device is mobile if its User-Agent contains "Mobi" or its primary pointer is coarse (a touch
 * screen: phones and tablets, including an iPad, whose Safari sends a desktop User-Agent); with
 * neither (Node, a worker without `matchMedia`) it is 'google'.
 */
export function devicePreset(nav = globalThis.navigator, matchMedia = globalThis.matchMedia) {
  const hints = nav?.userAgentData;
  if (typeof hints?.mobile === 'boolean') return hints.mobile ? 'mobile' : 'google';
  const coarse = typeof matchMedia === 'function' && matchMedia.call(globalThis, '(pointer: coarse)').matches;
  return MOBILE_UA.test(String(nav?.userAgent ?? '')) || coarse ? 'mobile' : 'google';
}
