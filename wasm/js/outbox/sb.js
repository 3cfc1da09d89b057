// What the outbox uses of the package, each name from its own module, so that a bundle keeps
// these and no more (the package's main entry is narrow; its other parts stay out).
export { classifyHttp } from '../classify.js';
export { nowMs } from '../clock.js';
export { hintFromHeaders } from '../hint.js';
export { Policy } from '../policy.js';
export { Run } from '../run.js';
export { restoreRun, snapshot } from '../snapshot.js';
