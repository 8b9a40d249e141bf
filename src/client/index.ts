/**
 * `chatbot-widget/client`: the typed client of the chatbot Developer API and `sign()`.
 * Web Crypto only (Node >= 20, Deno, Bun, Workers); it holds the API secret, so never ship it
 * to a browser.
 */
export { ChatbotClient } from './chatbot-client.js';
export type { ChatbotClientOptions, CallOptions, RetryEvent, SendMessageResult, MonthlyUsageResponse } from './client-options.js';
export { ChatbotError } from './errors/chatbot-error.js';
export { ChatbotHttpError } from './errors/chatbot-http-error.js';
export { ChatbotNetworkError } from './errors/chatbot-network-error.js';
export { ChatbotTimeoutError } from './errors/chatbot-timeout-error.js';
export { ChatbotResponseError } from './errors/chatbot-response-error.js';
export type { RetryOptions } from './retry.js';
export type { RateLimitInfo } from './rate-limit.js';
export { sign, type SignInput } from '../shared/signature.js';
export type {
  SendMessageInput,
  SendMessageResponse,
  MessageListResponse,
  MessageResponse,
  CountResponse,
  CountByMonthResponse,
  UserListResponse,
  SessionListResponse,
  ListMessagesQuery,
  ListUsersQuery,
  ListSessionsQuery,
  CountQuery,
  DateRange,
  Message,
  MonthlyUsage,
  ChatUser,
  ChatSession,
  Envelope,
  PagedEnvelope,
  Pagination,
  RateLimit,
  ValidationProblem,
} from '../shared/types.js';
