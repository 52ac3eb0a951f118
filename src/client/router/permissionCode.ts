// The one convention shared with the server's rights catalog: a route's code is its path without the
// leading slash, slashes as dots, parameters dropped (/baseConfig/currency → baseConfig.currency).

/** Any logged-in user (spec §2). */
export const ANY_USER = '1';
/** Reachable without a token: /qrCodeLoad and /a/:id (spec §2: the download page is public). */
export const PUBLIC = 'public';

export function permissionCodeOf(route: string): string {
  return route
    .split('/')
    .filter((segment) => segment !== '' && !segment.startsWith(':'))
    .join('.');
}
