import { useState } from 'preact/hooks';

interface Props {
  /** The new password once both fields agree and it is long enough; '' until then. */
  onChange: (password: string) => void;
}

/** A new password typed twice, with the length rule the API applies (8 to 128 characters). */
export function NewPasswordFields({ onChange }: Props) {
  const [first, setFirst] = useState('');
  const [second, setSecond] = useState('');

  function update(nextFirst: string, nextSecond: string) {
    setFirst(nextFirst);
    setSecond(nextSecond);
    const valid = nextFirst.length >= 8 && nextFirst.length <= 128 && nextFirst === nextSecond;
    onChange(valid ? nextFirst : '');
  }

  const mismatch = second.length > 0 && first !== second;
  return (
    <>
      <label>
        New password
        <input
          type="password"
          name="new-password"
          autocomplete="new-password"
          required
          minLength={8}
          maxLength={128}
          aria-describedby="new-password-hint"
          value={first}
          onInput={(e) => update(e.currentTarget.value, second)}
        />
      </label>
      <label>
        New password again
        <input
          type="password"
          name="new-password-again"
          autocomplete="new-password"
          required
          aria-invalid={mismatch}
          aria-describedby="new-password-hint"
          value={second}
          onInput={(e) => update(first, e.currentTarget.value)}
        />
      </label>
      <p id="new-password-hint" class={mismatch ? 'small field-error' : 'muted small'} aria-live="polite">
        {mismatch ? 'The two passwords differ.' : 'At least 8 characters.'}
      </p>
    </>
  );
}
