import { useLayoutEffect, useRef } from 'preact/hooks';

interface Props {
  /** Accessible name of the group, e.g. "Confirm revoking ci". */
  label: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * An inline confirmation for destructive actions: focus moves to Cancel (the safe choice),
 * and Escape cancels, so keyboard users are never left on a button that vanished.
 */
export function Confirm({ label, question, confirmLabel, onConfirm, onCancel }: Props) {
  const cancel = useRef<HTMLButtonElement>(null);
  // Before paint, in the same task as the render: a quick Enter or Tab must not land elsewhere.
  useLayoutEffect(() => cancel.current?.focus(), []);
  return (
    <div class="confirm" role="group" aria-label={label} onKeyDown={(event) => event.key === 'Escape' && onCancel()}>
      <span>{question}</span>
      <button type="button" class="danger" onClick={onConfirm}>
        {confirmLabel}
      </button>
      <button type="button" class="secondary" ref={cancel} onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
