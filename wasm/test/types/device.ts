// seeded-backoff/device's types: devicePreset() answers a Preset, given to the package's options.
import { Backoff, type Preset } from 'seeded-backoff';
import { devicePreset } from 'seeded-backoff/device';

const preset: 'mobile' | 'google' = devicePreset();
const asPreset: Preset = preset;
new Backoff({ preset: devicePreset(), seed: 42 });
devicePreset({ userAgentData: { mobile: true } }, (q) => matchMedia(q));
devicePreset({ userAgent: 'Mobile' });
// @ts-expect-error a navigator's userAgent is a string
devicePreset({ userAgent: 1 });
export { asPreset };
