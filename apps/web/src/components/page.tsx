import { type ReactNode, useEffect } from 'react';

/** A page's heading (its one h1) and the browser tab's title. */
export function Page({ title, intro, children, actions }: { title: string; intro?: ReactNode; children?: ReactNode; actions?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · lnk`;
  }, [title]);
  return (
    <>
      <div className="page-head">
        <h1>{title}</h1>
        {actions && <div className="page-actions">{actions}</div>}
      </div>
      {intro && <p className="intro">{intro}</p>}
      {children}
    </>
  );
}
