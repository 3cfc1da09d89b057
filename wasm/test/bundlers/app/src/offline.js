// A cold page whose first calls are made while the device is offline: the test loads the page,
// takes the network away, calls go(), and brings the network back. retry() and
// fetchWithBackoff() wait for it (offline: 'wait'), then end with the answer.
import { fetchWithBackoff, retry } from 'seeded-backoff';

globalThis.go = () => Promise.all([retry(() => fetch('/api')), fetchWithBackoff('/api')]).then(
  (rs) => { globalThis.result = { status: rs.every((r) => r.status === 200) ? 200 : rs.map((r) => r.status) }; },
  (e) => { globalThis.result = { error: String(e) }; },
);
