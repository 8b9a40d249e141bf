/** The admin token the test backend's handlers accept (`X-Admin-Token`), known to the browser tests too. */
export const ADMIN_TOKEN = 'widget-tests-admin-token';
