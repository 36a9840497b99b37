/** Client-side navigation inside the dashboard (the app follows `popstate`). */
export const BASE = '/dashboard/';

export const currentPath = (): string => location.pathname.slice(BASE.length).replace(/\/$/, '') || 'api-key';

/** Goes to a dashboard page (`to` is relative to /dashboard/, with an optional #hash). */
export function navigate(to: string): void {
  history.pushState(null, '', BASE + to);
  dispatchEvent(new PopStateEvent('popstate'));
}

/** A click that the page handles itself (not one that opens a new tab or window). */
export const isPlainClick = (e: MouseEvent): boolean => !(e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || e.button !== 0);
