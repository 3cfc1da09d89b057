// The one clock of every run and send rate in the JS layer (SPEC.md §15, §17): milliseconds since
// the epoch, monotonic within a context (performance.timeOrigin + performance.now()). A send rate
// is shared by every loop of a context, and reads each loop's `now` (a reading earlier than the
// last counts as the clock standing still, §17), so every loop must read one clock; and a run
// stored by the outbox outlives the page that started it, so that clock must mean the same in the
// next page, which performance.now() alone (from 0 in each context) does not.
export const nowMs = () => Math.floor(performance.timeOrigin + performance.now());
