import { type FormEvent, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { confirmTwoFactor, setTwoFactor } from '@lnk/sdk';
import { client } from '../../api/client';
import { answer } from '../../api/errors';
import { CopyButton } from '../../components/copy-button';
import { CurrentPasswordField, useCurrentPassword } from '../../components/current-password';
import { fieldErrors, FormError, SubmitButton, TextField } from '../../components/form';

interface Enrolment {
  qrCode: string;
  secret: string;
  backupCodes: string[];
}

/** Turning on: the QR code and secret, the backup codes shown once, then a code confirms it. */
function Enrol({ onDone }: { onDone: (message: string) => void }) {
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [code, setCode] = useState('');
  const password = useCurrentPassword();
  const start = useMutation({
    mutationFn: () => answer(setTwoFactor({ client, body: { enable: true, ...password.proof() } })),
    onError: (error) => password.refused(error),
    onSuccess: (started) => {
      password.reset();
      const { qrCode, secret, backupCodes } = started.data;
      if (qrCode && secret && backupCodes) setEnrolment({ qrCode, secret, backupCodes });
    },
  });
  const confirm = useMutation({
    mutationFn: () => answer(confirmTwoFactor({ client, body: { code } })),
    onSuccess: (confirmed) => onDone(confirmed.message),
  });
  if (!enrolment) {
    const errors = fieldErrors(start.error);
    return (
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          start.mutate();
        }}
        noValidate
      >
        <p>Two-factor sign-in asks for a code from an authenticator app after your password.</p>
        <CurrentPasswordField state={password} error={errors['currentPassword']} />
        <FormError error={start.error} shown={['currentPassword', 'enable']} />
        {errors['enable'] && (
          <p className="form-error" role="alert">
            {errors['enable']}
          </p>
        )}
        <SubmitButton busy={start.isPending}>{password.asked ? 'Confirm and turn on' : 'Turn on two-factor sign-in'}</SubmitButton>
      </form>
    );
  }
  const errors = fieldErrors(confirm.error);
  return (
    <div className="enrolment">
      <h3>1. Add lnk to your authenticator app</h3>
      <img src={enrolment.qrCode} alt="QR code to scan with your authenticator app" width={200} height={200} />
      <p>
        Or enter this secret by hand: <code data-testid="totp-secret">{enrolment.secret}</code>{' '}
        <CopyButton value={enrolment.secret} label="Copy secret" />
      </p>
      <h3>2. Keep your backup codes</h3>
      <p className="warning">Shown this once. Each works one time if you lose your authenticator app.</p>
      <ul className="backup-codes" data-testid="backup-codes">
        {enrolment.backupCodes.map((backup) => (
          <li key={backup}>
            <code>{backup}</code>
          </li>
        ))}
      </ul>
      <CopyButton value={enrolment.backupCodes.join('\n')} label="Copy backup codes" />
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          confirm.mutate();
        }}
        noValidate
      >
        <h3>3. Confirm with a code from the app</h3>
        <TextField
          label="One-time code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          required
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={errors['code']}
        />
        <FormError error={confirm.error} shown={['code']} />
        <SubmitButton busy={confirm.isPending}>Confirm and turn on</SubmitButton>
      </form>
    </div>
  );
}

/** Turning off: a current code (or a backup code), and the password when the API asks. */
function Disable({ onDone }: { onDone: (message: string) => void }) {
  const [code, setCode] = useState('');
  const password = useCurrentPassword();
  const disable = useMutation({
    mutationFn: () => answer(setTwoFactor({ client, body: { enable: false, code, ...password.proof() } })),
    onError: (error) => password.refused(error),
    onSuccess: (done) => {
      password.reset();
      setCode('');
      onDone(done.message);
    },
  });
  const errors = fieldErrors(disable.error);
  return (
    <form
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        disable.mutate();
      }}
      noValidate
    >
      <h3>Turn it off</h3>
      <TextField
        label="Code from your app, or a backup code"
        name="disableCode"
        autoComplete="one-time-code"
        value={code}
        onChange={(e) => setCode(e.target.value)}
        error={errors['code']}
      />
      <CurrentPasswordField state={password} error={errors['currentPassword']} />
      <FormError error={disable.error} shown={['code', 'currentPassword']} />
      <SubmitButton busy={disable.isPending}>{password.asked ? 'Confirm and turn off' : 'Turn off two-factor sign-in'}</SubmitButton>
    </form>
  );
}

export function TwoFactor() {
  const [message, setMessage] = useState('');
  const [round, setRound] = useState(0);
  const finished = (text: string) => {
    setMessage(text);
    setRound(round + 1);
  };
  return (
    <section className="card" aria-labelledby="twofactor-title">
      <h2 id="twofactor-title">Two-factor sign-in</h2>
      {message && (
        <p className="notice" role="status">
          {message}
        </p>
      )}
      <Enrol key={`on-${round}`} onDone={finished} />
      <Disable key={`off-${round}`} onDone={finished} />
    </section>
  );
}
