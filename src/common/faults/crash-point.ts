/**
 * A crash point for the fault tests (test/faults): `FAULT_CRASH_POINT=<point>[@<n>]` kills this
 * process with SIGKILL — a real kill -9, nothing flushed, no shutdown hooks — the n-th time (default:
 * the first) the named point is reached, e.g. `after-change:order.received@5` right after the fifth
 * new order's rows are written and before its event is recorded. Without the variable (production,
 * every other test) it does nothing. The only place that reads the variable.
 */
let hits = 0;

export function crashPoint(point: string): void {
  const wanted = process.env.FAULT_CRASH_POINT;
  if (!wanted) return;
  const [name, nth] = wanted.split('@');
  if (name !== point) return;
  hits++;
  if (hits === Math.max(1, Number(nth) || 1)) process.kill(process.pid, 'SIGKILL');
}
