// The recording upstream (and the handler in front of it over HTTP) that the tests of one file
// share: started when the file loads (call these at its top level, with `await`), emptied before
// each test, so that a test sees only its own upstream calls and log lines, and closed after the
// file's last test. One upstream per file rather than per test: starting servers is most of what
// a short test would cost.
import { after, beforeEach } from 'node:test';
import type { SigningHandlerOptions } from '../../../src/server/index.js';
import { startRecordingUpstream, type RecordingUpstream } from './recording-upstream.js';
import { startHandler, type RunningHandler } from './handler-server.js';

/** The file's recording upstream. */
export async function recordingUpstreamForFile(): Promise<RecordingUpstream> {
  const upstream = await startRecordingUpstream();
  beforeEach(() => upstream.reset());
  after(() => upstream.close());
  return upstream;
}

export interface HandlerStack {
  upstream: RecordingUpstream;
  /** The handler behind node:http, its log emptied before each test. */
  handler: RunningHandler;
}

/** The file's recording upstream and a handler with `options` in front of it, over HTTP. */
export async function handlerStackForFile(options: Partial<SigningHandlerOptions> = {}): Promise<HandlerStack> {
  const upstream = await recordingUpstreamForFile();
  const handler = await startHandler(upstream, options);
  beforeEach(() => {
    handler.logs.length = 0;
  });
  after(() => handler.close());
  return { upstream, handler };
}
