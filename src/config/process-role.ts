/**
 * What kind of process this is, decided once by its entry point at bootstrap
 * (`AppModule.forRole(role)` in main.ts, worker.ts, the CLI and the OpenAPI export):
 *  - `api`: HTTP (`main.ts`, tests); runs queue processors unless QUEUE_PROCESSORS=false;
 *  - `worker`: processors, sweepers and the ops listener only, no API (`worker.ts`); always runs them;
 *  - `cli`: operator commands and the OpenAPI export; runs them only with QUEUE_PROCESSORS=true.
 * No module reads the role or the environment while it is imported: `AppModule.forRole` includes
 * the `ProcessorsModule` or not.
 */
export type ProcessRole = 'api' | 'worker' | 'cli';

/** Whether a process of this role runs queue processors, given QUEUE_PROCESSORS (undefined: unset). */
export function queueProcessorsFor(r: ProcessRole, setting: boolean | undefined): boolean {
  if (r === 'worker') return true;
  return setting ?? r === 'api';
}

/** The role of this process and what it runs, as decided at bootstrap (injectable: `ProcessRoleInfo`). */
export abstract class ProcessRoleInfo {
  abstract readonly role: ProcessRole;
  abstract readonly processors: boolean;
}
