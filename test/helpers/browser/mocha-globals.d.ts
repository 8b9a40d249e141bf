// The mocha globals @web/test-runner provides to browser test files (test/chatbot-widget/**), typed
// just enough for them, without pulling @types/mocha into every other file's scope.
declare function describe(title: string, body: (this: { timeout(ms: number): void }) => void): void;
declare function it(title: string, body: () => void | Promise<unknown>): void;
/** A test not run, with the reason written beside it. */
declare namespace it {
  function skip(title: string, body: () => void | Promise<unknown>): void;
}
declare function before(body: (this: { skip(): never }) => void | Promise<unknown>): void;
declare function after(body: () => void | Promise<unknown>): void;
declare function beforeEach(body: () => void | Promise<unknown>): void;
declare function afterEach(body: () => void | Promise<unknown>): void;
