import helmet from '@fastify/helmet';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/**
 * Content-Security-Policy for every answer. The API answers JSON (nothing to run); the only HTML is
 * Swagger UI, which loads its bundle, preset and init script from /docs itself (no inline script,
 * so `script-src 'self'` holds), styles itself with inline `<style>` blocks and style attributes
 * (`'unsafe-inline'` for styles only) and draws icons from data: URLs. "Try it out" calls this
 * origin, and PUBLIC_URL when the documents list it as a server. No `upgrade-insecure-requests`:
 * a development server on http://127.0.0.1 would have every asset rewritten to https and fail.
 */
export function contentSecurityPolicy(publicUrl: string | undefined): Record<string, string[]> {
  const connect = ["'self'"];
  if (publicUrl) connect.push(new URL(publicUrl).origin);
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': connect,
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

/**
 * Security headers on every answer (@fastify/helmet): the CSP above, `X-Content-Type-Options:
 * nosniff`, `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer`, HSTS (browsers honour it on
 * https only), and the cross-origin isolation headers helmet sets by default — except
 * `Cross-Origin-Resource-Policy`, relaxed to `cross-origin` so browser clients allowed by
 * CORS_ORIGINS can still read answers. Registered before any route, so 404s and errors carry them.
 */
export async function installSecurityHeaders(
  app: NestFastifyApplication,
  publicUrl: string | undefined,
): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(publicUrl) },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
}
