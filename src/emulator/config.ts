/**
 * Chatbots of the emulator and their credentials: the `--config` file, its checks,
 * and the demo chatbot used when none is configured.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** One chatbot the emulator serves, with the key pair that may call it. */
export interface ChatbotConfig {
  /** The `{chatbotId}` path segment. Letters, digits, `.`, `_`, `~` and `-`, at most 128. */
  id: string;
  /** Public key, starts with `pk_`; sent in `X-API-Key`. */
  apiKey: string;
  /** Signing secret, starts with `sk_`; never sent. */
  apiSecret: string;
  /** Sets the daily quota: free 100, premium 10,000, enterprise `dailyLimit`. */
  tier: 'free' | 'premium' | 'enterprise';
  /** Messages a UTC day; overrides the tier's figure. Required for enterprise. */
  dailyLimit?: number;
}

/** Daily message quota of each tier (docs/api.md); enterprise has none of its own. */
export const TIER_DAILY_LIMITS = { free: 100, premium: 10_000 } as const;

/** A config file or chatbot list that cannot be used; the message says what to fix. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const CHATBOT_ID = /^[A-Za-z0-9._~-]{1,128}$/;
const TIERS = ['free', 'premium', 'enterprise'];

/** The daily quota that applies to a chatbot. */
export function dailyLimitOf(chatbot: ChatbotConfig): number {
  if (chatbot.dailyLimit !== undefined) return chatbot.dailyLimit;
  if (chatbot.tier === 'enterprise') throw new ConfigError(`chatbot "${chatbot.id}": an enterprise chatbot needs a dailyLimit`);
  return TIER_DAILY_LIMITS[chatbot.tier];
}

/**
 * Checks a list of chatbots (from a file or from code) and returns clean copies; throws a
 * {@link ConfigError} naming the first problem. `where` prefixes messages (e.g. the file name).
 */
export function validateChatbots(input: unknown, where = 'chatbots'): ChatbotConfig[] {
  if (!Array.isArray(input) || input.length === 0) throw new ConfigError(`${where}: "chatbots" must be a non-empty array`);
  const ids = new Set<string>();
  const keys = new Set<string>();
  return input.map((entry: unknown, index): ChatbotConfig => {
    const at = `${where}: chatbots[${index}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new ConfigError(`${at} must be an object`);
    const { id, apiKey, apiSecret, tier, dailyLimit } = entry as Record<string, unknown>;
    if (typeof id !== 'string' || !CHATBOT_ID.test(id)) {
      throw new ConfigError(`${at}.id must be 1-128 letters, digits, ".", "_", "~" or "-"`);
    }
    if (ids.has(id)) throw new ConfigError(`${at}.id "${id}" is listed twice`);
    ids.add(id);
    if (typeof apiKey !== 'string' || !/^pk_\S+$/.test(apiKey)) throw new ConfigError(`${at}.apiKey must be a string starting with "pk_"`);
    if (keys.has(apiKey)) throw new ConfigError(`${at}.apiKey is already used by another chatbot`);
    keys.add(apiKey);
    if (typeof apiSecret !== 'string' || !/^sk_\S+$/.test(apiSecret)) {
      throw new ConfigError(`${at}.apiSecret must be a string starting with "sk_"`);
    }
    if (typeof tier !== 'string' || !TIERS.includes(tier)) throw new ConfigError(`${at}.tier must be one of ${TIERS.join(', ')}`);
    if (dailyLimit !== undefined && (typeof dailyLimit !== 'number' || !Number.isSafeInteger(dailyLimit) || dailyLimit < 0)) {
      throw new ConfigError(`${at}.dailyLimit must be a whole number of at least 0`);
    }
    if (tier === 'enterprise' && dailyLimit === undefined) throw new ConfigError(`${at}: an enterprise chatbot needs a dailyLimit`);
    const chatbot: ChatbotConfig = { id, apiKey, apiSecret, tier: tier as ChatbotConfig['tier'] };
    if (dailyLimit !== undefined) chatbot.dailyLimit = dailyLimit as number;
    return chatbot;
  });
}

/**
 * Reads a config file `{ "chatbots": [ … ] }`.
 *
 * @throws {ConfigError} when the file is missing, not JSON, or a chatbot is malformed; the
 *   message names the file and the entry.
 * @example
 * const chatbots = loadConfig('emulator.config.json');
 */
export function loadConfig(path: string): ChatbotConfig[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(`${path}: cannot read the config file (${code === 'ENOENT' ? 'no such file' : (code ?? 'error')})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${path}: not valid JSON (${(error as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`${path}: expected an object { "chatbots": [ … ] }`);
  }
  return validateChatbots((parsed as { chatbots?: unknown }).chatbots, path);
}

/** A demo chatbot with freshly generated credentials (premium tier, so a demo is not starved). */
export function generateDemoChatbot(): ChatbotConfig {
  return {
    id: 'demo',
    apiKey: `pk_demo_${randomBytes(12).toString('hex')}`,
    apiSecret: `sk_demo_${randomBytes(24).toString('base64url')}`,
    tier: 'premium',
  };
}
