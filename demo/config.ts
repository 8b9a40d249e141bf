/**
 * Reads `npm start`'s environment into one checked object, so a wrong value is
 * one clear line at start rather than a failure on the first request.
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';

export class StartConfigError extends Error {
  override name = 'StartConfigError';
}

export interface UpstreamConfig {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  chatbotId: string;
}

export interface StartConfig {
  port: number;
  host: string;
  dataDir: string;
  /** A real upstream, when all four CHATBOT_API_* variables are set; else the built-in emulator runs. */
  upstream: UpstreamConfig | undefined;
  adminToken: string;
  generatedAdminToken: boolean;
  allowedOrigins: string[];
  /** CHATBOT_REDIS_URL: the handler's store on that Redis, shared by every process using it; else in memory. */
  redisUrl: string | undefined;
}

const UPSTREAM_VARIABLES = ['CHATBOT_API_BASE_URL', 'CHATBOT_API_KEY', 'CHATBOT_API_SECRET', 'CHATBOT_ID'] as const;

export function readStartConfig(env: NodeJS.ProcessEnv): StartConfig {
  const port = env.PORT === undefined || env.PORT === '' ? 8080 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new StartConfigError(`PORT must be a port number from 0 to 65535, not "${env.PORT}".`);
  }

  const given = UPSTREAM_VARIABLES.filter((name) => env[name]);
  let upstream: UpstreamConfig | undefined;
  if (given.length > 0) {
    const missing = UPSTREAM_VARIABLES.filter((name) => !env[name]);
    if (missing.length > 0) {
      throw new StartConfigError(
        `to use a real upstream set all of ${UPSTREAM_VARIABLES.join(', ')}; missing: ${missing.join(', ')}. ` +
          'Unset them all to run on the built-in emulator.',
      );
    }
    const baseUrl = env.CHATBOT_API_BASE_URL!.replace(/\/+$/, '');
    if (!/^https?:\/\/[^/]+(\/.*)?\/api$/.test(baseUrl)) {
      throw new StartConfigError(`CHATBOT_API_BASE_URL must be an http(s) URL ending in /api, not "${baseUrl}".`);
    }
    // The handler accepts only ids it can put in a path without encoding.
    if (!/^[A-Za-z0-9_-]{1,128}$/.test(env.CHATBOT_ID!)) {
      throw new StartConfigError(`CHATBOT_ID must be 1–128 letters, digits, "_" or "-", not "${env.CHATBOT_ID}".`);
    }
    upstream = { baseUrl, apiKey: env.CHATBOT_API_KEY!, apiSecret: env.CHATBOT_API_SECRET!, chatbotId: env.CHATBOT_ID! };
  }

  const allowedOrigins = (env.CHATBOT_ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  for (const origin of allowedOrigins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.origin !== origin) {
      throw new StartConfigError(
        `CHATBOT_ALLOWED_ORIGINS must list exact origins such as https://shop.example.com (scheme, host and port, no path); "${origin}" is not one.`,
      );
    }
  }

  const redisUrl = env.CHATBOT_REDIS_URL || undefined;
  if (redisUrl !== undefined) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(redisUrl);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !/^rediss?:$/.test(parsed.protocol) || !parsed.hostname) {
      // The value is not repeated: it may hold a password.
      throw new StartConfigError(
        'CHATBOT_REDIS_URL must be a Redis URL such as redis://127.0.0.1:6379 (redis:// or rediss://, a host, a port); the value set is not one.',
      );
    }
  }

  if (env.CHATBOT_ADMIN_TOKEN && env.CHATBOT_ADMIN_TOKEN.length < 16) {
    // A short token can be guessed; the handler refuses it too, this says so in the variable's words.
    throw new StartConfigError('CHATBOT_ADMIN_TOKEN must be at least 16 characters long (try: openssl rand -base64 24).');
  }
  const generatedAdminToken = !env.CHATBOT_ADMIN_TOKEN;
  const adminToken = env.CHATBOT_ADMIN_TOKEN || randomBytes(18).toString('base64url');

  return {
    port,
    // Loopback by default: the emulator prints its secret, so the stack is not for the network unless asked.
    host: env.HOST || '127.0.0.1',
    dataDir: resolve(env.CHATBOT_DATA_DIR || '.data'),
    upstream,
    adminToken,
    generatedAdminToken,
    allowedOrigins,
    redisUrl,
  };
}
