// The one name the Durable Object store takes from the Workers runtime, declared here so the
// package type-checks without the Workers type package; a Worker project's own types
// (`wrangler types` or @cloudflare/workers-types) describe the same class in full.
declare module 'cloudflare:workers' {
  export abstract class DurableObject<Env = unknown> {
    protected ctx: unknown;
    protected env: Env;
    constructor(ctx: unknown, env: Env);
  }
}
