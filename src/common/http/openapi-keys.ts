import { ApiExtension } from '@nestjs/swagger';

/**
 * The few OpenAPI extension keys controllers set and the document writer (src/docs) reads: they live
 * here so a feature never imports docs/.
 */
export const ALIAS_IDS = 'x-operation-ids';

/**
 * For a handler served under several paths (`/authenticate` and `/v2/authenticate`): the
 * operationId of each path, since one handler's `@ApiOperation({ operationId })` would repeat.
 */
export const ApiOperationIdsByPath = (byPath: Record<string, string>) => ApiExtension(ALIAS_IDS, byPath);

/** Operation extension: its 429 carries Retry-After only, no RateLimit-* window headers. */
export const NO_RATE_LIMIT_HEADERS = 'x-no-ratelimit-headers';
