import { useState } from 'react';
import { ApiError } from '../api/errors';
import { TextField } from './form';

/**
 * A sensitive action (a new token, an e-mail change, two-factor, deletion) is tried as it is; when the
 * API answers that this sign-in may not take it without the password (REAUTHENTICATION_REQUIRED), the
 * form asks for the current password, and the next try sends it.
 */
export function useCurrentPassword() {
  const [asked, setAsked] = useState(false);
  const [password, setPassword] = useState('');
  return {
    asked,
    password,
    setPassword,
    /** Call with each refusal: asks for the password when the API wants it. */
    refused(error: unknown) {
      if (error instanceof ApiError && error.needsPassword) setAsked(true);
    },
    /** What the request body carries: the password once asked for. */
    proof(): { currentPassword?: string } {
      return asked && password ? { currentPassword: password } : {};
    },
    reset() {
      setAsked(false);
      setPassword('');
    },
  };
}

export function CurrentPasswordField({ state, error }: { state: ReturnType<typeof useCurrentPassword>; error?: string }) {
  if (!state.asked) return null;
  return (
    <TextField
      label="Your current password"
      name="currentPassword"
      type="password"
      autoComplete="current-password"
      required
      autoFocus
      hint="To confirm it is you: this action needs your password."
      value={state.password}
      onChange={(event) => state.setPassword(event.target.value)}
      error={error}
    />
  );
}
