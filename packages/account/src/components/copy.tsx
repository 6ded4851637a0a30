import { useEffect, useState } from 'react';
import { strings } from '../app/strings';

/**
 * Copies `text` to the clipboard and says so for a moment (announced politely); says how to copy by hand where the
 * browser refuses (no permission, or a page that is not a secure context).
 */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state !== 'copied') return;
    const timer = setTimeout(() => setState('idle'), 3000);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <>
      <button type="button" className="button button--small" onClick={() => void copy()}>
        {label}
      </button>
      <span role="status" className="copy-status">
        {state === 'copied' ? strings.common.copied : state === 'failed' ? strings.common.copyRefused : ''}
      </span>
    </>
  );
}

/** Offers `text` as a file to save, made in the browser (nothing is sent anywhere). */
export function DownloadButton({ text, fileName, label }: { text: string; fileName: string; label: string }) {
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    document.body.append(link);
    link.click();
    link.remove();
    // After the click has handed the file to the browser.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };
  return (
    <button type="button" className="button button--small" onClick={download}>
      {label}
    </button>
  );
}

/** A key in groups of four characters, easier to read and type; copying the text gives it without spaces. */
export function GroupedKey({ value, testId }: { value: string; testId?: string }) {
  const groups = value.match(/.{1,4}/g) ?? [];
  return (
    <code className="secret grouped" data-testid={testId}>
      {groups.map((group, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the groups are positions of one fixed key
        <span key={index}>{group}</span>
      ))}
    </code>
  );
}
