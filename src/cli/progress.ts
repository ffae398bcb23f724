import { SingleBar } from 'cli-progress';

/** Progress of one long command, always on stderr: stdout carries only the result's JSON. */
export interface Progress {
  /** `detail`: what the current unit is doing, e.g. "Acme Apparel: 200/340 line items". */
  update(done: number, total: number, detail?: string): void;
  stop(): void;
}

/** Made by the CLI per command; `unit` names what is counted ("webhooks", "batches"). */
export type ProgressFactory = (unit: string) => Progress;

export const NO_PROGRESS: ProgressFactory = () => ({ update: () => undefined, stop: () => undefined });

function suffix(detail: string | undefined): string {
  return detail ? ` - ${detail}` : '';
}

export interface ProgressOptions {
  stream?: NodeJS.WriteStream;
  /** Plain lines at most this often (non-TTY), besides the first and the last. */
  intervalMs?: number;
  now?: () => number;
}

/**
 * A bar redrawn in place when stderr is a terminal; otherwise plain lines (`label: 40/507 webhooks
 * (8%)`) at the start, at most every `intervalMs` and at the end, so logs and CI output stay readable.
 */
export function stderrProgress(label: string, opts: ProgressOptions = {}): ProgressFactory {
  const stream = opts.stream ?? process.stderr;
  return (unit) =>
    stream.isTTY ? barProgress(label, unit, stream) : lineProgress(label, unit, stream, opts);
}

function barProgress(label: string, unit: string, stream: NodeJS.WriteStream): Progress {
  const bar = new SingleBar({
    stream,
    format: `${label} [{bar}] {value}/{total} ${unit} | {percentage}% | {duration_formatted}{detail}`,
    hideCursor: false, // an interrupted run must not leave the terminal without a cursor
  });
  let started = false;
  return {
    update(done, total, detail) {
      if (!started) {
        bar.start(total, done, { detail: suffix(detail) });
        started = true;
      } else {
        bar.setTotal(total);
        bar.update(done, { detail: suffix(detail) });
      }
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
  };
}

function lineProgress(
  label: string,
  unit: string,
  stream: NodeJS.WritableStream,
  opts: ProgressOptions,
): Progress {
  const intervalMs = opts.intervalMs ?? 2000;
  const now = opts.now ?? Date.now;
  let last: number | undefined;
  let shown = '';
  const write = (done: number, total: number, detail?: string) => {
    const percent = total ? Math.floor((done * 100) / total) : 100;
    const line = `${label}: ${done}/${total} ${unit} (${percent}%)${suffix(detail)}`;
    if (line === shown) return;
    stream.write(`${line}\n`);
    shown = line;
    last = now();
  };
  return {
    update(done, total, detail) {
      if (last === undefined || done >= total || now() - last >= intervalMs) write(done, total, detail);
    },
    stop: () => undefined,
  };
}
