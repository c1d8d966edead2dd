import { useSyncExternalStore } from 'react';
import { session } from '../api/client';
import type { SessionState } from '../api/session';

/** The session's state, re-rendering on each change (signed in, ended, signed out). */
export function useSession(): SessionState {
  return useSyncExternalStore(
    (listener) => session.subscribe(listener),
    () => session.current,
  );
}
