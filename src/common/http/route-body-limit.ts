import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';

/** The route config key RouteBodyLimit sets and installRouteBodyLimits reads. */
const BODY_LIMIT = 'bodyLimitBytes';

/**
 * A body limit of its own for one route, below the app-wide 1 MB: Fastify stops reading the body
 * past it and answers 413 before any guard or handler runs (a `content-length` over it is refused
 * without reading at all). `bytes` is called when the route is registered (app init), so it may
 * read configuration.
 */
export const RouteBodyLimit = (bytes: () => number) => RouteConfig({ [BODY_LIMIT]: bytes });

/** Applies the RouteBodyLimit of each route as Fastify's own per-route `bodyLimit` (before routes are registered). */
export function installRouteBodyLimits(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    const limit = (route.config as Record<string, unknown> | undefined)?.[BODY_LIMIT];
    if (typeof limit === 'function') route.bodyLimit = (limit as () => number)();
  });
}
