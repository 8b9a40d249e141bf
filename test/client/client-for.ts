// A ChatbotClient pointed at a verifying test upstream, with retries off unless a test asks.
import { ChatbotClient, type ChatbotClientOptions } from '../../src/client/index.js';
import type { VerifyingUpstream } from '../helpers/verifying-upstream.js';

export function clientFor(upstream: VerifyingUpstream, overrides: Partial<ChatbotClientOptions> = {}): ChatbotClient {
  return new ChatbotClient({
    baseUrl: upstream.baseUrl,
    apiKey: upstream.apiKey,
    apiSecret: upstream.apiSecret,
    chatbotId: upstream.chatbotId,
    retry: false,
    ...overrides,
  });
}
