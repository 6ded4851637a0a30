import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { strings } from '../app/strings';

interface Notice {
  id: number;
  kind: 'error' | 'info';
  text: string;
}

const NoticeContext = createContext<(kind: Notice['kind'], text: string) => void>(() => {});

/** Shows a short message to the person (a write the hub refused, the connection coming back). */
export const useNotify = () => useContext(NoticeContext);

let next = 1;

/**
 * The app's messages in one live region near the bottom of the screen: read out by screen readers, each closable
 * and gone by itself after a while.
 */
export function Notices({ children }: { children: ReactNode }) {
  const [notices, setNotices] = useState<Notice[]>([]);
  const dismiss = useCallback((id: number) => setNotices((all) => all.filter((n) => n.id !== id)), []);
  const notify = useCallback(
    (kind: Notice['kind'], text: string) => {
      const id = next++;
      setNotices((all) => [...all.slice(-2), { id, kind, text }]);
      setTimeout(() => dismiss(id), kind === 'error' ? 8000 : 4000);
    },
    [dismiss],
  );
  const value = useMemo(() => notify, [notify]);
  return (
    <NoticeContext.Provider value={value}>
      {children}
      <div className="notices" role="status" aria-live="polite">
        {notices.map((notice) => (
          <div key={notice.id} className={`notice notice--${notice.kind}`}>
            <span>{notice.text}</span>
            <button
              type="button"
              className="notice__close"
              aria-label={strings.values.dismiss}
              onClick={() => dismiss(notice.id)}
            >
              ×
            </button>
          </div>
        ))}
      </div>
    </NoticeContext.Provider>
  );
}
