import { Logger } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { BadRequestError, sendError } from '../errors';

/** Deepest JSON body (objects and arrays) and bracket-nested query parameter accepted. */
export const MAX_NESTING_DEPTH = 32;

/**
 * How deeply `value` nests objects and arrays (a scalar is 0, `{}` and `[]` are 1), counted
 * iteratively — no recursion for a hostile body to overflow — and only up to `limit + 1`.
 */
export function nestingDepth(value: unknown, limit = MAX_NESTING_DEPTH): number {
  if (value === null || typeof value !== 'object') return 0;
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > max) max = depth;
    if (max > limit) return max;
    const children = Array.isArray(node) ? node : Object.values(node as Record<string, unknown>);
    for (const child of children) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return max;
}

/** How deeply a query string nests: `a` is 1, `a[b]` 2, `a[b][c]` 3; parsed objects count too. */
export function queryDepth(query: unknown, limit = MAX_NESTING_DEPTH): number {
  if (query === null || typeof query !== 'object') return 0;
  let max = nestingDepth(query, limit);
  for (const key of Object.keys(query)) {
    let brackets = 0;
    for (let i = 0; i < key.length && brackets <= limit; i++)
      if (key.charCodeAt(i) === 91 /* [ */) brackets++;
    max = Math.max(max, brackets + 1);
  }
  return max;
}

/**
 * Refuses a JSON body or a query string nested deeper than MAX_NESTING_DEPTH with 400 (v1
 * `{error}`, V2 envelope `BAD_REQUEST`) before validation: class-transformer recurses once per
 * level and overflows the stack near a few thousand levels, which was a 500.
 */
export function installDepthGuard(fastify: FastifyInstance): void {
  const logger = new Logger('Errors');
  fastify.addHook('preValidation', (req, reply, done) => {
    let problem: string | null = null;
    if (nestingDepth(req.body) > MAX_NESTING_DEPTH)
      problem = `The JSON body is nested deeper than ${MAX_NESTING_DEPTH} levels`;
    else if (queryDepth(req.query) > MAX_NESTING_DEPTH)
      problem = `The query string is nested deeper than ${MAX_NESTING_DEPTH} levels`;
    if (problem === null) return done();
    sendError(new BadRequestError(problem), req, reply, logger);
  });
}
