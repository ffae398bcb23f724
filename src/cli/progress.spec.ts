import { Writable } from 'node:stream';
import { stderrProgress } from './progress';

function pipe() {
  const out: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      out.push(chunk.toString());
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  return { stream, text: () => out.join('') };
}

describe('stderrProgress without a terminal', () => {
  it('prints the first line, then at most one per interval, and always the last', () => {
    const { stream, text } = pipe();
    let now = 0;
    const progress = stderrProgress('seed:demo', { stream, intervalMs: 1000, now: () => now })('webhooks');
    progress.update(0, 10);
    progress.update(1, 10); // too soon
    now = 1500;
    progress.update(4, 10);
    now = 1600;
    progress.update(9, 10); // too soon
    progress.update(10, 10); // the end, always
    progress.update(10, 10); // not twice
    progress.stop();
    expect(text()).toBe(
      'seed:demo: 0/10 webhooks (0%)\nseed:demo: 4/10 webhooks (40%)\nseed:demo: 10/10 webhooks (100%)\n',
    );
  });

  it('adds the detail of the current unit, and handles nothing to do', () => {
    const { stream, text } = pipe();
    const progress = stderrProgress('payouts:run', { stream })('batches');
    progress.update(0, 2, 'Acme Apparel: 0/340 line items');
    const empty = stderrProgress('payouts:run', { stream })('batches');
    empty.update(0, 0);
    expect(text()).toBe(
      'payouts:run: 0/2 batches (0%) - Acme Apparel: 0/340 line items\npayouts:run: 0/0 batches (100%)\n',
    );
  });
});
