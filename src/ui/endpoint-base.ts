/** The handler's base URL as the widget keys what it stores by: absolute, without a trailing slash. */
export const endpointBase = (endpoint: string) => new URL(endpoint, document.baseURI).href.replace(/\/+$/, '');
