/**
 * What kind of process this is. The entry point declares it before any feature module is loaded
 * (`worker.ts` and the CLI import a one-line role module first), because feature modules decide at
 * import time whether they register queue processors (see `appConfig().queueProcessors`).
 *  - `api`: HTTP (`main.ts`, tests); runs processors unless QUEUE_PROCESSORS=false;
 *  - `worker`: processors only (`worker.ts`); always runs them;
 *  - `cli`: operator commands and the OpenAPI export; runs them only with QUEUE_PROCESSORS=true.
 */
export type ProcessRole = 'api' | 'worker' | 'cli';

let role: ProcessRole = 'api';

export function setProcessRole(next: ProcessRole): void {
  role = next;
}

export function processRole(): ProcessRole {
  return role;
}

/** Whether a process of this role runs queue processors, given QUEUE_PROCESSORS (undefined: unset). */
export function queueProcessorsFor(r: ProcessRole, setting: boolean | undefined): boolean {
  if (r === 'worker') return true;
  return setting ?? r === 'api';
}
