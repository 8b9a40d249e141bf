/**
 * Page sizes of every listing, upstream's and the handler's alike: a module of its own because the
 * widget's first load reads them (its `pageSize`), and that load should not carry the other limits.
 */

/** Messages or sessions a page holds when the caller does not say. */
export const DEFAULT_PAGE_SIZE = 20;
/** The most a page holds. */
export const MAX_PAGE_SIZE = 100;
