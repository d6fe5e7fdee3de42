import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';

export interface Tab {
  id: string;
  label: string;
  render: () => ComponentChildren;
}

/** WAI-ARIA tabs: arrow keys move between tabs, Tab moves into the panel. */
export function Tabs({ tabs, label, idPrefix }: { tabs: Tab[]; label: string; idPrefix: string }) {
  const [selected, setSelected] = useState(tabs[0]?.id);
  const list = useRef<HTMLDivElement>(null);
  const current = tabs.find((tab) => tab.id === selected) ?? tabs[0];
  if (!current) return null;

  function onKeyDown(event: KeyboardEvent) {
    const index = tabs.findIndex((tab) => tab.id === current!.id);
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = tabs[(index + step + tabs.length) % tabs.length]!;
    setSelected(next.id);
    list.current?.querySelector<HTMLButtonElement>(`#${idPrefix}-tab-${next.id}`)?.focus();
  }

  return (
    <div class="tabs">
      <div role="tablist" aria-label={label} ref={list} onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            type="button"
            role="tab"
            id={`${idPrefix}-tab-${tab.id}`}
            aria-selected={tab.id === current.id}
            aria-controls={`${idPrefix}-panel`}
            tabIndex={tab.id === current.id ? 0 : -1}
            onClick={() => setSelected(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${idPrefix}-panel`} aria-labelledby={`${idPrefix}-tab-${current.id}`} tabIndex={0}>
        {current.render()}
      </div>
    </div>
  );
}
