import { useState } from 'preact/hooks';

/** Copies `text`; over plain http (no Clipboard API) it falls back to a selected hidden field. */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const field = document.createElement('textarea');
    field.value = text;
    field.setAttribute('readonly', '');
    field.className = 'visually-hidden';
    document.body.append(field);
    field.select();
    const copied = document.execCommand('copy');
    field.remove();
    return copied;
  }
}

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <span class="copy">
      <button
        type="button"
        class="secondary"
        onClick={async () => {
          setState((await copyText(text)) ? 'copied' : 'failed');
          setTimeout(() => setState('idle'), 2500);
        }}
      >
        {label}
      </button>
      <span class="small muted" aria-live="polite">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select the text and copy it' : ''}
      </span>
    </span>
  );
}
