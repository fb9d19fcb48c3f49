import { useEffect } from 'react';

/** Each screen names itself in the browser tab and for screen readers announcing page changes. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Gradewise` : 'Gradewise';
  }, [title]);
}
