import { EndpointGate } from './endpoint-gate';

const tick = () => new Promise((ok) => setImmediate(ok));

describe('EndpointGate', () => {
  it('runs at most `limit` tasks per endpoint, queues the rest, and never holds up another endpoint', async () => {
    const gate = new EndpointGate(2);
    const release: Array<() => void> = [];
    const started: string[] = [];
    const task = (name: string) => () =>
      new Promise<void>((ok) => {
        started.push(name);
        release.push(ok);
      });
    expect(gate.submit('slow', 'a', task('a'))).toBeInstanceOf(Promise);
    expect(gate.submit('slow', 'b', task('b'))).toBeInstanceOf(Promise);
    expect(gate.submit('slow', 'c', task('c'))).toBe('queued');
    expect(gate.submit('slow', 'c', task('c'))).toBe('dropped');
    expect(gate.submit('fast', 'x', task('x'))).toBeInstanceOf(Promise);
    expect(started).toEqual(['a', 'b', 'x']);
    expect(gate.inFlight('slow')).toBe(2);
    expect(gate.waitingFor('slow')).toBe(1);
    release[0]();
    await tick();
    await tick();
    expect(started).toEqual(['a', 'b', 'x', 'c']);
    expect(gate.inFlight('slow')).toBe(2);
  });
});
